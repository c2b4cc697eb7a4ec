/**
 * Checks a transcript against the protocol machines of its protocol, connection by connection and for both
 * roles, so a pasted real session can be judged like an emulated one. A protocol's machines are listed
 * here once they exist.
 */
import { validate, type ProtocolMachine, type Violation } from '../protocols/machine';
import { rddlsimClientMachine } from '../protocols/rddlsim/client-machine';
import { rddlsimServerMachine } from '../protocols/rddlsim/server-machine';
import type { ProtocolId, Transcript } from './model';

/** A broken rule, with the connection and the role whose machine found it. */
export interface TranscriptViolation extends Violation {
  conn: string;
  /** `server`: the client broke a rule the server enforces; `client`: the server broke one. */
  role: 'client' | 'server';
}

/** The outcome of validating a transcript. */
export interface TranscriptValidation {
  /** False when no machine exists for the protocol yet (nothing was checked). */
  checked: boolean;
  /** Every violation, ordered by message index. */
  violations: TranscriptViolation[];
}

const MACHINES: Partial<Record<ProtocolId, readonly ProtocolMachine<unknown>[]>> = {
  rddlsim: [rddlsimClientMachine, rddlsimServerMachine] as readonly ProtocolMachine<unknown>[],
};

/** Runs both roles' machines over each connection's messages. */
export function validateTranscript(transcript: Transcript): TranscriptValidation {
  const machines = MACHINES[transcript.protocol];
  if (!machines) return { checked: false, violations: [] };
  const violations: TranscriptViolation[] = [];
  const connections = new Set(transcript.messages.map((message) => message.conn));
  for (const conn of connections) {
    const messages = transcript.messages.filter((message) => message.conn === conn);
    for (const machine of machines) {
      for (const violation of validate(machine, messages).violations)
        violations.push({ ...violation, conn, role: machine.role });
    }
  }
  violations.sort((a, b) => a.index - b.index);
  return { checked: true, violations };
}
