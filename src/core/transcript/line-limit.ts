/**
 * How much a reader of recordings fed in chunks holds of one line (or one message, for a stream of
 * messages) that has not ended yet. A file cut inside a message that never ends (binary garbage without a
 * newline, a stream killed mid-write, a line of gigabytes) would otherwise be gathered whole: gigabytes of
 * memory, and from about 512 MB a string longer than V8 allows. A longer line is reported, located, and
 * skipped up to where the next one starts, so the reading goes on in bounded memory.
 */

/**
 * The longest line (in characters; in bytes, for a reader of bytes) a streaming reader holds: a message of
 * any protocol is kilobytes, and rddlsim itself reads at most 10 MiB of one.
 */
export const MAX_LINE_CHARACTERS = 16 * 1024 * 1024;

/** Options of the streaming readers that hold lines. */
export interface LineLimit {
  /** The longest line held (default `MAX_LINE_CHARACTERS`); tests give a smaller one. */
  maxLineCharacters?: number;
}

/** `16 MiB`, or the number of `unit` when the limit is not a whole number of MiB. */
export function describeLineLimit(limit: number, unit = 'characters'): string {
  return limit % (1 << 20) === 0 ? `${limit >> 20} MiB` : `${limit.toLocaleString('en-US')} ${unit}`;
}
