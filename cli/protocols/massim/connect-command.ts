/**
 * The options and help of `protoplay connect massim`. The implementation (`connect.ts`) is loaded only
 * when the command runs.
 */
import type { CommandSpec } from '../../command-line/command-spec';
import { TEAM_POLICY_OPTIONS } from './policy-options';

/** The `connect` command of MASSim. */
export const connectCommand: CommandSpec = {
  summary: 'play a team against a real MASSim server (or protoplay serve) over TCP',
  description: [
    'Opens one connection per agent (agentA1..agentAN for --team A --agents N), logs them in, and answers',
    "every request-action with the team policy: one of the playground's samples (skip, random, explorer,",
    'fetcher) or a .ts/.js file exporting act(percept, agent, team, context), run as in the playground in a',
    "worker thread that gets each step of the whole team in one call. Prints every step and each simulation's",
    'score and rank, records every frame of every agent in the transcript, and leaves after bye (or when the',
    'server closes after sim-end, as the real server may lose bye). If the server refuses a login, closes',
    'a connection during a simulation, stays silent for --timeout seconds while it owes an answer, or sends',
    'something the protocol does not allow, the command says what happened, keeps the transcript and exits',
    'non-zero.',
  ].join('\n'),
  options: [
    { name: 'host', type: 'string', valueName: 'ADDRESS', description: 'server address (default 127.0.0.1)' },
    { name: 'port', type: 'string', valueName: 'N', description: 'server port (default 12300)' },
    { name: 'team', type: 'string', valueName: 'NAME', description: 'the team to play, e.g. A (required)' },
    {
      name: 'agents',
      type: 'string',
      valueName: 'N',
      description: 'agents of the team to connect, numbered from 1 (default 1)',
    },
    { name: 'password', type: 'string', valueName: 'TEXT', description: "the team's password (default 1)" },
    {
      name: 'prefix',
      type: 'string',
      valueName: 'TEXT',
      description: 'account prefix: accounts are prefix + team + i (default agent)',
    },
    {
      name: 'policy',
      type: 'string',
      valueName: 'FILE|skip|random|explorer|fetcher',
      description: 'the team policy (default random)',
    },
    {
      name: 'timeout',
      type: 'string',
      valueName: 'S',
      description:
        'give up when the server sends nothing for S seconds during the login or a simulation; 0 = wait forever (default 30). Before the first simulation it waits as long as the server does',
    },
    {
      name: 'seed',
      type: 'string',
      valueName: 'N',
      description: "seed of the built-ins and of a file's random() (default 0)",
    },
    ...TEAM_POLICY_OPTIONS,
    {
      name: 'transcript',
      type: 'string',
      valueName: 'FILE',
      description: 'write the transcript (playground JSON format), also when the session fails',
    },
    {
      name: 'json',
      type: 'boolean',
      description: 'print one JSON document (scores, status) instead of text',
    },
    { name: 'quiet', type: 'boolean', description: 'no line per step' },
  ],
  examples: [
    'connect massim --host 127.0.0.1 --port 12300 --team A --agents 5 --policy my-team.ts',
    'connect massim --team B --agents 20 --policy fetcher --transcript team-b.json',
    'connect massim --port 12300 --team A --agents 2 --policy explorer --timeout 10 --json',
  ],
  handler: async (values, context) => (await import('./connect')).connectMassim(values, context),
};
