/**
 * `protoplay evaluate <protocol>`: the options every protocol shares (policies, seeds, workers, budget,
 * memory, output) and the protocol's own environment options, as for `run`. The implementation is loaded
 * only when the command runs, so help stays instant.
 */
import type { CommandContext, CommandSpec, OptionSpec, OptionValues } from '../command-line/command-spec';

/** What a protocol adds to `evaluate`: its environment options and how they become settings. */
export interface EvaluateEnvironment {
  /** The protocol id. */
  protocol: string;
  /** Environment options, as `run` has them. */
  options: readonly OptionSpec[];
  /** Paragraph about the environment, for help. */
  description: string;
  examples: readonly string[];
  /** Default units per seed (rounds of a session). */
  defaultRounds: number;
  /** Reads the environment options; throws a CliError for bad ones (located for bad files). */
  settings(values: OptionValues, context: CommandContext): Promise<{ settings: unknown; label: string }>;
}

/** The options every protocol's `evaluate` has. */
export const EVALUATE_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'policies',
    type: 'string',
    multiple: true,
    valueName: 'DIR|FILE...',
    description: 'policy files (.ts/.js), or directories of them; several may follow one --policies',
  },
  {
    name: 'seeds',
    type: 'string',
    valueName: 'LIST',
    description: 'seeds to play, e.g. 1..100 or 1,5,9..12 (default 1..30)',
  },
  {
    name: 'rounds',
    type: 'string',
    valueName: 'N',
    description: 'units per seed (rounds of a session, for protocols that have them)',
  },
  {
    name: 'workers',
    type: 'string',
    valueName: 'K',
    description: 'threads at a time (default: the number of processors); a thread plays one policy',
  },
  {
    name: 'budget',
    type: 'string',
    valueName: 'MS',
    description: 'time a policy call may take (default 1000)',
  },
  {
    name: 'memory',
    type: 'string',
    valueName: 'MB',
    description: "heap cap of a policy's thread (default 512)",
  },
  {
    name: 'out',
    type: 'string',
    multiple: true,
    valueName: 'FILE',
    description: 'write the results: .csv (a row per policy and comparison) or .json (everything)',
  },
  { name: 'json', type: 'boolean', description: 'print the JSON document instead of text' },
  {
    name: 'isolation',
    type: 'string',
    valueName: 'thread|none',
    description:
      'thread (default): each policy in its own worker thread; none: in this process, for trusted code only (no budget, no memory cap)',
  },
];

/** The `evaluate` command of a protocol. */
export function evaluateCommand(environment: EvaluateEnvironment): CommandSpec {
  return {
    summary: 'play policies on many seeds, each in its own thread, and compare them',
    description: [
      environment.description,
      'Each policy plays every seed in a worker thread of its own, with a time budget per call and a memory',
      'cap; a policy that throws, overruns or runs out of memory is reported with the reason and the others',
      'go on. With two or more policies, each is compared with the first on the seeds both played (paired',
      't-test). Exit code 0 when every policy played every seed, 1 when some failed.',
    ].join('\n'),
    options: [...environment.options, ...EVALUATE_OPTIONS],
    restOption: 'policies',
    examples: environment.examples,
    handler: async (values, context) =>
      (await import('./evaluate')).runEvaluate(values, context, environment),
  };
}
