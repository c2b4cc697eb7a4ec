/**
 * An aisys client, sans-IO, that behaves like the course's standard Python client (`client.py`,
 * `run(config, agent, parallel_runs, run_limit, abandon_old_runs)`): it sends `PUT <url>act/<env>` with
 * the agent's credentials and the actions for the last response's action requests, forever, until:
 *
 * - `runLimit` runs have left `active_runs` (counted as the course client counts them: any run that
 *   disappears, old or abandoned ones included; checked after each response, so the last requests stay
 *   unanswered, as the course client leaves them);
 * - the server answers with an error status other than 503 (the description is reported);
 * - the policy fails, or the caller stops it.
 *
 * A 503 ("busy") is retried with the same request after a pause that grows from `retry.initialDelayMs`
 * (3 s, the course client's constant pause) by `retry.factor` up to `retry.maxDelayMs`. With
 * `abandonOldRuns`, runs that were already under way at the first response (their action number is not 0)
 * are abandoned instead of answered. The body is written as the course client writes it.
 *
 * Two things the course client does not do, so that a faulty policy cannot flood a shared server:
 *
 * - an action that cannot be written as JSON (NaN, Infinity, undefined, a function...) is a policy error
 *   and is never sent (the course client's `requests` refuses NaN and Infinity too);
 * - when the server refuses an action (it asks for the same action number again) and the policy answers
 *   with the very same action, the request waits first, as for a busy server (3 s, then 6, 12... up to
 *   30 s), and after `maxRefusals` refusals of that action in a row the session ends as a policy error.
 *   A policy that answers a refusal with another action is answered at once, as the course client does.
 */
import type { PolicyLogLine } from '../../policy/types';
import type { HttpMessage, SansIoEndpoint, WirePeer, WireSink } from '../contract';
import { formatValue } from '../../policy/format-value';
import { actRequest, encodeRequestBody, readResponse, unwritableJson } from './codec';
import { pythonJsonDumps } from './python-json';
import type { AisysMessage, AisysRequest, AisysResponse, JsonValue } from './messages';
import type { AisysDecide } from './policy-api';

/** How 503 answers are retried. */
export interface RetryPolicy {
  /** Pause before the first retry, in ms (default 3000, as the course client). */
  initialDelayMs: number;
  /** Each further pause is the last one times this (default 2). */
  factor: number;
  /** Longest pause, in ms (default 30 000). */
  maxDelayMs: number;
  /** Retries of one request before giving up (default unlimited, as the course client). */
  maxRetries: number;
}

export const DEFAULT_RETRY: Readonly<RetryPolicy> = {
  initialDelayMs: 3000,
  factor: 2,
  maxDelayMs: 30_000,
  maxRetries: Infinity,
};

/** Refusals of one unchanged action in a row after which the client stops (`maxRefusals`). */
export const DEFAULT_MAX_REFUSALS = 10;

/** Options of a client. */
export interface AisysClientOptions {
  agent: string;
  pwd: string;
  env: string;
  /** The server's base URL as the agent config gives it (run pages are `<url>run/<env>/<id>`); default `/`. */
  url?: string;
  decide: AisysDecide;
  /** Ask for several action requests per response (default true). */
  parallelRuns?: boolean;
  /** Stop once this many runs have left the active runs (default: never). */
  runLimit?: number;
  /** Abandon the runs already under way at the first response instead of playing them (default false). */
  abandonOldRuns?: boolean;
  /** The `client` field (default `protoplay`). */
  clientName?: string;
  retry?: Partial<RetryPolicy>;
  /**
   * How many times in a row the server may refuse the same action for the same action request before the
   * client stops instead of sending it again (default `DEFAULT_MAX_REFUSALS`). The resent requests before
   * that are paced as 503 retries are (`retry`).
   */
  maxRefusals?: number;
  /** Runs `callback` after `ms`; returns a cancel function (default `setTimeout`). */
  schedule?: (ms: number, callback: () => void) => () => void;
  onEvent?: (event: AisysClientEvent) => void;
}

/** What the client reports as it plays. */
export type AisysClientEvent =
  | { kind: 'request'; actions: number; abandoned: number }
  | { kind: 'response'; status: number }
  | { kind: 'message'; message: AisysMessage }
  | { kind: 'run-started'; run: string }
  /** `actions`: how many actions this client sent the run (0 for a run it only abandoned). */
  | { kind: 'run-finished'; run: string; outcome: JsonValue; actions: number }
  | { kind: 'retry'; attempt: number; delayMs: number }
  /**
   * The server refused `action` (JSON) for `run` `refusals` times in a row and the policy gives it again:
   * the next request waits `delayMs`.
   */
  | { kind: 'refused-again'; run: string; actNo: number; action: string; refusals: number; delayMs: number }
  | { kind: 'policy-logs'; logs: PolicyLogLine[] };

/** How a client's session ended. */
export type AisysClientOutcome =
  | { kind: 'finished'; reason: 'run-limit' }
  | { kind: 'stopped'; reason: string }
  | { kind: 'http-error'; status: number; message: string }
  | { kind: 'protocol-error'; message: string }
  | { kind: 'policy-error'; message: string }
  | { kind: 'connection-error'; message: string };

/** The client of one agent. */
export class AisysClient implements SansIoEndpoint<HttpMessage, HttpMessage> {
  readonly #options: AisysClientOptions;
  readonly #retry: RetryPolicy;
  readonly #schedule: NonNullable<AisysClientOptions['schedule']>;
  #sink: WireSink<HttpMessage> | undefined;
  #outcome: AisysClientOutcome | undefined;
  #settle: (outcome: AisysClientOutcome) => void = () => undefined;
  readonly #ended: Promise<AisysClientOutcome>;
  #lastRequest: HttpMessage | undefined;
  #retries = 0;
  /** Cancels the pause under way (a 503 retry, or a refused action sent again). */
  #cancelPause: (() => void) | undefined;
  /** Active runs after the last response. */
  #ongoing = new Set<string>();
  /** Runs under way at the first response (undefined before it). */
  #oldRuns: Set<string> | undefined;
  #runsLeft = 0;
  /** Actions sent per run (its last action number + 1). */
  readonly #actionsSent = new Map<string, number>();
  /**
   * Per active run, the last action sent: its number, its JSON, how many times in a row the server has
   * refused it, and the server's last error about the run.
   */
  readonly #lastActions = new Map<string, SentAction>();

  constructor(options: AisysClientOptions) {
    this.#options = options;
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#schedule =
      options.schedule ??
      ((ms, callback) => {
        const handle = setTimeout(callback, ms);
        return () => clearTimeout(handle);
      });
    this.#ended = new Promise((resolve) => (this.#settle = resolve));
  }

  /** Resolves once the client stopped, with why. */
  get ended(): Promise<AisysClientOutcome> {
    return this.#ended;
  }

  /** How it ended; undefined while it plays. */
  get outcome(): AisysClientOutcome | undefined {
    return this.#outcome;
  }

  /** Runs that have left the active runs so far (what `runLimit` counts). */
  get runsFinished(): number {
    return this.#runsLeft;
  }

  connect(sink: WireSink<HttpMessage>): WirePeer<HttpMessage> {
    this.#sink = sink;
    // The first request goes out once the transport holds the peer, which may answer at once.
    queueMicrotask(() => {
      if (!this.#outcome) this.#send({ actions: [], to_abandon: [] });
    });
    return {
      receive: (response) => void this.#receive(response),
      end: (reason) => this.#finish({ kind: 'connection-error', message: reason ?? 'the connection ended' }),
    };
  }

  /** Stops playing: no further request is sent. */
  stop(reason = 'stopped'): void {
    this.#finish({ kind: 'stopped', reason });
  }

  #send(parts: Pick<AisysRequest, 'actions' | 'to_abandon'>): void {
    const { agent, pwd, env, url = '/' } = this.#options;
    const body = encodeRequestBody({
      agent,
      pwd,
      ...parts,
      parallel_runs: this.#options.parallelRuns ?? true,
      client: this.#options.clientName ?? 'protoplay',
    });
    this.#lastRequest = actRequest(env, body, basePath(url));
    this.#retries = 0;
    this.#options.onEvent?.({
      kind: 'request',
      actions: parts.actions.length,
      abandoned: parts.to_abandon.length,
    });
    this.#sink?.send(this.#lastRequest);
  }

  async #receive(response: HttpMessage): Promise<void> {
    if (this.#outcome) return;
    const status = response.meta.status ?? 0;
    this.#options.onEvent?.({ kind: 'response', status });
    if (status === 503) return this.#retryLater();
    const reading = readResponse(response);
    if (status !== 200) {
      const message =
        reading.kind === 'error'
          ? `${reading.error.errorname}: ${reading.error.description}`
          : `HTTP ${status}${reading.kind === 'html' && reading.title ? ` (${reading.title})` : ''}`;
      return this.#finish({ kind: 'http-error', status, message });
    }
    if (reading.kind !== 'v1') {
      const problem = reading.kind === 'unreadable' ? reading.problem : `a ${reading.kind} body`;
      return this.#finish({
        kind: 'protocol-error',
        message: `the server's answer is not a version 1 response: ${problem}`,
      });
    }
    await this.#answer(reading.response);
  }

  async #answer(response: AisysResponse): Promise<void> {
    const { onEvent } = this.#options;
    for (const message of response.messages) onEvent?.({ kind: 'message', message });
    const finished = Object.entries(response.finished_runs).map(([run, outcome]) => ({
      run,
      outcome,
      url: this.#runUrl(run),
    }));
    for (const { run, outcome } of finished) {
      onEvent?.({ kind: 'run-finished', run, outcome, actions: this.#actionsSent.get(run) ?? 0 });
      this.#actionsSent.delete(run);
    }
    if (!this.#oldRuns) {
      const fresh = new Set(response.action_requests.filter((r) => r.act_no === 0).map((r) => r.run));
      this.#oldRuns = new Set(response.active_runs.filter((run) => !fresh.has(run)));
    }
    const active = new Set(response.active_runs);
    for (const run of this.#ongoing) if (!active.has(run)) this.#runsLeft++;
    this.#ongoing = active;
    for (const run of this.#lastActions.keys()) if (!active.has(run)) this.#lastActions.delete(run);
    this.#noteRefusals(response);
    const { runLimit } = this.#options;
    if (runLimit !== undefined && this.#runsLeft >= runLimit)
      return this.#finish({ kind: 'finished', reason: 'run-limit' });

    const toAbandon: string[] = [];
    const requests = response.action_requests.filter((r) => {
      if (this.#options.abandonOldRuns && this.#oldRuns!.has(r.run)) {
        toAbandon.push(r.run);
        return false;
      }
      return true;
    });
    for (const r of requests) if (r.act_no === 0) onEvent?.({ kind: 'run-started', run: r.run });

    const reply = await this.#options.decide({
      requests: requests.map((r) => ({
        run: r.run,
        actNo: r.act_no,
        percept: r.percept,
        url: this.#runUrl(r.run),
      })),
      finished,
      active: response.active_runs,
      messages: response.messages,
    });
    if (this.#outcome) return;
    if (reply.logs.length) onEvent?.({ kind: 'policy-logs', logs: reply.logs });
    if (!reply.ok) return this.#finish({ kind: 'policy-error', message: reply.fault.message });
    const actions = requests.map((r, i) => ({ run: r.run, act_no: r.act_no, action: reply.actions[i]! }));
    for (const { run, act_no, action } of actions) {
      const problem = unwritableJson(action);
      if (problem !== undefined)
        return this.#finish({
          kind: 'policy-error',
          message: `the action for run ${run} (act_no ${act_no}) cannot be written as JSON: ${describeAction(action, problem)}; it was not sent (an action is a number, a string, true, false, null, or a list or plain object of these)`,
        });
    }
    const repeated = this.#repeatedRefusal(actions);
    if (repeated && repeated.refusals >= (this.#options.maxRefusals ?? DEFAULT_MAX_REFUSALS))
      return this.#finish({
        kind: 'policy-error',
        message: `the server refused the action ${repeated.text} for run ${repeated.run} (act_no ${repeated.actNo}) ${repeated.refusals} times in a row${repeated.reason === undefined ? '' : ` (${repeated.reason})`}, and the policy gives it again: stopping instead of sending it forever`,
      });
    for (const r of requests) this.#actionsSent.set(r.run, r.act_no + 1);
    const send = () => this.#send({ actions, to_abandon: toAbandon });
    if (!repeated) return send();
    const delayMs = this.#pause(repeated.refusals);
    onEvent?.({
      kind: 'refused-again',
      run: repeated.run,
      actNo: repeated.actNo,
      action: repeated.text,
      refusals: repeated.refusals,
      delayMs,
    });
    this.#cancelPause = this.#schedule(delayMs, () => {
      this.#cancelPause = undefined;
      if (!this.#outcome) send();
    });
  }

  /** Counts a refusal for every run whose last action the server asks for again. */
  #noteRefusals(response: AisysResponse): void {
    for (const request of response.action_requests) {
      const last = this.#lastActions.get(request.run);
      if (last?.actNo !== request.act_no) continue;
      last.refusals++;
      const error = response.messages.findLast(
        (message) => message.run === request.run && message.type === 'error',
      );
      if (error) last.reason = error.content;
    }
  }

  /**
   * Remembers the actions about to be sent; returns the one the server has refused most often in a row and
   * the policy gives again unchanged, if any.
   */
  #repeatedRefusal(actions: readonly { run: string; act_no: number; action: JsonValue }[]) {
    let repeated: (SentAction & { run: string }) | undefined;
    for (const { run, act_no: actNo, action } of actions) {
      const text = pythonJsonDumps(action);
      const last = this.#lastActions.get(run);
      const same = last !== undefined && last.actNo === actNo && last.text === text;
      const sent: SentAction = same ? last : { actNo, text, refusals: 0 };
      this.#lastActions.set(run, sent);
      if (sent.refusals > 0 && sent.refusals > (repeated?.refusals ?? 0)) repeated = { ...sent, run };
    }
    return repeated;
  }

  /** The pause before the `attempt`-th retry (a 503) or resent refused action: 3 s, 6 s... up to 30 s. */
  #pause(attempt: number): number {
    const { initialDelayMs, factor, maxDelayMs } = this.#retry;
    return Math.min(maxDelayMs, initialDelayMs * factor ** (attempt - 1));
  }

  #retryLater(): void {
    const attempt = ++this.#retries;
    if (attempt > this.#retry.maxRetries) {
      this.#finish({
        kind: 'http-error',
        status: 503,
        message: `the server stayed busy after ${attempt - 1} retries`,
      });
      return;
    }
    const delayMs = this.#pause(attempt);
    this.#options.onEvent?.({ kind: 'retry', attempt, delayMs });
    this.#cancelPause = this.#schedule(delayMs, () => {
      this.#cancelPause = undefined;
      if (this.#outcome || !this.#lastRequest) return;
      this.#sink?.send(this.#lastRequest);
    });
  }

  #runUrl(run: string): string {
    const { url = '/', env } = this.#options;
    return `${url.endsWith('/') ? url : `${url}/`}run/${env}/${run}`;
  }

  #finish(outcome: AisysClientOutcome): void {
    if (this.#outcome) return;
    this.#outcome = outcome;
    this.#cancelPause?.();
    this.#settle(outcome);
    this.#sink?.close(outcome.kind === 'finished' ? 'run limit reached' : outcomeText(outcome));
  }
}

/** The last action sent for a run. */
interface SentAction {
  actNo: number;
  /** The action as the body writes it. */
  text: string;
  /** Times in a row the server asked for `actNo` again after this action. */
  refusals: number;
  /** The server's last error message about the run. */
  reason?: string;
}

/** An action that cannot be sent, in words: the value, and where the problem is when it is inside. */
function describeAction(action: unknown, problem: string): string {
  if (action === undefined) return 'undefined (act returned nothing; return null to send null)';
  const shown = formatValue(action);
  const value = shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
  return problem === shown ? value : `${value} (${problem})`;
}

/** The path of a base URL (`http://host:5000/prefix/` -> `/prefix/`); a bare path stays as it is. */
function basePath(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/[^?#]*)?/i.exec(url);
  return match ? match[1] || '/' : url;
}

/** An outcome in words. */
export function outcomeText(outcome: AisysClientOutcome): string {
  switch (outcome.kind) {
    case 'finished':
      return 'the run limit was reached';
    case 'stopped':
      return outcome.reason;
    default:
      return outcome.message;
  }
}
