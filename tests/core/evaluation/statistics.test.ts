/**
 * Reference values computed independently with SciPy 1.17 (scipy.stats.ttest_rel, stats.t.interval,
 * stats.t.ppf, stats.t.sf) on the same data.
 */
import { describe, expect, it } from 'vitest';
import {
  pairedComparison,
  RunningSummary,
  studentTQuantile,
  studentTTwoSidedP,
  summarise,
  verdict,
} from '../../../src/core/evaluation/statistics';

const A = [12.1, 14.3, 9.8, 11.0, 13.7, 10.2, 12.9, 15.1];
const B = [13.0, 15.9, 10.1, 12.4, 13.2, 12.0, 14.4, 16.3];

describe('summarise', () => {
  it('gives the mean, sample sd and the Student t 95% interval', () => {
    const s = summarise(A);
    expect(s.n).toBe(8);
    expect(s.mean).toBeCloseTo(12.3875, 10);
    expect(s.sd).toBeCloseTo(1.945278165933382, 10);
    expect(s.ci95![0]).toBeCloseTo(10.76120675489022, 8);
    expect(s.ci95![1]).toBeCloseTo(14.01379324510978, 8);
    expect([s.min, s.max]).toEqual([9.8, 15.1]);
  });

  it('has no spread or interval with one value, and a NaN mean with none', () => {
    expect(summarise([3])).toMatchObject({ n: 1, mean: 3, sd: null, ci95: null });
    expect(summarise([]).mean).toBeNaN();
  });

  it('folds values one by one without losing precision on a large offset', () => {
    const running = new RunningSummary();
    for (const x of [1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16]) running.add(x);
    // Variance of 4, 7, 13, 16 is 30: a naive sum of squares at 1e18 would lose it.
    expect(running.summary().sd).toBeCloseTo(Math.sqrt(30), 6);
  });
});

describe("Student's t", () => {
  const references: [number, number, number][] = [
    // df, t.ppf(0.975, df), 2 * t.sf(2.5, df)
    [1, 12.706204736174694, 0.24223788318168682],
    [2, 4.302652729749462, 0.12961172022151082],
    [5, 2.5705818356363146, 0.05449009934237626],
    [30, 2.0422724563012378, 0.01811564906806669],
    [199, 1.9719565442517533, 0.013227259966507704],
    [1000, 1.9623390808264083, 0.012578567801090807],
  ];
  it.each(references)('df %i: quantile and two-sided p match SciPy', (df, quantile, p) => {
    expect(studentTQuantile(0.975, df)).toBeCloseTo(quantile, 7);
    expect(studentTTwoSidedP(2.5, df)).toBeCloseTo(p, 10);
    expect(studentTTwoSidedP(-2.5, df)).toBeCloseTo(p, 10);
  });
});

describe('pairedComparison', () => {
  it('matches a paired t-test', () => {
    const c = pairedComparison(A, B);
    expect(c.n).toBe(8);
    expect(c.meanDifference).toBeCloseTo(1.025, 10);
    expect(c.sd).toBeCloseTo(0.774135462490716, 10);
    expect(c.t).toBeCloseTo(3.7450006405043275, 8);
    expect(c.p).toBeCloseTo(0.007215284575601337, 8);
    expect(c.ci95![0]).toBeCloseTo(0.3778065571822691, 8);
    expect(c.ci95![1]).toBeCloseTo(1.6721934428177312, 8);
  });

  it('is antisymmetric', () => {
    const c = pairedComparison(B, A);
    expect(c.meanDifference).toBeCloseTo(-1.025, 10);
    expect(c.p).toBeCloseTo(0.007215284575601337, 8);
  });

  it('handles identical and constantly shifted pairs, and refuses unequal lengths', () => {
    expect(pairedComparison([1, 2, 3], [1, 2, 3])).toMatchObject({ meanDifference: 0, p: 1 });
    expect(pairedComparison([1, 2, 3], [3, 4, 5])).toMatchObject({ meanDifference: 2, p: 0 });
    expect(pairedComparison([1], [2])).toMatchObject({ n: 1, p: null, ci95: null });
    expect(() => pairedComparison([1, 2], [1])).toThrow(/length/);
  });
});

describe('verdict', () => {
  it('names the better policy with the half-width of the interval and the p-value', () => {
    expect(verdict('A', 'B', pairedComparison(A, B), { unit: 'round' })).toBe(
      'B is better by 1.03 ± 0.65 per round, p < 0.01',
    );
    expect(verdict('A', 'B', pairedComparison(B, A), { unit: 'round', digits: 1 })).toBe(
      'A is better by 1.0 ± 0.6 per round, p < 0.01',
    );
  });

  it('says when nothing can be told apart', () => {
    const a = [1, 5, 2, 8, 3, 7];
    const b = [2, 4, 3, 7, 2, 8];
    const c = pairedComparison(a, b);
    expect(c.p!).toBeGreaterThan(0.05);
    expect(verdict('A', 'B', c, { unit: 'round' })).toMatch(/^no detectable difference with 6 rounds \(p = /);
    expect(verdict('A', 'B', pairedComparison([1, 2], [1, 2]), { unit: 'match' })).toBe(
      'no difference: the same reward on all 2 matches',
    );
    expect(verdict('A', 'B', pairedComparison([1], [2]), { unit: 'run' })).toMatch(/^too few runs/);
    expect(verdict('A', 'B', pairedComparison([1, 2, 3], [2, 3, 4]), { unit: 'round' })).toBe(
      'B is better by 1.00 on every one of 3 rounds, p < 0.001',
    );
  });
});
