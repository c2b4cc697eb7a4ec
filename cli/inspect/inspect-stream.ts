/**
 * The chunked path of `protoplay inspect`: files too big to hold (from 64 MiB, or any size with `--stream`)
 * are read in chunks by their format's streaming reader when it has one, in bounded memory.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  inspectStreamed,
  type InspectionReport,
  type RoundEndLoader,
} from '../../src/core/protocols/inspection';
import { PROTOCOLS } from '../../src/core/protocols/registry';
import type { ImportChoice } from '../../src/core/transcript/import';

/** Files from this size are read in chunks when their format allows. */
export const STREAM_FROM_BYTES = 64 * 1024 * 1024;

const START_BYTES = 4096;

async function startOf(path: string): Promise<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const buffer = new Uint8Array(START_BYTES);
    const { bytesRead } = await file.read(buffer, 0, START_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/**
 * The report of the files read in chunks, or undefined when they should be read whole: none is big enough
 * (unless `always`), or their format cannot read in chunks.
 */
export async function inspectInChunks(
  paths: readonly string[],
  cwd: string,
  choice: ImportChoice,
  always: boolean,
  roundEnds?: RoundEndLoader,
): Promise<InspectionReport | undefined> {
  const files = paths.map((path) => ({ name: path, full: resolve(cwd, path) }));
  // A file that cannot be read is reported by the whole-file path.
  const sizes = await Promise.all(
    files.map((file) =>
      stat(file.full).then(
        (s) => (s.isFile() ? s.size : -1),
        () => -1,
      ),
    ),
  );
  if (sizes.includes(-1)) return undefined;
  if (!always && sizes.every((size) => size < STREAM_FROM_BYTES)) return undefined;
  const inputs = await Promise.all(
    files.map(async (file) => ({
      name: file.name,
      start: await startOf(file.full),
      chunks: createReadStream(file.full, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Uint8Array>,
    })),
  );
  const report = await inspectStreamed(inputs, PROTOCOLS, choice, roundEnds);
  if (!report) for (const input of inputs) (input.chunks as ReturnType<typeof createReadStream>).destroy();
  return report;
}
