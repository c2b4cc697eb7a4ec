/**
 * Checks a transcript against its protocol's machines, conversation by conversation and for both roles, so
 * a pasted real session is judged like an emulated one. The protocol is handed in: this module names none.
 */
import type { Protocol } from '../protocols/contract';
import type { ProtocolMachine, Violation } from '../protocols/machine';
import type { Transcript, TranscriptMessage } from './model';

/** A broken rule, with the connection and the role whose machine found it. */
export interface TranscriptViolation extends Violation {
  conn: string;
  /** The agent on a shared connection, when the protocol validates per agent. */
  channel?: string;
  /** `server`: the client broke a rule the server enforces; `client`: the server broke one. */
  role: 'client' | 'server';
}

/** The outcome of validating a transcript. */
export interface TranscriptValidation {
  /** False when the protocol has no machines (nothing was checked). */
  checked: boolean;
  /** Every violation, ordered by message index. */
  violations: TranscriptViolation[];
}

/**
 * The conversations of a transcript: one per connection, or one per agent (`channel`) for protocols that
 * validate per channel, whatever connections the agent's messages came over (an HTTP client opens many).
 * A connection event without a channel belongs to every agent seen on that connection; a record with an
 * exchange's `http` (a half whose body a recording did not keep) is no connection event, and goes where
 * its exchange's data would.
 */
function conversations(
  transcript: Transcript,
  protocol: Pick<Protocol, 'validationScope'>,
): Map<string, { conn: string; channel?: string; messages: TranscriptMessage[] }> {
  const byKey = new Map<string, { conn: string; channel?: string; messages: TranscriptMessage[] }>();
  const perChannel = protocol.validationScope === 'channel';
  const channelsOn = new Map<string, Set<string>>();
  for (const message of transcript.messages) {
    if (perChannel && message.channel !== undefined) {
      const key = `channel\u0000${message.channel}`;
      let found = byKey.get(key);
      if (!found) byKey.set(key, (found = { conn: message.conn, channel: message.channel, messages: [] }));
      found.messages.push(message);
      let seen = channelsOn.get(message.conn);
      if (!seen) channelsOn.set(message.conn, (seen = new Set()));
      seen.add(key);
      continue;
    }
    if (perChannel && message.kind !== 'data' && !message.http) {
      for (const key of channelsOn.get(message.conn) ?? []) byKey.get(key)!.messages.push(message);
      continue;
    }
    let found = byKey.get(message.conn);
    if (!found) byKey.set(message.conn, (found = { conn: message.conn, messages: [] }));
    found.messages.push(message);
  }
  return byKey;
}

/**
 * Runs both roles' machines over each conversation of the transcript. A transcript whose messages were
 * rebuilt from a recording without wire traffic (`meta.wire: "synthesised"`) is not checked: its messages
 * say nothing about what the agents sent.
 */
export function validateTranscript(
  transcript: Transcript,
  protocol: Pick<Protocol, 'machines' | 'validationScope'>,
): TranscriptValidation {
  if (protocol.machines.length === 0 || transcript.meta.wire === 'synthesised')
    return { checked: false, violations: [] };
  const violations: TranscriptViolation[] = [];
  for (const { conn, channel, messages } of conversations(transcript, protocol).values()) {
    const found = validateTogether(protocol.machines, messages);
    protocol.machines.forEach((machine, i) => {
      for (const violation of found[i]!)
        violations.push({
          ...violation,
          conn,
          ...(channel !== undefined ? { channel } : {}),
          role: machine.role,
        });
    });
  }
  violations.sort((a, b) => a.index - b.index);
  return { checked: true, violations };
}

/**
 * What `validate` finds for each machine, with every machine fed a message before the next one comes:
 * machines that follow the same conversation (both roles of an HTTP protocol) can share the work of
 * reading a message, which they could not if one went through the whole transcript first.
 */
function validateTogether(
  machines: readonly ProtocolMachine<unknown>[],
  messages: readonly TranscriptMessage[],
): Violation[][] {
  const states = machines.map((machine) => machine.initial());
  const found: Violation[][] = machines.map(() => []);
  for (const message of messages)
    machines.forEach((machine, i) => {
      const step = machine.accept(states[i], message);
      states[i] = step.state;
      if (!step.ok) found[i]!.push(step.violation);
    });
  const lastIndex = messages.length ? messages[messages.length - 1]!.index : 0;
  machines.forEach((machine, i) => {
    const end = machine.finish(states[i], lastIndex);
    if (end) found[i]!.push(end);
  });
  return found;
}

/**
 * Validation fed one message at a time, keeping only each conversation's machine states and the
 * violations: what `validateTranscript` finds, without holding the transcript (for files too big to hold).
 */
export class ValidationFold {
  readonly #protocol: Pick<Protocol, 'machines' | 'validationScope'>;
  readonly #conversations = new Map<
    string,
    { conn: string; channel?: string; states: unknown[]; last: number; order: number }
  >();
  readonly #channelsOn = new Map<string, Set<string>>();
  /** Each violation with where `validateTranscript` lists it among those of the same message. */
  readonly #violations: { violation: TranscriptViolation; conversation: number; machine: number }[] = [];

  constructor(protocol: Pick<Protocol, 'machines' | 'validationScope'>) {
    this.#protocol = protocol;
  }

  accept(message: TranscriptMessage): void {
    if (this.#protocol.machines.length === 0) return;
    const perChannel = this.#protocol.validationScope === 'channel';
    if (perChannel && message.channel !== undefined) {
      const key = `channel\u0000${message.channel}`;
      let seen = this.#channelsOn.get(message.conn);
      if (!seen) this.#channelsOn.set(message.conn, (seen = new Set()));
      seen.add(key);
      this.#step(key, message.conn, message.channel, message);
      return;
    }
    if (perChannel && message.kind !== 'data' && !message.http) {
      for (const key of this.#channelsOn.get(message.conn) ?? [])
        this.#step(key, message.conn, undefined, message);
      return;
    }
    this.#step(message.conn, message.conn, undefined, message);
  }

  #step(key: string, conn: string, channel: string | undefined, message: TranscriptMessage): void {
    let conversation = this.#conversations.get(key);
    if (!conversation) {
      conversation = {
        conn,
        ...(channel !== undefined ? { channel } : {}),
        states: this.#protocol.machines.map((machine) => machine.initial()),
        last: 0,
        order: this.#conversations.size,
      };
      this.#conversations.set(key, conversation);
    }
    conversation.last = message.index;
    this.#protocol.machines.forEach((machine, i) => {
      const step = machine.accept(conversation.states[i], message);
      conversation.states[i] = step.state;
      if (!step.ok) this.#violations.push(this.#placed(step.violation, conversation, i));
    });
  }

  #placed(
    violation: Violation,
    conversation: { conn: string; channel?: string; order: number },
    machine: number,
  ): { violation: TranscriptViolation; conversation: number; machine: number } {
    return {
      violation: {
        ...violation,
        conn: conversation.conn,
        ...(conversation.channel !== undefined ? { channel: conversation.channel } : {}),
        role: this.#protocol.machines[machine]!.role,
      },
      conversation: conversation.order,
      machine,
    };
  }

  /**
   * Ends every conversation and returns all violations, ordered by message index and, within one
   * message, as `validateTranscript` orders them (conversation by conversation, machine by machine).
   */
  finish(): TranscriptValidation {
    if (this.#protocol.machines.length === 0) return { checked: false, violations: [] };
    const found = [...this.#violations];
    for (const conversation of this.#conversations.values())
      this.#protocol.machines.forEach((machine, i) => {
        const end = machine.finish(conversation.states[i], conversation.last);
        if (end) found.push(this.#placed(end, conversation, i));
      });
    // A stable sort: one machine's violations stay in the order it found them, its end last.
    const violations = found
      .sort(
        (a, b) =>
          a.violation.index - b.violation.index || a.conversation - b.conversation || a.machine - b.machine,
      )
      .map((entry) => entry.violation);
    return { checked: true, violations };
  }
}
