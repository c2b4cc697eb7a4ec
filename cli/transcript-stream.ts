/**
 * A transcript written to its file while the session runs (`--transcript FILE` of `run`): each message is
 * on disk moments after it happened and nothing stays in memory, so a session of any length can be kept.
 * The file is Protoplay JSON, one message or annotation per line as `serialiseTranscript` writes it.
 * Messages come first in the file and annotations after them, but a session records them interleaved:
 * annotations wait in a side file next to the transcript and are copied in when the session ends.
 */
import { closeSync, mkdirSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
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
  readonly #file: BufferedFile;
  readonly #annotations: BufferedFile;
  #messages = 0;
  #annotationCount = 0;
  #finished = false;

  /** Creates (or empties) the file and its folder; a path that cannot be written is a clear error. */
  constructor(path: string, protocol: string, cwd: string) {
    this.path = resolve(cwd, path);
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      this.#file = new BufferedFile(this.path);
      this.#annotations = new BufferedFile(
        join(dirname(this.path), `.${basename(this.path)}.annotations-${process.pid}.tmp`),
      );
    } catch (error) {
      throw new CliError(
        ExitCode.failure,
        `cannot write the transcript to '${path}': ${(error as Error).message}`,
      );
    }
    // The format first, where format detection looks for it; the rest of the header comes at the end.
    this.#file.write(
      `{\n  "format": "protoplay-transcript",\n  "version": 2,\n  "protocol": ${JSON.stringify(protocol)},\n  "messages": [`,
    );
  }

  /** A message already written as JSON (a transcript store's `messageJson`). */
  messageJson(json: string): void {
    this.#file.write(`${this.#messages++ === 0 ? '\n' : ',\n'}    ${json}`);
  }

  /** An annotation already written as JSON. */
  annotationJson(json: string): void {
    this.#annotations.write(`${this.#annotationCount++ === 0 ? '' : ',\n'}    ${json}`);
  }

  /**
   * Completes the file: the annotations, then what is known only at the end (start time, metadata,
   * connections) from `transcript`, whose messages and annotations are not read. Returns the path.
   */
  finish(transcript: Pick<Transcript, 'startedAt' | 'meta' | 'connections'>): string {
    if (this.#finished) return this.path;
    this.#finished = true;
    this.#annotations.close();
    const file = this.#file;
    file.write(this.#messages === 0 ? ']' : '\n  ]');
    file.write(',\n  "annotations": [');
    if (this.#annotationCount > 0) {
      file.write('\n');
      file.append(this.#annotations.path);
      file.write('\n  ');
    }
    unlinkSync(this.#annotations.path);
    const connections =
      transcript.connections.length === 0
        ? '[]'
        : `[\n${transcript.connections.map((c) => `    ${JSON.stringify(c)}`).join(',\n')}\n  ]`;
    file.write(
      `],\n  "startedAt": ${transcript.startedAt},\n  "meta": ${JSON.stringify(transcript.meta)},\n  "connections": ${connections}\n}\n`,
    );
    file.close();
    return this.path;
  }
}
