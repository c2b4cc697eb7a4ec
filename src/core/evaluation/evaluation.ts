/**
 * Runs an evaluation: every policy on every seed, each policy in threads of its own (never shared with
 * another policy), at most `workers` threads at a time. The owner watches every policy call through the
 * thread's call clock and terminates a thread whose call overruns the budget; a thread that dies (out of
 * memory, crashed) or a policy that throws ends that policy's evaluation with the reason, and the others
 * go on. Results are folded as episodes end: a few numbers per round, never a transcript (one is recorded
 * only when a single seed is replayed for the side-by-side view, `record`).
 */
import { formatLocated } from '../errors';
import { POLICY_LOAD_LIMIT_MS } from '../policy/supervisor';
import type { EpisodeOutcome, EvaluatedPolicySource, TraceStep } from '../protocols/evaluation-contract';
import type { Transcript } from '../transcript/model';
import {
  CLOCK_ROUND,
  CLOCK_SLOTS,
  CLOCK_STARTED,
  CLOCK_TURN,
  type FromEvaluationThread,
  type ToEvaluationThread,
} from './messages';
import {
  pairedComparison,
  plural,
  RunningSummary,
  verdict,
  type PairedComparison,
  type Summary,
} from './statistics';

/** A thread as the evaluation drives it (a Node worker thread, a Web Worker, or in-process for tests). */
export interface EvaluationThread {
  post(message: ToEvaluationThread): void;
  /** Called once: `exit` when the thread stops on its own (an error, out of memory), with why. */
  listen(handlers: { message(message: FromEvaluationThread): void; exit(reason: string): void }): void;
  terminate(): void;
}

/** One policy to evaluate. */
export interface EvaluatedPolicy {
  /** As reports name it (the file name). */
  label: string;
  source: EvaluatedPolicySource;
}

/** What to evaluate. */
export interface EvaluationPlan {
  protocol: string;
  /** What one reward is (`round`...), from the protocol's evaluation. */
  unit: string;
  /** The protocol's settings (its environment). */
  settings: unknown;
  policies: readonly EvaluatedPolicy[];
  seeds: readonly number[];
  /** Units per episode (rounds per seed). */
  rounds: number;
  /** Threads at a time. */
  workers: number;
  /** Time a policy call may take, in ms. */
  budgetMs: number;
  /**
   * Time loading the policy may take (compiling it, its top-level code), in ms (default: the larger of the
   * load limit every policy has, `POLICY_LOAD_LIMIT_MS`, and the budget).
   */
  loadBudgetMs?: number;
  /** Time a thread may take to start and load the environment (default 120 s). */
  startMs?: number;
  /** Keep each decision (for divergence). */
  trace?: boolean;
  /** Record each episode's transcripts (for the side-by-side view of one seed: never for many). */
  record?: boolean;
}

/** Why a policy (or one of its episodes) failed. */
export interface EvaluationFailure {
  kind: 'fault' | 'timeout' | 'memory' | 'crash' | 'environment';
  seed: number;
  round: number;
  turn: number;
  /** One line, located in the policy's file when it can be. */
  reason: string;
}

/** One finished episode. */
export interface EpisodeRecord {
  policy: number;
  seed: number;
  rewards: number[];
  turns: number[];
  /** Units the environment ended before their end, and why (see `EpisodeOutcome.endedEarly`). */
  endedEarly?: { unit: number; reason: string }[];
  ms: number;
  trace?: TraceStep[];
  transcripts?: Transcript[];
}

/** Where one policy's evaluation stands. */
export interface PolicyResult {
  label: string;
  /** Rewards of complete episodes, by seed (one per unit). */
  rewards: Map<number, number[]>;
  summary: RunningSummary;
  /** Episodes played to the end. */
  episodes: number;
  /** Time spent in episodes, ms (for time per unit). */
  ms: number;
  failures: EvaluationFailure[];
  /** Set when the policy was stopped (a fault, an overrun, out of memory): its other seeds were not played. */
  stopped: boolean;
  /** Seeds not played (stopped or cancelled). */
  skipped: number;
  /** Units of complete episodes that the environment ended early, and why. */
  endedEarly: EarlyEnds;
}

/**
 * Units an environment ended before their end (rddlsim rounds ended at a broken precondition), counted by
 * reason: the first `EARLY_END_REASONS` reasons met, each with where it first happened (the lowest seed,
 * its first such round); units of any further reason count only in the total, so the record stays small
 * however many seeds are played.
 */
export interface EarlyEnds {
  units: number;
  reasons: { reason: string; units: number; seed: number; round: number }[];
}

/** Distinct reasons an `EarlyEnds` keeps. */
export const EARLY_END_REASONS = 10;

/**
 * Early ends in words, for the command line and the page alike: `12 of 30 rounds ended early`, then one
 * line per reason (`12 rounds (first seed 1, round 1): <reason>`), and one for the reasons not kept.
 */
export function describeEarlyEnds(
  ends: EarlyEnds,
  played: number,
  unit: string,
): { summary: string; reasons: string[] } {
  const reasons = ends.reasons.map(
    (entry) =>
      `${countOf(entry.units, unit)} (first seed ${entry.seed}, ${unit} ${entry.round}): ${entry.reason}`,
  );
  const told = ends.reasons.reduce((sum, entry) => sum + entry.units, 0);
  if (told < ends.units) reasons.push(`${countOf(ends.units - told, unit)} for other reasons`);
  return { summary: `${ends.units} of ${countOf(played, unit)} ended early`, reasons };
}

/** A copy of `ends` that later episodes do not change (for a report, or a view's state). */
export function copyEarlyEnds(ends: EarlyEnds): EarlyEnds {
  return { units: ends.units, reasons: ends.reasons.map((entry) => ({ ...entry })) };
}

/** Counts an episode's early ends (`EpisodeOutcome.endedEarly`) into `ends`. */
export function countEarlyEnds(
  ends: EarlyEnds,
  seed: number,
  endedEarly: readonly { unit: number; reason: string }[] | undefined,
): void {
  for (const { unit, reason } of endedEarly ?? []) {
    ends.units++;
    const known = ends.reasons.find((entry) => entry.reason === reason);
    if (known) {
      known.units++;
      // Seeds end in any order across threads: the place kept is the lowest seed's first round.
      if (seed < known.seed || (seed === known.seed && unit + 1 < known.round)) {
        known.seed = seed;
        known.round = unit + 1;
      }
    } else if (ends.reasons.length < EARLY_END_REASONS)
      ends.reasons.push({ reason, units: 1, seed, round: unit + 1 });
  }
}

/** What the evaluation tells as it goes. */
export interface EvaluationListener {
  episode?(record: EpisodeRecord): void;
  failure?(policy: number, failure: EvaluationFailure): void;
  /**
   * An episode's transcripts (only with `record`), whether it ended well or not: a policy that failed on
   * the seed left the messages up to its failure, which are worth reading.
   */
  recorded?(policy: number, seed: number, transcripts: Transcript[]): void;
}

/** Options of `Evaluation`. */
export interface EvaluationOptions {
  /** Starts a thread for a policy (its index in the plan). */
  spawn(policy: number): EvaluationThread;
  listener?: EvaluationListener;
  /** Whether threads can share memory for the call clock (default: when SharedArrayBuffer exists). */
  sharedClock?: boolean;
}

/** What waiting on a thread can give. */
type ThreadAnswer =
  | FromEvaluationThread
  | { kind: 'exit'; reason: string }
  | { kind: 'timeout'; round: number; turn: number }
  | { kind: 'cancelled' };

type PlayResult =
  | { kind: 'done'; outcome: EpisodeOutcome; ms: number }
  | { kind: 'failed'; failure: Omit<EvaluationFailure, 'seed'> }
  | { kind: 'cancelled' };

/** One evaluation; `run` once. */
export class Evaluation {
  readonly plan: EvaluationPlan;
  readonly results: PolicyResult[];
  readonly #options: EvaluationOptions;
  readonly #pending: number[][];
  readonly #active: number[];
  readonly #threads = new Set<EvaluationThread>();
  readonly #cancels = new Set<() => void>();
  #cancelled = false;
  /** Episodes that ended (played or failed). */
  #ended = 0;
  /** Threads started, and the time they took to be ready (start, load the protocol and environment), ms. */
  readonly threadStarts = { count: 0, ms: 0 };

  get #loadBudgetMs(): number {
    return this.plan.loadBudgetMs ?? Math.max(POLICY_LOAD_LIMIT_MS, this.plan.budgetMs);
  }

  constructor(plan: EvaluationPlan, options: EvaluationOptions) {
    this.plan = plan;
    this.#options = options;
    this.results = plan.policies.map((policy) => ({
      label: policy.label,
      rewards: new Map(),
      summary: new RunningSummary(),
      episodes: 0,
      ms: 0,
      failures: [],
      stopped: false,
      skipped: 0,
      endedEarly: { units: 0, reasons: [] },
    }));
    this.#pending = plan.policies.map(() => [...plan.seeds]);
    this.#active = plan.policies.map(() => 0);
  }

  /** Episodes in the whole evaluation, and those ended (played, failed or skipped). */
  get progress(): { total: number; ended: number } {
    const total = this.plan.policies.length * this.plan.seeds.length;
    // Seeds a stopped policy will not play count as ended: those still waiting, and once the run is over,
    // those it skipped (the run moves what was waiting there).
    const dropped = this.#pending.reduce((sum, seeds, index) => {
      const result = this.results[index]!;
      return sum + (result.stopped ? seeds.length + result.skipped : 0);
    }, 0);
    return { total, ended: Math.min(total, this.#ended + dropped) };
  }

  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** Plays everything; resolves when every policy is done, stopped or cancelled. */
  async run(): Promise<PolicyResult[]> {
    const slots = Math.max(
      1,
      Math.min(this.plan.workers, this.plan.policies.length * this.plan.seeds.length),
    );
    await Promise.all(Array.from({ length: slots }, () => this.#slot()));
    this.results.forEach((result, index) => {
      result.skipped += this.#pending[index]!.length;
      this.#pending[index] = [];
    });
    return this.results;
  }

  /** Stops at once, keeping every episode that ended. */
  cancel(): void {
    this.#cancelled = true;
    for (const cancel of [...this.#cancels]) cancel();
    for (const thread of this.#threads) thread.terminate();
    this.#threads.clear();
  }

  /** One thread slot: takes the policy with the fewest threads that still has seeds, plays them, repeats. */
  async #slot(): Promise<void> {
    for (;;) {
      if (this.#cancelled) return;
      const policy = this.#nextPolicy();
      if (policy === undefined) return;
      this.#active[policy]!++;
      try {
        await this.#serve(policy);
      } finally {
        this.#active[policy]!--;
      }
    }
  }

  #nextPolicy(): number | undefined {
    let best: number | undefined;
    this.#pending.forEach((seeds, index) => {
      if (seeds.length === 0 || this.results[index]!.stopped) return;
      if (best === undefined || this.#active[index]! < this.#active[best]!) best = index;
    });
    return best;
  }

  /** Starts a thread for the policy and plays its seeds there until none are left or the policy stops. */
  async #serve(policy: number): Promise<void> {
    const result = this.results[policy]!;
    const pending = this.#pending[policy]!;
    const thread = this.#options.spawn(policy);
    this.#threads.add(thread);
    const shared =
      (this.#options.sharedClock ?? typeof SharedArrayBuffer !== 'undefined')
        ? new SharedArrayBuffer(CLOCK_SLOTS * Float64Array.BYTES_PER_ELEMENT)
        : undefined;
    const clock = shared ? new Float64Array(shared) : undefined;
    let call: { at: number; round: number; turn: number } | undefined;
    let waiter: ((message: ThreadAnswer) => void) | undefined;
    let exited: string | undefined;
    thread.listen({
      message: (message) => {
        if (message.kind === 'call') {
          call =
            message.at === undefined
              ? undefined
              : { at: message.at, round: message.round, turn: message.turn };
          return;
        }
        waiter?.(message);
      },
      exit: (reason) => {
        exited = reason;
        waiter?.({ kind: 'exit', reason });
      },
    });
    const next = (limitMs: number | undefined, watchCalls: boolean) =>
      new Promise<ThreadAnswer>((resolve) => {
        let timer: ReturnType<typeof setInterval> | undefined = undefined;
        const started = Date.now();
        const finish = (value: ThreadAnswer) => {
          if (timer !== undefined) clearInterval(timer);
          waiter = undefined;
          this.#cancels.delete(cancel);
          resolve(value);
        };
        const cancel = () => finish({ kind: 'cancelled' });
        this.#cancels.add(cancel);
        if (exited !== undefined) return finish({ kind: 'exit', reason: exited });
        waiter = finish;
        const budget = this.plan.budgetMs;
        timer = setInterval(
          () => {
            const now = Date.now();
            if (limitMs !== undefined && now - started > limitMs)
              return finish({ kind: 'timeout', round: 0, turn: 0 });
            if (!watchCalls) return;
            const at = clock ? clock[CLOCK_STARTED]! : (call?.at ?? 0);
            if (at <= 0) return;
            const round = clock ? clock[CLOCK_ROUND]! : call!.round;
            const turn = clock ? clock[CLOCK_TURN]! : call!.turn;
            // Round 0 is the policy's load (compiling it, its top-level code): it gets the load budget.
            if (now - at > (round === 0 ? this.#loadBudgetMs : budget))
              finish({ kind: 'timeout', round, turn });
          },
          Math.max(5, Math.min(250, budget / 4)),
        );
      });

    const stop = (failure: EvaluationFailure) => {
      result.failures.push(failure);
      result.stopped = true;
      this.#options.listener?.failure?.(policy, failure);
    };
    try {
      const unsent = post(thread, {
        kind: 'init',
        protocol: this.plan.protocol,
        policy: this.plan.policies[policy]!.source,
        settings: this.plan.settings,
        ...(shared ? { clock: shared } : {}),
      });
      if (unsent) {
        stop({ kind: 'crash', seed: pending[0] ?? 0, round: 0, turn: 0, reason: unsent });
        return;
      }
      const spawned = performance.now();
      const ready = await next(this.plan.startMs ?? 120_000, false);
      if (ready.kind === 'ready') {
        this.threadStarts.count++;
        this.threadStarts.ms += performance.now() - spawned;
      }
      if (ready.kind === 'cancelled') return;
      if (ready.kind !== 'ready') {
        const reason =
          ready.kind === 'init-failed'
            ? ready.error
            : ready.kind === 'exit'
              ? ready.reason
              : 'the evaluation thread did not start in time';
        stop({
          kind: ready.kind === 'exit' ? exitKind(reason) : 'environment',
          seed: pending[0] ?? 0,
          round: 0,
          turn: 0,
          reason,
        });
        return;
      }
      let id = 0;
      while (pending.length > 0 && !result.stopped && !this.#cancelled) {
        const seed = pending.shift()!;
        call = undefined;
        const unsent = post(thread, {
          kind: 'play',
          id: ++id,
          seed,
          rounds: this.plan.rounds,
          trace: this.plan.trace ?? false,
          ...(this.plan.record ? { record: true } : {}),
        });
        if (unsent) {
          this.#ended++;
          stop({ kind: 'crash', seed, round: 0, turn: 0, reason: unsent });
          return;
        }
        const played = this.#toPlayResult(await next(undefined, true));
        if (played.kind !== 'cancelled') this.#ended++;
        if (played.kind === 'cancelled') {
          pending.unshift(seed);
          return;
        }
        if (played.kind === 'failed') {
          stop({ seed, ...played.failure });
          return;
        }
        const { outcome, ms } = played;
        if (outcome.transcripts) this.#options.listener?.recorded?.(policy, seed, outcome.transcripts);
        if (outcome.fault) {
          const { message, location, round, turn } = outcome.fault;
          stop({ kind: 'fault', seed, round, turn, reason: formatLocated(message, location) });
          return;
        }
        if (outcome.error) {
          const failure: EvaluationFailure = {
            kind: 'environment',
            seed,
            round: outcome.rewards.length + 1,
            turn: 0,
            reason: outcome.error,
          };
          result.failures.push(failure);
          this.#options.listener?.failure?.(policy, failure);
          continue;
        }
        result.rewards.set(seed, outcome.rewards);
        for (const reward of outcome.rewards) result.summary.add(reward);
        countEarlyEnds(result.endedEarly, seed, outcome.endedEarly);
        result.episodes++;
        result.ms += ms;
        this.#options.listener?.episode?.({
          policy,
          seed,
          rewards: outcome.rewards,
          turns: outcome.turns,
          ...(outcome.endedEarly ? { endedEarly: outcome.endedEarly } : {}),
          ms,
          ...(outcome.trace ? { trace: outcome.trace } : {}),
          ...(outcome.transcripts ? { transcripts: outcome.transcripts } : {}),
        });
      }
    } finally {
      this.#threads.delete(thread);
      thread.terminate();
    }
  }

  #toPlayResult(answer: ThreadAnswer): PlayResult {
    switch (answer.kind) {
      case 'done':
        return { kind: 'done', outcome: answer.outcome, ms: answer.ms };
      case 'cancelled':
        return { kind: 'cancelled' };
      case 'timeout': {
        const reason =
          answer.round === 0
            ? `loading the policy took longer than ${this.#loadBudgetMs} ms; the thread was stopped`
            : `a call took longer than its budget of ${this.plan.budgetMs} ms on round ${answer.round}, turn ${answer.turn}; the thread was stopped`;
        return {
          kind: 'failed',
          failure: {
            kind: 'timeout',
            round: answer.round,
            turn: answer.turn,
            reason,
          },
        };
      }
      case 'exit':
        return {
          kind: 'failed',
          failure: { kind: exitKind(answer.reason), round: 0, turn: 0, reason: answer.reason },
        };
      default:
        return {
          kind: 'failed',
          failure: {
            kind: 'crash',
            round: 0,
            turn: 0,
            reason: `unexpected message from the thread: ${answer.kind}`,
          },
        };
    }
  }
}

/** Posts to a thread; says why when the message cannot be sent (it is not plain data). */
function post(thread: EvaluationThread, message: ToEvaluationThread): string | undefined {
  try {
    thread.post(message);
    return undefined;
  } catch (error) {
    return `cannot send to the evaluation thread: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** How a thread's own exit is classed: memory when its reason says so. */
function exitKind(reason: string): EvaluationFailure['kind'] {
  return /memory/i.test(reason) ? 'memory' : 'crash';
}

/** Mean, sd, interval and time per unit of one policy. */
export function policySummary(result: PolicyResult): Summary & { msPerEpisode: number | null } {
  return { ...result.summary.summary(), msPerEpisode: result.episodes ? result.ms / result.episodes : null };
}

/** Two policies compared on the seeds both played to the end, unit by unit. */
export interface Comparison {
  a: number;
  b: number;
  /** Seeds in common. */
  seeds: number;
  comparison: PairedComparison;
  /** In plain words (`B is better by ...`). */
  verdict: string;
}

/** Compares `b` with `a` on their common seeds (pairs: the same seed and round). */
export function compareResults(
  results: readonly PolicyResult[],
  a: number,
  b: number,
  unit: string,
): Comparison {
  const first = results[a]!;
  const second = results[b]!;
  const xs: number[] = [];
  const ys: number[] = [];
  let seeds = 0;
  for (const [seed, rewardsA] of first.rewards) {
    const rewardsB = second.rewards.get(seed);
    if (!rewardsB) continue;
    seeds++;
    const n = Math.min(rewardsA.length, rewardsB.length);
    for (let i = 0; i < n; i++) {
      xs.push(rewardsA[i]!);
      ys.push(rewardsB[i]!);
    }
  }
  const comparison = pairedComparison(xs, ys);
  return { a, b, seeds, comparison, verdict: verdict(first.label, second.label, comparison, { unit }) };
}

/** The first decision where two traces of the same seed differ; undefined when they never do. */
export function firstDivergence(
  a: readonly TraceStep[],
  b: readonly TraceStep[],
): { index: number; a?: TraceStep; b?: TraceStep } | undefined {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y || x.round !== y.round || x.turn !== y.turn || x.actions !== y.actions)
      return { index: i, ...(x ? { a: x } : {}), ...(y ? { b: y } : {}) };
  }
  return undefined;
}

/** `3 rounds` / `1 match`. */
export function countOf(n: number, unit: string): string {
  return `${n} ${n === 1 ? unit : plural(unit)}`;
}
