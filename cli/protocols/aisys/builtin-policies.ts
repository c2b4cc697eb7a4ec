/**
 * The built-in policies' names, apart from the policies' code so that help, which lists them, loads none
 * of it.
 */

/** The samples `--policy` names without a file, by their command-line names. */
export const BUILTIN_SAMPLES: Readonly<Record<string, string>> = {
  optimal: 'nim-optimal',
  random: 'nim-random',
  'take-one': 'nim-take-one',
  notes: 'nim-notes',
  explorer: 'cave-explorer',
  greedy: 'halma-greedy',
};

/** The names `--policy` accepts besides a file. */
export const BUILTIN_AISYS_POLICIES: readonly string[] = Object.keys(BUILTIN_SAMPLES);
