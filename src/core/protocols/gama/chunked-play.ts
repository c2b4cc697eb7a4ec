/**
 * Playing GAMA episodes inside the policy's own worker, in chunks. Each scavenger must see the moves made
 * before it in its cycle, so requests cannot be batched; a round trip to the policy worker per request
 * bounds a session to a few hundred cycles a second. Running fast, the episode loop therefore lives next
 * to the policy: each decision is an in-process call, and the session asks the worker for a chunk of
 * cycles at a time (`GAMA_PLAY_CONTINUE`), getting back what was recorded meanwhile. The policy stays
 * isolated: the whole worker can be killed. The session's policy supervisor puts its deadline on each
 * chunk; a chunk ends before the next call once `ms` have passed, so it lasts at most `ms` plus one call,
 * and the deadline of a chunk (the budget plus `ms` plus a margin) is a deadline per call. A call that
 * returns but took longer than the budget is reported here, exactly as the supervisor would report it.
 *
 * The pacer below is what a loop awaits at each cycle's start and before each call.
 */
import { budgetExceededMessage } from '../../policy/supervisor';
import type { CallOutcome, CallSite } from '../../policy/types';

/** Starts a fast run: `call(GAMA_PLAY_START, [plan], {})`. */
export const GAMA_PLAY_START = 'gama-play-start';
/** Starts a run of the command line's `run gama`: `call(GAMA_RUN_START, [plan], {})`. */
export const GAMA_RUN_START = 'gama-run-start';
/** Plays a chunk: `call(GAMA_PLAY_CONTINUE, [limit], {})`, resolving to the chunk's news. */
export const GAMA_PLAY_CONTINUE = 'gama-play-continue';
/** Stops a fast run: the episode under way is closed from GAMA's side; resolves to the last news. */
export const GAMA_PLAY_ABORT = 'gama-play-abort';

/** How far one chunk may go. */
export interface GamaChunkLimit {
  /** Cycle starts the chunk may pass (a new cycle, or the terminal round); 0 finishes the cycle under way. */
  cycles: number;
  /** Time after which the chunk ends before the next call, in ms. */
  ms: number;
  /** The command line's interruption: no new episode is started. */
  interrupted?: boolean;
}

/** Where a chunk ended. */
export type GamaChunkEnd =
  /** At a cycle's start, before its first answer: the next chunk passes the session's gate first. */
  | 'cycle'
  /** In the middle of a cycle, its time being up: the next chunk goes on with the same cycle. */
  | 'call'
  /** The run is over. */
  | 'done';

/** Time a chunk runs for when the session lets it run freely, in ms. */
export const GAMA_CHUNK_MS = 20;

/**
 * Time added to the budget for the deadline of a chunk: the chunk's own time and a margin for a loaded
 * machine, in ms.
 */
export const GAMA_CHUNK_SLACK_MS = GAMA_CHUNK_MS + 250;

/** Most cycle starts a free chunk may pass: a chunk ends on its time long before. */
export const GAMA_FREE_CYCLES = 1_000_000;

/** Lets a loop run chunk by chunk; the loop awaits `cycleStart` and `beforeCall`. */
export class ChunkPacer {
  #cyclesLeft = 0;
  #until = 0;
  #callsInChunk = 0;
  #stopped = false;
  #running = false;
  #done = false;
  #end: ((end: GamaChunkEnd) => void) | undefined;
  /** The chunk under way. */
  #current: Promise<GamaChunkEnd> | undefined;
  #resume: (() => void) | undefined;
  #interrupted = false;

  /** The command line asked to stop after the episode under way. */
  get interrupted(): boolean {
    return this.#interrupted;
  }

  /**
   * Runs one chunk: starts `run` the first time, else resumes the loop where the last chunk left it.
   * Resolves where the chunk ended.
   */
  play(limit: GamaChunkLimit, run: () => Promise<void>): Promise<GamaChunkEnd> {
    this.#cyclesLeft = limit.cycles;
    this.#until = performance.now() + limit.ms;
    this.#callsInChunk = 0;
    if (limit.interrupted) this.#interrupted = true;
    if (this.#done) return Promise.resolve('done');
    if (this.#current) return this.#current;
    const ended = this.#begin();
    if (!this.#running) {
      this.#running = true;
      const done = () => this.#finish('done');
      void run().then(done, done);
    } else this.#wake();
    return ended;
  }

  /** Stops for good: a suspended loop is woken and told so. */
  stop(): Promise<GamaChunkEnd> {
    this.#stopped = true;
    if (!this.#running || this.#done) return Promise.resolve('done');
    // A chunk under way sees the stop at its next cycle or call.
    if (this.#current) return this.#current.then((end) => (end === 'done' ? end : this.stop()));
    const ended = this.#begin();
    this.#wake();
    return ended;
  }

  #begin(): Promise<GamaChunkEnd> {
    this.#current = new Promise<GamaChunkEnd>((resolve) => (this.#end = resolve));
    return this.#current;
  }

  /** At a cycle's start: resolves false when stopped. */
  async cycleStart(): Promise<boolean> {
    for (;;) {
      if (this.#stopped) return false;
      if (this.#cyclesLeft > 0) {
        this.#cyclesLeft--;
        return true;
      }
      await this.#suspend('cycle');
    }
  }

  /** Before a call: ends the chunk when its time is up (after at least one call). */
  async beforeCall(): Promise<boolean> {
    while (!this.#stopped && this.#callsInChunk > 0 && performance.now() >= this.#until)
      await this.#suspend('call');
    this.#callsInChunk++;
    return !this.#stopped;
  }

  #suspend(end: GamaChunkEnd): Promise<void> {
    return new Promise((resolve) => {
      this.#resume = resolve;
      this.#finish(end);
    });
  }

  #wake(): void {
    const resume = this.#resume;
    this.#resume = undefined;
    resume?.();
  }

  #finish(end: GamaChunkEnd): void {
    if (end === 'done') this.#done = true;
    const settle = this.#end;
    this.#end = undefined;
    this.#current = undefined;
    settle?.(end);
  }
}

/**
 * Checks a call's own time against the budget, as the supervisor would from outside: an overrun is a
 * `timeout` fault (its logs dropped, as a terminated worker's are) naming the episode and cycle.
 */
export function withinBudget(
  outcome: CallOutcome,
  budgetMs: number,
  hook: string,
  site: CallSite,
): CallOutcome {
  if (outcome.ms <= budgetMs) return outcome;
  return {
    ok: false,
    fault: { kind: 'timeout', message: budgetExceededMessage(budgetMs, hook, 'act', site), hook },
    logs: [],
    ms: outcome.ms,
  };
}
