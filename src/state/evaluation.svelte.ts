/**
 * The page's Evaluate and Compare: the core's `Evaluation` with a Web Worker per policy thread (as many at
 * a time as the machine has processors), folded into what the panel shows as episodes end: the rewards
 * (for the histogram and the curves), the summary with its 95% interval, time per unit, failures, and for
 * Compare the paired differences with their verdict and the first decision where the two policies differ.
 */
import { inProcessSideBySideThread, webWorkerSideBySideThread, type SideBySideThread } from './side-by-side';
import {
  compareResults,
  copyEarlyEnds,
  Evaluation,
  firstDivergence,
  type Comparison,
  type EarlyEnds,
  type EvaluatedPolicy,
  type EvaluationThread,
} from '../core/evaluation/evaluation';
import type { FromEvaluationThread } from '../core/evaluation/messages';
import { summarise, type Summary } from '../core/evaluation/statistics';
import type { Protocol } from '../core/protocols/contract';
import type { EvaluatedPolicySource, TraceStep } from '../core/protocols/evaluation-contract';
import type { Transcript } from '../core/transcript/model';
import { loadSavedVersions, storeSavedVersion } from '../storage/evaluation-storage';
import { EvaluationTabs } from './evaluation-tabs.svelte';

/** A policy version kept for comparison. */
export interface PolicySnapshot {
  label: string;
  source: EvaluatedPolicySource;
  savedAt: number;
}

/** What to play. */
export interface EvaluationRequest {
  protocol: Protocol;
  settings: unknown;
  seeds: number[];
  rounds: number;
  budgetMs: number;
}

/** One seed's mean reward for each policy (for the curves). */
export interface SeedPoint {
  seed: number;
  values: (number | undefined)[];
}

/** Where the first decisions of two policies on one seed part. */
export interface DivergenceReport {
  seed: number;
  /** Undefined when both took the same decisions all along. */
  step?: { round: number; turn: number; a?: string; b?: string };
  decisions: number;
  /** Both policies' decisions on the seed (the first compared policy first). */
  traces: [TraceStep[], TraceStep[]];
  /** Index of the first decision that differs in both traces (undefined when none does). */
  index?: number;
  /**
   * Both policies' transcripts of the seed, for the side-by-side view: one per unit when each unit is a
   * session of its own (MASSim's matches), otherwise one.
   */
  transcripts: [Transcript[], Transcript[]];
  /** One of the two failed on the seed (the reason, in a sentence): the transcripts end there. */
  failed?: string;
}

/** What Compare plays the current code against: the saved version, or another tab's code (its id). */
export type CompareBaseline = { kind: 'saved' } | { kind: 'tab'; id: string };

/** A Web Worker as an evaluation thread. */
function webWorkerThread(worker: Worker): EvaluationThread {
  return {
    post: (message) => worker.postMessage(message),
    listen(handlers) {
      worker.addEventListener('message', (event: MessageEvent<FromEvaluationThread>) =>
        handlers.message(event.data),
      );
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        handlers.exit(event.message || 'the evaluation worker failed');
      });
    },
    terminate: () => worker.terminate(),
  };
}

/** Evaluate and Compare, reactive. */
export class Evaluator {
  readonly #createWorker: () => Worker;
  #evaluation: Evaluation | undefined;

  status = $state<'idle' | 'running' | 'done' | 'cancelled'>('idle');
  mode = $state<'evaluate' | 'compare'>('evaluate');
  /** Labels of the policies of the last run (one for Evaluate, two for Compare: the saved one first). */
  labels = $state<string[]>([]);
  unit = $state('round');
  ended = $state(0);
  total = $state(0);
  /** Every unit's reward of each policy, in the order they ended. */
  rewards = $state<number[][]>([]);
  summaries = $state<(Summary | undefined)[]>([]);
  /** Time per unit (ms) of each policy, in its worker. */
  msPerUnit = $state<(number | undefined)[]>([]);
  points = $state<SeedPoint[]>([]);
  /** Units the environment ended early, by policy (rddlsim rounds ended at a broken precondition). */
  earlyEnds = $state<(EarlyEnds | undefined)[]>([]);
  failures = $state<string[]>([]);
  comparison = $state<Comparison | undefined>();
  /** The saved version Compare plays against the current code, by protocol id (kept across reloads). */
  saved = $state<Record<string, PolicySnapshot>>({});
  /** Other tabs' current code, for Compare. */
  readonly tabs = new EvaluationTabs();
  #restoring: Promise<void> | undefined;
  /** Raw state: the transcripts it holds are read, never changed, and may be long. */
  divergence = $state.raw<DivergenceReport | undefined>();
  divergenceBusy = $state(false);
  /** Seconds the last run took. */
  seconds = $state(0);
  #lastRequest: EvaluationRequest | undefined;
  #lastPolicies: EvaluatedPolicy[] = [];

  readonly #createSideBySideWorker: (() => Worker) | undefined;

  /**
   * `createSideBySideWorker` starts the worker that reads and lines up the transcripts of "Find where they
   * differ"; without one, that work runs on this thread.
   */
  constructor(createWorker: () => Worker, createSideBySideWorker?: () => Worker) {
    this.#createWorker = createWorker;
    this.#createSideBySideWorker = createSideBySideWorker;
  }

  /** A thread to read and line up a seed's transcripts side by side. */
  readonly sideBySideThread = (): SideBySideThread =>
    this.#createSideBySideWorker
      ? webWorkerSideBySideThread(this.#createSideBySideWorker())
      : inProcessSideBySideThread();

  get running(): boolean {
    return this.status === 'running';
  }

  /** Threads at a time: the processors the browser reports (at least one). */
  get workers(): number {
    return Math.max(1, globalThis.navigator?.hardwareConcurrency ?? 2);
  }

  /** Reads the saved versions stored before (once; later calls wait for the same read). */
  restoreSaved(): Promise<void> {
    this.#restoring ??= loadSavedVersions().then((stored) => {
      // A version saved while reading wins over the stored one.
      this.saved = { ...stored, ...this.saved };
    });
    return this.#restoring;
  }

  /** The version of `protocol` saved for Compare. */
  snapshotOf(protocol: string): PolicySnapshot | undefined {
    return this.saved[protocol];
  }

  /** Keeps this code as the version the next Compare plays against, here and across reloads. */
  async saveSnapshot(protocol: string, source: EvaluatedPolicySource): Promise<void> {
    const savedAt = Date.now();
    const time = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' }).format(
      savedAt,
    );
    const snapshot: PolicySnapshot = { label: `saved at ${time}`, source, savedAt };
    this.saved = { ...this.saved, [protocol]: snapshot };
    try {
      await storeSavedVersion(protocol, $state.snapshot(snapshot));
    } catch {
      this.failures = [
        ...this.failures,
        'the saved version could not be stored: it is kept until the page is closed',
      ];
    }
  }

  /** Plays the current code on every seed. */
  evaluate(request: EvaluationRequest, current: EvaluatedPolicySource): Promise<void> {
    return this.#run('evaluate', request, [{ label: 'current code', source: current }]);
  }

  /**
   * Plays the saved version (or another tab's current code) and the current code on the same seeds, and
   * compares them.
   */
  async compare(
    request: EvaluationRequest,
    current: EvaluatedPolicySource,
    baseline: CompareBaseline = { kind: 'saved' },
  ): Promise<void> {
    let first: EvaluatedPolicy | undefined;
    if (baseline.kind === 'saved') {
      const saved = this.snapshotOf(request.protocol.id);
      // The snapshot is reactive state (a proxy), which cannot be posted to a worker: send its plain copy.
      if (saved) first = { label: `saved version (${saved.label})`, source: $state.snapshot(saved.source) };
    } else {
      const peer = await this.tabs.latest(baseline.id);
      if (peer && peer.protocol === request.protocol.id)
        first = { label: `code of ${peer.label}`, source: $state.snapshot(peer.source) };
      else this.failures = [...this.failures, 'that tab has closed or changed protocol: pick another'];
    }
    if (!first) return;
    return this.#run('compare', request, [first, { label: 'current code', source: current }]);
  }

  /** Stops; what ended is kept. */
  cancel(): void {
    this.#evaluation?.cancel();
  }

  async #run(
    mode: 'evaluate' | 'compare',
    request: EvaluationRequest,
    policies: EvaluatedPolicy[],
  ): Promise<void> {
    const evaluationOf = request.protocol.evaluation;
    if (!evaluationOf || this.running) return;
    this.#evaluation?.cancel();
    this.mode = mode;
    this.status = 'running';
    this.labels = policies.map((p) => p.label);
    this.unit = evaluationOf.unit;
    this.ended = 0;
    this.total = policies.length * request.seeds.length;
    this.rewards = policies.map(() => []);
    this.summaries = policies.map(() => undefined);
    this.msPerUnit = policies.map(() => undefined);
    this.points = [];
    this.earlyEnds = policies.map(() => undefined);
    this.failures = [];
    this.comparison = undefined;
    this.divergence = undefined;
    this.#lastRequest = request;
    this.#lastPolicies = policies;
    const seedIndex: Record<number, number> = Object.fromEntries(request.seeds.map((seed, i) => [seed, i]));
    const points: SeedPoint[] = request.seeds.map((seed) => ({
      seed,
      values: policies.map(() => undefined),
    }));
    const evaluation = new Evaluation(
      {
        protocol: request.protocol.id,
        unit: evaluationOf.unit,
        settings: request.settings,
        policies,
        seeds: request.seeds,
        rounds: request.rounds,
        workers: this.workers,
        budgetMs: request.budgetMs,
      },
      {
        spawn: () => webWorkerThread(this.#createWorker()),
        listener: {
          episode: (record) => {
            this.rewards[record.policy]!.push(...record.rewards);
            const result = evaluation.results[record.policy]!;
            this.summaries[record.policy] = result.summary.summary();
            this.msPerUnit[record.policy] = result.summary.n ? result.ms / result.summary.n : undefined;
            if (record.endedEarly) this.earlyEnds[record.policy] = copyEarlyEnds(result.endedEarly);
            const point = points[seedIndex[record.seed]!]!;
            point.values[record.policy] = summarise(record.rewards).mean;
            this.points = points.filter((p) => p.values.some((v) => v !== undefined));
            this.ended = evaluation.progress.ended;
          },
          failure: (policy, failure) => {
            this.failures.push(
              `${policies[policy]!.label}: ${failure.kind} on seed ${failure.seed}: ${failure.reason}`,
            );
            this.ended = evaluation.progress.ended;
          },
        },
      },
    );
    this.#evaluation = evaluation;
    const started = performance.now();
    try {
      await evaluation.run();
    } catch (error) {
      evaluation.cancel();
      this.failures.push(`the evaluation stopped: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.seconds = (performance.now() - started) / 1000;
    this.ended = evaluation.progress.ended;
    if (mode === 'compare') this.comparison = compareResults(evaluation.results, 0, 1, evaluationOf.unit);
    this.status = evaluation.cancelled ? 'cancelled' : 'done';
  }

  /**
   * Plays one seed of the last Compare again with every decision and every message recorded, and finds
   * where the two part. Only this replay records transcripts: the evaluation itself keeps none.
   */
  async findDivergence(seed: number): Promise<void> {
    const request = this.#lastRequest;
    const evaluationOf = request?.protocol.evaluation;
    if (!request || !evaluationOf || this.#lastPolicies.length < 2 || this.divergenceBusy) return;
    this.divergenceBusy = true;
    try {
      const traces: (TraceStep[] | undefined)[] = [undefined, undefined];
      const transcripts: [Transcript[], Transcript[]] = [[], []];
      const evaluation = new Evaluation(
        {
          protocol: request.protocol.id,
          unit: evaluationOf.unit,
          settings: request.settings,
          policies: this.#lastPolicies,
          seeds: [seed],
          rounds: request.rounds,
          workers: 2,
          budgetMs: request.budgetMs,
          trace: true,
          record: true,
        },
        {
          spawn: () => webWorkerThread(this.#createWorker()),
          listener: {
            episode: (record) => (traces[record.policy] = record.trace ?? []),
            recorded: (policy, _seed, recorded) => (transcripts[policy === 0 ? 0 : 1] = recorded),
          },
        },
      );
      const results = await evaluation.run();
      const [a, b] = traces;
      if (!a || !b) {
        const failed = results.findIndex((r) => r.failures.length > 0);
        const reason = results[failed]?.failures[0]?.reason ?? 'it did not finish';
        const who = this.#lastPolicies[failed]?.label;
        this.failures = [
          ...this.failures,
          `seed ${seed} could not be replayed: ${who ? `${who}: ` : ''}${reason}`,
        ];
        // The messages up to the failure are still worth reading side by side, when both sides left some.
        this.divergence =
          transcripts[0].length > 0 && transcripts[1].length > 0
            ? {
                seed,
                decisions: Math.min(a?.length ?? 0, b?.length ?? 0),
                traces: [a ?? [], b ?? []],
                transcripts,
                failed: `${who ?? 'a policy'} failed on this seed: ${reason}`,
              }
            : undefined;
        return;
      }
      const found = firstDivergence(a, b);
      const where = found?.a ?? found?.b;
      this.divergence = {
        seed,
        decisions: Math.min(a.length, b.length),
        traces: [a, b],
        transcripts,
        ...(found ? { index: found.index } : {}),
        ...(found && where
          ? {
              step: {
                round: where.round,
                turn: where.turn,
                ...(found.a ? { a: found.a.actions } : {}),
                ...(found.b ? { b: found.b.actions } : {}),
              },
            }
          : {}),
      };
    } finally {
      this.divergenceBusy = false;
    }
  }
}
