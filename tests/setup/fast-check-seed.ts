/**
 * Property tests draw their cases from one fixed seed, so `npm test` gives the same verdict on every run and
 * a failure is reproduced by running again. `FC_SEED=<number>` tries another seed; `FC_SEED=random` a new one
 * each run (printed by fast-check when a property fails). The fuzz benchmarks (`bench/fuzz`) are where
 * inputs are explored at length.
 */
import fc from 'fast-check';

const FIXED_SEED = 20_261_126;

function chosenSeed(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return FIXED_SEED;
  if (value === 'random') return undefined;
  const seed = Number(value);
  if (!Number.isSafeInteger(seed))
    throw new Error(`FC_SEED must be a whole number or "random", not ${value}`);
  return seed;
}

const seed = chosenSeed(process.env.FC_SEED);
if (seed !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
