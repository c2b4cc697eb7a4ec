import { describe, expect, it } from 'vitest';
import { readWholeNumber } from '../../src/state/whole-number';

const rounds = { name: 'Rounds', min: 1, max: 1000 };

describe('readWholeNumber', () => {
  it('reads whole numbers within the range', () => {
    expect(readWholeNumber('1', rounds)).toEqual({ ok: true, value: 1 });
    expect(readWholeNumber(' 1000 ', rounds)).toEqual({ ok: true, value: 1000 });
  });

  it('refuses 0 and negative rounds, saying the range', () => {
    expect(readWholeNumber('0', rounds)).toEqual({
      ok: false,
      message: 'Rounds: 0 is out of range (from 1 to 1,000)',
    });
    expect(readWholeNumber('-3', rounds)).toEqual({
      ok: false,
      message: 'Rounds: -3 is out of range (from 1 to 1,000)',
    });
    expect(readWholeNumber('1001', rounds).ok).toBe(false);
  });

  it('refuses empty, fractional and non-numeric text', () => {
    expect(readWholeNumber('', rounds)).toEqual({
      ok: false,
      message: 'Rounds: enter a whole number from 1 to 1,000',
    });
    expect(readWholeNumber('2.5', rounds)).toEqual({
      ok: false,
      message: "Rounds: '2.5' is not a whole number (from 1 to 1,000)",
    });
    expect(readWholeNumber('1e3', rounds).ok).toBe(false);
  });
});
