import { describe, expect, it } from 'vitest';
import { markedPoints, thinIndices, thinPoints } from '../../src/ui/thin-points';

/** The lowest and highest value of each column, as a line drawn over `columns` columns would cover. */
function envelope(values: readonly number[], kept: readonly number[], columns: number) {
  const size = values.length / columns;
  const of = (indices: readonly number[]) =>
    Array.from({ length: columns }, (_, c) => {
      const inColumn = indices.filter((i) => Math.floor(i / size) === c).map((i) => values[i]!);
      return [Math.min(...inColumn), Math.max(...inColumn)];
    });
  return { all: of(values.map((_, i) => i)), kept: of(kept) };
}

describe('thinPoints', () => {
  it('keeps every point of a short series', () => {
    const points = [3, 1, 4, 1, 5];
    expect(thinPoints(points, (v) => v, 100)).toEqual(points);
  });

  it("keeps at most four points per column of a long series, in order, with each column's extremes", () => {
    const values = Array.from({ length: 100_000 }, (_, i) => Math.sin(i / 7) * 100 + (i % 13));
    const kept = thinIndices(values.length, (i) => values[i]!, 250);
    expect(kept.length).toBeLessThanOrEqual(1000);
    expect(kept.length).toBeGreaterThan(250);
    for (let i = 1; i < kept.length; i++) expect(kept[i]!).toBeGreaterThan(kept[i - 1]!);
    expect(kept[0]).toBe(0);
    expect(kept[kept.length - 1]).toBe(values.length - 1);
    const { all, kept: thinned } = envelope(values, kept, 250);
    expect(thinned).toEqual(all);
  });

  it('gives back the points themselves', () => {
    const rounds = Array.from({ length: 5000 }, (_, i) => ({
      round: i + 1,
      total: i === 2500 ? -50 : i % 10,
    }));
    const kept = thinPoints(rounds, (r) => r.total, 50);
    expect(kept.length).toBeLessThanOrEqual(200);
    expect(kept).toContain(rounds[2500]);
    expect(kept.every((r) => rounds[r.round - 1] === r)).toBe(true);
  });
});

describe('markedPoints', () => {
  it('marks every point when they fit', () => {
    expect(markedPoints(5, 10)).toEqual([0, 1, 2, 3, 4]);
  });

  it('marks every n-th point counted from the first, the last, and the selected one', () => {
    const marked = markedPoints(1000, 100);
    expect(marked.length).toBeLessThanOrEqual(100);
    expect(marked[0]).toBe(0);
    expect(marked[marked.length - 1]).toBe(999);
    expect(marked[1]! - marked[0]!).toBe(11);
    const withSelected = markedPoints(1000, 100, 3);
    expect(withSelected).toContain(3);
    expect(withSelected.length).toBe(marked.length + 1);
    for (let i = 1; i < withSelected.length; i++)
      expect(withSelected[i]!).toBeGreaterThan(withSelected[i - 1]!);
    expect(markedPoints(1000, 100, 999)).toEqual(marked);
    expect(markedPoints(1000, 100, 11)).toEqual(marked);
  });

  it('keeps the marks made as points are added, so a growing chart adds markers instead of moving them', () => {
    let moved = 0;
    for (let count = 500; count < 1500; count++) {
      const before = new Set(markedPoints(count, 100));
      const after = markedPoints(count + 1, 100);
      expect(after.length).toBeLessThanOrEqual(100);
      expect(after[after.length - 1]).toBe(count);
      // Only the old last point (and, when n grows, the marks between) may lose its mark.
      const lost = [...before].filter((i) => !after.includes(i) && i !== count - 1);
      if (lost.length) moved++;
    }
    // n grows a few times over a thousand points; every other step keeps every mark.
    expect(moved).toBeLessThan(12);
  });
});
