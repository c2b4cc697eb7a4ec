/**
 * A live transcript stored piece by piece: each store appends only what was recorded since the last one
 * (a part), and the file is assembled from the parts when it is read back. Storing a long session at full
 * speed every few seconds then costs in proportion to what it recorded meanwhile, not to all it recorded.
 * The parts are Protoplay JSON text (docs/transcript-format.md): assembled, they read as one file.
 */
import { TRANSCRIPT_FORMAT_VERSION, type Transcript } from '../transcript/model';
import type { TranscriptStore } from '../transcript/store/store';

/** What a part is made from: a live transcript whose messages and annotations are only ever appended. */
export interface JournalSource {
  /** The lines before the lists (format, version, protocol, startedAt, meta), each ending in `,\n`. */
  head(): string;
  /** The `connections` list as JSON text (a handful: rewritten whole with every part). */
  connections(): string;
  messageCount(): number;
  /** The JSON of message `i`. */
  message(i: number): string;
  annotationCount(): number;
  /** The JSON of annotation `i`. */
  annotation(i: number): string;
  /** False when the transcript has grown too big to keep (it is then not stored at all). */
  keepable(): boolean;
}

/** What one store adds to a stored transcript. */
export interface JournalPart {
  /** Which session's transcript (a new one replaces what is stored). */
  session: string;
  /** 0 starts the session's transcript afresh; each later part follows the one before. */
  index: number;
  head: string;
  connections: string;
  /** The new messages' lines (`    {...}` joined with `,\n`), empty when none. */
  messages: string;
  /** The new annotations' lines, like `messages`. */
  annotations: string;
  /** The session had not ended when this part was stored. */
  unfinished: boolean;
}

/** How storing a part went. */
export type JournalOutcome = 'kept' | 'not-kept' | 'replaced';

/** The lines `items` from `from` to `to` (exclusive), as they stand in a list. */
function lines(from: number, to: number, item: (i: number) => string): string {
  let text = '';
  for (let i = from; i < to; i++) text += `${i > from ? ',\n' : ''}    ${item(i)}`;
  return text;
}

const headOf = (protocol: string, startedAt: number, meta: unknown, format: string, version: number) =>
  `  "format": ${JSON.stringify(format)},\n  "version": ${version},\n  "protocol": ${JSON.stringify(protocol)},\n` +
  `  "startedAt": ${startedAt},\n  "meta": ${JSON.stringify(meta)},\n`;

const listOf = (items: readonly unknown[]) =>
  items.length === 0 ? '[]' : `[\n${items.map((item) => `    ${JSON.stringify(item)}`).join(',\n')}\n  ]`;

/** A transcript object's source (its arrays only grow while its session runs). */
export function transcriptSource(transcript: Transcript, maxMessages = Infinity): JournalSource {
  return {
    head: () =>
      headOf(
        transcript.protocol,
        transcript.startedAt,
        transcript.meta,
        transcript.format,
        transcript.version,
      ),
    connections: () => listOf(transcript.connections),
    messageCount: () => transcript.messages.length,
    message: (i) => JSON.stringify(transcript.messages[i]),
    annotationCount: () => transcript.annotations.length,
    annotation: (i) => JSON.stringify(transcript.annotations[i]),
    keepable: () => transcript.messages.length <= maxMessages,
  };
}

/** A transcript store's source. */
export function storeSource(store: TranscriptStore, maxMessages = Infinity): JournalSource {
  return {
    head: () =>
      headOf(store.protocol, store.startedAt, store.meta, 'protoplay-transcript', TRANSCRIPT_FORMAT_VERSION),
    connections: () => listOf(store.connections),
    messageCount: () => store.length,
    message: (i) => store.messageJson(i),
    annotationCount: () => store.annotationCount,
    annotation: (i) => JSON.stringify(store.annotation(i)),
    keepable: () => store.length <= maxMessages,
  };
}

/** Counts of what the parts stored so far hold. */
export interface JournalMark {
  index: number;
  messages: number;
  annotations: number;
}

/**
 * The part that brings a stored transcript at `mark` (undefined: nothing stored yet) up to the source, and
 * the mark it leaves. A source that shrank (it cannot, but a stored mark must never skip messages) starts
 * afresh.
 */
export function nextPart(
  source: JournalSource,
  session: string,
  mark: JournalMark | undefined,
  unfinished: boolean,
): { part: JournalPart; mark: JournalMark } {
  const messages = source.messageCount();
  const annotations = source.annotationCount();
  const from =
    mark && mark.messages <= messages && mark.annotations <= annotations
      ? mark
      : { index: 0, messages: 0, annotations: 0 };
  return {
    part: {
      session,
      index: from.index,
      head: source.head(),
      connections: source.connections(),
      messages: lines(from.messages, messages, source.message),
      annotations: lines(from.annotations, annotations, source.annotation),
      unfinished,
    },
    mark: { index: from.index + 1, messages, annotations },
  };
}

/** The Protoplay JSON file of stored parts, as pieces: the head and connections of the last, all lists. */
export function assembleJournal(
  last: Pick<JournalPart, 'head' | 'connections'>,
  parts: readonly Pick<JournalPart, 'messages' | 'annotations'>[],
): string[] {
  const pieces = ['{\n', last.head, `  "connections": ${last.connections},\n`];
  const list = (name: string, texts: string[]) => {
    pieces.push(`  "${name}": `);
    if (texts.length === 0) return void pieces.push('[]');
    pieces.push('[\n');
    texts.forEach((text, i) => pieces.push(i > 0 ? ',\n' : '', text));
    pieces.push('\n  ]');
  };
  list(
    'messages',
    parts.map((part) => part.messages).filter((text) => text !== ''),
  );
  pieces.push(',\n');
  list(
    'annotations',
    parts.map((part) => part.annotations).filter((text) => text !== ''),
  );
  pieces.push('\n}\n');
  return pieces;
}
