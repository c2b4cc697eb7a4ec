import type { TranscriptMessage } from '../transcript/model';

/**
 * A broken protocol rule, precise enough to act on: which message, which rule, what was expected instead.
 */
export interface Violation {
  /** Transcript index of the offending message (or of the last message when something is missing). */
  index: number;
  /** Stable rule id, e.g. "rddlsim.round-request.expected". */
  rule: string;
  /** What the machine would have accepted here, e.g. "<round-request> or <resource-request>". */
  expected: string;
  /** What it got, e.g. "<actions>". */
  got: string;
  /** One readable sentence combining the above. */
  message: string;
}

/** Result of feeding one message to a machine. */
export type Step<S> = { ok: true; state: S } | { ok: false; violation: Violation; state: S };

/**
 * A typed protocol state machine for one role. Pure: `accept` never mutates its input state, so views can
 * keep the state after every message and scrub back and forth.
 */
export interface ProtocolMachine<S> {
  /** Which side this machine checks: the messages a client may send and receive, or a server's. */
  readonly role: 'client' | 'server';
  initial(): S;
  accept(state: S, message: TranscriptMessage): Step<S>;
  /** Called at the end of a transcript: is it allowed to stop here? (null = yes) */
  finish(state: S, lastIndex: number): Violation | null;
}

/** Runs a machine over messages of one connection, collecting every violation (it keeps going after one). */
export function validate<S>(
  machine: ProtocolMachine<S>,
  messages: readonly TranscriptMessage[],
): { state: S; violations: Violation[] } {
  let state = machine.initial();
  const violations: Violation[] = [];
  for (const message of messages) {
    const step = machine.accept(state, message);
    state = step.state;
    if (!step.ok) violations.push(step.violation);
  }
  const end = machine.finish(state, messages.length ? messages[messages.length - 1]!.index : 0);
  if (end) violations.push(end);
  return { state, violations };
}
