/**
 * A part of a transcript store written as a transcript of its own (one match of a tournament): messages
 * numbered from 0 with times counted from the part's first message, only the connections that speak in it,
 * and the part's annotations moved onto its numbering. Nothing is copied: every read goes to the store.
 */
import type { TranscriptJsonSource } from '../json-export';
import type { Annotation, Transcript } from '../model';
import type { TranscriptStore } from './store';

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

/** The part `range` of `store` as a source for the JSON writer, with `meta` added to the store's own. */
export function storeRangeSource(
  store: TranscriptStore,
  range: StoreRange,
  meta: Transcript['meta'] = {},
): TranscriptJsonSource {
  const { carried, from } = range;
  const count = carried.length + range.to - from;
  const original = (i: number) => (i < carried.length ? carried[i]! : from + i - carried.length);
  const spoken = new Set<string>();
  let offset = Infinity;
  for (let i = 0; i < count; i++) {
    const message = store.message(original(i));
    spoken.add(message.conn);
    offset = Math.min(offset, message.t);
  }
  // Times count from the part's first message.
  if (!Number.isFinite(offset)) offset = 0;
  const last = Math.max(count - 1, 0);
  return {
    protocol: store.protocol,
    startedAt: store.startedAt + offset,
    meta: { ...store.meta, ...meta },
    connections: store.connections.filter((connection) => spoken.has(connection.id)),
    length: count,
    // The store's JSON of the message with its index and time rewritten (its payload is not touched).
    messageJson(index: number): string {
      const json = store.messageJson(original(index));
      const rest = json.indexOf(',"conn":');
      const t = store.message(original(index)).t - offset;
      return `{"index":${index},"t":${JSON.stringify(t)}${json.slice(rest)}`;
    },
    annotationCount: range.annotationsTo - range.annotationsFrom,
    annotation(i: number): Annotation {
      const annotation = store.annotation(range.annotationsFrom + i);
      // An annotation made just before the part's first message (the world of a new simulation) opens it.
      const index = annotation.index - from + carried.length;
      return { ...annotation, index: Math.min(Math.max(index, carried.length), last) };
    },
  };
}
