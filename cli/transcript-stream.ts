/**
 * A transcript written to disk while the session runs (`--transcript FILE` of `run`): each message is on
 * disk moments after it happened and nothing stays in memory, so a session of any length can be kept.
 *
 * FILE is readable Protoplay JSON cut short at every moment: it starts with the header known when the
 * session starts (protocol, start time, no connections yet), then `"messages": [` and the records as they
 * come, flushed at least every few hundred milliseconds. Annotations come between messages: each time the
 * kind of record changes, the list being written is closed and the other one opened again
 * (`"annotations": [`, later `"messages": [` ...), so every record is in FILE in the order it was made. A
 * session killed midway leaves a FILE every reader of Protoplay JSON salvages (all complete messages and
 * annotations, the lists that come again read as one, and a located error saying where the file ends).
 * When the session ends, the finished file (the final header, the messages, then the annotations, copied
 * from FILE line by line) is written next to FILE and renamed over it: a finished FILE is byte for byte the
 * file an export of the same session writes (`writeTranscriptJsonParts` lays out both).
 */
import { closeSync, mkdirSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import {
  jsonListItem,
  jsonListOpening,
  writeTranscriptJsonHead,
  writeTranscriptJsonParts,
} from '../src/core/transcript/json-export';
import type { Transcript } from '../src/core/transcript/model';
import type { TranscriptSink } from '../src/core/transcript/recorder';
import { CliError, ExitCode } from './command-line/exit-codes';

/** Text gathered before a write: large enough to make writes rare, small enough to stay flat. */
const FLUSH_BYTES = 1 << 18;
/** Text older than this is written at the next record, or by the timer when no record comes. */
const FLUSH_MS = 250;
/** Bytes read from FILE at a time when it is finished. */
const COPY_BYTES = 1 << 20;

/** A buffered file written with plain synchronous writes (the session waits for nothing else). */
class BufferedFile {
  readonly #fd: number;
  #pending: string[] = [];
  #pendingLength = 0;
  #flushedAt = Date.now();
  /** Bytes written to the file so far. */
  written = 0;

  constructor(readonly path: string) {
    this.#fd = openSync(path, 'w');
  }

  write(text: string): void {
    this.#pending.push(text);
    this.#pendingLength += text.length;
    if (this.#pendingLength >= FLUSH_BYTES || Date.now() - this.#flushedAt >= FLUSH_MS) this.flush();
  }

  flush(): void {
    this.#flushedAt = Date.now();
    if (this.#pendingLength === 0) return;
    this.written += writeSync(this.#fd, this.#pending.join(''));
    this.#pending = [];
    this.#pendingLength = 0;
  }

  /** Writes bytes (gathered as text is, with what was written before them). */
  writeBytes(bytes: Uint8Array): void {
    this.flush();
    this.written += writeSync(this.#fd, bytes);
  }

  close(): void {
    this.flush();
    closeSync(this.#fd);
  }
}

/** Bytes that tell the lines of FILE apart (see `#copyList`). */
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const M = 0x6d;
const CLOSING = 0x5d;
const COMMA = 0x2c;
/** What comes before a record's text in its line of FILE, and before each item of a list in the file. */
const ITEM_INDENT = jsonListItem('', 0).length;
const ITEM_FIRST = Buffer.from(jsonListItem('', 0));
const ITEM_NEXT = Buffer.from(jsonListItem('', 1));

/** Streams one transcript to a file. Call `finish` once the session is over. */
export class TranscriptFileStream implements TranscriptSink {
  /** The absolute path of the transcript. */
  readonly path: string;
  readonly #protocol: string;
  /** FILE itself: the starting header, then the records. */
  readonly #file: BufferedFile;
  /** Where the first message starts in FILE. */
  readonly #messagesFrom: number;
  readonly #timer: ReturnType<typeof setInterval>;
  #messageCount = 0;
  #annotationCount = 0;
  /** The list being written in FILE, and how many records it holds. */
  #list: 'messages' | 'annotations' = 'messages';
  #inList = 0;
  #finished = false;

  /**
   * Creates (or empties) the file and its folder and writes the header known now; a path that cannot be
   * written is a clear error.
   */
  constructor(path: string, protocol: string, cwd: string, startedAt = Date.now()) {
    this.path = resolve(cwd, path);
    this.#protocol = protocol;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      this.#file = new BufferedFile(this.path);
    } catch (error) {
      throw new CliError(
        ExitCode.failure,
        `cannot write the transcript to '${path}': ${(error as Error).message}`,
      );
    }
    writeTranscriptJsonHead({ protocol, startedAt, meta: {}, connections: [] }, (piece) =>
      this.#file.write(piece),
    );
    this.#file.write(jsonListOpening('messages'));
    this.#file.flush();
    this.#messagesFrom = this.#file.written;
    // Messages recorded just before a quiet spell reach the disk without waiting for the next one.
    this.#timer = setInterval(() => this.#file.flush(), FLUSH_MS);
    this.#timer.unref();
  }

  #sidePath(list: string): string {
    return join(dirname(this.path), `.${basename(this.path)}.${list}-${process.pid}.tmp`);
  }

  /** A message already written as JSON (a transcript store's `messageJson`). */
  messageJson(json: string): void {
    this.#record('messages', json);
    this.#messageCount++;
  }

  /** An annotation already written as JSON. */
  annotationJson(json: string): void {
    this.#record('annotations', json);
    this.#annotationCount++;
  }

  /** Writes what is gathered to FILE now (it is written within a few hundred milliseconds anyway). */
  flush(): void {
    if (!this.#finished) this.#file.flush();
  }

  /** Writes a record into FILE, in a list of its kind (the other one is closed, this one opened again). */
  #record(list: 'messages' | 'annotations', json: string): void {
    if (list !== this.#list) {
      this.#file.write(`\n  ],\n${jsonListOpening(list)}`);
      this.#list = list;
      this.#inList = 0;
    }
    this.#file.write(jsonListItem(json, this.#inList++));
  }

  /**
   * Completes the file: the header, from `transcript` (whose messages and annotations are not read), then
   * the messages and the annotations read back from FILE, written next to FILE and renamed over it.
   * Returns the path.
   */
  finish(transcript: Pick<Transcript, 'startedAt' | 'meta' | 'connections'>): string {
    if (this.#finished) return this.path;
    this.#finished = true;
    clearInterval(this.#timer);
    this.#file.close();
    const finished = new BufferedFile(this.#sidePath('finished'));
    writeTranscriptJsonParts(
      {
        protocol: this.#protocol,
        startedAt: transcript.startedAt,
        meta: transcript.meta,
        connections: transcript.connections,
      },
      { count: this.#messageCount, writeItems: () => this.#copyList('messages', finished) },
      { count: this.#annotationCount, writeItems: () => this.#copyList('annotations', finished) },
      (piece) => finished.write(piece),
    );
    finished.close();
    renameSync(finished.path, this.path);
    return this.path;
  }

  /**
   * Copies the records of one kind from FILE into `to`, in order, as the items of one list: FILE is read a
   * MiB at a time and split into lines (each record is one line: JSON text holds no line break).
   */
  #copyList(list: 'messages' | 'annotations', to: BufferedFile): void {
    const source = openSync(this.path, 'r');
    const chunk = Buffer.allocUnsafe(COPY_BYTES);
    const out = Buffer.allocUnsafe(COPY_BYTES);
    let outLength = 0;
    let reading: 'messages' | 'annotations' = 'messages';
    let copied = 0;
    /** Copies bytes `[from, end)` of `bytes` to the finished file. */
    const put = (bytes: Buffer, from: number, end: number) => {
      if (outLength + end - from > out.length) {
        to.writeBytes(out.subarray(0, outLength));
        outLength = 0;
      }
      if (end - from > out.length) to.writeBytes(bytes.subarray(from, end));
      else outLength += bytes.copy(out, outLength, from, end);
    };
    /**
     * Line `[from, end)` of FILE, one of those the stream writes: `  "messages": [` (or annotations),
     * `  ],`, a record `    {...},`, or nothing (an empty list).
     */
    const line = (bytes: Buffer, from: number, end: number) => {
      if (end - from < 4) return;
      if (bytes[from + 2] === QUOTE) {
        reading = bytes[from + 3] === M ? 'messages' : 'annotations';
        return;
      }
      if (reading !== list || bytes[from + 2] === CLOSING) return;
      // The record's text, without the comma that parted it from the next one in FILE.
      const before = copied++ === 0 ? ITEM_FIRST : ITEM_NEXT;
      put(before, 0, before.length);
      put(bytes, from + ITEM_INDENT, bytes[end - 1] === COMMA ? end - 1 : end);
    };
    try {
      let position = this.#messagesFrom;
      /** The start of a line the last chunk ended in. */
      let partial: Buffer | undefined;
      for (let read = readSync(source, chunk, 0, chunk.length, position); read > 0;) {
        position += read;
        let from = 0;
        for (let end = chunk.indexOf(NEWLINE); end !== -1 && end < read; end = chunk.indexOf(NEWLINE, from)) {
          if (partial) {
            const whole = Buffer.concat([partial, chunk.subarray(from, end)]);
            line(whole, 0, whole.length);
            partial = undefined;
          } else line(chunk, from, end);
          from = end + 1;
        }
        if (from < read)
          partial = Buffer.concat(
            partial ? [partial, chunk.subarray(from, read)] : [chunk.subarray(from, read)],
          );
        read = readSync(source, chunk, 0, chunk.length, position);
      }
      if (partial) line(partial, 0, partial.length);
      if (outLength > 0) to.writeBytes(out.subarray(0, outLength));
    } finally {
      closeSync(source);
    }
  }
}
