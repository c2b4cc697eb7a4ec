/**
 * The aisys protocol as every layer sees it: aisysprojserver, the course server of FAU's AI lectures,
 * where agents play many runs of an environment in parallel through JSON over HTTP `PUT /act/<env>`.
 */
import type { Protocol } from '../contract';
import { aisysChannel } from './codec';
import { AISYS_ENVIRONMENTS } from './environments';
import { aisysClientMachine, aisysServerMachine } from './machines';
import { AISYS_MESSAGE_TYPES, createAisysReader } from './reader';
import { AISYS_RECORDING_FORMATS } from './recording';
import { AISYS_SAMPLES, DEFAULT_AISYS_SAMPLE } from './samples';
import type { ProtocolMachine } from '../machine';

/** A body indented for reading, keys in the order they came; the text itself when it is not JSON. */
export function prettyPrintAisys(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** The aisys protocol. */
export const aisysProtocol: Protocol = {
  id: 'aisys',
  label: 'aisysprojserver',
  description:
    'The AI course server (FAU): many runs of an environment in parallel, JSON over HTTP PUT /act/<env>',
  transport: { kind: 'http', defaultPort: 5000, channelOf: aisysChannel },
  machines: [aisysClientMachine, aisysServerMachine] as readonly ProtocolMachine<unknown>[],
  // One agent is one conversation, whatever connections carry its requests.
  validationScope: 'channel',
  recordingFormats: AISYS_RECORDING_FORMATS,
  messageTypes: AISYS_MESSAGE_TYPES,
  createReader: createAisysReader,
  prettyPrint: prettyPrintAisys,
  embeddedContent: () => [],
  environments: AISYS_ENVIRONMENTS.map(({ id, label, description }) => ({ id, label, description })),
  defaultEnvironment: AISYS_ENVIRONMENTS[0]!.id,
  samples: AISYS_SAMPLES,
  defaultSample: DEFAULT_AISYS_SAMPLE,
  policyTypes: async (environment) => (await import('./policy-types')).aisysPolicyTypes(environment),
  playground: {
    loadRunner: async () => (await import('./playground/runner')).aisysPlaygroundRunner,
    // Each run's memory lives in the policy worker, beside the policy.
    loadPolicyRuntime: async () => new (await import('./policy-runtime')).AisysPolicyRuntime(),
  },
  evaluation: {
    unit: 'run',
    load: async () => (await import('./evaluation')).createAisysEpisodePlayer(),
  },
  replay: { load: async () => (await import('./replay')).aisysReplay },
};
