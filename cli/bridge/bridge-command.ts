/**
 * The options and help of `protoplay bridge`. The implementation (`run-bridge.ts`) is loaded only when the
 * command runs.
 */
import type { ToolCommandSpec } from '../command-line/command-spec';

/** The `bridge` command. */
export const bridgeCommand: ToolCommandSpec = {
  name: 'bridge',
  summary: 'let the playground page reach real servers and agents (TCP, HTTP, WebSocket) on this machine',
  usage: 'protoplay bridge [--target NAME=ADDRESS]... [--listen NAME=PORT]... [options]',
  description: [
    'Browsers cannot open TCP connections or accept any: the bridge does it for the page. It relays the',
    'servers named with --target (the page asks for them by name, never by address) and hands the page the',
    'connections accepted on the --listen ports, so real agents can play against the emulated server.',
    'It binds 127.0.0.1 unless --host is given, admits only pages from the --origin list, and prints a link',
    'carrying a fresh token in its fragment: open it (anyone who has it can use your targets). A target or',
    "listen NAME that is a protocol id may leave out its address: that protocol's transport and default",
    'port are used. See docs/bridge.md.',
  ].join('\n'),
  options: [
    {
      name: 'target',
      type: 'string',
      multiple: true,
      valueName: 'NAME=ADDRESS',
      description: 'a server the page may open: tcp://HOST:PORT, http://HOST:PORT, ws://HOST:PORT/PATH',
    },
    {
      name: 'listen',
      type: 'string',
      multiple: true,
      valueName: 'NAME=PORT',
      description: 'a port whose connections go to the page: NAME=tcp://:PORT, http://:PORT, ws://:PORT/PATH',
    },
    {
      name: 'config',
      type: 'string',
      valueName: 'FILE',
      description: 'JSON file with "targets", "listens", "origins" and "limits" (docs/bridge.md)',
    },
    {
      name: 'port',
      type: 'string',
      valueName: 'N',
      description: "the page's port (default 8787; 0 picks one)",
    },
    {
      name: 'host',
      type: 'string',
      valueName: 'ADDRESS',
      description: 'address to bind (default 127.0.0.1; any other is reachable from the network: a warning)',
    },
    {
      name: 'origin',
      type: 'string',
      multiple: true,
      valueName: 'URL',
      description: 'origin of the playground allowed in (default http://localhost:4173 and :5173)',
    },
    {
      name: 'page',
      type: 'string',
      valueName: 'URL',
      description: 'the playground address the printed link opens (default: the first origin)',
    },
    {
      name: 'idle-timeout',
      type: 'string',
      valueName: 'S',
      description: 'close a channel silent this many seconds in both directions (default 600)',
    },
    {
      name: 'response-timeout',
      type: 'string',
      valueName: 'S',
      description: 'seconds an HTTP request may wait for its response (default 30)',
    },
    {
      name: 'max-frame',
      type: 'string',
      valueName: 'BYTES',
      description: 'longest WebSocket frame relayed (default 1048576)',
    },
    {
      name: 'max-body',
      type: 'string',
      valueName: 'BYTES',
      description: 'longest HTTP body relayed (default 1000000)',
    },
    {
      name: 'max-buffer',
      type: 'string',
      valueName: 'BYTES',
      description: 'bytes one TCP or WebSocket channel may hold waiting, each way (default 8388608)',
    },
    { name: 'quiet', type: 'boolean', description: 'print only the link and errors' },
  ],
  examples: [
    'protoplay bridge --target rddlsim',
    'protoplay bridge --target prost=tcp://127.0.0.1:2323 --target aisys=http://127.0.0.1:5000',
    'protoplay bridge --target gama=ws://127.0.0.1:3001/ --listen massim=12300',
    'protoplay bridge --config bridge.json --origin https://example.org',
  ],
  handler: async (values, positionals, context) =>
    (await import('./run-bridge')).runBridge(values, positionals, context),
};
