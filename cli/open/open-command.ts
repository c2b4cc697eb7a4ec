/**
 * The options and help of `protoplay open`. The implementation (`serve-playground.ts`) is loaded only when
 * the command runs.
 */
import type { ToolCommandSpec } from '../command-line/command-spec';

/** The `open` command. */
export const openCommand: ToolCommandSpec = {
  name: 'open',
  summary: 'serve the playground (the page, built into the package) on this machine and print its address',
  usage: 'protoplay open [--port N] [--host ADDRESS]',
  description: [
    'Serves the built playground as static files, as any web server would, until Ctrl-C. It binds',
    '127.0.0.1 unless --host is given. Work the page keeps (code, settings, the last session) is stored by',
    'the browser per address, port included: the same --port finds it again. The default port is the one',
    '`npm start` and `protoplay bridge` expect, so the bridge admits this page without --origin.',
  ].join('\n'),
  options: [
    {
      name: 'port',
      type: 'string',
      valueName: 'N',
      description: 'port to listen on (default 4173; 0 picks one)',
    },
    {
      name: 'host',
      type: 'string',
      valueName: 'ADDRESS',
      description: 'address to bind (default 127.0.0.1; any other is reachable from the network: a warning)',
    },
  ],
  examples: ['protoplay open', 'protoplay open --port 8080'],
  handler: async (values, positionals, context) =>
    (await import('./serve-playground')).servePlayground(values, positionals, context),
};
