/**
 * pyRDDLGym's rddlsim-compatible client ends every message with three newlines (`\n\n\n`) instead of a
 * NUL, and expects the same of the server; neither sends an XML declaration. A recording of such a
 * connection is either its two byte streams (`*.c2s.raw` / `*.s2c.raw`) or one text holding both
 * directions in order (a log of the conversation). The splitter here is streaming (fed chunks), and every
 * piece that is not an rddlsim message, or a message cut off by the end of the file, is reported with its
 * line. A last message that no `\n\n\n` follows but that is whole (its XML parses) is sound: pyRDDLGym's
 * own server (`core/server.py`, `send_message`) writes no terminator after its messages, and a log saved
 * by an editor ends with one newline.
 */
import type {
  ImportInput,
  ImportOutcome,
  ImportProblem,
  RecordingFormat,
  RecordingStreamReader,
  RecordingStreamSink,
} from '../contract';
import { decodeWireBytes, setPayload } from '../../transcript/bytes';
import { describeLineLimit, MAX_LINE_CHARACTERS } from '../../transcript/line-limit';
import type { Direction, Transcript, TranscriptMessage } from '../../transcript/model';
import { directionOfRoot, interleaveByCause, rootName, type DirectedText } from './interleave';
import { numberRddlsimMessages, splitRddlsimSessions } from './session-boundaries';
import { parseXml } from './xml';

/** pyRDDLGym's end-of-message marker. */
export const PYRDDLGYM_TERMINATOR = '\n\n\n';

const LF = 0x0a;
const CR = 0x0d;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** One message cut out of a `\n\n\n`-separated stream, with the line it starts on. */
export interface TerminatedPiece {
  bytes: Uint8Array;
  /** 1-based line of the file where the message starts. */
  line: number;
  /** False for the last piece when the stream ended before its terminator. */
  terminated: boolean;
  /**
   * Set when no terminator came within the limit: `bytes` are the message's first bytes only (to name it),
   * and the rest of it, up to the next terminator, is skipped.
   */
  oversize?: true;
}

/** Bytes of a message longer than the limit kept to name it. */
const SHOWN_BYTES = 200;

/**
 * Cuts a byte stream at each `\n\n\n`, fed in chunks of any size (a terminator may straddle two chunks).
 * Blank space between messages (extra newlines) is skipped, not reported. A message is held until its
 * terminator comes, up to `maxMessageBytes` (default `MAX_LINE_CHARACTERS`): a longer one comes out as an
 * `oversize` piece as soon as it is that long, and its rest is skipped up to the next terminator, so a
 * stream cut inside a message that never ends is read in bounded memory.
 */
export class TerminatorSplitter {
  readonly #max: number;
  #pending: Uint8Array = new Uint8Array(0);
  /** Line at the start of `#pending`. */
  #line = 1;
  /** While skipping the rest of a message longer than the limit: how many newlines ended what was seen (0 to 2). */
  #skipping: number | undefined;

  constructor({ maxMessageBytes = MAX_LINE_CHARACTERS }: { maxMessageBytes?: number } = {}) {
    this.#max = maxMessageBytes;
  }

  push(chunk: Uint8Array): TerminatedPiece[] {
    let fresh = chunk;
    if (this.#skipping !== undefined) {
      const resume = this.#skip(chunk);
      if (resume < 0) return [];
      fresh = chunk.subarray(resume);
    }
    // Only what came since the last push is searched for a terminator (one may straddle the two).
    let search = Math.max(0, this.#pending.length - 2);
    const bytes = this.#pending.length === 0 ? fresh : concat(this.#pending, fresh);
    const pieces: TerminatedPiece[] = [];
    let start = 0;
    let line = this.#line;
    for (;;) {
      const at = findTerminator(bytes, search);
      if (at < 0) break;
      // However it came in chunks, a message longer than the limit is one too long to hold.
      if (at - start > this.#max) {
        const piece = this.#piece(bytes.subarray(start, at), line, true, SHOWN_BYTES);
        if (piece) pieces.push({ ...piece, oversize: true });
      } else {
        const piece = this.#piece(bytes.subarray(start, at), line, true);
        if (piece) pieces.push(piece);
      }
      line += countLines(bytes, start, at + 3);
      start = at + 3;
      search = start;
    }
    this.#line = line;
    if (bytes.length - start > this.#max) {
      const piece = this.#piece(bytes.subarray(start), line, false, SHOWN_BYTES);
      this.#line += countLines(bytes, start, bytes.length);
      this.#pending = new Uint8Array(0);
      if (piece) {
        // Too long to be a message: named by its start, and skipped up to the next terminator.
        pieces.push({ ...piece, oversize: true });
        let newlines = 0;
        while (newlines < 2 && bytes[bytes.length - 1 - newlines] === LF) newlines++;
        this.#skipping = newlines;
      }
      return pieces;
    }
    // Copy the rest: the chunk may be reused by the caller.
    this.#pending = bytes.slice(start);
    return pieces;
  }

  end(): TerminatedPiece[] {
    if (this.#skipping !== undefined) {
      this.#skipping = undefined;
      return [];
    }
    // A partial terminator, or the newline an editor ends a file with, is no part of the last message.
    let end = this.#pending.length;
    while (end > 0 && (this.#pending[end - 1] === LF || this.#pending[end - 1] === CR)) end--;
    const piece = this.#piece(this.#pending.subarray(0, end), this.#line, false);
    this.#pending = new Uint8Array(0);
    return piece ? [piece] : [];
  }

  /**
   * Skips the rest of a message too long to hold, in `chunk`: where the bytes after its terminator start,
   * or -1 when the chunk ends before it (its lines are counted either way).
   */
  #skip(chunk: Uint8Array): number {
    const seen = this.#skipping!;
    let end = -1;
    let leading = 0;
    while (leading < 3 - seen && chunk[leading] === LF) leading++;
    if (leading === 3 - seen) end = leading;
    else {
      const at = findTerminator(chunk, 0);
      if (at >= 0) end = at + 3;
    }
    if (end >= 0) {
      this.#line += countLines(chunk, 0, end);
      this.#skipping = undefined;
      return end;
    }
    this.#line += countLines(chunk, 0, chunk.length);
    let newlines = 0;
    while (newlines < 2 && newlines < chunk.length && chunk[chunk.length - 1 - newlines] === LF) newlines++;
    // A chunk of nothing but a newline or two adds to those before it.
    this.#skipping = newlines === chunk.length ? Math.min(2, seen + newlines) : newlines;
    return -1;
  }

  /**
   * The piece with leading blank lines dropped (they move its line on), or nothing when it is blank; with
   * `keep`, only its first `keep` bytes.
   */
  #piece(bytes: Uint8Array, line: number, terminated: boolean, keep?: number): TerminatedPiece | undefined {
    let from = 0;
    while (from < bytes.length && isBlank(bytes[from]!)) {
      if (bytes[from] === LF) line++;
      from++;
    }
    if (from === bytes.length) return undefined;
    return { bytes: bytes.slice(from, keep === undefined ? undefined : from + keep), line, terminated };
  }
}

function isBlank(byte: number): boolean {
  return byte === LF || byte === 0x0d || byte === 0x20 || byte === 0x09;
}

function findTerminator(bytes: Uint8Array, from: number): number {
  for (let at = bytes.indexOf(LF, from); at >= 0 && at + 2 < bytes.length; at = bytes.indexOf(LF, at + 1)) {
    if (bytes[at + 1] === LF && bytes[at + 2] === LF) return at;
  }
  return -1;
}

function countLines(bytes: Uint8Array, from: number, to: number): number {
  let lines = 0;
  for (let i = bytes.indexOf(LF, from); i >= 0 && i < to; i = bytes.indexOf(LF, i + 1)) lines++;
  return lines;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** Text of a piece, or undefined when it is not UTF-8. */
function textOf(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Whether the start of a file could be a `\n\n\n` stream: an rddlsim root first, and no NUL. */
function couldBeTerminatedStream(start: string): boolean {
  return !start.includes('\0') && directionOfRoot(rootName(start.replace(/^\s+/, ''))) !== undefined;
}

/** Whether a terminator follows the end of an element in the start of a file. */
function showsTerminator(start: string): boolean {
  return />\n\n\n/.test(start);
}

/**
 * Whether a last piece, which no terminator ended, is a whole message all the same: the literal null, or
 * one XML document that parses (pyRDDLGym's server sends no terminator at all, and a log saved by an editor
 * ends with one newline, not three).
 */
function isWholeMessage(text: string | undefined): boolean {
  if (text === undefined) return false;
  if (text.trim() === 'null') return true;
  try {
    parseXml(text);
    return true;
  } catch {
    return false;
  }
}

/** A piece as a message, or undefined (and a located problem) when it cannot be one. */
function pieceMessage(
  piece: TerminatedPiece,
  file: string,
  expected: Direction | undefined,
  problems: { push(problem: ImportProblem): void },
  limit = MAX_LINE_CHARACTERS,
): DirectedText | undefined {
  const text = textOf(piece.bytes);
  const root = rootName(text);
  const dir = directionOfRoot(root);
  if (piece.oversize) {
    const shown = latin1.decode(piece.bytes).replace(/\s+/g, ' ').trim().slice(0, 60);
    problems.push({
      file,
      line: piece.line,
      message: `a message longer than ${describeLineLimit(limit, 'bytes')} ('${shown}...') has no \\n\\n\\n within it: not an rddlsim message, skipped to the next \\n\\n\\n`,
    });
    return undefined;
  }
  if (!piece.terminated && !(dir && isWholeMessage(text)))
    problems.push({
      file,
      line: piece.line,
      message: `the file ends in the middle of a message (no \\n\\n\\n after it)${dir ? `; the partial <${root}> is kept` : ''}`,
    });
  const shown = text === undefined ? 'bytes that are not UTF-8 text' : `'${text.trim().slice(0, 60)}'`;
  if (dir === undefined) {
    problems.push({ file, line: piece.line, message: `not an rddlsim message, skipped: ${shown}` });
    return undefined;
  }
  if (expected !== undefined && dir !== expected) {
    problems.push({
      file,
      line: piece.line,
      message: `a ${dir === 'c2s' ? 'client' : 'server'} message <${root}> in the ${expected === 'c2s' ? 'client' : 'server'}'s stream, skipped`,
    });
    return undefined;
  }
  return { dir, text, bytes: piece.bytes, framing: 'none' };
}

/** Reads every piece of one input, reporting those that are not rddlsim messages. */
function readPieces(
  input: ImportInput,
  expected: Direction | undefined,
  problems: ImportProblem[],
): DirectedText[] {
  const splitter = new TerminatorSplitter();
  const pieces = [...splitter.push(input.bytes), ...splitter.end()];
  return pieces.flatMap((piece) => pieceMessage(piece, input.name, expected, problems) ?? []);
}

function messageOf(message: DirectedText, index: number, conn: string): TranscriptMessage {
  const read = setPayload<TranscriptMessage>(
    { index, conn, dir: message.dir, t: 0, kind: 'data' },
    decodeWireBytes(message.bytes),
  );
  read.framing = 'none';
  return read;
}

function transcriptOf(ordered: readonly DirectedText[], name: string, conn: string): Transcript {
  const messages = ordered.map((message, index) => messageOf(message, index, conn));
  return {
    format: 'protoplay-transcript',
    version: 2,
    protocol: 'rddlsim',
    startedAt: 0,
    meta: {
      source: name,
      imported: 'pyrddlgym-stream',
      timing: 'unknown',
      messageTerminator: PYRDDLGYM_TERMINATOR,
    },
    connections: [{ id: conn, label: `session ${conn.replace(/^session-/, '')}` }],
    messages,
    annotations: [],
  };
}

const rawSuffix = /\.(c2s|s2c)\.raw$/;

function start(input: ImportInput): string {
  return latin1.decode(input.bytes.subarray(0, 4096));
}

/** pyRDDLGym's `\n\n\n`-separated streams: a `.c2s.raw`/`.s2c.raw` pair, or one text of both directions. */
export const rddlsimPyrddlgymStreamFormat: RecordingFormat = {
  id: 'rddlsim-pyrddlgym-stream',
  description: "pyRDDLGym's rddlsim streams (messages ended by three newlines)",
  detect: (inputs) => {
    const starts = inputs.map(start);
    // Every file starts with a message and has no NUL, and one shows a terminator (a server stream may
    // open with a session-init longer than what is looked at).
    if (inputs.length === 0 || !starts.every(couldBeTerminatedStream) || !starts.some(showsTerminator))
      return 0;
    // Above the NUL formats, which would also find the messages but not their terminators.
    if (inputs.every((input) => rawSuffix.test(input.name))) return 0.92;
    return inputs.length === 1 ? 0.85 : 0;
  },
  read: (inputs) => {
    const outcome: Required<ImportOutcome> = { transcripts: [], problems: [], sources: [] };
    if (!inputs.every((input) => rawSuffix.test(input.name))) {
      // A log of both directions may hold several sessions, one after the other.
      for (const input of inputs)
        for (const messages of splitRddlsimSessions(readPieces(input, undefined, outcome.problems))) {
          outcome.transcripts.push(
            transcriptOf(messages, input.name, `session-${outcome.transcripts.length + 1}`),
          );
          outcome.sources.push([input.name]);
        }
      return outcome;
    }
    const pairs = new Map<string, { c2s?: ImportInput; s2c?: ImportInput }>();
    for (const input of inputs) {
      const match = rawSuffix.exec(input.name)!;
      const stem = input.name.slice(0, match.index);
      const pair = pairs.get(stem) ?? {};
      pair[match[1] as Direction] = input;
      pairs.set(stem, pair);
    }
    let session = 0;
    for (const [stem, pair] of pairs) {
      session++;
      const missing = pair.c2s ? (pair.s2c ? undefined : 's2c') : 'c2s';
      if (missing)
        outcome.problems.push({
          file: (pair.c2s ?? pair.s2c)!.name,
          message: `half of the conversation is missing: no ${stem}.${missing}.raw (what the ${missing === 'c2s' ? 'client' : 'server'} sent); the transcript holds one side only`,
        });
      const client = pair.c2s ? readPieces(pair.c2s, 'c2s', outcome.problems) : [];
      const server = pair.s2c ? readPieces(pair.s2c, 's2c', outcome.problems) : [];
      outcome.transcripts.push(transcriptOf(interleaveByCause(client, server), stem, `session-${session}`));
      outcome.sources.push([pair.c2s, pair.s2c].flatMap((half) => (half ? [half.name] : [])));
    }
    return outcome;
  },
  stream: (name, sink) => streamPyrddlgymLog(name, sink),
};

/**
 * One `\n\n\n`-separated file (a log of both directions) fed in chunks: each message as soon as its
 * terminator comes; a message longer than `maxMessageBytes` is reported and skipped (see
 * `TerminatorSplitter`). A log of several sessions goes to a sink that takes them
 * (`RecordingStreamSink.session`) session by session.
 */
export function streamPyrddlgymLog(
  name: string,
  sink: RecordingStreamSink,
  { maxMessageBytes = MAX_LINE_CHARACTERS }: { maxMessageBytes?: number } = {},
): RecordingStreamReader {
  const splitter = new TerminatorSplitter({ maxMessageBytes });
  const numbered = numberRddlsimMessages(sink);
  const take = (pieces: TerminatedPiece[]) => {
    for (const piece of pieces) {
      const message = pieceMessage(piece, name, undefined, { push: (p) => sink.problem(p) }, maxMessageBytes);
      if (!message) continue;
      const { index, conn } = numbered(message.dir, rootName(message.text));
      sink.message(messageOf(message, index, conn));
    }
  };
  return { push: (chunk) => take(splitter.push(chunk)), end: () => take(splitter.end()) };
}
