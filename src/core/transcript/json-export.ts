/**
 * Protoplay JSON (docs/transcript-format.md), written once for every transcript: a plain `Transcript`, a
 * transcript store, or a part of a store. The text is produced piece by piece, so a contest-sized session
 * (hundreds of megabytes of percepts) can stream into a file or a Blob without one string of the whole file;
 * `serialiseTranscript` is the same writer gathered into one string.
 */
import { TRANSCRIPT_FORMAT_VERSION, type Annotation, type ConnectionInfo, type Transcript } from './model';

/** What the writer reads: a transcript's header, and its messages and annotations one at a time. */
export interface TranscriptJsonSource {
  readonly protocol: Transcript['protocol'];
  /** The format version written (default: the current one). */
  readonly version?: number;
  readonly startedAt: number;
  readonly meta: Transcript['meta'];
  readonly connections: readonly ConnectionInfo[];
  /** How many messages. */
  readonly length: number;
  /** `JSON.stringify` of message `index`. */
  messageJson(index: number): string;
  readonly annotationCount: number;
  annotation(i: number): Annotation;
}

/** A plain transcript seen as a writer's source. */
export function plainTranscriptSource(transcript: Transcript): TranscriptJsonSource {
  return {
    protocol: transcript.protocol,
    version: transcript.version,
    startedAt: transcript.startedAt,
    meta: transcript.meta,
    connections: transcript.connections,
    length: transcript.messages.length,
    messageJson: (index) => JSON.stringify(transcript.messages[index]),
    annotationCount: transcript.annotations.length,
    annotation: (i) => transcript.annotations[i]!,
  };
}

/** A transcript file's header: everything it holds but its messages and annotations. */
export type TranscriptJsonHeader = Pick<
  TranscriptJsonSource,
  'protocol' | 'version' | 'startedAt' | 'meta' | 'connections'
>;

/**
 * The items of one list of the file, already laid out: `count` items, which `write` receives as the text of
 * `jsonListItem(json, i)` for each `i` in order (a file written while the session runs keeps this text on
 * disk and copies it in at the end).
 */
export interface JsonListItems {
  readonly count: number;
  writeItems(write: (piece: string) => void): void;
}

/** Calls `write` with consecutive pieces of the JSON text of the source's transcript. */
export function writeTranscriptJson(source: TranscriptJsonSource, write: (piece: string) => void): void {
  writeTranscriptJsonParts(
    source,
    listItems(source.length, (i) => source.messageJson(i)),
    listItems(source.annotationCount, (i) => JSON.stringify(source.annotation(i))),
    write,
  );
}

/**
 * The file's layout, for a header and lists of items written elsewhere: the one place that says where each
 * field goes. `writeTranscriptJson` and the command line's streamed `--transcript` file both write through it.
 */
export function writeTranscriptJsonParts(
  header: TranscriptJsonHeader,
  messages: JsonListItems,
  annotations: JsonListItems,
  write: (piece: string) => void,
): void {
  writeTranscriptJsonHead(header, write);
  writeList('messages', messages, write);
  write(',\n');
  writeList('annotations', annotations, write);
  write('\n}\n');
}

/**
 * The file's start, up to the messages list: the header and the connections, each field on its line. A file
 * written while the session runs starts so, followed by `"messages": [` and the messages as they come.
 */
export function writeTranscriptJsonHead(header: TranscriptJsonHeader, write: (piece: string) => void): void {
  write('{\n');
  write('  "format": "protoplay-transcript",\n');
  write(`  "version": ${header.version ?? TRANSCRIPT_FORMAT_VERSION},\n`);
  write(`  "protocol": ${JSON.stringify(header.protocol)},\n`);
  write(`  "startedAt": ${header.startedAt},\n`);
  write(`  "meta": ${JSON.stringify(header.meta)},\n`);
  writeList(
    'connections',
    listItems(header.connections.length, (i) => JSON.stringify(header.connections[i])),
    write,
  );
  write(',\n');
}

/** The text of item `index` (its JSON) of a list, with what separates it from the item before. */
export function jsonListItem(json: string, index: number): string {
  return `${index === 0 ? '' : ',\n'}    ${json}`;
}

/** The whole JSON text at once (for transcripts small enough to be one string). */
export function transcriptJson(source: TranscriptJsonSource): string {
  const pieces: string[] = [];
  writeTranscriptJson(source, (piece) => pieces.push(piece));
  return pieces.join('');
}

/** Items made one at a time, batched so `write` is called about once per 64 KiB. */
function listItems(count: number, item: (i: number) => string): JsonListItems {
  return {
    count,
    writeItems(write) {
      let batch = '';
      for (let i = 0; i < count; i++) {
        batch += jsonListItem(item(i), i);
        if (batch.length >= 65536) {
          write(batch);
          batch = '';
        }
      }
      if (batch.length > 0) write(batch);
    },
  };
}

/** The text that opens a non-empty list of the file. */
export function jsonListOpening(name: 'messages' | 'annotations' | 'connections'): string {
  return `  "${name}": [\n`;
}

/** A list with one item per line. */
function writeList(
  name: 'messages' | 'annotations' | 'connections',
  items: JsonListItems,
  write: (piece: string) => void,
): void {
  if (items.count === 0) {
    write(`  "${name}": []`);
    return;
  }
  write(jsonListOpening(name));
  items.writeItems(write);
  write('\n  ]');
}
