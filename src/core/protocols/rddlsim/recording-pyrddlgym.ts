/**
 * pyRDDLGym's rddlsim-compatible server and client end every message with three newlines (`\n\n\n`)
 * instead of a NUL, and send no XML declaration. A recording of such a connection is either its two byte
 * streams (`*.c2s.raw` / `*.s2c.raw`) or one text holding both directions in order (a log of the
 * conversation). The splitter here is streaming (fed chunks), and every piece that is not an rddlsim message,
 * or a message cut off by the end of the file, is reported with its line.
 */
import type { ImportInput, ImportOutcome, ImportProblem, RecordingFormat } from '../contract';
import { decodeWireBytes } from '../../transcript/bytes';
import type { Direction, Transcript, TranscriptMessage } from '../../transcript/model';
import { directionOfRoot, interleaveByCause, rootName, type DirectedText } from './interleave';

/** pyRDDLGym's end-of-message marker. */
export const PYRDDLGYM_TERMINATOR = '\n\n\n';

const LF = 0x0a;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** One message cut out of a `\n\n\n`-separated stream, with the line it starts on. */
export interface TerminatedPiece {
  bytes: Uint8Array;
  /** 1-based line of the file where the message starts. */
  line: number;
  /** False for the last piece when the stream ended before its terminator. */
  terminated: boolean;
}

/**
 * Cuts a byte stream at each `\n\n\n`, fed in chunks of any size (a terminator may straddle two chunks).
 * Blank space between messages (extra newlines) is skipped, not reported.
 */
export class TerminatorSplitter {
  #pending: Uint8Array = new Uint8Array(0);
  /** Line at the start of `#pending`. */
  #line = 1;

  push(chunk: Uint8Array): TerminatedPiece[] {
    const bytes = this.#pending.length === 0 ? chunk : concat(this.#pending, chunk);
    const pieces: TerminatedPiece[] = [];
    let start = 0;
    let line = this.#line;
    let search = 0;
    for (;;) {
      const at = findTerminator(bytes, search);
      if (at < 0) break;
      const piece = this.#piece(bytes.subarray(start, at), line, true);
      if (piece) pieces.push(piece);
      line += countLines(bytes, start, at + 3);
      start = at + 3;
      search = start;
    }
    // Copy the rest: the chunk may be reused by the caller.
    this.#pending = bytes.slice(start);
    this.#line = line;
    return pieces;
  }

  end(): TerminatedPiece[] {
    const piece = this.#piece(this.#pending, this.#line, false);
    this.#pending = new Uint8Array(0);
    return piece ? [piece] : [];
  }

  /** The piece with leading blank lines dropped (they move its line on), or nothing when it is blank. */
  #piece(bytes: Uint8Array, line: number, terminated: boolean): TerminatedPiece | undefined {
    let from = 0;
    while (from < bytes.length && isBlank(bytes[from]!)) {
      if (bytes[from] === LF) line++;
      from++;
    }
    if (from === bytes.length) return undefined;
    return { bytes: bytes.slice(from), line, terminated };
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

/** A piece as a message, or undefined (and a located problem) when it cannot be one. */
function pieceMessage(
  piece: TerminatedPiece,
  file: string,
  expected: Direction | undefined,
  problems: { push(problem: ImportProblem): void },
): DirectedText | undefined {
  const text = textOf(piece.bytes);
  const root = rootName(text);
  const dir = directionOfRoot(root);
  if (!piece.terminated)
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
  return {
    index,
    conn,
    dir: message.dir,
    t: 0,
    kind: 'data',
    ...decodeWireBytes(message.bytes),
    framing: 'none',
  };
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
    const outcome: ImportOutcome = { transcripts: [], problems: [] };
    if (!inputs.every((input) => rawSuffix.test(input.name))) {
      inputs.forEach((input, i) => {
        const messages = readPieces(input, undefined, outcome.problems);
        outcome.transcripts.push(transcriptOf(messages, input.name, `session-${i + 1}`));
      });
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
    }
    return outcome;
  },
  stream(name, sink) {
    const splitter = new TerminatorSplitter();
    let index = 0;
    const take = (pieces: TerminatedPiece[]) => {
      for (const piece of pieces) {
        const message = pieceMessage(piece, name, undefined, { push: (p) => sink.problem(p) });
        if (message) sink.message(messageOf(message, index++, 'session-1'));
      }
    };
    return { push: (chunk) => take(splitter.push(chunk)), end: () => take(splitter.end()) };
  },
};
