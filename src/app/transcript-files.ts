/**
 * Transcript files out of the page: downloads of the Protoplay JSON and of the raw wire streams. (Imports
 * are read in the session worker: see `Session.open`.)
 */
import { protocolOrDefault } from '../core/protocols/registry';
import { exportTranscriptFiles } from '../core/session/transcript-exports';
import { serialiseTranscript } from '../core/transcript/json-format';
import type { Direction, Transcript } from '../core/transcript/model';
import { exportWireStreams } from '../core/transcript/wire-export';

/** A file name stem for a transcript: protocol, instance and start time. */
function fileStem(transcript: Transcript): string {
  const instance = typeof transcript.meta.instance === 'string' ? `-${transcript.meta.instance}` : '';
  const stamp = transcript.startedAt
    ? `-${new Date(transcript.startedAt).toISOString().replace(/[:.]/g, '-')}`
    : '';
  return `${transcript.protocol}${instance}${stamp}`.replace(/[^\w.-]+/g, '_');
}

function download(name: string, data: BlobPart, type: string): void {
  downloadBlob(name, new Blob([data], { type }));
}

/** Downloads a file the page holds. */
export function downloadBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads the transcript as Protoplay JSON. */
export function downloadTranscriptJson(transcript: Transcript): void {
  download(`${fileStem(transcript)}.json`, serialiseTranscript(transcript), 'application/json');
}

/** The directions that have wire bytes in the transcript, for the export menu. */
export function wireDirections(transcript: Transcript): Direction[] {
  const seen = new Set(transcript.messages.filter((m) => m.kind === 'data').map((m) => m.dir));
  return (['c2s', 's2c'] as const).filter((dir) => seen.has(dir));
}

/** Downloads the exact bytes one side sent (every connection of that direction, one file each). */
export function downloadWireStream(transcript: Transcript, dir: Direction): void {
  const { transport } = protocolOrDefault(transcript.protocol);
  const framing = transport.kind === 'tcp' ? transport.framing.framing : 'frame';
  for (const stream of exportWireStreams(transcript, framing).filter((s) => s.dir === dir)) {
    download(
      `${fileStem(transcript)}.${stream.fileName}`,
      stream.bytes as Uint8Array<ArrayBuffer>,
      'application/octet-stream',
    );
  }
}

/**
 * Downloads the rewards of `transcript` as CSV, read in the page (when the worker that reads them is
 * gone); false when it has no rewards.
 */
export function downloadRewardsCsv(transcript: Transcript): boolean {
  const files = exportTranscriptFiles(transcript, protocolOrDefault(transcript.protocol), 'csv');
  for (const { fileName, type, content } of files)
    download(`${fileStem(transcript)}.${fileName}`, content as BlobPart, type);
  return files.length > 0;
}
