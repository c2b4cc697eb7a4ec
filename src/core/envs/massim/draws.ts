/** Random draws in the forms the scenario configuration describes them. */
import type { Bounds } from './api';

/**
 * The random numbers a simulation draws: Protoplay's own generator (`Rng`) by default, or Java's
 * (`JavaRandom`) under the real server's semantics. `nextFloat` is a double in [0, 1).
 */
export interface SimRandom {
  nextInt(bound: number): number;
  nextFloat(): number;
}

/** A uniformly drawn integer in the inclusive range [lower, upper]. */
export function between(rng: SimRandom, [lower, upper]: Bounds): number {
  return lower + rng.nextInt(upper - lower + 1);
}

/** Shuffles a list in place (Fisher-Yates). */
export function shuffle<T>(rng: SimRandom, list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    const swap = list[i]!;
    list[i] = list[j]!;
    list[j] = swap;
  }
  return list;
}

/**
 * The draws Java's `Collections.shuffle` makes on a list of `count` elements (`nextInt(count)`, then
 * `nextInt(count - 1)` down to `nextInt(2)`; none for fewer than two), without a list: where the real
 * server shuffles a set whose order Protoplay cannot know, this keeps the random sequence in step.
 * Returns the first draw (0 when there is none).
 */
export function javaShuffleDraws(rng: SimRandom, count: number): number {
  if (count < 2) return 0;
  const first = rng.nextInt(count);
  for (let bound = count - 1; bound >= 2; bound--) rng.nextInt(bound);
  return first;
}
