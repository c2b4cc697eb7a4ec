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

/** Calls `write` with consecutive pieces of the JSON text of the source's transcript. */
export function writeTranscriptJson(source: TranscriptJsonSource, write: (piece: string) => void): void {
  write('{\n');
  write('  "format": "protoplay-transcript",\n');
  write(`  "version": ${source.version ?? TRANSCRIPT_FORMAT_VERSION},\n`);
  write(`  "protocol": ${JSON.stringify(source.protocol)},\n`);
  write(`  "startedAt": ${source.startedAt},\n`);
  write(`  "meta": ${JSON.stringify(source.meta)},\n`);
  writeList('connections', source.connections.length, (i) => JSON.stringify(source.connections[i]), write);
  write(',\n');
  writeList('messages', source.length, (i) => source.messageJson(i), write);
  write(',\n');
  writeList('annotations', source.annotationCount, (i) => JSON.stringify(source.annotation(i)), write);
  write('\n}\n');
}

/** The whole JSON text at once (for transcripts small enough to be one string). */
export function transcriptJson(source: TranscriptJsonSource): string {
  const pieces: string[] = [];
  writeTranscriptJson(source, (piece) => pieces.push(piece));
  return pieces.join('');
}

/** A list with one item (its JSON) per line, batched so `write` is called about once per 64 KiB. */
function writeList(
  name: string,
  count: number,
  item: (i: number) => string,
  write: (piece: string) => void,
): void {
  if (count === 0) {
    write(`  "${name}": []`);
    return;
  }
  let batch = `  "${name}": [\n`;
  for (let i = 0; i < count; i++) {
    batch += `    ${item(i)}${i + 1 < count ? ',\n' : '\n  ]'}`;
    if (batch.length >= 65536) {
      write(batch);
      batch = '';
    }
  }
  write(batch);
}
