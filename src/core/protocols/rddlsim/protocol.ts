/**
 * rddlsim as the one protocol contract describes it: XML over TCP, NUL-terminated; the emulated server
 * plays RDDL domains; recordings, machines, the views' reader, samples and the built-in RDDL examples.
 */
import type { Protocol } from '../contract';
import { DEFAULT_EXAMPLE, EXAMPLE_DOMAINS } from '../../envs/rddl/examples';
import { rddlsimEmbeddedContent } from './embedded-content';
import { prettyPrintRddlsim } from './pretty-print';
import { RDDLSIM_MESSAGE_TYPES, createRddlsimReader } from './reader';
import { RDDLSIM_SAMPLES } from './samples';
import { rddlsimClientMachine } from './client-machine';
import { RDDLSIM_RECORDING_FORMATS } from './recording-formats';
import { rddlsimServerMachine } from './server-machine';
import { rddlsimStreamFraming } from './stream-framing';
import type { ProtocolMachine } from '../machine';

/**
 * The policy types of an example, specialised to its instance. The RDDL loader and the type generator
 * are fetched on first use, so they never weigh on the first paint.
 */
async function policyTypes(environment: string): Promise<string> {
  const [{ loadRddl, exampleSources }, { generatePolicyTypes }] = await Promise.all([
    import('../../envs/rddl'),
    import('./policy-types'),
  ]);
  const example = EXAMPLE_DOMAINS.find((e) => e.id === environment);
  return generatePolicyTypes(example ? loadRddl(exampleSources(example)).info : undefined);
}

/** The rddlsim protocol. */
export const rddlsimProtocol: Protocol = {
  id: 'rddlsim',
  label: 'RDDLSim',
  description: 'RDDLSim, the IPPC planning competition server: RDDL domains, XML over TCP',
  transport: { kind: 'tcp', defaultPort: 2323, framing: rddlsimStreamFraming },
  machines: [rddlsimClientMachine, rddlsimServerMachine] as readonly ProtocolMachine<unknown>[],
  recordingFormats: RDDLSIM_RECORDING_FORMATS,
  messageTypes: RDDLSIM_MESSAGE_TYPES,
  environments: EXAMPLE_DOMAINS.map((example) => ({
    id: example.id,
    label: example.title,
    description: example.description,
  })),
  defaultEnvironment: DEFAULT_EXAMPLE.id,
  samples: RDDLSIM_SAMPLES,
  defaultSample: 'network-heuristic',
  createReader: createRddlsimReader,
  prettyPrint: prettyPrintRddlsim,
  embeddedContent: rddlsimEmbeddedContent,
  policyTypes,
  replay: { load: async () => (await import('./replay')).rddlsimReplay },
  roundEnds: {
    load: async () => (await import('./round-end-reading')).createRddlsimRoundEndReading,
    prepare: async () => (await import('./round-end-reading')).prepareRddlsimRoundEnds(),
  },
  playground: {
    loadRunner: async () => (await import('./playground/runner')).rddlsimPlaygroundRunner,
    loadPolicyRuntime: async () => new (await import('../../policy/runtime')).PolicyRuntime(),
  },
  evaluation: {
    unit: 'round',
    load: async () => (await import('./evaluation')).createRddlsimEpisodePlayer(),
  },
};
