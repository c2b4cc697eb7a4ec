/**
 * The options and help of `protoplay serve gama`. The implementation (`serve.ts`) is loaded only when the
 * command runs.
 */
import type { CommandSpec } from '../../command-line/command-spec';
import { TCP_LIMIT_OPTIONS } from '../../net/tcp-limit-options';
import { POLICY_OPTIONS } from './policy-options';

/** The `serve` command of gama. */
export const serveCommand: CommandSpec = {
  summary: 'be the API server a GAMA model connects to, answering every scavenger with the policy',
  description: [
    'Listens for WebSocket connections as the original API server (ws://localhost:3001) and answers each',
    "request with 'Scav. n;<action>', the action chosen by the policy. Point a GAMA model's",
    '`connect to: "localhost" protocol: "websocket_client" port: 3001 raw: true` here, or run',
    '`protoplay connect gama`. Binds 127.0.0.1 unless --host is given. Each connection (a GAMA simulation)',
    'is recorded; the transcript is written when the server stops (Ctrl-C, or after --connections N).',
  ].join('\n'),
  options: [
    ...POLICY_OPTIONS,
    { name: 'port', type: 'string', valueName: 'N', description: 'port (default 3001; 0 picks a free one)' },
    {
      name: 'host',
      type: 'string',
      valueName: 'ADDRESS',
      description: 'address to bind (default 127.0.0.1; 0.0.0.0 for every interface)',
    },
    { name: 'seed', type: 'string', valueName: 'N', description: 'seed of context.random() (default 0)' },
    ...TCP_LIMIT_OPTIONS,
    {
      name: 'max-frame-bytes',
      type: 'string',
      valueName: 'N',
      description: 'longest frame accepted; a longer one closes the connection (default 1048576)',
    },
    {
      name: 'connections',
      type: 'string',
      valueName: 'N',
      description: 'stop once N connections have closed (default 0: run until Ctrl-C)',
    },
    {
      name: 'transcript',
      type: 'string',
      valueName: 'FILE',
      description: 'write the transcript when stopping',
    },
    { name: 'quiet', type: 'boolean', description: 'do not log connections' },
  ],
  examples: [
    'serve gama --port 3001 --policy my-policy.ts',
    'serve gama --policy sustainable --transcript gama-session.json',
  ],
  handler: async (values, context) => (await import('./serve')).serveGama(values, context),
};
