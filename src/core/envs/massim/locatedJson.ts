/**
 * A JSON parser that remembers where every value starts, so configuration errors can point at the line of
 * the offending key (also inside included files) instead of naming a key path only.
 */
import { ProtoplayError, type SourceLocation } from '../../errors';
import type { JsonValue } from './api';

/** Where the members of one parsed object or array start, by key or index. */
interface Origin {
  source: string;
  text: string;
  /** Offset of the container itself. */
  start: number;
  members: Map<string | number, number>;
}

/** Parsed JSON text plus the positions of its objects' and arrays' members. */
export class LocatedJson {
  readonly #origins = new WeakMap<object, Origin>();

  /** Parses `text`; throws a located `ProtoplayError` on a syntax error. */
  parse(text: string, source: string): JsonValue {
    return new Parser(text, source, this.#origins).parseDocument();
  }

  /** Where a member of a parsed container (or the container itself, without key) starts. */
  locate(container: object, key?: string | number): SourceLocation | undefined {
    const origin = this.#origins.get(container);
    if (!origin) return undefined;
    const offset = key === undefined ? origin.start : (origin.members.get(key) ?? origin.start);
    return locationAt(origin.text, offset, origin.source);
  }
}

/** Line and column (1-based) of an offset in a text. */
function locationAt(text: string, offset: number, source?: string): SourceLocation {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { source, line, column: offset - lineStart + 1, offset };
}

class Parser {
  #at = 0;
  readonly #text: string;
  readonly #source: string;
  readonly #origins: WeakMap<object, Origin>;

  constructor(text: string, source: string, origins: WeakMap<object, Origin>) {
    this.#text = text;
    this.#source = source;
    this.#origins = origins;
  }

  parseDocument(): JsonValue {
    const value = this.#value();
    this.#skipSpace();
    if (this.#at < this.#text.length) this.#fail('unexpected text after the JSON value');
    return value;
  }

  #fail(message: string): never {
    throw new ProtoplayError(
      'massim-config-json',
      `invalid JSON: ${message}`,
      locationAt(this.#text, this.#at, this.#source),
    );
  }

  #skipSpace(): void {
    while (this.#at < this.#text.length) {
      const c = this.#text.charCodeAt(this.#at);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.#at++;
      else break;
    }
  }

  #value(): JsonValue {
    this.#skipSpace();
    const c = this.#text[this.#at];
    if (c === '{') return this.#object();
    if (c === '[') return this.#array();
    if (c === '"') return this.#string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.#number();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.#text.startsWith(word, this.#at)) {
        this.#at += word.length;
        return value;
      }
    }
    return this.#fail(
      c === undefined ? 'unexpected end of text' : `unexpected character ${JSON.stringify(c)}`,
    );
  }

  #object(): JsonValue {
    const result: { [key: string]: JsonValue } = {};
    const origin: Origin = { source: this.#source, text: this.#text, start: this.#at, members: new Map() };
    this.#origins.set(result, origin);
    this.#at++;
    this.#skipSpace();
    if (this.#text[this.#at] === '}') {
      this.#at++;
      return result;
    }
    for (;;) {
      this.#skipSpace();
      if (this.#text[this.#at] !== '"') this.#fail('expected a quoted key');
      const keyStart = this.#at;
      const key = this.#string();
      this.#skipSpace();
      if (this.#text[this.#at] !== ':') this.#fail('expected ":" after a key');
      this.#at++;
      origin.members.set(key, keyStart);
      result[key] = this.#value();
      this.#skipSpace();
      const next = this.#text[this.#at++];
      if (next === '}') return result;
      if (next !== ',') {
        this.#at--;
        this.#fail('expected "," or "}"');
      }
    }
  }

  #array(): JsonValue {
    const result: JsonValue[] = [];
    const origin: Origin = { source: this.#source, text: this.#text, start: this.#at, members: new Map() };
    this.#origins.set(result, origin);
    this.#at++;
    this.#skipSpace();
    if (this.#text[this.#at] === ']') {
      this.#at++;
      return result;
    }
    for (;;) {
      this.#skipSpace();
      origin.members.set(result.length, this.#at);
      result.push(this.#value());
      this.#skipSpace();
      const next = this.#text[this.#at++];
      if (next === ']') return result;
      if (next !== ',') {
        this.#at--;
        this.#fail('expected "," or "]"');
      }
    }
  }

  #string(): string {
    const start = this.#at;
    this.#at++;
    for (;;) {
      const c = this.#text[this.#at];
      if (c === undefined) this.#fail('unterminated string');
      if (c === '"') break;
      if (c === '\\') this.#at++;
      else if (c.charCodeAt(0) < 32) this.#fail('control character in a string');
      this.#at++;
    }
    this.#at++;
    try {
      return JSON.parse(this.#text.slice(start, this.#at)) as string;
    } catch {
      this.#at = start;
      return this.#fail('invalid escape in a string');
    }
  }

  #number(): number {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(
      this.#text.slice(this.#at, this.#at + 64),
    );
    if (!match) this.#fail('invalid number');
    this.#at += match[0].length;
    return Number(match[0]);
  }
}
