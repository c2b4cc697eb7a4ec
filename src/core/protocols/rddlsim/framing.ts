/**
 * Message framing of rddlsim byte streams. By default every message ends with one NUL byte, in both
 * directions. After a client sends `<no-header/>`, the real server sends messages without declaration and
 * without NUL, simply concatenated, so a receiver must find where each root element ends. Splitters are
 * streaming: feed chunks as they arrive (several messages per chunk, or one message over many chunks).
 */
import { ByteQueue, encodeNulFrame, NulSplitter as SharedNulSplitter } from '../../transport/nul-framing';

/** How one message was delimited: by a NUL byte, or by the end of its root element (no terminator). */
export type WireFraming = 'nul' | 'none';

/** One message's bytes, without the NUL terminator. */
export interface WireFrame {
  /** Often a view of a chunk given to `push` (which is why chunks must not be changed once pushed). */
  bytes: Uint8Array;
  framing: WireFraming;
  /**
   * Set when no terminator came within the size limit. Like the real server's reader, the frame then holds
   * the first `maxMessageBytes - 1` bytes, one byte is lost, and the rest starts the next frame.
   */
  oversize?: true;
}

/** The real server's read buffer: 10 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** Options common to the splitters. */
export interface SplitterOptions {
  /** Largest message accepted before cutting it (default 10 MiB, as the server). */
  maxMessageBytes?: number;
}

const NUL = 0;

/**
 * Splits at NUL bytes: what the real server does with everything it reads, and what a client does in
 * default mode. The shared 0-byte framing, with rddlsim's policy for an oversize message: its reader's
 * buffer of `maxMessageBytes` cuts it.
 */
export class NulSplitter extends SharedNulSplitter {
  constructor({ maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES }: SplitterOptions = {}) {
    super({ kind: 'cut', maxMessageBytes });
  }
}

/** Where the XML scanner of a no-header message is (small integers: the scan compares one per byte). */
const START = 0;
const TEXT = 1;
const MARKUP = 2;
const START_TAG = 3;
const END_TAG = 4;
const INSTRUCTION = 5;
const BANG_TEXT = 6;
const COMMENT = 7;
const CDATA = 8;
const DECLARATION = 9;
type ScanState =
  | typeof START
  | typeof TEXT
  | typeof MARKUP
  | typeof START_TAG
  | typeof END_TAG
  | typeof INSTRUCTION
  | typeof BANG_TEXT
  | typeof COMMENT
  | typeof CDATA
  | typeof DECLARATION;

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const QUESTION = 0x3f;
const BANG = 0x21;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

/** Options of a ServerStreamSplitter. */
export interface ServerSplitterOptions extends SplitterOptions {
  /**
   * `declaration` (the wire): a message starting with a declaration ends at its NUL, one starting with an
   * element where its root closes. `root`: every message ends where its root closes, a NUL right after it
   * being its terminator (for text pasted from logs, where NULs are often lost).
   */
  findEnd?: 'declaration' | 'root';
}

/**
 * Splits what a server sends, in either framing, and switches per message: a message that starts with an
 * XML declaration (or is the literal `null`) ends at its NUL; one that starts directly with an element is a
 * `<no-header/>` mode message and ends where its root element closes, or at a NUL that comes first. Since rddlsim's no-header flag is
 * global to the server process, a client may receive no-header messages without having asked for them.
 */
export class ServerStreamSplitter {
  readonly #queue = new ByteQueue();
  readonly #max: number;
  /** Offset of the next byte to scan. */
  #pos = 0;
  #mode: 'undecided' | 'nul' | 'xml' = 'undecided';
  #state: ScanState = START;
  #depth = 0;
  #quote = 0;
  #previous = 0;
  /** Characters matched so far of a multi-byte terminator (`?>`, `-->`, `]]>`) or of `<!--`/`<![CDATA[`. */
  #matched = 0;
  #bangText = '';
  readonly #byRoot: boolean;
  /** In `root` mode: where the current message's root ended, while waiting to see whether a NUL follows. */
  #rootEnd = -1;
  /** The scan of the current message met a NUL before its root closed. */
  #stoppedAtNul = false;

  constructor({
    maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
    findEnd = 'declaration',
  }: ServerSplitterOptions = {}) {
    this.#max = maxMessageBytes;
    this.#byRoot = findEnd === 'root';
  }

  /** Bytes received that do not yet form a complete message. */
  get pendingLength(): number {
    return this.#queue.pending;
  }

  /**
   * Feeds a chunk (read in place: do not change it afterwards, unless `release` is called once the frames
   * are read); returns the messages it completed.
   */
  push(chunk: Uint8Array): WireFrame[] {
    this.#queue.append(chunk);
    const frames: WireFrame[] = [];
    for (;;) {
      const frame = this.#next();
      if (frame) frames.push(frame);
      // More of a chunk joined in part may complete the message; the scan goes on where it stopped.
      else if (!this.#queue.pull()) return frames;
    }
  }

  /** Copies the bytes of an unfinished message, so the chunks pushed may be reused (the frames returned may not). */
  release(): void {
    this.#queue.release();
  }

  /** At the end of the stream: the unterminated rest, if any, as a frame without terminator. */
  end(): WireFrame[] {
    this.#queue.pull(true);
    const frames: WireFrame[] = [];
    if (this.#rootEnd >= 0) frames.push({ bytes: this.#queue.take(this.#rootEnd), framing: 'none' });
    if (this.#queue.length) frames.push({ bytes: this.#queue.take(this.#queue.length), framing: 'none' });
    this.#reset();
    return frames;
  }

  #reset(): void {
    this.#pos = 0;
    this.#mode = 'undecided';
    this.#state = START;
    this.#depth = 0;
    this.#quote = 0;
    this.#previous = 0;
    this.#matched = 0;
    this.#bangText = '';
    this.#rootEnd = -1;
    this.#stoppedAtNul = false;
  }

  #next(): WireFrame | undefined {
    const queue = this.#queue;
    // A NUL left over right after a no-header frame carries nothing: drop it.
    while (this.#mode === 'undecided' && queue.length > 0 && queue.at(0) === NUL) queue.take(0, 1);
    if (this.#mode === 'undecided') {
      let first = 0;
      while (first < queue.length && isSpace(queue.at(first))) first++;
      if (first + 1 >= queue.length) return this.#oversizeOrWait();
      const declaration = queue.at(first) !== LT || queue.at(first + 1) === QUESTION;
      this.#mode = declaration && !this.#byRoot ? 'nul' : 'xml';
    }
    if (this.#mode === 'nul') {
      const end = queue.indexOf(NUL, this.#pos);
      if (end >= 0 && end < this.#max) {
        this.#reset();
        return { bytes: queue.take(end, 1), framing: 'nul' };
      }
      this.#pos = queue.length;
      return this.#oversizeOrWait();
    }
    const end = this.#rootEnd >= 0 ? this.#rootEnd : this.#scanRootEnd();
    if (end < 0 || end > this.#max) return this.#oversizeOrWait();
    if (this.#stoppedAtNul) {
      // rddlsim's Java client reads up to a NUL whatever came before it: the message ends there.
      this.#reset();
      return { bytes: queue.take(end, 1), framing: 'nul' };
    }
    if (this.#byRoot) {
      // Is the root followed by its NUL? Wait for the next byte to tell.
      if (end === queue.length) {
        this.#rootEnd = end;
        return undefined;
      }
      const terminated = queue.at(end) === NUL;
      this.#reset();
      return { bytes: queue.take(end, terminated ? 1 : 0), framing: terminated ? 'nul' : 'none' };
    }
    this.#reset();
    return { bytes: queue.take(end), framing: 'none' };
  }

  #oversizeOrWait(): WireFrame | undefined {
    if (this.#queue.length < this.#max) return undefined;
    this.#reset();
    return {
      bytes: this.#queue.take(this.#max - 1, 1),
      framing: this.#mode === 'xml' ? 'none' : 'nul',
      oversize: true,
    };
  }

  /**
   * Scans from where the last call stopped; returns the offset just past the root's closing `>`, the offset
   * of a NUL met before it (setting `#stoppedAtNul`), or -1 when the root is not complete yet. Only markup
   * boundaries matter here: well-formedness is the parser's job. Every byte of a recording read by its roots
   * passes here, so the scan works on the bytes themselves and on local copies of its state, written back
   * when it stops.
   */
  #scanRootEnd(): number {
    const bytes = this.#queue.view();
    let pos = this.#pos;
    let state = this.#state;
    let depth = this.#depth;
    let quote = this.#quote;
    let previous = this.#previous;
    let matched = this.#matched;
    let bangText = this.#bangText;
    let end = -1;
    const length = bytes.length;
    // Text, tags and end tags, nearly every byte, are skipped by tight loops up to the byte that matters (a
    // NUL ends the message wherever it comes); the switch decides only at markup boundaries.
    scan: while (pos < length) {
      let byte = bytes[pos]!;
      if (byte === NUL) {
        this.#stoppedAtNul = true;
        end = pos;
        break;
      }
      switch (state) {
        case START:
        case TEXT:
          while (byte !== LT) {
            if (++pos === length) break scan;
            byte = bytes[pos]!;
            if (byte === NUL) continue scan; // the NUL ends the message: see the loop's first test
          }
          state = MARKUP;
          break;
        case MARKUP:
          if (byte === SLASH) state = END_TAG;
          else if (byte === QUESTION || byte === BANG) {
            state = byte === QUESTION ? INSTRUCTION : BANG_TEXT;
            matched = 0;
            bangText = '';
          } else {
            state = START_TAG;
            quote = 0;
            previous = byte;
          }
          break;
        case START_TAG:
          tag: for (;;) {
            if (quote) {
              if (byte === quote) quote = 0;
            } else if (byte === QUOTE || byte === APOSTROPHE) quote = byte;
            else if (byte === GT) {
              state = TEXT;
              if (previous !== SLASH) depth++;
              else if (depth === 0) {
                end = pos + 1;
                break scan;
              }
              previous = byte;
              break tag;
            }
            previous = byte;
            if (++pos === length) break scan;
            byte = bytes[pos]!;
            if (byte === NUL) continue scan; // the NUL ends the message: see the loop's first test
          }
          break;
        case END_TAG:
          while (byte !== GT) {
            if (++pos === length) break scan;
            byte = bytes[pos]!;
            if (byte === NUL) continue scan; // the NUL ends the message: see the loop's first test
          }
          state = TEXT;
          depth--;
          if (depth <= 0) {
            end = pos + 1;
            break scan;
          }
          break;
        case INSTRUCTION:
        case COMMENT:
        case CDATA: {
          const terminator = state === INSTRUCTION ? '?>' : state === COMMENT ? '-->' : ']]>';
          matched = advanceTerminator(byte, terminator, matched);
          if (matched === terminator.length) state = TEXT;
          break;
        }
        case DECLARATION:
          if (byte === GT) state = TEXT;
          break;
        case BANG_TEXT:
          bangText += String.fromCharCode(byte);
          if (bangText === '--' || bangText === '[CDATA[') {
            state = bangText === '--' ? COMMENT : CDATA;
            matched = 0;
            bangText = '';
          } else if (!'--'.startsWith(bangText) && !'[CDATA['.startsWith(bangText)) {
            state = byte === GT ? TEXT : DECLARATION;
          }
          break;
      }
      pos++;
    }
    this.#pos = pos;
    this.#state = state;
    this.#depth = depth;
    this.#quote = quote;
    this.#previous = previous;
    this.#matched = matched;
    this.#bangText = bangText;
    return end;
  }
}

/**
 * Advances the match of a multi-character terminator by one byte; returns how much of it is matched. Each
 * terminator is a run of one character before its last (`?>`, `-->`, `]]>`), so `--->` keeps its partial
 * match.
 */
function advanceTerminator(byte: number, terminator: string, matched: number): number {
  if (byte === terminator.charCodeAt(matched)) return matched + 1;
  return byte === terminator.charCodeAt(0) ? Math.max(1, matched) : 0;
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

const utf8Encoder = new TextEncoder();

/** The bytes of one message on the wire: its text, then a NUL (the shared encoder) unless the framing is `none`. */
export function encodeFrame(text: string, framing: WireFraming): Uint8Array {
  return framing === 'none' ? utf8Encoder.encode(text) : encodeNulFrame(text);
}
