/**
 * The options and help of `protoplay connect gama`. The implementation (`connect.ts`) is loaded only when
 * the command runs.
 */
import type { CommandSpec } from '../../command-line/command-spec';
import { SIMULATION_OPTIONS } from './simulation-options';

/** The `connect` command of gama. */
export const connectCommand: CommandSpec = {
  summary: 'play the GAMA side against an API server (the original Python server, or `protoplay serve gama`)',
  description: [
    'Connects to the API server as GAMA does (one WebSocket shared by every scavenger), sends the scenario',
    "and one connect per scavenger, then asks for each scavenger's action every cycle, one at a time.",
    'Each episode is one connection, closed at its end; --episodes plays several in a row.',
  ].join('\n'),
  options: [
    {
      name: 'url',
      type: 'string',
      valueName: 'URL',
      description: 'the API server (default ws://127.0.0.1:3001)',
    },
    ...SIMULATION_OPTIONS,
    {
      name: 'episodes',
      type: 'string',
      valueName: 'N',
      description: 'episodes to play, one connection each (default 1)',
    },
    {
      name: 'timeout',
      type: 'string',
      valueName: 'S',
      description: 'seconds to wait for a reply before giving up (default 30; 0 waits for ever, as GAMA)',
    },
    {
      name: 'max-frame-bytes',
      type: 'string',
      valueName: 'N',
      description: 'longest frame accepted from the server (default 1048576)',
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
      description: 'print one JSON document (episodes and summary) instead of text',
    },
  ],
  examples: [
    'connect gama --url ws://127.0.0.1:3001 --scenario C',
    'connect gama --scenario A --cycles 200 --episodes 10 --observation rgb --json',
  ],
  handler: async (values, context) => (await import('./connect')).connectGama(values, context),
};
