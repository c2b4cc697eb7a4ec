/**
 * Imports raw byte streams without timing: a `c2s.raw` / `s2c.raw` pair of one connection, or wire text
 * pasted from a log (both directions mixed, NULs possibly lost). Messages are split with the protocol's
 * framing and put in causal order; timestamps are unknown and left at 0.
 */
import { ProtoplayError } from '../../errors';
import { ServerStreamSplitter } from './framing';
import type { StreamFrame } from '../contract';
import { directionOfRoot, interleaveByCause, rootName, type DirectedText } from './interleave';
import { decodeWireBytes } from '../../transcript/bytes';
import type { Direction, Transcript, TranscriptMessage } from '../../transcript/model';
import { rddlsimStreamFraming } from './stream-framing';

/** Options of the raw importers. */
export interface RawImportOptions {
  /** Connection id (default `session-1`). */
  conn?: string;
  /** Where the data came from, for `meta.source`. */
  name?: string;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads the two byte streams of one connection into a transcript, ordered by cause. */
export function importRawStreams(
  streams: { c2s: Uint8Array; s2c: Uint8Array },
  options: RawImportOptions = {},
): Transcript {
  const split = (dir: Direction): DirectedText[] => {
    const splitter = rddlsimStreamFraming.splitter(dir);
    return [...splitter.push(streams[dir]), ...splitter.end()].map((frame) => directed(dir, frame));
  };
  const ordered = interleaveByCause(split('c2s'), split('s2c'));
  return transcriptOf(ordered, options, 'raw-streams');
}

/**
 * Reads rddlsim messages pasted as text: each message is found by its root element (a declaration before
 * it and a NUL after it are kept when present) and its direction follows from its root.
 */
export function importRddlsimWireText(text: string, options: RawImportOptions = {}): Transcript {
  const splitter = new ServerStreamSplitter({ findEnd: 'root' });
  const bytes = new TextEncoder().encode(text);
  const frames = [...splitter.push(bytes), ...splitter.end()].filter(
    (frame) => strictUtf8.decode(frame.bytes).trim() !== '',
  );
  const messages = frames.map((frame, position) => {
    const body = strictUtf8.decode(frame.bytes);
    const dir = directionOfRoot(rootName(body));
    if (!dir) {
      throw new ProtoplayError(
        'transcript.wire-text.root',
        `message ${position + 1} is not an rddlsim message: ${body.trim().slice(0, 60)}`,
        { source: options.name ?? 'pasted text', line: 1, column: 1 },
      );
    }
    return directed(dir, { bytes: frame.bytes, framing: frame.framing });
  });
  return transcriptOf(messages, options, 'wire-text');
}

function directed(dir: Direction, frame: StreamFrame): DirectedText {
  let text: string | undefined;
  try {
    text = strictUtf8.decode(frame.bytes);
  } catch {
    text = undefined;
  }
  return { dir, text, bytes: frame.bytes, framing: frame.framing };
}

function transcriptOf(
  ordered: readonly DirectedText[],
  options: RawImportOptions,
  imported: string,
): Transcript {
  const conn = options.conn ?? 'session-1';
  const messages: TranscriptMessage[] = ordered.map((message, index) => ({
    index,
    conn,
    dir: message.dir,
    t: 0,
    kind: 'data',
    ...decodeWireBytes(message.bytes),
    ...(message.framing === 'none' ? { framing: 'none' as const } : {}),
  }));
  return {
    format: 'protoplay-transcript',
    version: 2,
    protocol: 'rddlsim',
    startedAt: 0,
    meta: { source: options.name ?? imported, imported, timing: 'unknown' },
    connections: [{ id: conn, label: 'session 1' }],
    messages,
    annotations: [],
  };
}
