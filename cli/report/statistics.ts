/**
 * Summary statistics of per-round rewards: mean, sample standard deviation and the 95% confidence interval
 * of the mean from Student's t distribution (rounds are few, so the normal 1.96 would be too narrow).
 */
import { studentTQuantile } from '../../src/core/evaluation/statistics';

export { studentTQuantile };

/** What the command lines print under the per-round rewards. */
export interface RewardSummary {
  rounds: number;
  mean: number;
  /** Sample standard deviation (n - 1); null with fewer than two rounds. */
  standardDeviation: number | null;
  /** 95% confidence interval of the mean; null with fewer than two rounds. */
  confidence95: [number, number] | null;
}

/** Summarises a list of rewards (NaN mean when empty). */
export function summariseRewards(rewards: readonly number[]): RewardSummary {
  const n = rewards.length;
  const mean = n ? rewards.reduce((sum, x) => sum + x, 0) / n : NaN;
  if (n < 2) return { rounds: n, mean, standardDeviation: null, confidence95: null };
  const variance = rewards.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (n - 1);
  const standardDeviation = Math.sqrt(variance);
  const half = studentTQuantile(0.975, n - 1) * (standardDeviation / Math.sqrt(n));
  return { rounds: n, mean, standardDeviation, confidence95: [mean - half, mean + half] };
}
