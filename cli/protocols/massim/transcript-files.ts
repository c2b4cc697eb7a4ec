/**
 * Writing MASSim transcripts (the playground's JSON format) straight from a transcript store, piece by
 * piece, so a contest-sized match (hundreds of megabytes of percepts) never exists as one string. A part
 * of a session (one match of a tournament) is written with its messages numbered from 0 and only the
 * connections that speak in it.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { writeTranscriptJson } from '../../../src/core/transcript/store/json-export';
import type { TranscriptStore } from '../../../src/core/transcript/store/store';
import type { Annotation, Transcript } from '../../../src/core/transcript/model';
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
  return writeFile(path, cwd, (write) => writeRangeJson(store, range, { ...store.meta, ...meta }, write));
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

/** The same layout `writeTranscriptJson` writes, for a part of the store. */
function writeRangeJson(
  store: TranscriptStore,
  range: StoreRange,
  meta: Transcript['meta'],
  write: (piece: string) => void,
): void {
  const { from, to, carried } = range;
  const count = carried.length + to - from;
  const original = (i: number) => (i < carried.length ? carried[i]! : from + i - carried.length);
  const spoken = new Set<string>();
  let offset = Infinity;
  for (let i = 0; i < count; i++) {
    const message = store.message(original(i));
    spoken.add(message.conn);
    offset = Math.min(offset, message.t);
  }
  const connections = store.connections.filter((connection) => spoken.has(connection.id));
  // Times count from the part's first message.
  if (!Number.isFinite(offset)) offset = 0;
  write('{\n');
  write('  "format": "protoplay-transcript",\n');
  write('  "version": 1,\n');
  write(`  "protocol": ${JSON.stringify(store.protocol)},\n`);
  write(`  "startedAt": ${store.startedAt + offset},\n`);
  write(`  "meta": ${JSON.stringify(meta)},\n`);
  writeList('connections', connections.length, (i) => connections[i], write);
  write(',\n');
  writeList(
    'messages',
    count,
    (i) => {
      const message = store.message(original(i));
      return { ...message, index: i, t: message.t - offset };
    },
    write,
  );
  write(',\n');
  const last = Math.max(count - 1, 0);
  writeList(
    'annotations',
    range.annotationsTo - range.annotationsFrom,
    (i): Annotation => {
      const annotation = store.annotation(range.annotationsFrom + i);
      // An annotation made just before the part's first message (the world of a new simulation) opens it.
      const index = annotation.index - from + carried.length;
      return { ...annotation, index: Math.min(Math.max(index, carried.length), last) };
    },
    write,
  );
  write('\n}\n');
}

/** A list with one item per line, batched so `write` is called about once per 64 KiB. */
function writeList(
  name: string,
  count: number,
  item: (i: number) => unknown,
  write: (piece: string) => void,
): void {
  if (count === 0) {
    write(`  "${name}": []`);
    return;
  }
  let batch = `  "${name}": [\n`;
  for (let i = 0; i < count; i++) {
    batch += `    ${JSON.stringify(item(i))}${i + 1 < count ? ',\n' : '\n  ]'}`;
    if (batch.length >= 65536) {
      write(batch);
      batch = '';
    }
  }
  write(batch);
}
