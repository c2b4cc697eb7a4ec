import { describe, expect, it } from 'vitest';
import { parseSeeds } from '../../../src/core/evaluation/seeds';
import { firstDivergence } from '../../../src/core/evaluation/evaluation';

describe('parseSeeds', () => {
  it('reads ranges and lists, in order, once each', () => {
    expect(parseSeeds('1..5')).toEqual([1, 2, 3, 4, 5]);
    expect(parseSeeds('7, 1..3, 2, -1')).toEqual([7, 1, 2, 3, -1]);
  });

  it('says what is wrong', () => {
    expect(() => parseSeeds('5..1')).toThrow("seed range '5..1' ends before it starts");
    expect(() => parseSeeds('1,,2')).toThrow('empty entry');
    expect(() => parseSeeds('a')).toThrow("'a' is not a seed");
    expect(() => parseSeeds('1..10', { max: 5 })).toThrow('more than 5 seeds');
  });
});

describe('firstDivergence', () => {
  const step = (round: number, turn: number, actions: string) => ({ round, turn, actions });
  it('finds the first decision that differs, or none', () => {
    const a = [step(1, 1, '[]'), step(1, 2, '[1]'), step(1, 3, '[]')];
    expect(firstDivergence(a, a)).toBeUndefined();
    expect(firstDivergence(a, [step(1, 1, '[]'), step(1, 2, '[2]')])).toEqual({
      index: 1,
      a: a[1],
      b: step(1, 2, '[2]'),
    });
    expect(firstDivergence(a, a.slice(0, 2))).toEqual({ index: 2, a: a[2] });
  });
});
