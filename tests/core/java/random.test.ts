import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JavaRandom } from '../../../src/core/java/random';
import { shuffle } from '../../../src/core/envs/massim/draws';

/**
 * Values printed by a JDK 17 `java.util.Random` (see tests/data/java/README.md): per seed, five `nextInt()`,
 * then `nextInt(bound)` for a list of bounds (powers of two, the rejection loop's worst case 2^30 + 1, and
 * Integer.MAX_VALUE), four `nextDouble()`, six `nextBoolean()`, `Collections.shuffle` of 0..6 and one more
 * `nextInt(1000)`, all from one generator in that order.
 */
interface Reference {
  seed: string;
  ints: number[];
  bounded: [number, number][];
  doubles: number[];
  booleans: boolean[];
  shuffled: number[];
  after: number;
}

const references = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../data/java/random-reference.json'), 'utf8'),
) as Reference[];

describe('JavaRandom', () => {
  it('has reference values for eight seeds, including both ends of the long range', () => {
    expect(references.map((r) => r.seed)).toContain('-9223372036854775808');
    expect(references).toHaveLength(8);
  });

  for (const reference of references) {
    it(`draws what java.util.Random draws for seed ${reference.seed}`, () => {
      const random = new JavaRandom(BigInt(reference.seed));
      expect(Array.from({ length: 5 }, () => random.nextInt32())).toEqual(reference.ints);
      expect(reference.bounded.map(([bound]) => [bound, random.nextInt(bound)])).toEqual(reference.bounded);
      expect(Array.from({ length: 4 }, () => random.nextDouble())).toEqual(reference.doubles);
      expect(Array.from({ length: 6 }, () => random.nextBoolean())).toEqual(reference.booleans);
      // Collections.shuffle on an ArrayList: i from size down to 2, swap(i - 1, nextInt(i)).
      expect(shuffle(random, [0, 1, 2, 3, 4, 5, 6])).toEqual(reference.shuffled);
      expect(random.nextInt(1000)).toBe(reference.after);
    });
  }

  it('accepts a plain number seed and setSeed restarts the sequence', () => {
    const random = new JavaRandom(42);
    const first = [random.nextInt(100), random.nextDouble()];
    random.setSeed(42);
    expect([random.nextInt(100), random.nextDouble()]).toEqual(first);
    expect(new JavaRandom(42).nextInt32()).toBe(new JavaRandom(42n).nextInt32());
  });

  it('refuses bounds Java refuses', () => {
    const random = new JavaRandom(1);
    expect(() => random.nextInt(0)).toThrow(/positive Java int/);
    expect(() => random.nextInt(2 ** 31)).toThrow(/positive Java int/);
    expect(() => random.nextInt(1.5)).toThrow(/positive Java int/);
  });
});
