/**
 * Exports a transcript as raw wire byte streams, one per connection and direction, framed as the protocol
 * frames them: what a packet capture of the session would show (and what `importRawStreams` reads back).
 */
import { concatBytes } from '../transport/bytes';
import { encodeNulFrame } from '../transport/nul-framing';
import { payloadBytes } from './bytes';
import type { Direction, Transcript, TranscriptMessage } from './model';

/** The bytes one side of one connection sent. */
export interface WireStream {
  conn: string;
  dir: Direction;
  /** Suggested file name, e.g. `session-1.c2s.raw`. */
  fileName: string;
  bytes: Uint8Array;
  messages: number;
}

/**
 * Every data message's bytes in order, each followed by a NUL when its framing is `nul` (`fallback` is the
 * framing of messages that do not say: the protocol's own). Messages carried in frames (WebSocket, HTTP)
 * are simply concatenated.
 */
export function exportWireStreams(
  transcript: Transcript,
  fallback: NonNullable<TranscriptMessage['framing']>,
): WireStream[] {
  const parts = new Map<string, { conn: string; dir: Direction; chunks: Uint8Array[]; messages: number }>();
  for (const message of transcript.messages) {
    if (message.kind !== 'data') continue;
    const key = `${message.conn}\u0000${message.dir}`;
    let part = parts.get(key);
    if (!part) parts.set(key, (part = { conn: message.conn, dir: message.dir, chunks: [], messages: 0 }));
    const payload = payloadBytes(message);
    part.chunks.push((message.framing ?? fallback) === 'nul' ? encodeNulFrame(payload) : payload);
    part.messages++;
  }
  return [...parts.values()].map(({ conn, dir, chunks, messages }) => ({
    conn,
    dir,
    fileName: `${conn.replace(/[^\w.-]+/g, '_')}.${dir}.raw`,
    bytes: concatBytes(chunks),
    messages,
  }));
}
