/**
 * MASSim framing: every message is UTF-8 JSON followed by exactly one 0 byte, with no length prefix. Frames
 * may be split across reads or packed several to a read, so the splitter below is streaming.
 */

const utf8 = new TextEncoder();

/** One frame cut out of a byte stream, without its terminating 0 byte. */
export interface SplitFrame {
  /** Every byte of the frame as it crossed the wire, even when the receiver discarded it. */
  bytes: Uint8Array;
  /**
   * True when the real server's receive loop would have thrown the frame away because of
   * `maxPacketLength` (the bytes are kept here so transcripts show what was sent).
   */
  discarded: boolean;
}

/** Options of a frame splitter. */
export interface FrameSplitterOptions {
  /**
   * Emulate the real server's size limit (`maxPacketLength`) with its exact counting: the first frame may
   * hold `limit` bytes, later ones `limit - 1` (the terminator is counted against the next frame), and bytes
   * skipped past the limit also count against the next frame. Absent: no limit (the server's first frame on
   * a connection, and every client).
   */
  maxPacketLength?: number;
}

/**
 * Cuts a byte stream into 0-terminated frames. Keeps any unterminated tail until more bytes arrive.
 */
export class NulFrameSplitter {
  #limit: number | undefined;
  /** Bytes of the current, still unterminated frame. */
  #chunks: Uint8Array[] = [];
  #pendingLength = 0;
  // The real server's counters (AgentManager.receive): bytes counted against the current frame, and
  // whether it is skipping to the next 0 byte.
  #readBytes = 0;
  #skipping = false;
  #frameDiscarded = false;

  constructor(options: FrameSplitterOptions = {}) {
    this.#limit = options.maxPacketLength;
  }

  /** Bytes received that do not yet form a complete frame. */
  get pendingBytes(): number {
    return this.#pendingLength;
  }

  /**
   * Feeds bytes; calls `onFrame` for every frame completed by them, in order. `onFrame` may return `false`
   * to stop reading: the bytes after that frame are returned (not consumed), so a caller can hand them to
   * another reader (the real server reads the first frame at its front desk, the rest in the agent's
   * receive loop).
   */
  push(chunk: Uint8Array, onFrame: (frame: SplitFrame) => boolean | void): Uint8Array | undefined {
    let start = 0;
    while (start < chunk.length) {
      const end = this.#limit === undefined ? chunk.indexOf(0, start) : this.#scanLimited(chunk, start);
      if (end < 0) {
        this.#keep(chunk.subarray(start));
        return undefined;
      }
      this.#keep(chunk.subarray(start, end));
      const frame = { bytes: this.#takePending(), discarded: this.#frameDiscarded };
      this.#frameDiscarded = this.#skipping;
      start = end + 1;
      if (onFrame(frame) === false) return chunk.subarray(start);
    }
    return undefined;
  }

  /**
   * Advances the real server's byte counters from `start` up to and including the next 0 byte, and returns
   * that byte's position (or -1). Mirrors the Java loop byte for byte, including its off-by-one.
   */
  #scanLimited(chunk: Uint8Array, start: number): number {
    const limit = this.#limit!;
    for (let i = start; i < chunk.length; i++) {
      const isTerminator = chunk[i] === 0;
      if (isTerminator) {
        if (this.#skipping) this.#skipping = false;
        else this.#readBytes = 0;
      }
      if (this.#readBytes++ >= limit) {
        this.#readBytes = 0;
        this.#skipping = true;
        if (!isTerminator) this.#frameDiscarded = true;
      }
      if (isTerminator) return i;
    }
    return -1;
  }

  #keep(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#chunks.push(bytes.slice());
    this.#pendingLength += bytes.length;
  }

  #takePending(): Uint8Array {
    const chunks = this.#chunks;
    let bytes: Uint8Array;
    if (chunks.length === 1) bytes = chunks[0]!;
    else {
      bytes = new Uint8Array(this.#pendingLength);
      let offset = 0;
      for (const part of chunks) {
        bytes.set(part, offset);
        offset += part.length;
      }
    }
    this.#chunks = [];
    this.#pendingLength = 0;
    return bytes;
  }
}

/** The wire bytes of one frame: the UTF-8 text followed by its 0 terminator. */
export function encodeFrame(text: string): Uint8Array {
  const body = utf8.encode(text);
  const bytes = new Uint8Array(body.length + 1);
  bytes.set(body);
  return bytes;
}
