/**
 * The social outcome metrics of Perolat et al. (2017), "A multi-agent reinforcement learning model of
 * common-pool resource appropriation", computed from one episode: how much was harvested (utilitarian
 * efficiency), how evenly (equality), how late in the episode (sustainability) and how little the
 * scavengers spent tagged out (peace).
 */

/** What the metrics need of each scavenger. */
export interface ScavengerOutcome {
  /** Total reward of the episode. */
  reward: number;
  /** Cycle (1-based) of every collection. */
  collectionCycles: readonly number[];
  /** Cycles spent in time-out. */
  timeOutCycles: number;
}

/** The four metrics of one episode. */
export interface SocialMetrics {
  /** U = sum of all rewards / T. */
  utilitarian: number;
  /** E = 1 - Gini coefficient of the rewards; 1 when nobody earned anything. */
  equality: number;
  /**
   * S = mean over scavengers of the mean cycle of their collections; null when nobody collected. Scavengers
   * that collected nothing are left out (their mean is undefined).
   */
  sustainability: number | null;
  /** P = (N T - cycles spent in time-out by all) / T: how many scavengers were on the map on average. */
  peace: number;
}

/** The metrics of an episode of `cycles` cycles (T). */
export function socialMetrics(outcomes: readonly ScavengerOutcome[], cycles: number): SocialMetrics {
  const n = outcomes.length;
  const t = Math.max(cycles, 1);
  const total = outcomes.reduce((sum, o) => sum + o.reward, 0);
  let differences = 0;
  for (const a of outcomes) for (const b of outcomes) differences += Math.abs(a.reward - b.reward);
  const means = outcomes
    .filter((o) => o.collectionCycles.length > 0)
    .map((o) => o.collectionCycles.reduce((sum, c) => sum + c, 0) / o.collectionCycles.length);
  const timeOut = outcomes.reduce((sum, o) => sum + o.timeOutCycles, 0);
  return {
    utilitarian: total / t,
    equality: total === 0 ? 1 : 1 - differences / (2 * n * total),
    sustainability: means.length ? means.reduce((sum, m) => sum + m, 0) / means.length : null,
    peace: (n * t - timeOut) / t,
  };
}
