/**
 * The GAMA scavengers protocol as Protoplay knows it: a GAMA simulation (the client) asks an API server,
 * over one WebSocket, for every scavenger's action.
 */
import { SCAVENGER_SCENARIOS } from '../../envs/scavenger';
import type { Protocol } from '../contract';
import type { ProtocolMachine } from '../machine';
import { gamaClientMachine } from './client-machine';
import { channelOf } from './codec';
import { GAMA_MESSAGE_TYPES } from './messages';
import { gamaPolicyTypes } from './policy-types';
import { GamaTranscriptReader } from './reader';
import { gamaFrameLogFormat } from './recording';
import { GAMA_SAMPLES } from './samples';
import { gamaServerMachine } from './server-machine';

/** The port the original API server listens on. */
export const GAMA_DEFAULT_PORT = 3001;

/** Pretty text of a frame: GAMA's JSON indented with every matrix row on one line; a reply as it is. */
export function prettyPrintGama(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const render = (item: unknown, indent: string): string => {
    if (Array.isArray(item)) {
      if (item.every((x) => typeof x !== 'object' || x === null))
        return JSON.stringify(item).replace(/,/g, ', ');
      return `[\n${item.map((x) => `${indent}  ${render(x, `${indent}  `)}`).join(',\n')}\n${indent}]`;
    }
    if (typeof item === 'object' && item !== null) {
      const entries = Object.entries(item);
      if (entries.length === 0) return '{}';
      return `{\n${entries.map(([k, v]) => `${indent}  ${JSON.stringify(k)}: ${render(v, `${indent}  `)}`).join(',\n')}\n${indent}}`;
    }
    return JSON.stringify(item);
  };
  return render(value, '');
}

/** The GAMA protocol. */
export const gamaProtocol: Protocol = {
  id: 'gama',
  label: 'GAMA scavengers',
  description:
    'A GAMA simulation of scavengers harvesting a commons asks an API server for every action over a WebSocket',
  transport: { kind: 'websocket', defaultPort: GAMA_DEFAULT_PORT, channelOf },
  machines: [gamaClientMachine, gamaServerMachine] as readonly ProtocolMachine<unknown>[],
  // One connection carries every scavenger, and the rules (scenario first, one request at a time) span
  // them all: the machines follow each scavenger themselves.
  validationScope: 'connection',
  recordingFormats: [gamaFrameLogFormat],
  messageTypes: GAMA_MESSAGE_TYPES,
  createReader: () => new GamaTranscriptReader(),
  prettyPrint: prettyPrintGama,
  embeddedContent: () => [],
  environments: SCAVENGER_SCENARIOS.map((s) => ({ id: s.name, label: s.label, description: s.description })),
  defaultEnvironment: 'C_basic_single_entrance_region',
  samples: GAMA_SAMPLES,
  defaultSample: 'greedy',
  policyTypes: async (environment) => gamaPolicyTypes(environment),
  playground: {
    loadRunner: async () => (await import('./playground/runner')).gamaPlaygroundRunner,
    // Each scavenger's memory lives in the policy worker, beside the policy.
    loadPolicyRuntime: async () => new (await import('./policy-runtime')).GamaPolicyRuntime(),
  },
  evaluation: {
    unit: 'episode',
    // GAMA's simulation is the client: the policy's actions are the server's replies.
    policyDirection: 's2c',
    load: async () => (await import('./evaluation')).createGamaEpisodePlayer(),
  },
  replay: { load: async () => (await import('./replay')).gamaReplay },
};
