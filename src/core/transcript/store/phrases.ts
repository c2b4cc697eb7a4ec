/**
 * A phrase book: texts numbered in the order they were first seen, the same number for the same text. Wire
 * messages built from recurring pieces (a MASSim percept is mostly the same thing fragments, task lists and
 * key names over and over) are kept as lists of phrase numbers, so each piece is held once however often it
 * is sent, and writing a message costs a few integer writes instead of copying its text.
 */
export class PhraseBook {
  readonly #texts: string[] = [];
  readonly #numbers = new Map<string, number>();
  #characters = 0;

  /** The number of `text`, adding it when new. */
  intern(text: string): number {
    let phrase = this.#numbers.get(text);
    if (phrase === undefined) {
      phrase = this.#texts.length;
      this.#texts.push(text);
      this.#numbers.set(text, phrase);
      this.#characters += text.length;
    }
    return phrase;
  }

  /** The text of a phrase number. */
  text(phrase: number): string {
    const text = this.#texts[phrase];
    if (text === undefined) throw new RangeError(`no phrase ${phrase}`);
    return text;
  }

  /** How many phrases the book holds. */
  get size(): number {
    return this.#texts.length;
  }

  /** Total length of all phrases, in UTF-16 code units (what their strings occupy, about). */
  get characters(): number {
    return this.#characters;
  }
}

/** A text written as a sequence of phrase numbers of one book. */
export interface PhraseOutput {
  readonly book: PhraseBook;
  /** Appends a phrase by number. */
  push(phrase: number): void;
}

/**
 * Collects phrase numbers into a reusable list and joins their texts on demand: for writers that want the
 * text itself (a wire, a test) rather than a transcript entry.
 */
export class PhraseList implements PhraseOutput {
  readonly book: PhraseBook;
  #phrases = new Int32Array(256);
  #length = 0;

  constructor(book: PhraseBook = new PhraseBook()) {
    this.book = book;
  }

  push(phrase: number): void {
    if (this.#length === this.#phrases.length) {
      const grown = new Int32Array(this.#phrases.length * 2);
      grown.set(this.#phrases);
      this.#phrases = grown;
    }
    this.#phrases[this.#length++] = phrase;
  }

  /** How many phrases were pushed since the last `clear`. */
  get length(): number {
    return this.#length;
  }

  /** The phrases pushed since the last `clear` (a view that the next push may invalidate). */
  get phrases(): Int32Array {
    return this.#phrases.subarray(0, this.#length);
  }

  /** Forgets the phrases (the book keeps its texts). */
  clear(): void {
    this.#length = 0;
  }

  /** The text of the phrases pushed since the last `clear`. */
  text(): string {
    const book = this.book;
    let text = '';
    for (let i = 0; i < this.#length; i++) text += book.text(this.#phrases[i]!);
    return text;
  }
}
