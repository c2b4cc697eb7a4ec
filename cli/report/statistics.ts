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

/**
 * The same summary folded as rewards come (Welford's running mean and sum of squares), so a session of
 * any number of rounds keeps three numbers instead of its rewards.
 */
export class RewardAccumulator {
  #count = 0;
  #mean = 0;
  #squares = 0;

  add(reward: number): void {
    this.#count++;
    const delta = reward - this.#mean;
    this.#mean += delta / this.#count;
    this.#squares += delta * (reward - this.#mean);
  }

  /** Rewards added so far. */
  get count(): number {
    return this.#count;
  }

  /** Their mean (NaN before the first). */
  get mean(): number {
    return this.#count ? this.#mean : NaN;
  }

  /** As `summariseRewards` of the rewards added. */
  summary(): RewardSummary {
    const n = this.#count;
    const mean = n ? this.#mean : NaN;
    if (n < 2) return { rounds: n, mean, standardDeviation: null, confidence95: null };
    const standardDeviation = Math.sqrt(this.#squares / (n - 1));
    const half = studentTQuantile(0.975, n - 1) * (standardDeviation / Math.sqrt(n));
    return { rounds: n, mean, standardDeviation, confidence95: [mean - half, mean + half] };
  }
}
