/**
 * The counter game as a `Protocol`: it exists only in the tests, and proves that a protocol is one folder
 * plus one registry entry. Its default export is what `PROTOPLAY_EXTRA_PROTOCOLS` loads: the page built
 * with it and the command line started with it offer the counter game like any protocol.
 */
import type { Protocol } from '../../../src/core/protocols/contract';
import type { ProtocolMachine } from '../../../src/core/protocols/machine';
import { standardPlayground } from '../../../src/core/session/standard-playground';
import { counterClient, counterHost } from './host';
import { lineFraming } from './framing';
import { counterClientMachine, counterServerMachine } from './machines';
import { createCounterReader } from './reader';
import { counterLogFormat } from './recording-format';

/** Each environment's target. */
const TARGETS: Readonly<Record<string, number>> = { 'to-ten': 10, 'to-five': 5 };

export const counterProtocol: Protocol = {
  id: 'counter',
  label: 'Counter',
  description: 'A counting game over newline-framed JSON on TCP (tests only)',
  transport: { kind: 'tcp', defaultPort: 7777, framing: lineFraming },
  machines: [counterClientMachine, counterServerMachine] as readonly ProtocolMachine<unknown>[],
  recordingFormats: [counterLogFormat],
  messageTypes: ['start', 'state', 'add', 'end'],
  createReader: createCounterReader,
  prettyPrint: (text) => {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      return text;
    }
  },
  embeddedContent: () => [],
  environments: [
    { id: 'to-ten', label: 'Count to 10', description: 'Reach 10 exactly; overshooting costs.' },
    { id: 'to-five', label: 'Count to 5', description: 'Reach 5 exactly; overshooting costs.' },
  ],
  defaultEnvironment: 'to-ten',
  samples: [
    {
      id: 'careful',
      label: 'Careful',
      description: 'Adds 2 until one short, then 1',
      language: 'ts',
      level: 'policy',
      code: 'export function act(o: { value: number; target: number }) {\n  return o.target - o.value >= 2 ? 2 : 1;\n}\n',
    },
    {
      id: 'hasty',
      label: 'Hasty',
      description: 'Always adds 2, overshooting odd targets',
      language: 'js',
      level: 'policy',
      code: 'export function act() {\n  return 2;\n}\n',
    },
  ],
  defaultSample: 'careful',
  policyTypes: async () =>
    'declare function act(o: { value: number; target: number; round: number }): 1 | 2;',
  endpoints: {
    host: ({ environment, rounds }) => counterHost(TARGETS[environment] ?? 10, rounds),
    client: () => counterClient(),
  },
  playground: standardPlayground(() => counterProtocol),
};

export default counterProtocol;
