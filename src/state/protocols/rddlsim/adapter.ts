/** The rddlsim protocol as the playground shows it: the built-in RDDL examples, samples and views. */
import { DEFAULT_EXAMPLE, EXAMPLE_DOMAINS } from '../../../core/envs/rddl/examples';
import type { ProtocolAdapter } from '../adapter';
import { rddlsimEmbeddedContent } from './embedded';
import { prettyPrintRddlsim } from './pretty-print';
import { RDDLSIM_MESSAGE_TYPES, createRddlsimReader } from './reader';
import { RDDLSIM_SAMPLES } from './samples';

/**
 * The policy types of an example, specialised to its instance. The RDDL loader and the type generator
 * are fetched on first use, so they never weigh on the first paint.
 */
async function policyTypes(environment: string): Promise<string> {
  const [{ loadRddl, exampleSources }, { generatePolicyTypes }] = await Promise.all([
    import('../../../core/envs/rddl'),
    import('../../../core/protocols/rddlsim/policy-types'),
  ]);
  const example = EXAMPLE_DOMAINS.find((e) => e.id === environment);
  return generatePolicyTypes(example ? loadRddl(exampleSources(example)).info : undefined);
}

/** The rddlsim adapter. */
export const rddlsimAdapter: ProtocolAdapter = {
  id: 'rddlsim',
  label: 'RDDLSim',
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
};
