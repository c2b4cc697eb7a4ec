/**
 * A long series drawn with a bounded number of points: the points are split into as many runs as the
 * chart has columns, and of each run only its first, lowest, highest and last points are kept, in order.
 * The line through what is kept covers the same pixels as the line through every point, so a chart of
 * 100,000 rounds costs what one of a few hundred does, however long the series grows.
 */

/** At most about `4 * columns` of `points`, in order, keeping each column's first, lowest, highest and last. */
export function thinPoints<T>(points: readonly T[], value: (point: T) => number, columns: number): T[] {
  return thinIndices(points.length, (i) => value(points[i]!), columns).map((i) => points[i]!);
}

/** The positions (of `count`, valued by `valueAt`) that `thinPoints` keeps, increasing. */
export function thinIndices(count: number, valueAt: (index: number) => number, columns: number): number[] {
  const runs = Math.max(1, Math.floor(columns));
  if (count <= runs * 4) return Array.from({ length: count }, (_, i) => i);
  const size = count / runs;
  const kept: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = Math.floor(run * size);
    const end = Math.min(count, Math.floor((run + 1) * size));
    if (end <= start) continue;
    let low = start;
    let high = start;
    let lowValue = valueAt(start);
    let highValue = lowValue;
    for (let i = start + 1; i < end; i++) {
      const v = valueAt(i);
      if (v < lowValue) [low, lowValue] = [i, v];
      if (v > highValue) [high, highValue] = [i, v];
    }
    const picks = [start, low, high, end - 1].sort((a, b) => a - b);
    for (const [k, i] of picks.entries()) if (k === 0 || i !== picks[k - 1]) kept.push(i);
  }
  return kept;
}

/**
 * Which of `count` points get a marker of their own when at most `markers` fit: all of them when they
 * fit, else every n-th (counted from the first) and the last, plus `also` (a selected point). Counted from
 * the first, the marks stay where they were as points are added (until n grows), so a chart that grows a
 * point per refresh adds a marker instead of moving them all.
 */
export function markedPoints(count: number, markers: number, also?: number): number[] {
  const stride = markStride(count, markers);
  const marked: number[] = [];
  for (let i = 0; i < count; i += stride) marked.push(i);
  if (count > 0 && marked[marked.length - 1] !== count - 1) marked.push(count - 1);
  if (also !== undefined && also >= 0 && also < count && !marked.includes(also)) {
    marked.push(also);
    marked.sort((a, b) => a - b);
  }
  return marked;
}

/** Every how many of `count` points `markedPoints` marks one, when at most `markers` fit. */
export function markStride(count: number, markers: number): number {
  const fit = Math.max(1, Math.floor(markers));
  return count <= fit ? 1 : Math.ceil(count / Math.max(1, fit - 1));
}
