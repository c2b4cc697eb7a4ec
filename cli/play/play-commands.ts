/**
 * `run`, `serve` and `connect` for any protocol that gives `endpoints` (its emulated server and its
 * policy-driven client) and has no commands of its own: the options below, the transport (TCP, WebSocket,
 * or HTTP with sessions keyed by its `sessionOf`) from its definition. The implementations are loaded only when a command runs.
 */
import type { PlayOption, Protocol } from '../../src/core/protocols/contract';
import type { CommandSpec, OptionSpec, ProtocolCommands } from '../command-line/command-spec';
import { TCP_LIMIT_OPTIONS } from '../net/tcp-limit-options';

/** What the generic commands need of a protocol. */
export type PlayableProtocol = Protocol & Required<Pick<Protocol, 'endpoints'>>;

/** True when the generic commands can play the protocol. */
export function isPlayable(protocol: Protocol): protocol is PlayableProtocol {
  return protocol.endpoints !== undefined;
}

function setupOptions(protocol: Protocol): OptionSpec[] {
  return [
    {
      name: 'environment',
      type: 'string',
      valueName: 'ID',
      description: `one of ${protocol.environments.map((e) => e.id).join(', ')} (default ${protocol.defaultEnvironment})`,
    },
    { name: 'rounds', type: 'string', valueName: 'N', description: 'rounds per session (default 1)' },
    { name: 'seed', type: 'string', valueName: 'N', description: 'random seed (default 0)' },
  ];
}

function policyOptions(protocol: Protocol): OptionSpec[] {
  return [
    {
      name: 'policy',
      type: 'string',
      valueName: 'FILE|SAMPLE',
      description: `a .ts or .js policy file, or a sample: ${protocol.samples.map((s) => s.id).join(', ')} (default ${protocol.defaultSample})`,
    },
    {
      name: 'budget',
      type: 'string',
      valueName: 'MS',
      description: 'time the policy may take per decision (default 2000)',
    },
  ];
}

const TRANSCRIPT_OPTION: OptionSpec = {
  name: 'transcript',
  type: 'string',
  valueName: 'FILE',
  description: 'write the transcript (playground JSON format), also when the session fails',
};

/** The transport's name for people. */
const TRANSPORT_NAMES = { tcp: 'TCP', websocket: 'WebSocket', http: 'HTTP' } as const;

function portOption(protocol: Protocol, what: string, listening = false): OptionSpec {
  return {
    name: 'port',
    type: 'string',
    valueName: 'N',
    description: `${what} (default ${protocol.transport.defaultPort}${listening ? '; 0 picks a free one' : ''})`,
  };
}

/** The protocol's own options for commands playing these sides (`PlayOption`). */
function ownOptions(protocol: Protocol, sides: readonly PlayOption['side'][]): OptionSpec[] {
  return (protocol.endpoints?.options ?? [])
    .filter((option) => sides.includes(option.side))
    .map(({ name, valueName, description }) => ({ name, type: 'string', valueName, description }));
}

/** The three commands of a protocol played through its endpoints. */
export function playCommands(protocol: PlayableProtocol): ProtocolCommands {
  const run: CommandSpec = {
    summary: `play sessions against the emulated ${protocol.label} server and print the rewards`,
    options: [
      ...setupOptions(protocol),
      ...ownOptions(protocol, ['host', 'client']),
      ...policyOptions(protocol),
      TRANSCRIPT_OPTION,
    ],
    examples: [
      `run ${protocol.id} --rounds 3`,
      `run ${protocol.id} --environment ${protocol.defaultEnvironment} --policy my-policy.ts --transcript out.json`,
    ],
    handler: async (values, context) => (await import('./run')).runPlay(protocol, values, context),
  };
  const serve: CommandSpec = {
    summary: `be a ${protocol.label} server over ${TRANSPORT_NAMES[protocol.transport.kind]} for real clients`,
    options: [
      portOption(protocol, `${TRANSPORT_NAMES[protocol.transport.kind]} port to listen on`, true),
      {
        name: 'host',
        type: 'string',
        valueName: 'ADDRESS',
        description: 'address to bind (default 127.0.0.1; 0.0.0.0 for every interface)',
      },
      ...setupOptions(protocol),
      ...ownOptions(protocol, ['host']),
      {
        name: 'sessions',
        type: 'string',
        valueName: 'N',
        description: 'exit once N sessions have ended (default: serve until Ctrl-C)',
      },
      {
        name: 'record',
        type: 'string',
        valueName: 'DIR',
        description: "write every session's transcript (playground JSON format) into DIR",
      },
      ...TCP_LIMIT_OPTIONS,
    ],
    examples: [`serve ${protocol.id} --port 0 --sessions 1 --record transcripts/`],
    handler: async (values, context) => (await import('./serve')).servePlay(protocol, values, context),
  };
  const connect: CommandSpec = {
    summary: `play a policy against a ${protocol.label} server (or protoplay serve)`,
    options: [
      {
        name: 'host',
        type: 'string',
        valueName: 'ADDRESS',
        description: 'server address (default 127.0.0.1)',
      },
      portOption(protocol, 'server port'),
      {
        name: 'seed',
        type: 'string',
        valueName: 'N',
        description: "seed of the policy's random (default 0)",
      },
      ...ownOptions(protocol, ['client']),
      ...policyOptions(protocol),
      TRANSCRIPT_OPTION,
    ],
    examples: [`connect ${protocol.id} --port ${protocol.transport.defaultPort} --policy my-policy.ts`],
    handler: async (values, context) => (await import('./connect')).connectPlay(protocol, values, context),
  };
  return {
    id: protocol.id,
    title: `${protocol.label}: ${protocol.description}`,
    commands: { run, serve, connect },
  };
}
