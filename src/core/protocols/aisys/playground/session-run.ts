/**
 * An aisys session as the playground's session worker runs it. The client side is the learner's: at the
 * policy level the core's `AisysClient` (the course client's behaviour: parallel runs, run limit, abandon
 * old runs, 503 retried with backoff) asks the policy, in its killable policy worker, for every response's
 * actions in one call; at the wire level the policy's `onMessage` writes each request itself. The server is
 * the emulated host in this worker (its accounts made from the learner's agent config), or a real server
 * behind `protoplay bridge` (an HTTP target). Exchanges are paced by a TurnGate (pause, step one exchange,
 * delay), recorded, read into the run book for the views, and sent to the page in per-frame batches.
 */
import { describeError } from '../../../errors';
import { PolicySupervisor } from '../../../policy/supervisor';
import type { TurnGate } from '../../../policy/turn-gate';
import { GatedRun, pacingGate } from '../../../session/gated-run';
import { liveUpdates } from '../../../session/live-updates';
import type { CallOutcome, PolicyFault } from '../../../policy/types';
import type { BridgeAccess } from '../../../session/bridge-route';
import type { TranscriptKeeper } from '../../../session/transcript-keeper';
import type { UpdateBatcher } from '../../../session/update-batcher';
import { serialiseTranscript } from '../../../transcript/json-format';
import { TranscriptRecorder } from '../../../transcript/recorder';
import type { HttpMessage, WireData, WirePeer, WireSink } from '../../contract';
import type {
  PlaygroundServices,
  PlaygroundSession,
  SessionConfig,
  SessionStatus,
} from '../../session-contract';
import { AisysClient, outcomeText, type AisysClientOutcome } from '../client';
import { aisysChannel, readResponse } from '../codec';
import { findAisysEnvironment, type AisysEnvironmentPreset } from '../environments';
import { AisysHost } from '../host';
import type { AgentConfig } from '../messages';
import type { AisysDecide } from '../policy-api';
import { supervisedDecide } from '../decide';
import { createAisysReader } from '../reader';
import { aisysClientMachine, aisysServerMachine } from '../machines';
import type { ProtocolMachine } from '../../machine';
import type { TranscriptMessage } from '../../../transcript/model';
import { sanitizeAisysOptions, type AisysPlaygroundOptions } from './options';
import { AisysResponseIndex, answerAisysQuestion } from './questions';
import { AisysRunBook } from './run-book';
import { wireRequest, wireResponse, type AisysWireResponse } from './wire-request';

/** Sessions with more messages than this are not kept across reloads (writing them takes too long). */
export const MAX_KEPT_AISYS_MESSAGES = 60_000;

/** The transcript's one connection: every exchange of the session. */
export const AISYS_PLAYGROUND_CONNECTION = 'http';

/** The wire-level entry. */
export const AISYS_WIRE_HOOK = 'onMessage';

/** Where the session's requests go. */
export type AisysSessionServer =
  { kind: 'emulated' } | { kind: 'bridge'; target: string; bridge: BridgeAccess };

/** Starts an aisys session; resolves once it is under way (or has failed to start). */
export async function startAisysSession(
  config: SessionConfig,
  services: PlaygroundServices,
  server: AisysSessionServer = { kind: 'emulated' },
): Promise<PlaygroundSession> {
  const run = new AisysSessionRun(config, services, server);
  await run.start();
  return run;
}

/** The ready-made environment a session plays; a clear error for an unknown one. */
function presetOf(id: string): AisysEnvironmentPreset {
  const preset = findAisysEnvironment(id);
  if (!preset) throw new Error(`there is no aisys environment '${id}'`);
  return preset;
}

/** The path of a base URL (`https://host/course/` -> `/course/`). */
export function basePathOf(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/[^?#]*)?/i.exec(url);
  const path = match ? match[1] || '/' : url.startsWith('/') ? url : '/';
  return path.endsWith('/') ? path : `${path}/`;
}

/** One aisys session from start to end. */
class AisysSessionRun extends GatedRun implements PlaygroundSession {
  readonly #config: SessionConfig;
  readonly #options: AisysPlaygroundOptions;
  readonly #server: AisysSessionServer;
  readonly #agent: AgentConfig;
  readonly #recorder: TranscriptRecorder;
  readonly #book = new AisysRunBook();
  /** Where each exchange's response is, for the HTTP log's detail. */
  readonly #responses = new AisysResponseIndex();
  readonly #supervisor: PolicySupervisor;
  readonly #batcher: UpdateBatcher;
  readonly #keeper: TranscriptKeeper;
  protected readonly gate: TurnGate;
  readonly #host: AisysHost | undefined;
  #client: AisysClient | undefined;
  /** Sends one request to the server and resolves with its answer. */
  #send: ((request: HttpMessage) => Promise<HttpMessage>) | undefined;
  #closeChannel: (() => void) | undefined;
  readonly #stopped: Promise<undefined>;
  #signalStop: () => void = () => undefined;
  #fault: PolicyFault | undefined;
  /** Each agent's machines of both roles, judging every message as it is recorded. */
  readonly #checks = new Map<string, { machine: ProtocolMachine<unknown>; state: unknown }[]>();
  #decisions = 0;
  #finishedRuns = 0;
  #over = false;

  constructor(config: SessionConfig, services: PlaygroundServices, server: AisysSessionServer) {
    super();
    this.#config = config;
    this.#server = server;
    this.#options = sanitizeAisysOptions(config.options);
    const preset = presetOf(config.environment);
    const given = this.#options.config;
    this.#stopped = new Promise((resolve) => (this.#signalStop = () => resolve(undefined)));
    if (server.kind === 'emulated') {
      this.#host = new AisysHost({ seed: config.seed, faithfulBugs: this.#options.faithfulBugs });
      const env = given?.env ?? preset.id;
      this.#host.addEnvironment(env, preset.envClass, preset.config, preset.label);
      for (const account of this.#options.accounts)
        if (account.env === env) this.#host.addAgent(env, account.agent, account.pwd);
      // Without a config of the learner's, the session has an agent of its own.
      const pwd = given ? given.pwd : this.#host.addAgent(env, 'agent');
      this.#agent = given ?? { agent: 'agent', env, pwd, url: 'http://emulated/' };
      if (given && !this.#options.accounts.some((a) => a.env === env && a.agent === given.agent))
        this.#host.addAgent(env, given.agent, given.pwd);
    } else {
      if (!given) throw new Error('playing a real server needs an agent config {agent, env, pwd, url}');
      this.#agent = given;
    }
    const address =
      server.kind === 'bridge'
        ? (server.bridge.describe({ mode: 'outbound', target: server.target }) ?? server.target)
        : undefined;
    this.#recorder = new TranscriptRecorder({
      protocol: 'aisys',
      meta: {
        source: server.kind === 'bridge' ? 'bridge' : 'emulated',
        ...(server.kind === 'bridge' ? { target: server.target, server: address } : {}),
        env: this.#agent.env,
        environment: preset.id,
        agent: this.#agent.agent,
        level: config.policy.level,
        seed: config.seed,
        runs: config.rounds,
        parallelRuns: this.#options.parallelRuns,
        abandonOldRuns: this.#options.abandonOldRuns,
        faithfulBugs: this.#options.faithfulBugs,
        budgetMs: config.budgetMs,
      },
    });
    this.#recorder.addConnection(
      AISYS_PLAYGROUND_CONNECTION,
      server.kind === 'bridge' ? `${server.target} (${address})` : 'emulated server',
    );
    this.#supervisor = new PolicySupervisor({
      spawn: () => services.spawnPolicy(),
      budgetMs: config.budgetMs,
    });
    const transcript = this.#recorder.transcript;
    ({ batcher: this.#batcher, keeper: this.#keeper } = liveUpdates(services, {
      content: { kind: 'transcript', transcript, reader: createAisysReader() },
      protocol: transcript.protocol,
      maxKeptMessages: MAX_KEPT_AISYS_MESSAGES,
    }));
    this.gate = pacingGate(config, (status) => {
      if (!this.#over) this.#batcher.note({ status });
    });
  }

  /** Loads the policy, reaches the server, then plays in the background. */
  async start(): Promise<void> {
    this.#batcher.note({ status: this.#config.startPaused ? 'paused' : 'running' });
    const loaded = await this.#supervisor.load({
      ...this.#config.policy,
      context: { env: this.#agent.env, config: { ...this.#agent } },
    });
    for (const line of loaded.logs) this.#recorder.annotate('policy-log', { ...line, round: 0, turn: 0 });
    if (!loaded.ok) {
      this.#recorder.annotate('error', { source: 'policy', ...loaded.fault });
      this.#end('failed', { fault: loaded.fault });
      return;
    }
    try {
      await this.#connect();
    } catch (error) {
      this.#end('failed', { error: `cannot reach the server: ${describeError(error)}` });
      return;
    }
    void (this.#config.policy.level === 'wire' ? this.#driveWire() : this.#drivePolicy());
  }

  async #connect(): Promise<void> {
    const server = this.#server;
    if (server.kind === 'emulated') {
      const host = this.#host!;
      const prefix = basePathOf(this.#agent.url);
      // The emulated server is mounted where the config's URL says: its routes start after the prefix.
      this.#send = async (request) =>
        host.handle({
          ...request,
          meta: { ...request.meta, path: stripPrefix(request.meta.path ?? '/', prefix) },
        });
      return;
    }
    const channel = await server.bridge.connect(server.target, {
      connect: (_sink: WireSink<WireData>): WirePeer<WireData> => ({
        receive: () => undefined,
        end: (reason) => {
          if (!this.#over)
            this.#end('failed', {
              error: `the bridge closed the connection: ${reason ?? 'no reason given'}`,
            });
        },
      }),
    });
    this.#closeChannel = () => channel.close('the session ended');
    this.#send = (request) => channel.request(request);
  }

  /** Sends a request, records the exchange and reads it into the run book. */
  async #exchange(request: HttpMessage): Promise<HttpMessage> {
    const channel = aisysChannel(request);
    const sent = this.#recorder.httpRequest(AISYS_PLAYGROUND_CONNECTION, request, channel);
    this.#book.add([sent]);
    this.#check(sent);
    let response: HttpMessage;
    try {
      response = await this.#send!(request);
    } catch (error) {
      this.#recorder.annotate('error', { text: `no answer: ${describeError(error)}` }, sent.index);
      throw error;
    }
    const received = this.#recorder.httpResponse(AISYS_PLAYGROUND_CONNECTION, sent.index, response, channel);
    this.#book.add([received]);
    this.#check(received);
    const reading = readResponse(response);
    if (reading.kind === 'v1') this.#finishedRuns += Object.keys(reading.response.finished_runs).length;
    this.#batcher.schedule();
    return response;
  }

  /**
   * Judges a message with its agent's machines of both roles (what a wire-level request breaks, what a
   * real server answers); a broken rule is a violation beside the message, and the session goes on.
   */
  #check(message: TranscriptMessage): void {
    if (message.channel === undefined) return;
    let checks = this.#checks.get(message.channel);
    if (!checks) {
      checks = [aisysServerMachine, aisysClientMachine].map((machine) => {
        const judge = machine as ProtocolMachine<unknown>;
        return { machine: judge, state: judge.initial() };
      });
      this.#checks.set(message.channel, checks);
    }
    for (const check of checks) {
      const step = check.machine.accept(check.state, message);
      check.state = step.state;
      if (!step.ok)
        this.#recorder.annotate(
          'violation',
          { role: check.machine.role, ...step.violation, index: message.index },
          message.index,
        );
    }
  }

  /** The policy level: the course client, its decisions from the policy. */
  async #drivePolicy(): Promise<void> {
    const decide = supervisedDecide(
      { call: (hook, args, context, site) => this.#call(hook, args, context, site) },
      { env: this.#agent.env },
    );
    const gated: AisysDecide = async (batch) => {
      if (!(await this.#pass()))
        return { ok: false, fault: { kind: 'call', message: 'stopped by the learner' }, logs: [] };
      const reply = await decide(batch);
      if (!reply.ok) this.#fault = reply.fault;
      return reply;
    };
    const client = new AisysClient({
      agent: this.#agent.agent,
      pwd: this.#agent.pwd,
      env: this.#agent.env,
      url: this.#agent.url,
      decide: gated,
      runLimit: this.#config.rounds,
      parallelRuns: this.#options.parallelRuns,
      abandonOldRuns: this.#options.abandonOldRuns,
      onEvent: (event) => {
        if (event.kind === 'policy-logs')
          for (const line of event.logs)
            this.#recorder.annotate('policy-log', { ...line, round: this.#decisions, turn: 1 });
        if (event.kind === 'retry')
          this.#recorder.annotate('note', {
            text: `the server is busy (503): the same request again in ${event.delayMs / 1000} s (retry ${event.attempt})`,
          });
        if (event.kind === 'refused-again')
          this.#recorder.annotate('note', {
            text: `run ${event.run}: the server refused the action ${event.action} ${event.refusals === 1 ? 'once' : `${event.refusals} times in a row`} and the policy gives it again: the request waits ${event.delayMs / 1000} s`,
          });
      },
    });
    this.#client = client;
    const peer = client.connect({
      send: (request) =>
        void this.#exchange(request).then(
          (response) => !this.#over && peer.receive(response),
          (error: unknown) => peer.end(describeError(error)),
        ),
      close: () => undefined,
    });
    this.#ended(await client.ended);
  }

  /** The wire level: the policy writes every request. */
  async #driveWire(): Promise<void> {
    let last: AisysWireResponse | null = null;
    const prefix = basePathOf(this.#agent.url);
    while (!this.#over) {
      if (!(await this.#pass())) return;
      const outcome = await this.#call(
        AISYS_WIRE_HOOK,
        [last],
        { env: this.#agent.env },
        {
          round: this.#decisions,
          turn: 1,
        },
      );
      if (!outcome || this.#over) return;
      for (const line of outcome.logs)
        this.#recorder.annotate('policy-log', { ...line, round: this.#decisions, turn: 1 });
      if (!outcome.ok) return this.#failPolicy(outcome.fault);
      if (outcome.value === null || outcome.value === undefined)
        return this.#end('finished', {}, 'the policy ended the session (onMessage returned nothing)');
      const made = wireRequest(outcome.value, this.#agent.env, prefix);
      if (!made.ok)
        return this.#failPolicy({
          kind: 'result',
          message: `onMessage returned a request that cannot be sent: ${made.problem}`,
          hook: AISYS_WIRE_HOOK,
        });
      const started = performance.now();
      let response: HttpMessage;
      try {
        response = await this.#exchange(made.request);
      } catch (error) {
        return this.#end('failed', { error: `the request got no answer: ${describeError(error)}` });
      }
      if (this.#over) return;
      last = wireResponse(response, Math.round(performance.now() - started));
      if (this.#finishedRuns >= this.#config.rounds)
        return this.#end('finished', {}, `${this.#finishedRuns} runs finished: the run limit is reached`);
    }
  }

  /** Waits at the gate before a decision; false once the session is over. */
  async #pass(): Promise<boolean> {
    const first = this.#decisions === 0;
    this.#decisions++;
    // The exchanges before are complete: send them now, since a paused gate may hold for long.
    this.#batcher.schedule();
    if (!(await this.gate.pass(first))) return false;
    return !this.#over;
  }

  /** One policy call within its budget, given up at once when the learner stops. */
  async #call(
    hook: string,
    args: readonly unknown[],
    context: Record<string, unknown>,
    site: { round: number; turn: number },
  ): Promise<CallOutcome> {
    const outcome = await Promise.race([this.#supervisor.call(hook, args, context, site), this.#stopped]);
    return (
      outcome ?? {
        ok: false,
        fault: { kind: 'call', message: 'stopped by the learner', hook },
        logs: [],
        ms: 0,
      }
    );
  }

  /** How the course client's session ended, as the session's status. */
  #ended(outcome: AisysClientOutcome): void {
    if (this.#over) return;
    switch (outcome.kind) {
      case 'finished':
        return this.#end('finished', {}, `${this.#config.rounds} runs finished: the run limit is reached`);
      case 'stopped':
        return this.#end('stopped', {});
      case 'policy-error':
        // Without a fault of the policy's own, the client refused its action (not JSON, or refused again).
        return this.#failPolicy(this.#fault ?? { kind: 'result', message: outcome.message, hook: 'act' });
      case 'http-error':
        return this.#end('failed', { error: `The server answered ${outcome.status}: ${outcome.message}` });
      default:
        return this.#end('failed', { error: `The session ended: ${outcomeText(outcome)}` });
    }
  }

  #failPolicy(fault: PolicyFault): void {
    this.#recorder.annotate('error', { source: 'policy', ...fault });
    this.#end('failed', { fault });
  }

  /** Ends the session once: the gate, the policy worker, the channel; the last batch says why. */
  #end(status: SessionStatus, extra: { fault?: PolicyFault; error?: string }, note?: string): void {
    if (this.#over) return;
    this.#over = true;
    this.gate.stop();
    this.#signalStop();
    this.#client?.stop('the session ended');
    this.#supervisor.dispose();
    this.#closeChannel?.();
    if (note) this.#recorder.annotate('note', { text: note });
    if (extra.error) this.#recorder.annotate('error', { text: extra.error });
    this.#batcher.note({ status, ...extra });
    this.#batcher.close();
  }

  decide(): void {
    // aisys never holds actions for the learner: the server's answer is the lesson.
  }

  stop(): void {
    this.#end('stopped', {});
  }

  abandon(): void {
    if (!this.#over) {
      this.#over = true;
      this.gate.stop();
      this.#signalStop();
      this.#client?.stop('replaced');
      this.#supervisor.dispose();
      this.#closeChannel?.();
    }
    this.#batcher.abandon();
    this.#keeper.dispose();
  }

  ask(question: string, args: readonly unknown[]): unknown {
    return answerAisysQuestion(this.#book, this.#recorder.transcript, question, args, this.#responses);
  }

  exportJson(): string[] {
    return [serialiseTranscript(this.#recorder.transcript)];
  }
}

/** A request path without the prefix the server is mounted at (`/course/act/nim` -> `/act/nim`). */
function stripPrefix(path: string, prefix: string): string {
  if (prefix === '/' || !path.startsWith(prefix)) return path;
  return `/${path.slice(prefix.length)}`;
}
