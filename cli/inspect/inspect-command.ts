/**
 * The options and help of `protoplay inspect`. The implementation (`run-inspect.ts`) and the protocols'
 * recording formats are loaded only when the command runs or shows its own help, so other commands and
 * the general help start without them.
 */
import type { OptionSpec, ToolCommandSpec } from '../command-line/command-spec';

const OPTIONS: readonly OptionSpec[] = [
  {
    name: 'protocol',
    type: 'string',
    valueName: 'P',
    description: 'read as this protocol (see the list below); default: detected',
  },
  {
    name: 'format',
    type: 'string',
    valueName: 'F',
    description: 'read in this format (see the list below); default: detected',
  },
  { name: 'json', type: 'boolean', description: 'print one JSON document instead of text' },
  {
    name: 'stream',
    type: 'boolean',
    description:
      'read each file in chunks, one session per file (automatic from 64 MiB when the format allows)',
  },
];

/** The `inspect` command. */
export const inspectCommand: ToolCommandSpec = {
  name: 'inspect',
  summary: 'read recorded sessions of any protocol, check them against its rules and print what they hold',
  usage: 'protoplay inspect FILE... [options]',
  description: [
    'Reads Protoplay JSON transcripts and every recording format of the registered protocols; several',
    'files of one recording go together (e.g. a .c2s.raw and its .s2c.raw), and several Protoplay JSON',
    'transcripts of one protocol are one session each.',
    'Exit 0 when everything was read and no rule was broken; 1 when there are violations or unreadable',
    'parts (all that could be read is still printed); 2 on usage errors.',
  ].join('\n'),
  helpDetails: async () => (await import('./run-inspect')).formatList(),
  options: OPTIONS,
  examples: [
    'protoplay inspect session.transcript',
    'protoplay inspect agent.c2s.raw agent.s2c.raw --json',
    'protoplay inspect all.timeline.jsonl --protocol massim',
  ],
  handler: async (values, positionals, context) =>
    (await import('./run-inspect')).runInspect(values, positionals, context),
};
