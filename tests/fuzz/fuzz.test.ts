/**
 * A fixed-seed sample of every fuzz target (bench/fuzz/targets.ts): about 1,000 generated and mutated
 * inputs in all. `npm run bench -- fuzz` runs many more. A failure prints the shrunk input and its seed.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { FUZZ_TARGETS } from '../../bench/fuzz/targets';

const RUNS_PER_TARGET = Math.ceil(1000 / FUZZ_TARGETS.length);

describe('fuzzing, fixed seed', () => {
  it.each(FUZZ_TARGETS.map((target) => [target.name, target] as const))('%s', (_name, target) => {
    fc.assert(
      fc.property(target.input, (input) => target.check(input)),
      { seed: 20261126, numRuns: RUNS_PER_TARGET },
    );
  });
});
