/**
 * Units an environment ended early, as an evaluation counts them: by reason, each with where it first
 * happened (the lowest seed, whatever order the seeds end in), at most `EARLY_END_REASONS` reasons kept (the rest count in the total only), and in words.
 */
import { describe, expect, it } from 'vitest';
import {
  countEarlyEnds,
  describeEarlyEnds,
  EARLY_END_REASONS,
  type EarlyEnds,
} from '../../../src/core/evaluation/evaluation';

describe('early ends of an evaluation', () => {
  it('counts by reason, keeping the seed and round where each first happened', () => {
    const ends: EarlyEnds = { units: 0, reasons: [] };
    countEarlyEnds(ends, 4, [
      { unit: 1, reason: 'precondition A' },
      { unit: 2, reason: 'precondition B' },
    ]);
    countEarlyEnds(ends, 5, undefined);
    countEarlyEnds(ends, 6, [{ unit: 0, reason: 'precondition A' }]);
    // Seeds end in any order across threads: the place kept is the lowest seed's first round.
    countEarlyEnds(ends, 2, [
      { unit: 3, reason: 'precondition B' },
      { unit: 4, reason: 'precondition B' },
    ]);
    expect(ends).toEqual({
      units: 5,
      reasons: [
        { reason: 'precondition A', units: 2, seed: 4, round: 2 },
        { reason: 'precondition B', units: 3, seed: 2, round: 4 },
      ],
    });
    expect(describeEarlyEnds(ends, 30, 'round')).toEqual({
      summary: '5 of 30 rounds ended early',
      reasons: [
        '2 rounds (first seed 4, round 2): precondition A',
        '3 rounds (first seed 2, round 4): precondition B',
      ],
    });
  });

  it('keeps a bounded number of reasons however many differ, and says how many units the others were', () => {
    const ends: EarlyEnds = { units: 0, reasons: [] };
    for (let seed = 1; seed <= 200; seed++)
      countEarlyEnds(ends, seed, [{ unit: 0, reason: `action reboot(c${seed}) is not applicable` }]);
    expect(ends.units).toBe(200);
    expect(ends.reasons).toHaveLength(EARLY_END_REASONS);
    expect(ends.reasons.map((entry) => entry.seed)).toEqual(
      Array.from({ length: EARLY_END_REASONS }, (_, i) => i + 1),
    );
    const told = describeEarlyEnds(ends, 200, 'round');
    expect(told.summary).toBe('200 of 200 rounds ended early');
    expect(told.reasons.at(-1)).toBe(`${200 - EARLY_END_REASONS} rounds for other reasons`);
  });
});
