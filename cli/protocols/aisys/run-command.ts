/**
 * The options and help of `protoplay run aisys`. The implementation (`run.ts`) is loaded only when the
 * command runs, so help stays instant.
 */
import type { CommandSpec } from '../../command-line/command-spec';
import { PARALLEL_OPTIONS, POLICY_OPTIONS } from './shared-options';

/** The `run` command of aisys. */
export const runCommand: CommandSpec = {
  summary: 'play N runs against the emulated course server and print their outcomes',
  description: [
    'The course client (parallel runs, as client.py plays them) and the emulated server, joined in memory:',
    'no HTTP, the same messages and transcript. The policy is a built-in or a .ts/.js file exporting',
    'act(percept, run, context); a file runs in a worker thread with a time budget per response.',
    'Each finished run prints its outcome as its reward.',
  ].join('\n'),
  options: [
    {
      name: 'env',
      type: 'string',
      valueName: 'ID',
      description:
        'environment: nim (random opponent, the default), nim-strong, wumpus-cave, halma, halma-3 or halma-rhombus',
    },
    ...POLICY_OPTIONS,
    { name: 'runs', type: 'string', valueName: 'N', description: 'runs to finish (default 100)' },
    {
      name: 'seed',
      type: 'string',
      valueName: 'N',
      description: "seed of the environment and of the policy's context.random() (default 0)",
    },
    ...PARALLEL_OPTIONS,
    {
      name: 'no-faithful-bugs',
      type: 'boolean',
      description: "fix the real server's bugs (finished runs unguarded...) instead of reproducing them",
    },
    {
      name: 'transcript',
      type: 'string',
      valueName: 'FILE',
      description: 'write the transcript (playground JSON format)',
    },
    {
      name: 'json',
      type: 'boolean',
      description: 'print one JSON document (runs and summary) instead of text',
    },
  ],
  examples: [
    'run aisys --env nim --policy optimal --runs 100',
    'run aisys --env nim-strong --policy my-policy.ts --runs 20 --seed 3 --json',
    'run aisys --env nim --policy random --no-parallel-runs --transcript nim.json',
    'run aisys --env wumpus-cave --policy explorer --runs 50',
    'run aisys --env halma-3 --policy greedy --runs 40',
  ],
  handler: async (values, context) => (await import('./run')).runAisys(values, context),
};
