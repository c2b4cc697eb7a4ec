import { describe, expect, it } from 'vitest';
import { binSteps } from '../../src/ui/step-bins';

describe('a round’s steps as bars', () => {
  it('gives one bar per step while they fit', () => {
    expect(binSteps([1, -2, 3], 10)).toEqual([
      { from: 1, to: 1, mean: 1, min: 1, max: 1 },
      { from: 2, to: 2, mean: -2, min: -2, max: -2 },
      { from: 3, to: 3, mean: 3, min: 3, max: 3 },
    ]);
  });

  it('draws a million steps with at most the bars that fit, covering every step once', () => {
    const rewards = Array.from({ length: 1_000_000 }, (_, i) => (i % 2 ? -1 : 1));
    const bins = binSteps(rewards, 300);
    expect(bins.length).toBeLessThanOrEqual(300);
    expect(bins[0]!.from).toBe(1);
    expect(bins[bins.length - 1]!.to).toBe(1_000_000);
    for (let i = 1; i < bins.length; i++) expect(bins[i]!.from).toBe(bins[i - 1]!.to + 1);
    expect(bins[0]).toMatchObject({ mean: 0, min: -1, max: 1 });
  });

  it('gives no bars for no steps', () => {
    expect(binSteps([], 100)).toEqual([]);
  });
});
