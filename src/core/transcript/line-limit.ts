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

/** What a `CappedLines` hands over. */
export interface CappedLineSink {
  /** The next whole line, without its `\n`, at most the limit long. */
  line(text: string): void;
  /**
   * The next line is longer than the limit: said once, as soon as it is that long (its rest is skipped up to
   * the next `\n`) or once it ended whole.
   */
  tooLong(): void;
}

/**
 * Lines of a text fed in pieces, holding at most `maxLineCharacters` of the line not ended yet. Only the
 * new text is searched for line ends: a line longer than a piece is gathered, never split again.
 */
export class CappedLines {
  readonly #max: number;
  readonly #sink: CappedLineSink;
  /** The start of the line not ended yet. */
  #rest = '';
  /** Set while skipping the rest of a line longer than the limit. */
  #skipping = false;

  constructor(sink: CappedLineSink, { maxLineCharacters = MAX_LINE_CHARACTERS }: LineLimit = {}) {
    this.#max = maxLineCharacters;
    this.#sink = sink;
  }

  /** Takes the next piece of the text; with `last`, what follows the last `\n` is a line too. */
  push(text: string, last = false): void {
    let from = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', from)) {
      if (this.#skipping) this.#skipping = false;
      else this.#hand(this.#rest + text.slice(from, end));
      this.#rest = '';
      from = end + 1;
    }
    if (this.#skipping) return;
    this.#rest += text.slice(from);
    if (last) {
      this.#hand(this.#rest);
      this.#rest = '';
    } else if (this.#rest.length > this.#max) {
      this.#sink.tooLong();
      this.#rest = '';
      this.#skipping = true;
    }
  }

  #hand(line: string): void {
    if (line.length > this.#max) this.#sink.tooLong();
    else this.#sink.line(line);
  }
}
