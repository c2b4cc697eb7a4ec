/**
 * A round's per-step rewards as at most a given number of bars: a round of a million turns is drawn with
 * as many bars as fit the chart, each the mean of the steps it covers, so the chart's size does not grow
 * with the round.
 */

/** One bar: steps `from` to `to` (1-based, inclusive) and their rewards' mean, least and greatest. */
export interface StepBin {
  from: number;
  to: number;
  mean: number;
  min: number;
  max: number;
}

/** The bars for `rewards`: one per step while they fit in `maxBars`, else runs of equal length. */
export function binSteps(rewards: readonly number[], maxBars: number): StepBin[] {
  const bars = Math.max(1, Math.floor(maxBars));
  const size = Math.max(1, Math.ceil(rewards.length / bars));
  const bins: StepBin[] = [];
  for (let start = 0; start < rewards.length; start += size) {
    const end = Math.min(rewards.length, start + size);
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    for (let i = start; i < end; i++) {
      const reward = rewards[i]!;
      sum += reward;
      if (reward < min) min = reward;
      if (reward > max) max = reward;
    }
    bins.push({ from: start + 1, to: end, mean: sum / (end - start), min, max });
  }
  return bins;
}
