/**
 * MASSim framing: every message is UTF-8 JSON followed by exactly one 0 byte, with no length prefix. Frames
 * may be split across reads or packed several to a read, so the splitter below is streaming.
 */
import { NulSplitter, type OversizeJudge, type OversizePolicy } from '../../transport/nul-framing';

/** One frame cut out of a byte stream, without its terminating 0 byte. */
export interface SplitFrame {
  /**
   * Every byte of the frame as it crossed the wire, even when the receiver discarded it. May share memory
   * with the chunk it came in: copy it to keep it after the chunk's buffer is reused.
   */
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
 * The real server's byte counters for `maxPacketLength` (its receive loop in `AgentManager`): how many bytes
 * count against the current frame, and whether it is skipping to the next 0 byte.
 */
export interface PacketLimitCounter {
  readBytes: number;
  skipping: boolean;
}

/** The counters of a freshly started receive loop. */
export const freshPacketLimitCounter: PacketLimitCounter = { readBytes: 0, skipping: false };

/**
 * Runs the real server's counting over one frame of `frameLength` bytes plus its terminator, byte for byte
 * in effect: a counter at the limit resets and starts skipping (the frame is lost), so the first frame may
 * hold `limit` bytes, later ones `limit - 1` (the terminator counts against the next frame), and bytes skipped
 * past the limit also count against the next frame, which can then be lost whole.
 */
export function countFrameAgainstPacketLimit(
  counter: PacketLimitCounter,
  frameLength: number,
  limit: number,
): { discarded: boolean; counter: PacketLimitCounter } {
  // Per byte the counter goes r -> (r == limit ? 0 : r + 1); a byte seen at r == limit starts skipping.
  const cycle = limit + 1;
  const triggered = frameLength > limit - counter.readBytes;
  let readBytes = (counter.readBytes + frameLength) % cycle;
  let skipping = counter.skipping || triggered;
  const discarded = skipping;
  // The terminator ends a skip, or completes the frame and resets the count; then it is counted itself.
  if (skipping) skipping = false;
  else readBytes = 0;
  if (readBytes >= limit) {
    readBytes = 0;
    skipping = true;
  } else readBytes++;
  return { discarded, counter: { readBytes, skipping } };
}

/**
 * The real server's receive loop as a judge for the shared 0-byte framing: each call counts one frame of
 * `length` bytes against `maxPacketLength` (`countFrameAgainstPacketLimit`), true when the frame is lost.
 */
export function packetLimitJudge(maxPacketLength: number): OversizeJudge {
  let counter = freshPacketLimitCounter;
  return (length) => {
    const counted = countFrameAgainstPacketLimit(counter, length, maxPacketLength);
    counter = counted.counter;
    return counted.discarded;
  };
}

/**
 * MASSim's policy for the shared 0-byte framing: with a limit, a frame the real server's receive loop
 * would lose is skipped (handed on whole, marked `oversize`); without one, every frame is read.
 */
export function massimOversizePolicy(maxPacketLength: number | undefined): OversizePolicy {
  return maxPacketLength === undefined
    ? { kind: 'none' }
    : { kind: 'skip', judge: packetLimitJudge(maxPacketLength) };
}

/**
 * Cuts a byte stream into 0-terminated frames, reading them one by one: the shared 0-byte framing
 * (`NulSplitter`) with MASSim's oversize policy. Keeps any unterminated tail until more bytes arrive.
 */
export class NulFrameSplitter {
  readonly #splitter: NulSplitter;

  constructor(options: FrameSplitterOptions = {}) {
    this.#splitter = new NulSplitter(massimOversizePolicy(options.maxPacketLength));
  }

  /** Bytes received that do not yet form a complete frame. */
  get pendingBytes(): number {
    return this.#splitter.pendingLength;
  }

  /**
   * Feeds bytes; calls `onFrame` for every frame completed by them, in order. `onFrame` may return `false`
   * to stop reading: the bytes after that frame are returned (not consumed), so a caller can hand them to
   * another reader (the real server reads the first frame at its front desk, the rest in the agent's
   * receive loop).
   */
  push(chunk: Uint8Array, onFrame: (frame: SplitFrame) => boolean | void): Uint8Array | undefined {
    const splitter = this.#splitter;
    splitter.append(chunk);
    for (let frame = splitter.next(); frame; frame = splitter.next()) {
      if (onFrame({ bytes: frame.bytes, discarded: frame.oversize === true }) === false)
        return splitter.takeRest();
    }
    return undefined;
  }

  /**
   * Counts a whole frame of `length` bytes that arrives without its bytes (from an agent in the same process),
   * exactly as `push` would count it; true when the real server would discard it. Nothing may be pending.
   */
  countWholeFrame(length: number): boolean {
    return this.#splitter.judgeWhole(length);
  }
}
