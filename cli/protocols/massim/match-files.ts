/**
 * `serve --record DIR`: one transcript file per match of the tournament, with one connection per agent
 * connection. The host records the whole session in one store; a match's file holds the messages from
 * its first simulation's start to the next match's (the first file also holds the logins before it, the
 * last one the byes and closes after it), and the annotations made meanwhile.
 */
import { join } from 'node:path';
import type { MassimHostEvent } from '../../../src/core/protocols/massim/host';
import type { TranscriptStore } from '../../../src/core/transcript/store/store';
import { describeError } from '../../../src/core/errors';
import { storeRangeSource } from '../../../src/core/transcript/store/range';
import { writeTranscriptJsonFile } from '../../transcript-file';

/** Options of the match files. */
export interface MatchFilesOptions {
  store: TranscriptStore;
  /** The folder (absolute). */
  dir: string;
  /** Start of every file name (sorts by time). */
  stamp: string;
  /** Added to every file's meta. */
  meta: Record<string, string | number | boolean>;
  log(line: string): void;
}

/** Cuts the session into matches as the host reports them, and writes each one when it is over. */
export class MatchFiles {
  readonly #options: MatchFilesOptions;
  #current: { match: number; teams: readonly string[]; from: number; annotationsFrom: number } | undefined;
  /** Annotations made up to the last host event: later ones belong to whatever comes next. */
  #annotationsAtLastEvent = 0;
  readonly #written: string[] = [];
  #finished = false;

  constructor(options: MatchFilesOptions) {
    this.#options = options;
  }

  /** Files written so far. */
  get written(): readonly string[] {
    return this.#written;
  }

  /** Follows the host; call for every host event. */
  onHostEvent(event: MassimHostEvent): void {
    const { store } = this.#options;
    if (event.kind === 'simulation-start' && event.match !== this.#current?.match) {
      const first = this.#current === undefined;
      if (this.#current) this.#write(store.length, this.#annotationsAtLastEvent);
      this.#current = {
        match: event.match,
        teams: event.teams,
        from: first ? 0 : store.length,
        annotationsFrom: first ? 0 : this.#annotationsAtLastEvent,
      };
    }
    if (event.kind === 'finished') this.finish();
    this.#annotationsAtLastEvent = store.annotationCount;
  }

  /** Writes what is not written yet (the match in progress, or the logins when no match started). */
  finish(): void {
    const { store } = this.#options;
    if (this.#finished) return;
    this.#finished = true;
    if (!this.#current) {
      if (store.length === 0) return;
      this.#current = { match: -1, teams: [], from: 0, annotationsFrom: 0 };
    }
    this.#write(store.length, store.annotationCount);
  }

  #write(to: number, annotationsTo: number): void {
    const current = this.#current!;
    this.#current = undefined;
    const { store, dir, stamp, meta, log } = this.#options;
    const what =
      current.match < 0 ? 'before-start' : `match-${current.match + 1}-${current.teams.join('-vs-')}`;
    const path = join(dir, `${stamp}-${what.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
    try {
      const part = storeRangeSource(
        store,
        {
          from: current.from,
          to,
          carried: loginsBefore(store, current.from, to),
          annotationsFrom: current.annotationsFrom,
          annotationsTo,
        },
        {
          ...meta,
          ...(current.match >= 0 ? { match: current.match + 1, teams: current.teams.join(',') } : {}),
        },
      );
      writeTranscriptJsonFile(path, part, dir);
      this.#written.push(path);
      log(`transcript written: ${path}`);
    } catch (error) {
      log(`cannot write the transcript ${path}: ${describeError(error)}`);
    }
  }
}

/**
 * The logins (from the connection's opening to the server's first answer) of the connections that speak
 * in `[from, to)` but were opened before `from`, in transcript order.
 */
function loginsBefore(store: TranscriptStore, from: number, to: number): number[] {
  const carried: number[] = [];
  for (const { id } of store.connections) {
    const indices = store.messagesOf(id);
    if (indices.length === 0 || indices[0]! >= from) continue;
    if (!indices.some((index) => index >= from && index < to)) continue;
    for (const index of indices) {
      if (index >= from) break;
      carried.push(index);
      const message = store.message(index);
      if (message.dir === 's2c' && message.kind === 'data') break;
    }
  }
  return carried.sort((a, b) => a - b);
}

/** `20261121-220412`: sorts by time and is safe in file names. */
export function fileStamp(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
}
