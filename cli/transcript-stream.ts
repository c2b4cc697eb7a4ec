/**
 * A transcript written to disk while the session runs (`--transcript FILE` of `run`): each message is on
 * disk moments after it happened and nothing stays in memory, so a session of any length can be kept.
 * The file is Protoplay JSON laid out by the one writer (`writeTranscriptJsonParts`), byte for byte the file
 * an export of the same session writes. Its header (start time, metadata, connections) comes first but is
 * known only when the session ends, and a session records messages and annotations interleaved: both lists
 * grow in side files next to the transcript, already laid out, and are copied in after the header when the
 * session ends.
 */
import { closeSync, mkdirSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { jsonListItem, writeTranscriptJsonParts } from '../src/core/transcript/json-export';
import type { Transcript } from '../src/core/transcript/model';
import type { TranscriptSink } from '../src/core/transcript/recorder';
import { CliError, ExitCode } from './command-line/exit-codes';

/** Text gathered before a write: large enough to make writes rare, small enough to stay flat. */
const FLUSH_BYTES = 1 << 18;

/** A buffered file written with plain synchronous writes (the session waits for nothing else). */
class BufferedFile {
  readonly #fd: number;
  #pending: string[] = [];
  #pendingLength = 0;

  constructor(readonly path: string) {
    this.#fd = openSync(path, 'w');
  }

  write(text: string): void {
    this.#pending.push(text);
    this.#pendingLength += text.length;
    if (this.#pendingLength >= FLUSH_BYTES) this.flush();
  }

  flush(): void {
    if (this.#pendingLength === 0) return;
    writeSync(this.#fd, this.#pending.join(''));
    this.#pending = [];
    this.#pendingLength = 0;
  }

  /** Appends the bytes of another file, in chunks. */
  append(path: string): void {
    this.flush();
    const source = openSync(path, 'r');
    const chunk = Buffer.alloc(1 << 16);
    try {
      for (let read = readSync(source, chunk); read > 0; read = readSync(source, chunk))
        writeSync(this.#fd, chunk, 0, read);
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
  readonly #messages: BufferedFile;
  readonly #annotations: BufferedFile;
  #messageCount = 0;
  #annotationCount = 0;
  #finished = false;

  /**
   * Creates (or empties) the file and its folder, and the side files of its lists; a path that cannot be
   * written is a clear error.
   */
  constructor(path: string, protocol: string, cwd: string) {
    this.path = resolve(cwd, path);
    this.#protocol = protocol;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      // The transcript's own path is claimed (and checked) at once; it is filled when the session ends.
      closeSync(openSync(this.path, 'w'));
      const side = (list: string) =>
        new BufferedFile(join(dirname(this.path), `.${basename(this.path)}.${list}-${process.pid}.tmp`));
      this.#messages = side('messages');
      this.#annotations = side('annotations');
    } catch (error) {
      throw new CliError(
        ExitCode.failure,
        `cannot write the transcript to '${path}': ${(error as Error).message}`,
      );
    }
  }

  /** A message already written as JSON (a transcript store's `messageJson`). */
  messageJson(json: string): void {
    this.#messages.write(jsonListItem(json, this.#messageCount++));
  }

  /** An annotation already written as JSON. */
  annotationJson(json: string): void {
    this.#annotations.write(jsonListItem(json, this.#annotationCount++));
  }

  /**
   * Completes the file: the header, from `transcript` (whose messages and annotations are not read), then
   * the messages and the annotations from their side files, which are then removed. Returns the path.
   */
  finish(transcript: Pick<Transcript, 'startedAt' | 'meta' | 'connections'>): string {
    if (this.#finished) return this.path;
    this.#finished = true;
    this.#messages.close();
    this.#annotations.close();
    const file = new BufferedFile(this.path);
    const copied = (side: BufferedFile, count: number) => ({
      count,
      writeItems: () => file.append(side.path),
    });
    writeTranscriptJsonParts(
      {
        protocol: this.#protocol,
        startedAt: transcript.startedAt,
        meta: transcript.meta,
        connections: transcript.connections,
      },
      copied(this.#messages, this.#messageCount),
      copied(this.#annotations, this.#annotationCount),
      (piece) => file.write(piece),
    );
    file.close();
    unlinkSync(this.#messages.path);
    unlinkSync(this.#annotations.path);
    return this.path;
  }
}
