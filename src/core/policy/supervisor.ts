import { withDeadline, type DeadlineTimer } from './deadline';
import { POLICY_LEVELS } from './levels';
import type { CallOutcome, CallSite, LoadOutcome, PolicyFault, PolicySource } from './types';

/**
 * One running policy runtime, seen from the session: a policy worker behind Comlink in the browser, a
 * worker thread in Node, or a `PolicyRuntime` in-process. Calls may never settle once `terminate` has been
 * called (a terminated worker does not answer), which is why the supervisor puts a deadline on each.
 */
export interface PolicyEndpoint {
  load(source: PolicySource): Promise<LoadOutcome>;
  call(hook: string, args: readonly unknown[], context: Record<string, unknown>): Promise<CallOutcome>;
  /** Stops the runtime at once, even in the middle of a call. */
  terminate(): void;
}

/**
 * Time allowed to start a policy runtime and load a module in it, in ms, for every protocol: generous,
 * because the first load also starts the runtime (a worker, its compiler) and a busy machine can take
 * seconds for that; a module whose top-level code never ends is still stopped.
 */
export const POLICY_LOAD_LIMIT_MS = 30_000;

/** Options of a supervisor. */
export interface PolicySupervisorOptions {
  /** Starts a fresh runtime; called once at first and again after every overrun or crash. */
  spawn: () => PolicyEndpoint;
  /** Time allowed per call, in ms (a turn's decision, or a hook). */
  budgetMs: number;
  /**
   * Time allowed to load the module (compile and run its top-level code), in ms. Defaults to the larger of
   * the budget and `POLICY_LOAD_LIMIT_MS`.
   */
  loadBudgetMs?: number;
  /** Starts the timer of each deadline (default: the wall clock); tests pass one they fire themselves. */
  deadlineTimer?: DeadlineTimer;
}

/** The message a learner sees when the budget runs out. */
export function budgetExceededMessage(budgetMs: number, hook: string, entry: string, site: CallSite): string {
  const where =
    hook === entry ? `on round ${site.round}, turn ${site.turn}` : `in ${hook} on round ${site.round}`;
  return `policy exceeded ${budgetMs} ms ${where}`;
}

/** A runtime that stopped answering for a reason other than the budget (its worker failed). */
function crashFault(error: unknown): PolicyFault {
  const detail = error instanceof Error ? error.message : String(error);
  return { kind: 'crash', message: `the policy runtime stopped: ${detail}` };
}

/**
 * Enforces the time budget on a policy runtime. A policy stuck in `while (true)` cannot be interrupted
 * from inside its thread, so on overrun the supervisor terminates the runtime, starts a fresh one with the
 * same source (so the session, or the next one, can go on) and reports a `timeout` fault. The caller keeps
 * everything recorded so far; nothing here touches the transcript.
 */
export class PolicySupervisor {
  readonly #options: PolicySupervisorOptions;
  #endpoint: PolicyEndpoint;
  #source: PolicySource | undefined;
  /** The reload in a fresh runtime after an overrun; calls wait for it. */
  #reloading: Promise<LoadOutcome> | undefined;
  #restarts = 0;
  #disposed = false;

  constructor(options: PolicySupervisorOptions) {
    this.#options = options;
    this.#endpoint = options.spawn();
  }

  /** How many times the runtime was terminated and started again. */
  get restarts(): number {
    return this.#restarts;
  }

  /** Loads a policy; a top-level loop is stopped like any overrun. */
  async load(source: PolicySource): Promise<LoadOutcome> {
    // Until it has loaded, a restart must not reload this source: it may be the one that never finishes.
    this.#source = undefined;
    this.#reloading = undefined;
    const budget = this.#loadBudget();
    let outcome;
    try {
      outcome = await this.#guard(this.#endpoint.load(source), budget);
    } catch (error) {
      return { ok: false, fault: crashFault(error), logs: [] };
    }
    if (outcome.settled) {
      if (outcome.value.ok) this.#source = source;
      return outcome.value;
    }
    return {
      ok: false,
      fault: { kind: 'timeout', message: `policy exceeded ${budget} ms while loading` },
      logs: [],
    };
  }

  /**
   * Calls a hook within the budget. On overrun: terminate, restart, reload in the background, and return a
   * `timeout` fault whose message names the round and turn.
   */
  async call(
    hook: string,
    args: readonly unknown[],
    context: Record<string, unknown>,
    site: CallSite,
  ): Promise<CallOutcome> {
    if (this.#disposed) {
      return {
        ok: false,
        fault: { kind: 'crash', message: 'the policy was stopped', hook },
        logs: [],
        ms: 0,
      };
    }
    if (this.#reloading) {
      const reloaded = await this.#reloading;
      this.#reloading = undefined;
      if (!reloaded.ok) return { ok: false, fault: reloaded.fault, logs: reloaded.logs, ms: 0 };
    }
    const { budgetMs } = this.#options;
    const started = performance.now();
    let outcome;
    try {
      outcome = await this.#guard(this.#endpoint.call(hook, args, context), budgetMs);
    } catch (error) {
      return { ok: false, fault: { ...crashFault(error), hook }, logs: [], ms: performance.now() - started };
    }
    if (outcome.settled) return outcome.value;
    const entry = this.#source ? POLICY_LEVELS[this.#source.level].entry : hook;
    const fault: PolicyFault = {
      kind: 'timeout',
      message: budgetExceededMessage(budgetMs, hook, entry, site),
      hook,
    };
    return { ok: false, fault, logs: [], ms: performance.now() - started };
  }

  /** Stops the runtime for good, even in the middle of a call; later calls fail at once. */
  dispose(): void {
    this.#disposed = true;
    this.#reloading = undefined;
    this.#endpoint.terminate();
  }

  #loadBudget(): number {
    return this.#options.loadBudgetMs ?? Math.max(this.#options.budgetMs, POLICY_LOAD_LIMIT_MS);
  }

  /**
   * Waits for a call within `ms`. A crash (the call rejects: the worker died) or an overrun both end with a
   * fresh runtime, reloaded with the current source in the background.
   */
  async #guard<T>(call: Promise<T>, ms: number): Promise<{ settled: true; value: T } | { settled: false }> {
    try {
      const outcome = await withDeadline(call, ms, this.#options.deadlineTimer);
      if (!outcome.settled) this.#restart();
      return outcome;
    } catch (error) {
      this.#restart();
      throw error;
    }
  }

  #restart(): void {
    if (this.#disposed) return;
    this.#endpoint.terminate();
    this.#restarts++;
    this.#endpoint = this.#options.spawn();
    const source = this.#source;
    if (source) {
      const endpoint = this.#endpoint;
      this.#reloading = withDeadline(
        endpoint.load(source),
        this.#loadBudget(),
        this.#options.deadlineTimer,
      ).then((outcome) =>
        outcome.settled
          ? outcome.value
          : {
              ok: false as const,
              fault: {
                kind: 'timeout' as const,
                message: `policy exceeded ${this.#loadBudget()} ms while loading`,
              },
              logs: [],
            },
      );
    }
  }
}
