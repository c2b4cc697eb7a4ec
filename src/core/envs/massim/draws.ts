/** Random draws in the forms the scenario configuration describes them. */
import type { Rng } from '../../random';
import type { Bounds } from './api';

/** A uniformly drawn integer in the inclusive range [lower, upper]. */
export function between(rng: Rng, [lower, upper]: Bounds): number {
  return lower + rng.nextInt(upper - lower + 1);
}

/** Shuffles a list in place (Fisher-Yates). */
export function shuffle<T>(rng: Rng, list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    const swap = list[i]!;
    list[i] = list[j]!;
    list[j] = swap;
  }
  return list;
}
