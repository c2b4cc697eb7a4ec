/**
 * A GAMA policy in its policy runtime (a worker, a thread or in-process): the user's module, loaded by the
 * ordinary policy runtime, called as `act(observation, reward, scavenger, context)` with a memory object
 * per scavenger kept in the runtime, so each scavenger remembers across calls without anything crossing
 * the worker boundary but the request and the action.
 */
import { PolicyRuntime } from '../../policy/runtime';
import type { CallOutcome, LoadOutcome, PolicySource } from '../../policy/types';
import type { GamaDecision } from './api';
import {
  GAMA_PLAY_ABORT,
  GAMA_PLAY_CONTINUE,
  GAMA_PLAY_START,
  GAMA_RUN_START,
  type GamaChunkLimit,
} from './chunked-play';
import { GamaChunkedRun, type GamaRunPlan } from './chunked-run';
import { GamaFastSession, type GamaPlayPlan } from './playground/fast-session';

/** The call that answers one request: `call(GAMA_ACT, [decision], {})`. */
export const GAMA_ACT = 'gama-act';

/** How `act` is called, for the error a module without it gets. */
export const GAMA_ACT_SIGNATURE = 'act(observation, reward, scavenger, context)';

/**
 * The GAMA policy runtime; same shape as `PolicyRuntime`, so a worker exposes it as it is. Besides
 * answering one request (`GAMA_ACT`), it can play a playground session's episodes itself, beside the
 * policy, a chunk at a time (`GAMA_PLAY_START`, `GAMA_PLAY_CONTINUE`, `GAMA_PLAY_ABORT`: see
 * `chunked-play.ts`).
 */
export class GamaPolicyRuntime {
  readonly #runtime = new PolicyRuntime();
  readonly #memories = new Map<string, Record<string, unknown>>();
  #fast: GamaFastSession | GamaChunkedRun | undefined;

  /** Loads a policy, forgetting every scavenger's memory. */
  load(source: PolicySource): LoadOutcome {
    this.#memories.clear();
    this.#fast = undefined;
    return this.#runtime.load({ ...source, entrySignature: GAMA_ACT_SIGNATURE });
  }

  /** Answers a request (`GAMA_ACT`); any other hook goes to the policy as it is. */
  async call(hook: string, args: readonly unknown[], context: Record<string, unknown>): Promise<CallOutcome> {
    if (hook === GAMA_ACT) return this.act(args[0] as GamaDecision, context);
    if ([GAMA_PLAY_START, GAMA_RUN_START, GAMA_PLAY_CONTINUE, GAMA_PLAY_ABORT].includes(hook))
      return this.#play(hook, args);
    return this.#runtime.call(hook, args, context);
  }

  /** Fast play: the loop calls the policy here, in-process. */
  async #play(hook: string, args: readonly unknown[]): Promise<CallOutcome> {
    const started = performance.now();
    let value: unknown;
    try {
      if (hook === GAMA_PLAY_START) {
        this.#fast = new GamaFastSession(args[0] as GamaPlayPlan, (d) => this.act(d, {}), GAMA_ACT);
      } else if (hook === GAMA_RUN_START) {
        this.#fast = new GamaChunkedRun(args[0] as GamaRunPlan, (d) => this.act(d, {}), GAMA_ACT);
      } else if (!this.#fast) {
        throw new Error('no fast session was started');
      } else if (hook === GAMA_PLAY_CONTINUE) {
        value = await this.#fast.continue(args[0] as GamaChunkLimit);
      } else {
        value = await this.#fast.abort();
      }
    } catch (error) {
      return {
        ok: false,
        fault: { kind: 'crash', message: (error as Error).message ?? String(error), hook },
        logs: [],
        ms: performance.now() - started,
      };
    }
    return { ok: true, value, logs: [], ms: performance.now() - started };
  }

  /** Answers one request with the policy's `act`. */
  async act(decision: GamaDecision, context: Record<string, unknown>): Promise<CallOutcome> {
    let memory = this.#memories.get(decision.id);
    if (!memory) this.#memories.set(decision.id, (memory = {}));
    const scavenger = {
      id: decision.id,
      number: Number(/(\d+)\s*$/.exec(decision.id)?.[1] ?? 0),
      scenario: decision.scenario ?? '',
      terminal: decision.terminal,
      memory,
    };
    const outcome = await this.#runtime.call(
      'act',
      [decision.observation, decision.reward, scavenger],
      context,
    );
    if (!outcome.ok || typeof outcome.value === 'string') return outcome;
    return {
      ok: false,
      fault: {
        kind: 'result',
        message: `act must return an action name (a string such as 'move_ahead'), got ${describe(outcome.value)}`,
        hook: 'act',
      },
      logs: outcome.logs,
      ms: outcome.ms,
    };
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}
