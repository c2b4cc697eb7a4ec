/**
 * The embedding API on the player's side (docs/embedding.md): answers the requests of the course page
 * that frames the player, and posts it what happens (`ready`, `sessionStart`, `roundEnd`, `sessionEnd`,
 * `error`, `codeChanged`). Both ways are checked: requests are answered only from the parent frame and an
 * allowed origin (`allow=` in the link, else the player's own origin), and events go only to the parent's
 * origin, when it is allowed.
 */
import { untrack } from 'svelte';
import { formatLocated } from '../../core/errors';
import { PROTOCOLS } from '../../core/protocols/registry';
import type { Exercise } from '../../state/exercise.svelte';
import type { ProtocolPage, RoundResult, Shell } from '../../ui/protocols/adapter';
import {
  EMBED_API_VERSION,
  originAllowed,
  readEmbedRequest,
  type EmbedConfig,
  type EmbedRequest,
} from './embed-messages';

/** How long the code must rest before `codeChanged` is posted. */
const CODE_CHANGED_DEBOUNCE_MS = 600;

/** What the API drives. */
export interface EmbedHost {
  shell: Shell;
  /** The page of the protocol picked. */
  page(): ProtocolPage;
  exercise: Exercise;
  /** Applies a configuration as a link would (see `EmbedConfig`). */
  load(config: EmbedConfig): Promise<void>;
}

/** The origin of the frame's parent, or undefined when the browser does not say it. */
function parentOrigin(): string | undefined {
  const ancestors = location.ancestorOrigins as DOMStringList | undefined;
  if (ancestors && ancestors.length > 0) return ancestors[0]!;
  try {
    return document.referrer ? new URL(document.referrer).origin : undefined;
  } catch {
    return undefined;
  }
}

/** The rounds that have ended, with the learner's reward. */
function roundResults(host: EmbedHost): readonly RoundResult[] {
  const own = host.page().roundResults;
  if (own) return own;
  return host.shell.session.transcript.rounds.flatMap((round) =>
    round.total === undefined ? [] : [{ round: round.round, reward: round.total }],
  );
}

function policyCode(host: EmbedHost): string {
  return host.page().policyCode ?? host.shell.workspace.code;
}

/**
 * Starts the API when the page is framed; returns what stops it. Call once the page has restored its
 * state, so `ready` means the player can be driven.
 */
export function startEmbedApi(host: EmbedHost): () => void {
  if (window.parent === window) return () => undefined;
  const { allow } = host.exercise.options;
  const own = location.origin;
  const parent = parentOrigin();
  const postToParent =
    parent !== undefined && originAllowed(parent, allow, own)
      ? (message: Record<string, unknown>) =>
          window.parent.postMessage($state.snapshot({ protoplay: EMBED_API_VERSION, ...message }), parent)
      : () => undefined;

  async function answer(request: EmbedRequest): Promise<Record<string, unknown>> {
    const { shell } = host;
    const session = shell.session;
    switch (request.type) {
      case 'load':
        await host.load(request.config);
        return {};
      case 'setCode': {
        const page = host.page();
        if (page.setPolicyCode) page.setPolicyCode(request.code, request.language);
        else shell.workspace.replaceCode(request.code, request.language ?? shell.workspace.language);
        return {};
      }
      case 'run': {
        const runs = session.runs;
        await host.page().run(false);
        if (session.runs === runs) throw new Error(shell.notice ?? 'the session did not start');
        return {};
      }
      case 'pause':
        session.pause();
        return {};
      case 'step':
        if (!session.active) await host.page().run(true);
        session.step();
        return {};
      case 'stop':
        session.stop();
        return {};
      case 'seek': {
        if (request.index >= session.messageCount)
          throw new Error(
            `there is no message ${request.index}: the transcript on show has ${session.messageCount}`,
          );
        const page = host.page();
        if (page.seek) page.seek(request.index);
        else shell.playback.select(request.index);
        return {};
      }
      case 'getState':
        return {
          state: {
            protocol: shell.protocol.id,
            phase: session.phase,
            position: session.position,
            messageCount: session.messageCount,
            exercise: host.exercise.options.exercise,
            resumed: host.exercise.resumed,
            environment: shell.workspace.environment,
            seed: shell.settings.seed,
            rounds: shell.settings.rounds,
            code: policyCode(host),
            results: roundResults(host),
          },
        };
      case 'getTranscript': {
        const json = await session.exportJson();
        if (!json) throw new Error('there is no transcript on show');
        return { transcript: JSON.parse(await json.text()) as unknown };
      }
    }
  }

  function onmessage(event: MessageEvent) {
    if (event.source !== window.parent) return;
    const read = readEmbedRequest(event.data);
    if (!read.ok && 'ignored' in read) return;
    // A page not allowed gets no answer at all: it learns nothing of the player.
    if (!originAllowed(event.origin, allow, own)) return;
    const reply = (id: string | number | undefined, fields: Record<string, unknown>) => {
      if (id === undefined) return;
      // Plain data only: reactive state is a proxy, which postMessage cannot clone.
      const message = $state.snapshot({ protoplay: EMBED_API_VERSION, type: 'reply', id, ...fields });
      window.parent.postMessage(message, event.origin);
    };
    if (!read.ok) return reply(read.id, { ok: false, error: read.error });
    const { id } = read.request;
    answer(read.request).then(
      (fields) => reply(id, { ok: true, ...fields }),
      (error: unknown) =>
        reply(id, { ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
  }
  window.addEventListener('message', onmessage);

  const stopEvents = $effect.root(() => watchSession(host, postToParent));
  postToParent({
    type: 'ready',
    version: EMBED_API_VERSION,
    protocols: PROTOCOLS.filter((p) => p.playground).map((p) => p.id),
  });
  return () => {
    window.removeEventListener('message', onmessage);
    stopEvents();
  };
}

/** Posts the session's events as they happen. */
function watchSession(host: EmbedHost, post: (message: Record<string, unknown>) => void): void {
  const session = host.shell.session;
  let wasActive = session.active;
  /** The resets count when the session started: its rounds are the ones after the next reset. */
  let startResets: number | undefined;
  let posted = 0;

  $effect(() => {
    const active = session.active;
    const phase = session.phase;
    const resets = session.resets;
    const results = roundResults(host);
    untrack(() => {
      if (active && !wasActive) {
        startResets = resets;
        posted = 0;
        post({ type: 'sessionStart', protocol: host.shell.protocol.id });
      }
      wasActive = active;
      if (startResets === undefined || resets === startResets) return;
      for (; posted < results.length; posted++) {
        const { round, reward } = results[posted]!;
        post({ type: 'roundEnd', round, reward });
      }
      if (!active && (phase === 'finished' || phase === 'stopped' || phase === 'failed')) {
        startResets = undefined;
        post({
          type: 'sessionEnd',
          total: results.reduce((sum, r) => sum + r.reward, 0),
          rounds: results.length,
          status: phase,
        });
      }
    });
  });

  $effect(() => {
    const fault = session.fault;
    const error = session.error;
    untrack(() => {
      if (fault)
        post({
          type: 'error',
          message: formatLocated(fault.message, fault.location),
          where: session.faultOwner ?? 'policy',
        });
      else if (error) post({ type: 'error', message: error, where: 'session' });
    });
  });

  let lastCode = untrack(() => policyCode(host));
  $effect(() => {
    const code = policyCode(host);
    if (code === lastCode) return;
    const timer = setTimeout(() => {
      lastCode = code;
      post({ type: 'codeChanged', code, protocol: host.shell.protocol.id });
    }, CODE_CHANGED_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  });
}
