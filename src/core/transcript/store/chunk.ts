/**
 * A chunk of consecutive messages' payloads. Each payload is a list of codes (varints): an even code is a
 * phrase number times two, an odd one the length of a literal times two plus one, whose characters follow
 * in the chunk's literal text. Once full, a chunk is sealed: its codes are trimmed and its literal text
 * (what was sent as plain text: agents' actions, imported messages) is deflated.
 */
import { deflateSync, inflateSync } from 'fflate';
import { readVarint, VarintWriter } from './columns';
import type { PhraseBook } from './phrases';

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** A lone surrogate would not survive the trip through UTF-8 bytes; such chunks stay uncompressed. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * How a sealed chunk keeps its literal text: deflated when sealed, as it is, or as it is until the store is
 * asked to compress its sealed chunks (`TranscriptStore.compressSealed`), for a store filled in a hurry.
 */
export type LiteralCompression = 'deflate' | 'none' | 'later';

export class MessageChunk {
  /** Index of the chunk's first message in the store. */
  readonly first: number;
  #codes: VarintWriter | Uint8Array = new VarintWriter();
  /** Literals not yet joined into `#literalText`. */
  #pending: string[] = [];
  #literalLength = 0;
  /** The literal text joined so far; undefined once compressed. */
  #literalText: string | undefined = '';
  #compressed: Uint8Array | undefined;

  constructor(first: number) {
    this.first = first;
  }

  get sealed(): boolean {
    return this.#codes instanceof Uint8Array;
  }

  /** Offset of the next code, relative to the chunk. */
  get codeLength(): number {
    return this.#codes.length;
  }

  /** Characters of literal text so far. */
  get literalLength(): number {
    return this.#literalLength;
  }

  /** Appends a phrase to the message being written. */
  writePhrase(phrase: number): void {
    (this.#codes as VarintWriter).write(phrase * 2);
  }

  /** Appends a literal text to the message being written. */
  writeLiteral(text: string): void {
    (this.#codes as VarintWriter).write(text.length * 2 + 1);
    if (text.length === 0) return;
    this.#pending.push(text);
    this.#literalLength += text.length;
  }

  /** Stops appending: trims the codes and, with `deflate`, compresses the literal text. */
  seal(compression: LiteralCompression): void {
    if (this.sealed) return;
    this.#codes = (this.#codes as VarintWriter).copy();
    this.#joinedLiterals();
    if (compression === 'deflate') this.compress();
  }

  /** Compresses the literal text of a sealed chunk, if not yet (text with a lone surrogate stays as it is). */
  compress(): void {
    const text = this.#literalText;
    if (!this.sealed || text === undefined || text.length === 0 || LONE_SURROGATE.test(text)) return;
    this.#compressed = deflateSync(utf8Encoder.encode(text), { level: 1 });
    this.#literalText = undefined;
  }

  /**
   * The text of one message: codes from `codeStart` to `codeEnd`, literals from `literalStart`. `literals`
   * is the chunk's literal text (`literalText()`), passed in so a reader can keep it between messages.
   */
  decode(
    book: PhraseBook,
    codeStart: number,
    codeEnd: number,
    literalStart: number,
    literals: string,
  ): string {
    const codes = this.#codes instanceof Uint8Array ? this.#codes : this.#codes.view();
    const cursor = { position: codeStart };
    let literal = literalStart;
    let text = '';
    while (cursor.position < codeEnd) {
      const code = readVarint(codes, cursor);
      if (code % 2 === 0) text += book.text(code / 2);
      else {
        const length = (code - 1) / 2;
        text += literals.slice(literal, literal + length);
        literal += length;
      }
    }
    return text;
  }

  /** Pushes the phrases of one message written as phrases only (codes from `codeStart` to `codeEnd`). */
  readPhrases(codeStart: number, codeEnd: number, out: { push(phrase: number): void }): void {
    const codes = this.#codes instanceof Uint8Array ? this.#codes : this.#codes.view();
    // `readVarint` inlined: phrase numbers of a step's requests are read here for every agent.
    let position = codeStart;
    while (position < codeEnd) {
      let byte = codes[position++]!;
      let value = byte & 0x7f;
      let scale = 0x80;
      while (byte >= 0x80) {
        byte = codes[position++]!;
        value += (byte & 0x7f) * scale;
        scale *= 0x80;
      }
      out.push(value / 2);
    }
  }

  /**
   * Copies the phrases of one message written as phrases only (codes from `codeStart` to `codeEnd`) into
   * `target` from `offset`; returns how many, or -1 (copying nothing) when `target` might be too short.
   */
  copyPhrases(codeStart: number, codeEnd: number, target: Int32Array, offset: number): number {
    // Each phrase takes at least one byte of code.
    if (target.length - offset < codeEnd - codeStart) return -1;
    const codes = this.#codes instanceof Uint8Array ? this.#codes : this.#codes.view();
    let position = codeStart;
    let at = offset;
    while (position < codeEnd) {
      let byte = codes[position++]!;
      let value = byte & 0x7f;
      let scale = 0x80;
      while (byte >= 0x80) {
        byte = codes[position++]!;
        value += (byte & 0x7f) * scale;
        scale *= 0x80;
      }
      target[at++] = value / 2;
    }
    return at - offset;
  }

  /** The whole literal text of the chunk (inflated when sealed and compressed; the caller may cache it). */
  literalText(): string {
    if (!this.sealed) return this.#joinedLiterals();
    if (this.#literalText !== undefined) return this.#literalText;
    return utf8Decoder.decode(inflateSync(this.#compressed!));
  }

  /** Bytes held by codes and literal text (compressed bytes, or two per character of uncompressed text). */
  get byteLength(): { codes: number; literals: number } {
    const codes = this.#codes instanceof Uint8Array ? this.#codes.byteLength : this.#codes.byteLength;
    const literals = this.#compressed ? this.#compressed.byteLength : this.#literalLength * 2;
    return { codes, literals };
  }

  #joinedLiterals(): string {
    if (this.#pending.length > 0) {
      this.#literalText = (this.#literalText ?? '') + this.#pending.join('');
      this.#pending = [];
    }
    return this.#literalText ?? '';
  }
}
