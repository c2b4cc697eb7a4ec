/** Options several aisys commands share, with one wording of their help. */
import type { OptionSpec } from '../../command-line/command-spec';
import { usageError } from '../../command-line/exit-codes';
import type { OptionReader } from '../../command-line/option-values';
import { BUILTIN_AISYS_POLICIES } from './builtin-policies';

/** `--policy` and `--budget`. */
export const POLICY_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'policy',
    type: 'string',
    valueName: `FILE|${BUILTIN_AISYS_POLICIES.join('|')}`,
    description:
      'policy file exporting act(percept, run, context), or a built-in (default: the one made for the environment: optimal on nim and nim-strong, explorer on wumpus-cave, greedy on the halma games; any other environment needs --policy)',
  },
  {
    name: 'budget',
    type: 'string',
    valueName: 'MS',
    description: "time a policy file may take for one response's action requests (default 1000)",
  },
];

/** `--parallel-runs` and `--no-parallel-runs`. */
export const PARALLEL_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'parallel-runs',
    type: 'boolean',
    description:
      "ask for several action requests per response (the environment's number, 5 for Nim; default)",
  },
  { name: 'no-parallel-runs', type: 'boolean', description: 'ask for one action request at a time' },
];

/** Whether to play runs in parallel, from the two flags. */
export function readParallelRuns(options: OptionReader): boolean {
  if (options.flag('parallel-runs') && options.flag('no-parallel-runs'))
    throw usageError('give --parallel-runs or --no-parallel-runs, not both');
  return !options.flag('no-parallel-runs');
}
