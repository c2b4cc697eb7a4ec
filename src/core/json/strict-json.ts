/**
 * Where standard JSON (RFC 8259) goes wrong. `JSON.parse` does the parsing; only when it fails does this
 * small scanner walk the text to find the first bad character, since engines word (and place) their
 * errors differently.
 */

/** Where a text stops being standard JSON, and why. */
export interface JsonSyntaxProblem {
  message: string;
  /** Character offset of the offending character (the text's length when the text ends too early). */
  offset: number;
}

/** Finds the first syntax error of a text, or undefined when it is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | undefined {
  const scanner = new JsonScanner(text);
  try {
    scanner.skipWhitespace();
    scanner.value(0);
    scanner.skipWhitespace();
    if (scanner.offset < text.length) scanner.fail('unexpected text after the JSON value');
    return undefined;
  } catch (error) {
    if (error instanceof ScanError) return { message: error.message, offset: error.offset };
    throw error;
  }
}

class ScanError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const numberPattern = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

class JsonScanner {
  offset = 0;

  constructor(private readonly text: string) {}

  fail(message: string, offset = this.offset): never {
    throw new ScanError(message, offset);
  }

  skipWhitespace(): void {
    while (this.offset < this.text.length && ' \t\n\r'.includes(this.text[this.offset]!)) this.offset++;
  }

  #describeHere(): string {
    if (this.offset >= this.text.length) return 'end of text';
    return `'${this.text[this.offset]}'`;
  }

  value(depth: number): void {
    if (depth > 5000) this.fail('nesting too deep');
    const c = this.text[this.offset];
    if (c === '{') return this.#object(depth);
    if (c === '[') return this.#array(depth);
    if (c === '"') return this.#string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.#number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.offset)) {
        this.offset += word.length;
        return;
      }
    }
    this.fail(`expected a value, got ${this.#describeHere()}`);
  }

  #object(depth: number): void {
    this.offset++;
    this.skipWhitespace();
    if (this.text[this.offset] === '}') {
      this.offset++;
      return;
    }
    for (;;) {
      if (this.text[this.offset] !== '"') this.fail(`expected a "quoted" key, got ${this.#describeHere()}`);
      this.#string();
      this.skipWhitespace();
      if (this.text[this.offset] !== ':')
        this.fail(`expected ':' after the key, got ${this.#describeHere()}`);
      this.offset++;
      this.skipWhitespace();
      this.value(depth + 1);
      this.skipWhitespace();
      const c = this.text[this.offset];
      this.offset++;
      if (c === '}') return;
      if (c !== ',')
        this.fail(`expected ',' or '}', got ${c === undefined ? 'end of text' : `'${c}'`}`, this.offset - 1);
      this.skipWhitespace();
    }
  }

  #array(depth: number): void {
    this.offset++;
    this.skipWhitespace();
    if (this.text[this.offset] === ']') {
      this.offset++;
      return;
    }
    for (;;) {
      this.value(depth + 1);
      this.skipWhitespace();
      const c = this.text[this.offset];
      this.offset++;
      if (c === ']') return;
      if (c !== ',')
        this.fail(`expected ',' or ']', got ${c === undefined ? 'end of text' : `'${c}'`}`, this.offset - 1);
      this.skipWhitespace();
    }
  }

  #string(): void {
    const start = this.offset;
    this.offset++;
    for (;;) {
      if (this.offset >= this.text.length) this.fail('unterminated string', start);
      const code = this.text.charCodeAt(this.offset);
      if (code === 0x22) {
        this.offset++;
        return;
      }
      if (code < 0x20) this.fail('control character in a string (escape it)');
      if (code === 0x5c) {
        const escaped = this.text[this.offset + 1];
        if (escaped === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.offset + 2, this.offset + 6)))
            this.fail('\\u must be followed by four hex digits');
          this.offset += 6;
          continue;
        }
        if (escaped === undefined || !'"\\/bfnrt'.includes(escaped)) this.fail('invalid escape');
        this.offset += 2;
        continue;
      }
      this.offset++;
    }
  }

  #number(): void {
    numberPattern.lastIndex = this.offset;
    const match = numberPattern.exec(this.text);
    if (!match || match[0] === '-') this.fail('invalid number');
    this.offset += match[0].length;
  }
}
