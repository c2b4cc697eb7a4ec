import { describe, expect, it } from 'vitest';
import { javaShuffleDraws, shuffle, type SimRandom } from '../../../../src/core/envs/massim/draws';
import { JavaRandom } from '../../../../src/core/java/random';

/** A generator that records every bound asked for and answers from a real JavaRandom. */
function logged(seed: number): SimRandom & { bounds: number[] } {
  const random = new JavaRandom(seed);
  const bounds: number[] = [];
  return {
    bounds,
    nextInt: (bound) => (bounds.push(bound), random.nextInt(bound)),
    nextFloat: () => random.nextFloat(),
  };
}

describe('javaShuffleDraws', () => {
  it("makes Collections.shuffle's draws: nextInt(n) down to nextInt(2), none below two", () => {
    for (const count of [0, 1, 2, 3, 6]) {
      const rng = logged(7);
      javaShuffleDraws(rng, count);
      expect(rng.bounds).toEqual(Array.from({ length: Math.max(count - 1, 0) }, (_, i) => count - i));
    }
  });

  it('leaves the generator where shuffling a list of that length does, and returns the first draw', () => {
    for (const count of [1, 2, 5, 9]) {
      const listed = logged(11);
      shuffle(
        listed,
        Array.from({ length: count }, (_, i) => i),
      );
      const counted = logged(11);
      const first = javaShuffleDraws(counted, count);
      expect(counted.bounds).toEqual(listed.bounds);
      expect(counted.nextInt(1000)).toBe(listed.nextInt(1000));
      expect(first).toBe(count < 2 ? 0 : new JavaRandom(11).nextInt(count));
    }
  });
});
