/**
 * The results of an evaluation as one plain document (the JSON that `protoplay evaluate --out x.json`
 * writes and the page downloads) and as CSV rows (one per policy, then one per comparison). The schema is
 * documented in docs/evaluate.md; change both together.
 */
import {
  compareResults,
  copyEarlyEnds,
  countOf,
  type EarlyEnds,
  type EvaluationFailure,
  type EvaluationPlan,
  type PolicyResult,
} from './evaluation';

/** Schema version of the document. */
export const EVALUATION_REPORT_VERSION = 1;

/** One policy's line of the report. */
export interface PolicyReport {
  policy: string;
  /** `evaluated`: every seed played; `failed`: some failure (see `failures`); `interrupted`: cancelled. */
  status: 'evaluated' | 'failed' | 'interrupted';
  /** Seeds played to the end. */
  seeds: number;
  /** Units (rounds...) played in those seeds. */
  rounds: number;
  mean: number | null;
  sd: number | null;
  ci95: [number, number] | null;
  min: number | null;
  max: number | null;
  /** Time per unit, ms, in the policy's thread (the environment and the policy together). */
  msPerRound: number | null;
  failures: EvaluationFailure[];
  /** Seeds not played because the policy was stopped or the evaluation cancelled. */
  skippedSeeds: number;
  /** Rewards by seed (one per unit), for anyone who wants to redo the statistics. */
  rewards: Record<string, number[]>;
  /**
   * Units the environment ended before their end (rddlsim rounds ended at a broken precondition), by
   * reason, each with the seed and round where it first happened. Their rewards are in the statistics as
   * they are: this says why they are what they are.
   */
  endedEarly: EarlyEnds;
}

/** One paired comparison of the report. */
export interface ComparisonReport {
  policy: string;
  baseline: string;
  /** Seeds both played. */
  seeds: number;
  /** Pairs compared (same seed, same round). */
  pairs: number;
  /** Mean of policy - baseline over the pairs. */
  meanDifference: number | null;
  sd: number | null;
  ci95: [number, number] | null;
  t: number | null;
  p: number | null;
  verdict: string;
}

/** The whole report. */
export interface EvaluationReport {
  format: 'protoplay-evaluation';
  version: number;
  protocol: string;
  /** What was played (an instance name, a scenario...). */
  environment: string;
  unit: string;
  seeds: number[];
  roundsPerSeed: number;
  budgetMs: number;
  workers: number;
  status: 'complete' | 'failures' | 'interrupted';
  policies: PolicyReport[];
  comparisons: ComparisonReport[];
  /** Anything the runner adds (memory cap, isolation). */
  settings?: Record<string, unknown>;
}

/** Beyond this many policies, each is compared with the first only (all pairs would be too many). */
export const ALL_PAIRS_UP_TO = 8;

/** Builds the report of an evaluation that has run (or was cancelled). */
export function buildReport(
  plan: EvaluationPlan,
  results: readonly PolicyResult[],
  {
    environment,
    cancelled,
    settings,
  }: { environment: string; cancelled: boolean; settings?: Record<string, unknown> },
): EvaluationReport {
  const policies = results.map((result): PolicyReport => {
    const summary = result.summary.summary();
    const n = summary.n;
    return {
      policy: result.label,
      status:
        result.failures.length > 0 ? 'failed' : result.skipped > 0 || cancelled ? 'interrupted' : 'evaluated',
      seeds: result.episodes,
      rounds: n,
      mean: n ? summary.mean : null,
      sd: summary.sd,
      ci95: summary.ci95,
      min: n ? summary.min : null,
      max: n ? summary.max : null,
      msPerRound: n ? result.ms / n : null,
      failures: result.failures,
      skippedSeeds: result.skipped,
      rewards: Object.fromEntries(
        [...result.rewards].sort(([a], [b]) => a - b).map(([seed, r]) => [String(seed), r]),
      ),
      endedEarly: copyEarlyEnds(result.endedEarly),
    };
  });
  const comparisons: ComparisonReport[] = [];
  const all = results.length <= ALL_PAIRS_UP_TO;
  for (let b = 1; b < results.length; b++) {
    for (let a = 0; a < (all ? b : 1); a++) {
      const { seeds, comparison, verdict } = compareResults(results, a, b, plan.unit);
      comparisons.push({
        policy: results[b]!.label,
        baseline: results[a]!.label,
        seeds,
        pairs: comparison.n,
        meanDifference: comparison.n ? comparison.meanDifference : null,
        sd: comparison.sd,
        ci95: comparison.ci95,
        t: comparison.t,
        p: comparison.p,
        verdict,
      });
    }
  }
  const failed = policies.some((p) => p.status === 'failed');
  return {
    format: 'protoplay-evaluation',
    version: EVALUATION_REPORT_VERSION,
    protocol: plan.protocol,
    environment,
    unit: plan.unit,
    seeds: [...plan.seeds],
    roundsPerSeed: plan.rounds,
    budgetMs: plan.budgetMs,
    workers: plan.workers,
    status: cancelled ? 'interrupted' : failed ? 'failures' : 'complete',
    policies,
    comparisons,
    ...(settings ? { settings } : {}),
  };
}

/** CSV columns, in order. */
export const CSV_COLUMNS = [
  'kind',
  'policy',
  'baseline',
  'status',
  'seeds',
  'rounds',
  'mean',
  'sd',
  'ci95_low',
  'ci95_high',
  'min',
  'max',
  'ms_per_round',
  'p_value',
  'failures',
  'reason',
  'ended_early',
] as const;

/** The report as CSV: a `policy` row per policy, then a `comparison` row per comparison. */
export function reportCsv(report: EvaluationReport): string {
  const rows: (string | number | null)[][] = [[...CSV_COLUMNS]];
  for (const p of report.policies) {
    const first = p.failures[0];
    const reason = first
      ? `${first.kind} on seed ${first.seed}: ${first.reason}${p.failures.length > 1 ? ` (and ${countOf(p.failures.length - 1, 'more failure')})` : ''}`
      : p.status === 'interrupted'
        ? `interrupted after ${countOf(p.seeds, 'seed')}`
        : '';
    rows.push([
      'policy',
      p.policy,
      '',
      p.status,
      p.seeds,
      p.rounds,
      p.mean,
      p.sd,
      p.ci95?.[0] ?? null,
      p.ci95?.[1] ?? null,
      p.min,
      p.max,
      p.msPerRound,
      null,
      p.failures.length,
      reason,
      p.endedEarly.units,
    ]);
  }
  for (const c of report.comparisons) {
    rows.push([
      'comparison',
      c.policy,
      c.baseline,
      '',
      c.seeds,
      c.pairs,
      c.meanDifference,
      c.sd,
      c.ci95?.[0] ?? null,
      c.ci95?.[1] ?? null,
      null,
      null,
      null,
      c.p,
      null,
      c.verdict,
      null,
    ]);
  }
  return rows.map((row) => row.map(csvField).join(',')).join('\n') + '\n';
}

function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
