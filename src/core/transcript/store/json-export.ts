/**
 * Protoplay JSON (docs/transcript-format.md) written from a store piece by piece: the same characters as
 * `serialiseTranscript(store.toTranscript())`, without building the transcript object or one string of the
 * whole file (a contest match is hundreds of megabytes), so it can stream into a file or a Blob.
 */
import type { TranscriptStore } from './store';
import { TRANSCRIPT_FORMAT_VERSION } from '../model';

/** Calls `write` with consecutive pieces of the JSON text of the store's transcript. */
export function writeTranscriptJson(store: TranscriptStore, write: (piece: string) => void): void {
  write('{\n');
  write('  "format": "protoplay-transcript",\n');
  write(`  "version": ${TRANSCRIPT_FORMAT_VERSION},\n`);
  write(`  "protocol": ${JSON.stringify(store.protocol)},\n`);
  write(`  "startedAt": ${store.startedAt},\n`);
  write(`  "meta": ${JSON.stringify(store.meta)},\n`);
  writeList('connections', store.connections.length, (i) => JSON.stringify(store.connections[i]), write);
  write(',\n');
  writeList('messages', store.length, (i) => store.messageJson(i), write);
  write(',\n');
  writeList('annotations', store.annotationCount, (i) => JSON.stringify(store.annotation(i)), write);
  write('\n}\n');
}

/** The whole JSON text at once (for small transcripts and tests). */
export function transcriptJson(store: TranscriptStore): string {
  const pieces: string[] = [];
  writeTranscriptJson(store, (piece) => pieces.push(piece));
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
