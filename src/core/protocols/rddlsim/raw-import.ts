/**
 * Imports raw byte streams without timing: a `c2s.raw` / `s2c.raw` pair of one connection, or wire text
 * pasted from a log (both directions mixed, NULs possibly lost). Messages are split with the protocol's
 * framing and put in causal order; timestamps are unknown and left at 0.
 */
import { ProtoplayError } from '../../errors';
import { DEFAULT_MAX_MESSAGE_BYTES, ServerStreamSplitter } from './framing';
import type { ImportProblem, RecordingStreamReader, RecordingStreamSink, StreamFrame } from '../contract';
import { directionOfRoot, interleaveByCause, rootName, type DirectedText } from './interleave';
import { decodeWireBytes, setPayload } from '../../transcript/bytes';
import type { Direction, Transcript, TranscriptMessage } from '../../transcript/model';
import { numberRddlsimMessages } from './session-boundaries';
import { rddlsimStreamFraming } from './stream-framing';

/** Options of the raw importers. */
export interface RawImportOptions {
  /** Connection id (default `session-1`). */
  conn?: string;
  /** Where the data came from, for `meta.source` (for a pair: the name both files start with). */
  name?: string;
  /**
   * `importRawStreams`: called with the error for a stream that ends in the middle of a message (no NUL after it, or a root
   * element that does not close), located at the byte where that message starts, instead of throwing it.
   * The partial message is left out of the transcript: the other side never read it.
   */
  onDamage?: (error: unknown) => void;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const utf8 = new TextDecoder();

/** Reads the two byte streams of one connection into a transcript, ordered by cause. */
export function importRawStreams(
  streams: { c2s: Uint8Array; s2c: Uint8Array },
  options: RawImportOptions = {},
): Transcript {
  const split = (dir: Direction): DirectedText[] => {
    const stream = streams[dir];
    const splitter = rddlsimStreamFraming.splitter(dir);
    const frames = splitter.push(stream).map((frame) => directed(dir, frame));
    // What the splitter still holds at the end is the stream's tail that no terminator (or closing root)
    // ended: a message cut off, unless it is only blank space.
    for (const rest of splitter.end()) {
      const text = utf8.decode(rest.bytes);
      if (text.trim() === '') continue;
      const byte = stream.length - rest.bytes.length;
      const error = new ProtoplayError(
        'transcript.raw.cut',
        `the file ends in the middle of a message (${preview(text, 40)}...); it is left out`,
        {
          source: `${options.name ?? 'raw stream'}.${dir}.raw`,
          ...lineAndColumn(stream, byte),
          offset: byte,
        },
      );
      if (!options.onDamage) throw error;
      options.onDamage(error);
    }
    return frames;
  };
  const ordered = interleaveByCause(split('c2s'), split('s2c'));
  return transcriptOf(ordered, options, 'raw-streams');
}

/** The 1-based line and column of a byte of a stream. */
function lineAndColumn(bytes: Uint8Array, byte: number): { line: number; column: number } {
  const before = bytes.subarray(0, byte);
  return { line: 1 + countLines(before), column: byte - before.lastIndexOf(LF) };
}

/**
 * Reads rddlsim messages pasted as text: each message is found by its root element (a declaration before
 * it and a NUL after it are kept when present; blank space between messages belongs to none) and its
 * direction follows from its root. Throws the first problem `streamRddlsimWireText` reports, located.
 * A text of several sessions gives the first (`readRddlsimWireText` gives them all).
 */
export function importRddlsimWireText(text: string, options: RawImportOptions = {}): Transcript {
  const name = options.name ?? 'pasted text';
  const problems: ImportProblem[] = [];
  const transcript = readRddlsimWireText(new TextEncoder().encode(text), name, problems)[0]!;
  const first = problems[0];
  if (first)
    throw new ProtoplayError('transcript.wire-text', first.message, {
      source: name,
      line: first.line ?? 1,
      column: 1,
      ...(first.byte !== undefined ? { offset: first.byte } : {}),
    });
  return options.conn ? renameConnection(transcript, options.conn) : transcript;
}

/**
 * Reads a whole wire text with the reader of one fed in chunks, so both report alike: one transcript per
 * session the text holds (see `RddlsimSessionBoundaries`), their connections `session-1`, `session-2`...
 */
export function readRddlsimWireText(
  bytes: Uint8Array,
  name: string,
  problems: ImportProblem[],
): Transcript[] {
  const sessions: TranscriptMessage[][] = [[]];
  const reader = streamRddlsimWireText(name, {
    message: (message) => sessions[sessions.length - 1]!.push(message),
    problem: (problem) => problems.push(problem),
    session: () => void sessions.push([]),
  });
  reader.push(bytes);
  reader.end();
  return sessions.map((messages, i) => ({
    format: 'protoplay-transcript',
    version: 2,
    protocol: 'rddlsim',
    startedAt: 0,
    meta: { source: name, imported: 'wire-text', timing: 'unknown' },
    connections: [{ id: `session-${i + 1}`, label: `session ${i + 1}` }],
    messages,
    annotations: [],
  }));
}

/** Options of the wire-text reader. */
export interface WireTextOptions {
  /**
   * Longest message read at once (default 10 MiB, rddlsim's read buffer): a longer one is cut there as
   * rddlsim cuts it, and the rest of it is skipped.
   */
  maxMessageBytes?: number;
}

/** Where a piece of the file starts: 1-based line and 0-based byte. */
interface Place {
  line: number;
  byte: number;
}

/** A piece longer than the limit whose rest is still being skipped. */
interface LongPiece extends Place {
  /** Whether its first part was kept as a message (else it was skipped as not rddlsim). */
  kept: boolean;
  /** Its start, to name it. */
  shown: string;
  /** Bytes read of it so far. */
  length: number;
}

const LT = 0x3c;
const LF = 0x0a;
/** The byte that makes a message whose root closed with the file's last byte come out of the splitter. */
const ONE_BLANK = new Uint8Array([0x20]);

/**
 * The wire text of one file fed in chunks. Each message is found by its root element (or its NUL); blank
 * space between messages belongs to none of them, and other text before a message (a log's own lines) is
 * skipped and reported with its line and byte. A message longer than the limit keeps its first part and is
 * reported once, as is a last message cut off by the end of the file, with the line and byte it starts at
 * (that partial message is kept: the reader then says what is wrong with it). A text of several sessions
 * goes to a sink that takes them (`RecordingStreamSink.session`) session by session.
 */
export function streamRddlsimWireText(
  name: string,
  sink: RecordingStreamSink,
  { maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES }: WireTextOptions = {},
): RecordingStreamReader {
  const splitter = new ServerStreamSplitter({ findEnd: 'root', maxMessageBytes });
  const numbered = numberRddlsimMessages(sink);
  let pushed = 0;
  /** Where the next frame starts. */
  let line = 1;
  let byte = 0;
  let long: LongPiece | undefined;
  const report = (at: Place, message: string) =>
    sink.problem({ file: name, line: at.line, byte: at.byte, message });
  const limit = `the ${formatSize(maxMessageBytes)} rddlsim reads at once`;
  const finishLong = (cut: boolean) => {
    if (!long?.kept) {
      long = undefined;
      return;
    }
    const size = `${long.length.toLocaleString('en')} bytes`;
    report(
      long,
      cut
        ? `the file ends in the middle of a message (${long.shown}...), after ${size}, longer than ${limit}: its first part is kept`
        : `a message of ${size} (${long.shown}...) is longer than ${limit}: its first part is kept and the rest skipped`,
    );
    long = undefined;
  };

  /**
   * One piece of a frame, at the place `at` tells: a message, or something else to skip. The place is
   * reckoned only for a problem to report (counting the lines before a piece costs more than reading it).
   */
  const piece = (bytes: Uint8Array, at: () => Place, framing: StreamFrame['framing'], cut: boolean) => {
    const payload = decodeWireBytes(bytes);
    // Decoded once: strictly (what the transcript keeps), leniently only to name a piece that is not UTF-8.
    const text = 'text' in payload ? payload.text : utf8.decode(bytes);
    const root = rootName(text);
    const dir = directionOfRoot(root);
    if (!dir) {
      report(at(), `not an rddlsim message, skipped: '${preview(text, 60)}'`);
      return false;
    }
    if (cut) report(at(), `the file ends in the middle of a message (${preview(text, 40)}...)`);
    const { index, conn } = numbered(dir, root);
    const message = setPayload<TranscriptMessage>({ index, conn, dir, t: 0, kind: 'data' }, payload);
    if (framing === 'none') message.framing = 'none';
    sink.message(message);
    return true;
  };

  const frame = (frame: StreamFrame, atEnd: boolean) => {
    const { bytes } = frame;
    const at = { line, byte };
    line += countLines(bytes);
    // The splitter drops a message's NUL, and one byte where it cuts a message too long.
    const dropped = frame.oversize || frame.framing === 'nul' ? 1 : 0;
    byte += bytes.length + dropped;
    let from = 0;
    if (long) {
      long.length += bytes.length + (frame.oversize ? 1 : 0);
      if (long.kept) {
        // The rest of a long message, up to where its root closes (or the file ends).
        if (!frame.oversize) finishLong(atEnd && !closesItsRoot(bytes));
        return;
      }
      // The rest of a long piece of something else, skipped with it up to the first element after it.
      from = bytes.indexOf(LT);
      if (from < 0) {
        if (!frame.oversize) long = undefined;
        return;
      }
      long = undefined;
    }
    while (from < bytes.length && isBlank(bytes[from]!)) from++;
    if (from === bytes.length) return;
    const startOf = (offset: number) => () => ({
      line: at.line + countLines(bytes.subarray(0, offset)),
      byte: at.byte + offset,
    });
    // Text before the first element is a log's own, skipped (the literal null, a server message, excepted).
    let element = bytes.indexOf(LT, from);
    if (element < 0) element = bytes.length;
    let lastOffset = from;
    let kept = false;
    if (element > from) {
      const framing = element === bytes.length ? frame.framing : 'none';
      kept = piece(trimEnd(bytes.subarray(from, element)), startOf(from), framing, false);
    }
    if (element < bytes.length) {
      lastOffset = element;
      kept = piece(
        bytes.subarray(element),
        startOf(element),
        frame.framing,
        atEnd && !closesItsRoot(bytes.subarray(element)),
      );
    }
    if (frame.oversize) {
      const last = startOf(lastOffset)();
      const offset = last.byte - at.byte;
      const shown = preview(utf8.decode(bytes.subarray(offset, offset + 200)), 40);
      long = { ...last, kept, shown, length: bytes.length - offset + 1 };
    }
  };

  return {
    push(chunk: Uint8Array) {
      pushed += chunk.length;
      // The frames are read before the chunk may be reused, and the splitter keeps no view of it past that.
      for (const each of splitter.push(chunk)) frame(each, false);
      splitter.release();
      // The splitter drops stray NULs between messages: where the next frame starts is known exactly here.
      byte = pushed - splitter.pendingLength;
    },
    end() {
      for (const each of splitter.end()) frame(each, true);
      if (long) finishLong(true);
    },
  };
}

/**
 * Whether the bytes hold a whole root element (else they are a message cut off): the splitter frames a
 * root that closes with the last byte once it sees one more.
 */
function closesItsRoot(bytes: Uint8Array): boolean {
  const splitter = new ServerStreamSplitter({ findEnd: 'root', maxMessageBytes: bytes.length + 2 });
  const frames = [...splitter.push(bytes), ...splitter.push(ONE_BLANK)];
  return frames.length === 1 && frames[0]!.bytes.length === bytes.length;
}

/** The start of a piece on one line, without its XML declaration, to name it in a problem. */
function preview(text: string, length: number): string {
  return text
    .slice(0, 1000)
    .replace(/^\s*<\?[^]*?\?>/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, length);
}

function isBlank(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === LF || byte === 0x0d;
}

function trimEnd(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  while (end > 0 && isBlank(bytes[end - 1]!)) end--;
  return bytes.subarray(0, end);
}

function countLines(bytes: Uint8Array): number {
  let lines = 0;
  for (let at = bytes.indexOf(LF); at >= 0; at = bytes.indexOf(LF, at + 1)) lines++;
  return lines;
}

/** `10 MiB`, or the bytes when the limit is not a whole number of MiB. */
function formatSize(bytes: number): string {
  return bytes % (1 << 20) === 0 ? `${bytes >> 20} MiB` : `${bytes.toLocaleString('en')} bytes`;
}

function renameConnection(transcript: Transcript, conn: string): Transcript {
  return {
    ...transcript,
    connections: [{ id: conn, label: 'session 1' }],
    messages: transcript.messages.map((message) => ({ ...message, conn })),
  };
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
  const messages = ordered.map((message, index) => {
    const read = setPayload<TranscriptMessage>(
      { index, conn, dir: message.dir, t: 0, kind: 'data' },
      decodeWireBytes(message.bytes),
    );
    if (message.framing === 'none') read.framing = 'none';
    return read;
  });
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
