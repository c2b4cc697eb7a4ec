/**
 * The options and help of `protoplay replay`. The implementation (`run-replay.ts`), the recording formats
 * and the emulated hosts are loaded only when the command runs, so other commands start without them.
 */
import type { OptionSpec, ToolCommandSpec } from '../command-line/command-spec';

const OPTIONS: readonly OptionSpec[] = [
  {
    name: 'protocol',
    type: 'string',
    valueName: 'P',
    description: 'read as this protocol (as `inspect`); default: detected',
  },
  {
    name: 'format',
    type: 'string',
    valueName: 'F',
    description: 'read in this format (as `inspect`); default: detected',
  },
  {
    name: 'environment',
    type: 'string',
    valueName: 'ID',
    description:
      'the environment to play a recording that does not name its own (the ids are listed when one is needed)',
  },
  {
    name: 'seed',
    type: 'string',
    valueName: 'N',
    description: 'the seed for a recording that does not carry its own; default: 0',
  },
  {
    name: 'config',
    type: 'string',
    valueName: 'FILE',
    description:
      "a file the recording's protocol takes instead of an environment (MASSim: the server's configuration)",
  },
  { name: 'json', type: 'boolean', description: 'print one JSON document instead of text' },
];

/** The `replay` command. */
export const replayCommand: ToolCommandSpec = {
  name: 'replay',
  summary:
    "play a recording's agent side again against the emulated server and print where the emulator and the recording differ",
  usage: 'protoplay replay FILE... [options]',
  description: [
    'Reads recordings as `inspect` does (several files of one recording together), then feeds every',
    "session's agent messages (actions, requests, replies) to a fresh emulated server set up as the",
    'recording says, and compares what it answers with what was recorded, message by message: the first',
    'difference with its message index, connection, where in the message and both values, and how many',
    'messages differ. A recording that does not say which environment it played needs --environment (or',
    '--config); the choices are listed.',
    'Exit 0 when the emulator reproduced every session; 1 when a message differs, a session cannot be',
    'replayed or a part of the files is unreadable; 2 on usage errors; 130 when interrupted.',
  ].join('\n'),
  options: OPTIONS,
  examples: [
    'protoplay replay sysadmin_inst_mdp__1.transcript',
    'protoplay replay all.timeline.jsonl --config events.json --json',
    'protoplay replay exchanges.har --environment nim --seed 3',
  ],
  handler: async (values, positionals, context) =>
    (await import('./run-replay')).runReplay(values, positionals, context),
};
