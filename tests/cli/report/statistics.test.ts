import { describe, expect, it } from 'vitest';
import { studentTQuantile, summariseRewards } from '../../../cli/report/statistics';

describe('studentTQuantile', () => {
  // Two-sided 95% critical values from statistics tables.
  it.each([
    [1, 12.7062],
    [2, 4.3027],
    [7, 2.3646],
    [10, 2.2281],
    [30, 2.0423],
    [1000, 1.9623],
  ])('gives t(0.975, %i) = %f', (df, expected) => {
    expect(studentTQuantile(0.975, df)).toBeCloseTo(expected, 4);
  });
});

describe('summariseRewards', () => {
  it('gives the mean, the sample standard deviation and the t interval', () => {
    const summary = summariseRewards([2, 4, 4, 4, 5, 5, 7, 9]);
    const sd = Math.sqrt(32 / 7);
    expect(summary.rounds).toBe(8);
    expect(summary.mean).toBe(5);
    expect(summary.standardDeviation).toBeCloseTo(sd, 12);
    const half = (2.364624 * sd) / Math.sqrt(8);
    expect(summary.confidence95![0]).toBeCloseTo(5 - half, 5);
    expect(summary.confidence95![1]).toBeCloseTo(5 + half, 5);
  });

  it('has no spread or interval for a single round, and no mean for none', () => {
    expect(summariseRewards([3.5])).toEqual({
      rounds: 1,
      mean: 3.5,
      standardDeviation: null,
      confidence95: null,
    });
    expect(summariseRewards([]).mean).toBeNaN();
  });
});
