/**
 * A transcript written to disk while the session runs (`--transcript FILE` of `run`): each message is on
 * disk moments after it happened and nothing stays in memory, so a session of any length can be kept.
 *
 * FILE is readable Protoplay JSON cut short at every moment: it starts with the header known when the
 * session starts (protocol, start time, no connections yet), then `"messages": [` and the messages as they
 * come, flushed at least every few hundred milliseconds. A session killed midway leaves a FILE whose
 * messages every reader of Protoplay JSON salvages (all complete messages, and a located error saying where
 * the file ends). Annotations come interleaved with messages, so they grow in a side file next to FILE.
 * When the session ends, the finished file (the final header, the messages copied from FILE, the
 * annotations) is written next to FILE and renamed over it: a finished FILE is byte for byte the file an
 * export of the same session writes (`writeTranscriptJsonParts` lays out both).
 */
import { closeSync, mkdirSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
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

  /** Appends the bytes of another file from byte `from` on, in chunks. */
  append(path: string, from = 0): void {
    this.flush();
    const source = openSync(path, 'r');
    const chunk = Buffer.alloc(1 << 16);
    try {
      let position = from;
      for (let read = readSync(source, chunk, 0, chunk.length, position); read > 0;) {
        this.written += writeSync(this.#fd, chunk, 0, read);
        position += read;
        read = readSync(source, chunk, 0, chunk.length, position);
      }
    } finally {
      closeSync(source);
    }
  }

  close(): void {
    this.flush();
    closeSync(this.#fd);
  }
}

/** Streams one transcript to a file. Call `finish` once the session is over. */
export class TranscriptFileStream implements TranscriptSink {
  /** The absolute path of the transcript. */
  readonly path: string;
  readonly #protocol: string;
  /** FILE itself: the starting header, then the messages. */
  readonly #file: BufferedFile;
  /** Where the first message starts in FILE. */
  readonly #messagesFrom: number;
  readonly #annotations: BufferedFile;
  readonly #timer: ReturnType<typeof setInterval>;
  #messageCount = 0;
  #annotationCount = 0;
  #finished = false;

  /**
   * Creates (or empties) the file and its folder, writes the header known now, and creates the side file of
   * the annotations; a path that cannot be written is a clear error.
   */
  constructor(path: string, protocol: string, cwd: string, startedAt = Date.now()) {
    this.path = resolve(cwd, path);
    this.#protocol = protocol;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      this.#file = new BufferedFile(this.path);
      this.#annotations = new BufferedFile(this.#sidePath('annotations'));
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
    this.#timer = setInterval(() => {
      this.#file.flush();
      this.#annotations.flush();
    }, FLUSH_MS);
    this.#timer.unref();
  }

  #sidePath(list: string): string {
    return join(dirname(this.path), `.${basename(this.path)}.${list}-${process.pid}.tmp`);
  }

  /** A message already written as JSON (a transcript store's `messageJson`). */
  messageJson(json: string): void {
    this.#file.write(jsonListItem(json, this.#messageCount++));
  }

  /** An annotation already written as JSON. */
  annotationJson(json: string): void {
    this.#annotations.write(jsonListItem(json, this.#annotationCount++));
  }

  /**
   * Completes the file: the header, from `transcript` (whose messages and annotations are not read), then
   * the messages and the annotations, written next to FILE and renamed over it; the side file is removed.
   * Returns the path.
   */
  finish(transcript: Pick<Transcript, 'startedAt' | 'meta' | 'connections'>): string {
    if (this.#finished) return this.path;
    this.#finished = true;
    clearInterval(this.#timer);
    this.#file.close();
    this.#annotations.close();
    const finished = new BufferedFile(this.#sidePath('finished'));
    writeTranscriptJsonParts(
      {
        protocol: this.#protocol,
        startedAt: transcript.startedAt,
        meta: transcript.meta,
        connections: transcript.connections,
      },
      { count: this.#messageCount, writeItems: () => finished.append(this.path, this.#messagesFrom) },
      { count: this.#annotationCount, writeItems: () => finished.append(this.#annotations.path) },
      (piece) => finished.write(piece),
    );
    finished.close();
    renameSync(finished.path, this.path);
    unlinkSync(this.#annotations.path);
    return this.path;
  }
}
