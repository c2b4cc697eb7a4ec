/**
 * The options and help of `protoplay connect aisys`. The implementation (`connect.ts`) is loaded only
 * when the command runs.
 */
import type { CommandSpec } from '../../command-line/command-spec';
import { PARALLEL_OPTIONS, POLICY_OPTIONS } from './shared-options';

/** The `connect` command of aisys. */
export const connectCommand: CommandSpec = {
  summary: 'play a policy against a real aisysprojserver (or protoplay serve) over HTTP',
  description: [
    "Plays as the course's standard client (client.py) does: PUT <url>act/<env> with the actions for the",
    'last action requests, forever or until --runs runs have finished (then the last requests are left',
    'unanswered, as client.py leaves them). A 503 is retried after 3 s, then longer. Any other error',
    "status ends the command with the server's description. The agent's config file is the one the",
    "server's admin tools write ({agent, env, pwd, url}); --url, --env, --agent and --pwd override it.",
    'An environment Protoplay has no built-in policy for needs --policy. Unlike client.py, an action',
    'that is not JSON (NaN, Infinity, undefined...) is never sent: it ends the command as a policy error',
    '(exit 3). When the server refuses an action and the policy gives the same one again, the request',
    'waits as for a 503 (3 s, 6 s... up to 30 s), and after 10 refusals in a row the command stops (exit 3).',
  ].join('\n'),
  options: [
    {
      name: 'config',
      type: 'string',
      valueName: 'FILE',
      description: "the agent's config file ({agent, env, pwd, url})",
    },
    {
      name: 'url',
      type: 'string',
      valueName: 'URL',
      description: "the server's base URL (default: the config's)",
    },
    { name: 'env', type: 'string', valueName: 'ID', description: "the environment (default: the config's)" },
    { name: 'agent', type: 'string', valueName: 'NAME', description: "the agent (default: the config's)" },
    {
      name: 'pwd',
      type: 'string',
      valueName: 'PASSWORD',
      description: "the agent's password (default: the config's)",
    },
    ...POLICY_OPTIONS,
    {
      name: 'seed',
      type: 'string',
      valueName: 'N',
      description: "seed of the policy's context.random() (default 0)",
    },
    {
      name: 'runs',
      type: 'string',
      valueName: 'N',
      description:
        'stop once N runs have finished; runs past N that finish in the same answer are listed as extra runs (default: play until Ctrl-C, as client.py does)',
    },
    ...PARALLEL_OPTIONS,
    {
      name: 'abandon-old-runs',
      type: 'boolean',
      description: 'abandon the runs already under way when the client starts (they count as losses)',
    },
    {
      name: 'client-name',
      type: 'string',
      valueName: 'NAME',
      description: 'the client field of requests (default protoplay)',
    },
    {
      name: 'timeout',
      type: 'string',
      valueName: 'S',
      description: 'give up when a request has no answer within S seconds; 0 = wait forever (default 30)',
    },
    {
      name: 'transcript',
      type: 'string',
      valueName: 'FILE',
      description: 'write the transcript (playground JSON format), also when the session fails',
    },
    {
      name: 'verbose',
      type: 'boolean',
      description: "print the server's info messages too (default: warnings and errors)",
    },
    {
      name: 'json',
      type: 'boolean',
      description: 'print one JSON document (runs and summary) instead of text',
    },
  ],
  examples: [
    'connect aisys --config agent.json --policy my-policy.ts --runs 100',
    'connect aisys --config agent.json --policy optimal --no-parallel-runs --runs 5 --transcript run.json',
    'connect aisys --config agent.json --policy my-policy.ts --abandon-old-runs',
  ],
  handler: async (values, context) => (await import('./connect')).connectAisys(values, context),
};
