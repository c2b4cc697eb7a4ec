/**
 * Counting the bytes of the message in progress in a byte stream whose messages end with one terminator
 * byte (rddlsim and MASSim: 0), without keeping them: what lets a transport refuse a message longer than it
 * is willing to hold before the protocol's own reader ever buffers it.
 */

/** Tracks how long the message in progress is, chunk by chunk. */
export class TerminatorCounter {
  readonly #terminator: number;
  readonly #maxFrameBytes: number;
  /** Bytes since the last terminator. */
  #pending = 0;

  constructor(terminator: number, maxFrameBytes: number) {
    this.#terminator = terminator;
    this.#maxFrameBytes = maxFrameBytes;
  }

  /** Bytes of the message in progress (not terminated yet). */
  get pendingBytes(): number {
    return this.#pending;
  }

  /** Counts a chunk; false when a message in it (or going on past it) is longer than the cap. */
  push(chunk: Uint8Array): boolean {
    const terminator = this.#terminator;
    const max = this.#maxFrameBytes;
    let start = 0;
    for (let end = chunk.indexOf(terminator); end >= 0; end = chunk.indexOf(terminator, start)) {
      if (this.#pending + end - start > max) return false;
      this.#pending = 0;
      start = end + 1;
    }
    this.#pending += chunk.length - start;
    return this.#pending <= max;
  }
}

/** `64 KiB`, `1 MiB`, `300 bytes`: a size for a log line. */
export function describeByteCount(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
