/**
 * Checks a transcript against its protocol's machines, conversation by conversation and for both roles, so
 * a pasted real session is judged like an emulated one. The protocol is handed in: this module names none.
 */
import type { Protocol } from '../protocols/contract';
import { validate, type Violation } from '../protocols/machine';
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
 * A connection event without a channel belongs to every agent seen on that connection.
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
    if (perChannel && message.kind !== 'data') {
      for (const key of channelsOn.get(message.conn) ?? []) byKey.get(key)!.messages.push(message);
      continue;
    }
    let found = byKey.get(message.conn);
    if (!found) byKey.set(message.conn, (found = { conn: message.conn, messages: [] }));
    found.messages.push(message);
  }
  return byKey;
}

/** Runs both roles' machines over each conversation of the transcript. */
export function validateTranscript(
  transcript: Transcript,
  protocol: Pick<Protocol, 'machines' | 'validationScope'>,
): TranscriptValidation {
  if (protocol.machines.length === 0) return { checked: false, violations: [] };
  const violations: TranscriptViolation[] = [];
  for (const { conn, channel, messages } of conversations(transcript, protocol).values()) {
    for (const machine of protocol.machines) {
      for (const violation of validate(machine, messages).violations)
        violations.push({
          ...violation,
          conn,
          ...(channel !== undefined ? { channel } : {}),
          role: machine.role,
        });
    }
  }
  violations.sort((a, b) => a.index - b.index);
  return { checked: true, violations };
}
