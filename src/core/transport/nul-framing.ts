/**
 * The one 0-byte framing of stream protocols (rddlsim and MASSim): every message ends with one NUL byte.
 * What differs between protocols is only what a receiver does with a message longer than its limit, so that
 * is an explicit option each protocol sets (`OversizePolicy`). Splitters are streaming: feed chunks as they
 * arrive (several messages per chunk, or one message over many chunks).
 */
import type { StreamFrame } from '../protocols/contract';

/**
 * The bytes received and not yet framed. Usually a chunk holds whole messages: it is then read in place and
 * frames are views of it, with no copy (a copy costs as much as everything else done with a turn message).
 * A message cut by a chunk's start is joined with the chunk's first bytes in a new buffer read in place the
 * same way; `pull` joins more of the chunk while that message goes on, and once it is taken the chunk itself
 * is read in place from there. Only a message longer than the chunks that bring it grows a buffer of our own,
 * which the next chunks extend.
 */
export class ByteQueue {
  #bytes: Uint8Array = new Uint8Array(0);
  #start = 0;
  #end = 0;
  /** `#bytes` is the caller's chunk (or a joined buffer), read in place and never written. */
  #borrowed = false;
  /** Our own buffer, kept between uses. */
  #owned: Uint8Array = new Uint8Array(0);
  /** A chunk joined in part: its first `#copied` bytes sit in `#bytes` from `#chunkAt` on, the rest waits. */
  #chunk: Uint8Array | undefined;
  #chunkAt = 0;
  #copied = 0;

  /** The bytes that can be read now (`view`, `at`, `indexOf`); `pull` may bring more. */
  get length(): number {
    return this.#end - this.#start;
  }

  /** Every byte fed and not yet taken, including what `pull` has not brought yet. */
  get pending(): number {
    return this.length + (this.#chunk ? this.#chunk.length - this.#copied : 0);
  }

  append(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (this.#chunk) this.pull(true);
    if (this.length === 0) {
      this.#bytes = chunk;
      this.#start = 0;
      this.#end = chunk.length;
      this.#borrowed = true;
      return;
    }
    const live = this.length;
    if (live <= chunk.length) {
      // A message cut by the chunk's start: the rest of the last chunk and the first bytes of this one (as
      // many again, and at least `JOIN_BYTES`), in a new buffer that is never written again, so frames can
      // be views of it as they are of a chunk read in place. The copies stay proportional to the messages
      // that span chunks, not to the chunks.
      const copied = Math.min(chunk.length, Math.max(live, JOIN_BYTES));
      const joined = new Uint8Array(live + copied);
      joined.set(this.#bytes.subarray(this.#start, this.#end));
      joined.set(copied === chunk.length ? chunk : chunk.subarray(0, copied), live);
      this.#bytes = joined;
      this.#start = 0;
      this.#end = joined.length;
      this.#borrowed = true;
      if (copied < chunk.length) {
        this.#chunk = chunk;
        this.#chunkAt = live;
        this.#copied = copied;
      }
      return;
    }
    if (this.#borrowed || this.#end + chunk.length > this.#bytes.length) this.#moveToOwned(chunk.length);
    this.#bytes.set(chunk, this.#end);
    this.#end += chunk.length;
  }

  /**
   * Brings more of a chunk joined in part into the bytes that can be read (twice as much, or all of it with
   * `all`); false when every byte fed can already be read.
   */
  pull(all = false): boolean {
    const chunk = this.#chunk;
    if (!chunk) return false;
    const live = this.length;
    const copied = all ? chunk.length : Math.min(chunk.length, this.#copied * 2);
    const joined = new Uint8Array(live + copied - this.#copied);
    joined.set(this.#bytes.subarray(this.#start, this.#end));
    joined.set(chunk.subarray(this.#copied, copied), live);
    this.#chunkAt -= this.#start;
    this.#bytes = joined;
    this.#start = 0;
    this.#end = joined.length;
    this.#copied = copied;
    if (copied === chunk.length) this.#chunk = undefined;
    return true;
  }

  /**
   * Lets go of the caller's chunks: the bytes not yet taken move to our own buffer (at most a message's
   * worth after a splitter has taken every complete one), so the caller may reuse its chunk.
   */
  release(): void {
    if (this.#chunk) this.pull(true);
    if (this.#borrowed && this.length > 0) this.#moveToOwned(0);
  }

  /** Moves the live bytes to the front of our own buffer, grown to take `extra` more. */
  #moveToOwned(extra: number): void {
    const live = this.length;
    let target = this.#owned;
    if (live + extra > target.length) {
      target = new Uint8Array(Math.max(live + extra, target.length * 2, 4096));
      target.set(this.#bytes.subarray(this.#start, this.#end));
    } else if (this.#borrowed) {
      target.set(this.#bytes.subarray(this.#start, this.#end));
    } else {
      target.copyWithin(0, this.#start, this.#end);
    }
    this.#owned = target;
    this.#bytes = target;
    this.#borrowed = false;
    this.#start = 0;
    this.#end = live;
  }

  /** Byte at `offset` from the read position. */
  at(offset: number): number {
    return this.#bytes[this.#start + offset]!;
  }

  /** The bytes not yet taken, as a view: valid until the next `append`, `pull` or `take`. */
  view(): Uint8Array {
    return this.#bytes.subarray(this.#start, this.#end);
  }

  /** Offset of the first `byte` at or after `from`, or -1. */
  indexOf(byte: number, from: number): number {
    const found = this.#bytes.subarray(0, this.#end).indexOf(byte, this.#start + from);
    return found < 0 ? -1 : found - this.#start;
  }

  /**
   * Removes and returns the first `count` bytes, then drops `skip` more: a view of the caller's chunk when
   * it is read in place, else a copy (our own buffer is written again).
   */
  take(count: number, skip = 0): Uint8Array {
    const start = this.#start;
    const taken = this.#borrowed
      ? this.#bytes.subarray(start, start + count)
      : this.#bytes.slice(start, start + count);
    this.#start += count + skip;
    if (this.#chunk && this.#start >= this.#chunkAt) {
      // The message that went on into a chunk joined in part is taken: the chunk is read in place from here.
      const chunk = this.#chunk;
      this.#start -= this.#chunkAt;
      this.#bytes = chunk;
      this.#end = chunk.length;
      this.#chunk = undefined;
    }
    if (this.#start >= this.#end) {
      this.#bytes = this.#owned;
      this.#borrowed = false;
      this.#start = this.#end = 0;
    }
    return taken;
  }
}

/** How many bytes of a chunk are joined at least with the end of a message cut by its start (see `ByteQueue`). */
const JOIN_BYTES = 16 << 10;

const NUL = 0;
const utf8 = new TextEncoder();

/**
 * The wire bytes of one message: its UTF-8 text (or its bytes, as a transcript may hold them) followed by
 * the 0 byte. The one encoder of the 0-byte framing, for every protocol and direction.
 */
export function encodeNulFrame(payload: string | Uint8Array): Uint8Array {
  if (typeof payload !== 'string') {
    const framed = new Uint8Array(payload.length + 1);
    framed.set(payload);
    return framed;
  }
  const text = payload;
  // Most frames are short ASCII (MASSim's actions): copied character by character, with no intermediate
  // array. A long text is encoded natively (a loop costs several times more there); appending the 0 to
  // the text costs less than copying the encoded bytes into a longer array.
  if (text.length > SHORT_FRAME) return utf8.encode(text + '\0');
  const bytes = new Uint8Array(text.length + 1);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) return utf8.encode(text + '\0');
    bytes[i] = code;
  }
  return bytes;
}

/** Up to this many characters a frame is copied by hand (`encodeNulFrame`). */
const SHORT_FRAME = 128;

/** One message cut out of the stream: ended by its NUL, or (at the end of the stream) by nothing. */
export interface NulFrame extends StreamFrame {
  framing: 'nul' | 'none';
}

/**
 * Counts each message's length against a receiver's limit, in the receiver's own way (it may keep count
 * across messages); true when the receiver would throw the message away.
 */
export type OversizeJudge = (length: number) => boolean;

/** What a receiver does with a message longer than its limit. */
export type OversizePolicy =
  /** No limit: every message is read whole, however long. */
  | { kind: 'none' }
  /**
   * The reader's buffer holds `maxMessageBytes` bytes: a message that fills it without a NUL is cut there.
   * The frame holds the first `maxMessageBytes - 1` bytes (marked `oversize`), one byte is lost, and the
   * rest starts the next message (rddlsim's server and client).
   */
  | { kind: 'cut'; maxMessageBytes: number }
  /**
   * A message over the limit is skipped up to its NUL and reading goes on (MASSim's server). The splitter
   * still hands it on whole, marked `oversize`, so a transcript shows what was sent; `judge` says which
   * messages the receiver skips.
   */
  | { kind: 'skip'; judge: OversizeJudge };

/** A judge that skips every message longer than `limit` bytes. */
export function longerThan(limit: number): OversizeJudge {
  return (length) => length > limit;
}

/**
 * Splits a byte stream at NUL bytes. Empty messages (two NULs in a row) are frames too: a receiver reads
 * them (and fails to parse them).
 */
export class NulSplitter {
  readonly #queue = new ByteQueue();
  readonly #policy: OversizePolicy;
  #scanned = 0;

  constructor(policy: OversizePolicy) {
    this.#policy = policy;
  }

  /** Bytes received that do not yet form a complete message. */
  get pendingLength(): number {
    return this.#queue.pending;
  }

  /** Feeds a chunk (read in place: do not change it afterwards); returns the messages it completed. */
  push(chunk: Uint8Array): NulFrame[] {
    this.append(chunk);
    const frames: NulFrame[] = [];
    for (let frame = this.next(); frame; frame = this.next()) frames.push(frame);
    return frames;
  }

  /** Feeds a chunk without reading it: `next` then takes its messages one at a time. */
  append(chunk: Uint8Array): void {
    this.#queue.append(chunk);
  }

  /** The next complete message of what was fed, if any. */
  next(): NulFrame | undefined {
    const queue = this.#queue;
    const policy = this.#policy;
    const end = queue.indexOf(NUL, this.#scanned);
    if (policy.kind === 'cut') {
      const max = policy.maxMessageBytes;
      if (end >= 0 && end < max) {
        this.#scanned = 0;
        return { bytes: queue.take(end, 1), framing: 'nul' };
      }
      if (queue.length >= max) {
        this.#scanned = 0;
        return { bytes: queue.take(max - 1, 1), framing: 'nul', oversize: true };
      }
    } else if (end >= 0) {
      this.#scanned = 0;
      const bytes = queue.take(end, 1);
      return policy.kind === 'skip' && policy.judge(bytes.length)
        ? { bytes, framing: 'nul', oversize: true }
        : { bytes, framing: 'nul' };
    }
    this.#scanned = queue.length;
    // More of a chunk joined in part may end the message.
    return queue.pull() ? this.next() : undefined;
  }

  /**
   * Counts a whole message of `length` bytes that arrives without its bytes (from a peer in the same
   * process) as `next` would; true when the receiver would skip it or cut it. Nothing may be pending.
   */
  judgeWhole(length: number): boolean {
    if (this.#queue.pending > 0) throw new Error('a whole message cannot follow an unterminated one');
    const policy = this.#policy;
    if (policy.kind === 'skip') return policy.judge(length);
    return policy.kind === 'cut' && length >= policy.maxMessageBytes;
  }

  /** Takes every byte fed and not yet framed, unread (for another reader to go on with). */
  takeRest(): Uint8Array {
    this.#scanned = 0;
    this.#queue.pull(true);
    return this.#queue.take(this.#queue.length);
  }

  /** At the end of the stream: the unterminated rest, if any, as a frame without terminator. */
  end(): NulFrame[] {
    this.#scanned = 0;
    this.#queue.pull(true);
    return this.#queue.length ? [{ bytes: this.#queue.take(this.#queue.length), framing: 'none' }] : [];
  }
}
