/**
 * The options and help of `protoplay run gama`. The implementation (`run.ts`) is loaded only when the
 * command runs, so help stays instant.
 */
import type { CommandSpec } from '../../command-line/command-spec';
import { POLICY_OPTIONS } from './policy-options';
import { SIMULATION_OPTIONS } from './simulation-options';

/** The `run` command of gama. */
export const runCommand: CommandSpec = {
  summary: 'play episodes of the scavenger world locally, both sides in memory, and print the social metrics',
  description: [
    'Plays the GAMA side (the simulation) against the API side answered by the policy, in this process,',
    'one episode after another, exactly as they would talk over a WebSocket. The policy is a sample',
    '(random, greedy, sustainable) or a .ts/.js file exporting act(observation, reward, scavenger, context);',
    'a file runs in a worker thread with a time budget per call.',
  ].join('\n'),
  options: [
    ...SIMULATION_OPTIONS,
    ...POLICY_OPTIONS,
    { name: 'episodes', type: 'string', valueName: 'N', description: 'episodes to play (default 1)' },
    {
      name: 'transcript',
      type: 'string',
      valueName: 'FILE',
      description: 'write the transcript (playground JSON format)',
    },
    {
      name: 'frame-log',
      type: 'string',
      valueName: 'FILE',
      description: 'write the frames as a GAMA frame log',
    },
    {
      name: 'record-world',
      type: 'boolean',
      description:
        "record the world after every cycle in the transcript, for the playground's world view (large)",
    },
    {
      name: 'json',
      type: 'boolean',
      description: 'print one JSON document (episodes and summary) instead of text',
    },
  ],
  examples: [
    'run gama --scenario C --policy greedy --episodes 5',
    'run gama --scenario A --policy my-policy.ts --episodes 20 --json',
    'run gama --scenario D --policy sustainable --observation rgb --transcript out.json',
  ],
  handler: async (values, context) => (await import('./run')).runGama(values, context),
};
