import { describe, expect, it } from 'vitest';
import { socialMetrics } from '../../../../src/core/envs/scavenger';

describe('socialMetrics', () => {
  it('computes utilitarian efficiency, equality, sustainability and peace', () => {
    const metrics = socialMetrics(
      [
        { reward: 10, collectionCycles: [10, 30], timeOutCycles: 0 },
        { reward: 5, collectionCycles: [50], timeOutCycles: 25 },
        { reward: 0, collectionCycles: [], timeOutCycles: 50 },
      ],
      100,
    );
    expect(metrics.utilitarian).toBeCloseTo(0.15);
    // Gini: sum |Ri - Rj| = 2 (5 + 10 + 5) = 40; 40 / (2 * 3 * 15) = 4/9.
    expect(metrics.equality).toBeCloseTo(1 - 4 / 9);
    expect(metrics.sustainability).toBeCloseTo((20 + 50) / 2);
    expect(metrics.peace).toBeCloseTo((300 - 75) / 100);
  });

  it('calls an episode where nobody collected equal, with no sustainability figure', () => {
    const metrics = socialMetrics([{ reward: 0, collectionCycles: [], timeOutCycles: 0 }], 10);
    expect(metrics).toEqual({ utilitarian: 0, equality: 1, sustainability: null, peace: 1 });
  });

  it('gives equality 1 - (N - 1) / N when one of N takes everything', () => {
    const metrics = socialMetrics(
      [
        { reward: 20, collectionCycles: [1, 2, 3, 4], timeOutCycles: 0 },
        { reward: 0, collectionCycles: [], timeOutCycles: 0 },
        { reward: 0, collectionCycles: [], timeOutCycles: 0 },
        { reward: 0, collectionCycles: [], timeOutCycles: 0 },
      ],
      4,
    );
    expect(metrics.equality).toBeCloseTo(0.25);
  });
});
