/**
 * What was read lately from transcript records, shared by everyone who reads the same record soon after.
 * Validating a recording runs both roles' machines over every message, and the summary's reader reads the
 * same messages a batch later: without sharing, each parses the message again, and parsing is most of
 * what reading a big recording costs.
 *
 * One slot per index modulo the capacity (a power of two), so the readings kept never outnumber the
 * slots and memory does not grow with the session. A reading is given back only to the very record it was
 * read from, its fields unchanged since (index, direction, kind, framing, text, bytes, HTTP metadata): a
 * twin record with the same index and text, a record that shares the slot, or a record changed since is
 * read afresh. Callers must not change a reading they are given: it is handed to the others as it is.
 */
import type { TranscriptMessage } from './model';

/** A reading, and the record with the fields it was read from. */
interface Kept<T> {
  message: TranscriptMessage;
  index: number;
  dir: TranscriptMessage['dir'];
  kind: TranscriptMessage['kind'];
  framing: TranscriptMessage['framing'];
  text: string | undefined;
  base64: string | undefined;
  http: TranscriptMessage['http'];
  headers: NonNullable<TranscriptMessage['http']>['headers'] | undefined;
  reading: T;
}

export class RecentReadings<T> {
  readonly #slots: (Kept<T> | undefined)[];
  readonly #mask: number;

  /** `capacity`: how many readings are kept at most, a power of two. */
  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1 || (capacity & (capacity - 1)) !== 0)
      throw new RangeError(`capacity must be a power of two, not ${capacity}`);
    this.#slots = new Array<Kept<T> | undefined>(capacity);
    this.#mask = capacity - 1;
  }

  /** How many readings are kept at most. */
  get capacity(): number {
    return this.#mask + 1;
  }

  /** How many readings are kept now. */
  get size(): number {
    let kept = 0;
    for (const slot of this.#slots) if (slot) kept++;
    return kept;
  }

  /** The reading kept for this very record, unchanged since it was read; otherwise `undefined`. */
  find(message: TranscriptMessage): T | undefined {
    const kept = this.#slots[message.index & this.#mask];
    if (
      kept &&
      kept.message === message &&
      kept.index === message.index &&
      kept.text === message.text &&
      kept.dir === message.dir &&
      kept.kind === message.kind &&
      kept.framing === message.framing &&
      kept.base64 === message.base64 &&
      kept.http === message.http &&
      kept.headers === message.http?.headers
    )
      return kept.reading;
    return undefined;
  }

  /** Keeps `reading` as the record's, in place of what its slot held; gives it back. */
  keep(message: TranscriptMessage, reading: T): T {
    this.#slots[message.index & this.#mask] = {
      message,
      index: message.index,
      dir: message.dir,
      kind: message.kind,
      framing: message.framing,
      text: message.text,
      base64: message.base64,
      http: message.http,
      headers: message.http?.headers,
      reading,
    };
    return reading;
  }

  /** The record's reading: the one kept, or `read(message)` now, kept. */
  read(message: TranscriptMessage, read: (message: TranscriptMessage) => T): T {
    const kept = this.find(message);
    return kept !== undefined ? kept : this.keep(message, read(message));
  }

  /** Forgets every reading. */
  clear(): void {
    this.#slots.fill(undefined);
  }
}
