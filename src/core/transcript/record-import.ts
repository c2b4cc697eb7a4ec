/**
 * Imports the byte-level record format of recorded rddlsim sessions (`*.transcript`): one record per chunk
 * a relay or probe saw, `@@ <seq> <C>S|S>C> <ms> <len>\n` followed by exactly `len` raw bytes and `\n`, or
 * `@@ <seq> <dir> <ms> CLOSE` / `ERROR <code>` for connection events. A record may hold several messages
 * (pipelined) or part of one, so each direction's bytes go through the protocol's splitter.
 */
import { ProtoplayError } from '../errors';
import { decodeWireBytes, setPayload } from './bytes';
import type { Direction, ProtocolId, Transcript, TranscriptMessage } from './model';
import type { StreamFraming, StreamFrame, StreamSplitter } from '../protocols/contract';

/** Options for importing a record file. */
export interface RecordImportOptions {
  /** The protocol whose connection was recorded, and how its byte streams divide into messages. */
  protocol: ProtocolId;
  framing: StreamFraming;
  /**
   * Number of the file's first session (default 1): its connection is `session-<n>`, and the sessions
   * after it in the file (record files joined end to end) are numbered on.
   */
  firstSession?: number;
  /** File name, for error locations and `meta.source`. */
  name?: string;
  /**
   * Called with the error at a malformed record instead of throwing it: reading stops there and the
   * transcripts keep every message before it.
   */
  onDamage?: (error: unknown) => void;
}

const AT = 0x40;
const HEADER = /^@@ (\d+) (C>S|S>C) (\d+) (?:(\d+)|CLOSE|ERROR(?: (.*))?)$/;
const NEWLINE = 0x0a;
const latin1 = new TextDecoder('latin1');

/** One record of the file: a chunk of bytes as it travelled, or a side closing. */
export interface RecordedChunk {
  /** The record's sequence number, from 1 in each recorded connection. */
  seq: number;
  dir: Direction;
  /** Milliseconds since the connection was accepted. */
  ms: number;
  kind: 'data' | 'close' | 'error';
  bytes?: Uint8Array;
  /** Detail of an `ERROR` record. */
  detail?: string;
}

/** True when the text (or bytes) starts like a record file. */
export function looksLikeRecordFile(start: string): boolean {
  return /^@@ \d+ (C>S|S>C) \d+ /.test(start);
}

/**
 * Reads a record file into one transcript per connection it recorded; throws a located ProtoplayError on a
 * malformed record unless `onDamage` takes it. A file records one connection, but record files joined end
 * to end (`cat a.transcript b.transcript`) record several: a record after both directions have closed, or
 * one numbered 1 again, starts the next connection, which is a session of its own.
 */
export function importRecordFile(bytes: Uint8Array, options: RecordImportOptions): Transcript[] {
  const firstSession = options.firstSession ?? 1;
  const sessions: FrameCollector[] = [];
  const startSession = () => {
    sessions.at(-1)?.finish();
    sessions.push(new FrameCollector(options.framing, `session-${firstSession + sessions.length}`));
  };
  let records = 0;
  const closed = new Set<Direction>();
  startSession();
  try {
    for (const record of readRecordFile(bytes, options.name ?? 'transcript')) {
      if (records > 0 && (closed.size === 2 || record.seq === 1)) {
        startSession();
        closed.clear();
      }
      records++;
      const builder = sessions.at(-1)!;
      if (record.kind === 'data') builder.data(record.dir, record.ms, record.bytes!);
      else builder.event(record.dir, record.ms, record.kind, record.detail);
      if (record.kind === 'close') closed.add(record.dir);
    }
  } catch (error) {
    if (!options.onDamage) throw error;
    options.onDamage(error);
  }
  sessions.at(-1)!.finish();
  return sessions.map((session, i) => ({
    format: 'protoplay-transcript',
    version: 2,
    protocol: options.protocol,
    startedAt: 0,
    meta: { source: options.name ?? 'record file', imported: 'record-file' },
    connections: [{ id: session.conn, label: `session ${firstSession + i}` }],
    messages: session.messages,
    annotations: [],
  }));
}

/**
 * The records of a record file, in order, with their bytes untouched (for replaying a recorded stream
 * chunk by chunk). Throws a ProtoplayError located in `name` on a malformed record.
 */
export function* readRecordFile(bytes: Uint8Array, name = 'transcript'): Generator<RecordedChunk> {
  let offset = 0;
  let line = 1;
  while (offset < bytes.length) {
    const end = bytes.indexOf(NEWLINE, offset);
    const headerOffset = offset;
    const header = latin1.decode(bytes.subarray(offset, end < 0 ? bytes.length : end));
    const match = HEADER.exec(header);
    if (!match || end < 0) {
      if (!header.trim() && end < 0) return; // trailing blank line
      throw new ProtoplayError('transcript.record.header', `not a record header: '${header.slice(0, 60)}'`, {
        source: name,
        line,
        column: 1,
        offset,
      });
    }
    const [, seq, dirText, ms, length, errorDetail] = match;
    const dir: Direction = dirText === 'C>S' ? 'c2s' : 's2c';
    const headerLine = line;
    offset = end + 1;
    line++;
    if (length === undefined) {
      const kind = header.includes(' CLOSE') ? 'close' : 'error';
      yield { seq: Number(seq), dir, ms: Number(ms), kind, ...(errorDetail ? { detail: errorDetail } : {}) };
      continue;
    }
    const size = Number(length);
    if (offset + size > bytes.length) {
      throw new ProtoplayError(
        'transcript.record.truncated',
        `record announces ${size} bytes but the file ends first`,
        {
          source: name,
          line,
          column: 1,
          offset,
        },
      );
    }
    const body = bytes.subarray(offset, offset + size);
    for (const byte of body) if (byte === NEWLINE) line++;
    offset += size;
    if (bytes[offset] === NEWLINE) {
      offset++;
      line++;
    }
    // What follows the announced bytes must be the next record. A line that does not even start like a
    // header means the length is wrong: the damage is this record's header, and it is located there.
    if (offset < bytes.length && !(bytes[offset] === AT && bytes[offset + 1] === AT)) {
      const next = bytes.indexOf(NEWLINE, offset);
      const rest = latin1.decode(bytes.subarray(offset, next < 0 ? bytes.length : next));
      if (rest.trim() || next >= 0) {
        throw new ProtoplayError(
          'transcript.record.length',
          `record announces ${size} bytes, but what follows them (line ${line}: '${rest.slice(0, 40)}') ` +
            'is not a record header: the length in this header is wrong',
          { source: name, line: headerLine, column: 1, offset: headerOffset },
        );
      }
    }
    yield { seq: Number(seq), dir, ms: Number(ms), kind: 'data', bytes: body };
  }
}

/**
 * Turns per-direction byte chunks into transcript messages in arrival order: a message is recorded when its
 * last byte arrives, with that chunk's time.
 */
export class FrameCollector {
  readonly messages: TranscriptMessage[] = [];
  readonly #splitters = new Map<Direction, StreamSplitter>();
  readonly #lastTime = new Map<Direction, number>();

  constructor(
    readonly framing: StreamFraming,
    readonly conn: string,
  ) {}

  /** A chunk of bytes that travelled in `dir` at time `t` (ms). */
  data(dir: Direction, t: number, chunk: Uint8Array): void {
    this.#lastTime.set(dir, t);
    for (const frame of this.#splitter(dir).push(chunk)) this.#frame(dir, t, frame);
  }

  /** A connection event; a close first ends the stream of its direction. */
  event(dir: Direction, t: number, kind: 'close' | 'error' | 'open', detail?: string): void {
    if (kind === 'close') this.#flush(dir, t);
    const message: TranscriptMessage = { index: this.messages.length, conn: this.conn, dir, t, kind };
    if (detail !== undefined) message.text = detail;
    this.messages.push(message);
  }

  /** End of input: unterminated leftovers become messages without framing. */
  finish(): void {
    for (const dir of this.#splitters.keys()) this.#flush(dir, this.#lastTime.get(dir) ?? 0);
  }

  #flush(dir: Direction, t: number): void {
    const splitter = this.#splitters.get(dir);
    if (splitter) for (const frame of splitter.end()) this.#frame(dir, t, frame);
  }

  #splitter(dir: Direction): StreamSplitter {
    let splitter = this.#splitters.get(dir);
    if (!splitter) this.#splitters.set(dir, (splitter = this.framing.splitter(dir)));
    return splitter;
  }

  #frame(dir: Direction, t: number, frame: StreamFrame): void {
    const message = setPayload<TranscriptMessage>(
      { index: this.messages.length, conn: this.conn, dir, t, kind: 'data' },
      decodeWireBytes(frame.bytes),
    );
    if (frame.framing === 'none') message.framing = 'none';
    this.messages.push(message);
  }
}
