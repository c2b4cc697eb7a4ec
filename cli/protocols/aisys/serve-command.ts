/**
 * The options and help of `protoplay serve aisys`. The implementation (`serve.ts`) is loaded only when the
 * command runs.
 */
import type { CommandSpec } from '../../command-line/command-spec';
import { TCP_LIMIT_OPTIONS } from '../../net/tcp-limit-options';

/** The `serve` command of aisys. */
export const serveCommand: CommandSpec = {
  summary: 'a drop-in aisysprojserver over HTTP for real clients (the course clients, curl, your own)',
  description: [
    'Answers as aisysprojserver 0.1.3 does: PUT (or GET) /act/<env> with its checks in its order, the',
    'outstanding-first run scheduler, errors in its three body shapes, protocol versions 1 and 0, and the',
    'public /results. With --admin-password, the admin routes /makeenv and /makeagent work as the real',
    "ones, so the course's admin client can set up environments and agents. It binds 127.0.0.1 unless",
    '--host is given. An agent (--agent, default "agent") is made in every environment; --agent-config',
    'writes the config file the course clients read ({agent, env, pwd, url}) for the first one.',
  ].join('\n'),
  options: [
    {
      name: 'port',
      type: 'string',
      valueName: 'N',
      description: 'TCP port (default 5000, as the real server; 0 picks a free one)',
    },
    {
      name: 'host',
      type: 'string',
      valueName: 'ADDRESS',
      description: 'address to bind (default 127.0.0.1; 0.0.0.0 for every interface)',
    },
    {
      name: 'env',
      type: 'string',
      multiple: true,
      valueName: 'ID',
      description:
        'environment to offer, repeatable: nim, nim-strong, wumpus-cave, halma, halma-3, halma-rhombus (default all)',
    },
    { name: 'agent', type: 'string', valueName: 'NAME', description: 'the agent to make (default agent)' },
    {
      name: 'agent-config',
      type: 'string',
      valueName: 'FILE',
      description: "write the agent's config file for the first environment ({agent, env, pwd, url})",
    },
    {
      name: 'admin-password',
      type: 'string',
      valueName: 'PASSWORD',
      description: 'enable the admin routes (/makeenv, /makeagent...) with this password',
    },
    {
      name: 'seed',
      type: 'string',
      valueName: 'N',
      description: "seed of the runs' randomness and of generated passwords (default 0)",
    },
    {
      name: 'no-faithful-bugs',
      type: 'boolean',
      description: "fix the real server's bugs (finished runs unguarded, block answering 500...)",
    },
    {
      name: 'record',
      type: 'string',
      valueName: 'FILE',
      description: 'write the transcript of every exchange (playground JSON format) when the server stops',
    },
    ...TCP_LIMIT_OPTIONS,
    { name: 'quiet', type: 'boolean', description: 'log only errors and the listening line' },
  ],
  examples: [
    'serve aisys --port 5000 --env nim --agent-config agent.json',
    'serve aisys --port 0 --env nim --env nim-strong --admin-password secret --record served.json',
    'serve aisys --host 0.0.0.0 --env nim-strong --agent alice --agent-config alice.json --no-faithful-bugs',
  ],
  handler: async (values, context) => (await import('./serve')).serveAisys(values, context),
};
