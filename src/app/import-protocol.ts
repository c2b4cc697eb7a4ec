/**
 * The protocol a big file being imported looks like, told from its first bytes on the page while the
 * session worker reads the whole file: the page builds that protocol's workbench at once, in parallel with
 * the reading, instead of after the first part of the file is shown.
 */
import type { Protocol } from '../core/protocols/contract';
import { detectFormats } from '../core/transcript/import';

/** Files from this size on are worth guessing for (smaller ones are shown before a guess would help). */
export const GUESS_FROM_BYTES = 4 << 20;

/** How much of the file's start is looked at (as much as the worker's own detection looks at). */
const GUESS_BYTES = 64 << 10;

/** The least confidence a guess needs before the page changes workbench on it. */
const GUESS_CONFIDENCE = 0.5;

/**
 * The id of the protocol one big file most likely holds, or undefined (several files, a small one, or no
 * confident guess). Never throws: a file that cannot be read is the worker's to report.
 */
export async function guessProtocolOf(
  files: readonly { name: string; content: Blob | Uint8Array }[],
  protocols: readonly Protocol[],
): Promise<string | undefined> {
  const file = files.length === 1 ? files[0]! : undefined;
  if (!file || file.content instanceof Uint8Array || file.content.size < GUESS_FROM_BYTES) return undefined;
  try {
    const bytes = new Uint8Array(await file.content.slice(0, GUESS_BYTES).arrayBuffer());
    const best = detectFormats([{ name: file.name, bytes }], protocols)[0];
    if (!best || best.confidence < GUESS_CONFIDENCE) return undefined;
    return protocols.some((p) => p.id === best.protocol) ? best.protocol : undefined;
  } catch {
    return undefined;
  }
}
