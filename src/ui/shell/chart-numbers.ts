/** Numbers as the evaluation's charts show them. */
import { extent } from 'd3';

/** A reward for a tick or a tooltip: whole above 1000, four significant digits below. */
export function formatReward(value: number): string {
  return Math.abs(value) >= 1000 ? value.toFixed(0) : Number(value.toPrecision(4)).toString();
}

/** The values' range, one either side of a lone value, `[0, 1]` for none. */
export function valueDomain(values: Iterable<number>): [number, number] {
  const [lo, hi] = extent(values);
  if (lo === undefined || hi === undefined) return [0, 1];
  return lo === hi ? [lo - 1, hi + 1] : [lo, hi];
}
