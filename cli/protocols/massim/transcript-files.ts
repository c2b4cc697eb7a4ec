/**
 * Writing MASSim transcripts (the playground's JSON format) straight from a transcript store, piece by
 * piece, by the core's writer, so a contest-sized match (hundreds of megabytes of percepts) never exists as
 * one string. A part of a session (one match of a tournament) is written with its messages numbered from 0
 * and only the connections that speak in it.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { writeTranscriptJson } from '../../../src/core/transcript/store/json-export';
import { TranscriptStore } from '../../../src/core/transcript/store/store';
import type { Annotation, ConnectionInfo, Transcript } from '../../../src/core/transcript/model';
import { CliError, ExitCode } from '../../command-line/exit-codes';

/**
 * A part of a store: messages `[from, to)`, preceded by `carried` (earlier messages that the part needs,
 * in order: the logins of connections opened before it), and annotations number
 * `[annotationsFrom, annotationsTo)`.
 */
export interface StoreRange {
  from: number;
  to: number;
  carried: readonly number[];
  annotationsFrom: number;
  annotationsTo: number;
}

/** Writes the whole store, with `meta` added to its own; returns the absolute path. */
export function writeStoreFile(
  path: string,
  store: TranscriptStore,
  cwd: string,
  meta: Transcript['meta'] = {},
): string {
  Object.assign(store.meta, meta);
  return writeFile(path, cwd, (write) => writeTranscriptJson(store, write));
}

/** Writes a part of the store as a transcript of its own; returns the absolute path. */
export function writeStoreRangeFile(
  path: string,
  store: TranscriptStore,
  range: StoreRange,
  cwd: string,
  meta: Transcript['meta'] = {},
): string {
  const view = new StoreRangeView(store, range, { ...store.meta, ...meta });
  return writeFile(path, cwd, (write) => writeTranscriptJson(view, write));
}

function writeFile(path: string, cwd: string, produce: (write: (piece: string) => void) => void): string {
  const absolute = resolve(cwd, path);
  let fd: number | undefined;
  try {
    mkdirSync(dirname(absolute), { recursive: true });
    fd = openSync(absolute, 'w');
    const target = fd;
    produce((piece) => writeSync(target, piece));
  } catch (error) {
    throw new CliError(
      ExitCode.failure,
      `cannot write the transcript to '${path}': ${(error as Error).message}`,
    );
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return absolute;
}

/**
 * A part of a store seen as a transcript store of its own, so the core's JSON writer writes it: messages
 * numbered from 0 with times counted from the part's first message, only the connections that speak in it,
 * and the part's annotations moved onto its numbering. Nothing is copied: every read goes to the whole store.
 */
class StoreRangeView extends TranscriptStore {
  readonly #source: TranscriptStore;
  readonly #range: StoreRange;
  readonly #count: number;
  readonly #offset: number;
  readonly #connections: readonly ConnectionInfo[];

  constructor(source: TranscriptStore, range: StoreRange, meta: Transcript['meta']) {
    const count = range.carried.length + range.to - range.from;
    const original = (i: number) =>
      i < range.carried.length ? range.carried[i]! : range.from + i - range.carried.length;
    const spoken = new Set<string>();
    let offset = Infinity;
    for (let i = 0; i < count; i++) {
      const message = source.message(original(i));
      spoken.add(message.conn);
      offset = Math.min(offset, message.t);
    }
    // Times count from the part's first message.
    if (!Number.isFinite(offset)) offset = 0;
    super({ protocol: source.protocol, startedAt: source.startedAt + offset, meta });
    this.#source = source;
    this.#range = range;
    this.#count = count;
    this.#offset = offset;
    this.#connections = source.connections.filter((connection) => spoken.has(connection.id));
  }

  override get length(): number {
    return this.#count;
  }

  override get connections(): readonly ConnectionInfo[] {
    return this.#connections;
  }

  /** The whole store's JSON of the message, its index and time rewritten (its payload is not touched). */
  override messageJson(index: number): string {
    const { carried, from } = this.#range;
    const original = index < carried.length ? carried[index]! : from + index - carried.length;
    const json = this.#source.messageJson(original);
    const rest = json.indexOf(',"conn":');
    const t = this.#source.message(original).t - this.#offset;
    return `{"index":${index},"t":${JSON.stringify(t)}${json.slice(rest)}`;
  }

  override get annotationCount(): number {
    return this.#range.annotationsTo - this.#range.annotationsFrom;
  }

  override annotation(i: number): Annotation {
    const { annotationsFrom, from, carried } = this.#range;
    const annotation = this.#source.annotation(annotationsFrom + i);
    // An annotation made just before the part's first message (the world of a new simulation) opens it.
    const index = annotation.index - from + carried.length;
    const last = Math.max(this.#count - 1, 0);
    return { ...annotation, index: Math.min(Math.max(index, carried.length), last) };
  }
}
