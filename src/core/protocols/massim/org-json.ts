/**
 * Reads client frames the way the real MASSim server does: with the org.json library (version 20231013),
 * whose grammar is wider than JSON. It accepts single-quoted strings, unquoted words (`{type: action}`),
 * `;` between members, trailing commas and `[1,,2]`, ignores text after the closing brace, but rejects
 * duplicate keys. Numbers keep the text Java would print for them, because the server echoes action
 * parameters back to the agent as `String`s (`0.50` stays `"0.50"`, `007` becomes `"7"`).
 *
 * Agents are judged by what this reader accepts: a frame `JSON.parse` takes may still kill the server's
 * receive loop (a duplicate key), and a Python agent that sends `str(dict)` still gets its action executed.
 */
import type { SourceLocation } from '../../errors';

/** A number as org.json holds it. */
export interface OrgJsonNumber {
  readonly kind: 'number';
  /** What Java's `toString()` gives for it (Integer, Long, BigInteger or BigDecimal rules). */
  readonly javaText: string;
  /** Its value as a double. */
  readonly value: number;
}

/** An object as org.json holds it (keys are unique; insertion order kept). */
export type OrgJsonObject = Map<string, OrgJsonValue>;

/** Any value org.json can produce. `null` is JSON null (org.json's `JSONObject.NULL`). */
export type OrgJsonValue = string | boolean | null | OrgJsonNumber | OrgJsonValue[] | OrgJsonObject;

/** Why a text is not an org.json object, and where. */
export interface OrgJsonError {
  /** The library's own wording, e.g. `Expected a ':' after a key`. */
  message: string;
  /** Position of the offending character (or of the end of the text). */
  location: SourceLocation;
}

/** Outcome of reading one frame. */
export type OrgJsonResult = { ok: true; value: OrgJsonObject } | { ok: false; error: OrgJsonError };

/** Objects and arrays nested deeper than this fail, as deep nesting overflows the server thread's stack. */
const maxDepth = 2000;

class OrgJsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Reads `text` as `new JSONObject(text)` does (the top level must be an object). */
export function parseOrgJson(text: string, source?: string): OrgJsonResult {
  const reader = new OrgJsonReader(text);
  try {
    return { ok: true, value: reader.readTopLevelObject() };
  } catch (error) {
    if (!(error instanceof OrgJsonSyntaxError)) throw error;
    return {
      ok: false,
      error: { message: error.message, location: locateOffset(text, error.offset, source) },
    };
  }
}

/** True for numbers (as opposed to strings, booleans, null, arrays and objects). */
export function isOrgJsonNumber(value: OrgJsonValue | undefined): value is OrgJsonNumber {
  return typeof value === 'object' && value !== null && !(value instanceof Map) && !Array.isArray(value);
}

/** `String.valueOf(value)` in Java: what the server makes of a value it reads as a string. */
export function javaString(value: OrgJsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Map) {
    const members = [...value].map(([key, member]) => `${JSON.stringify(key)}:${javaJson(member)}`);
    return `{${members.join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map(javaJson).join(',')}]`;
  return value.javaText;
}

/** The JSON text org.json writes for a nested value (strings quoted, numbers as Java prints them). */
function javaJson(value: OrgJsonValue): string {
  return typeof value === 'string' ? JSON.stringify(value) : javaString(value);
}

/**
 * `optLong(key, fallback)`: numbers are truncated toward zero, strings that read as numbers count too
 * (`"6"` is 6), anything else gives the fallback.
 */
export function javaOptLong(value: OrgJsonValue | undefined, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (isOrgJsonNumber(value)) return Math.trunc(value.value) || 0;
  if (typeof value !== 'string') return fallback;
  const number = readJavaNumber(value);
  return number ? Math.trunc(number.value) || 0 : fallback;
}

class OrgJsonReader {
  #index = 0;

  constructor(private readonly text: string) {}

  readTopLevelObject(): OrgJsonObject {
    return this.#readObject(0);
  }

  /** The next character, or '' at the end (org.json's 0 character). */
  #next(): string {
    if (this.#index >= this.text.length) {
      this.#index = this.text.length + 1;
      return '';
    }
    return this.text[this.#index++]!;
  }

  #back(): void {
    this.#index--;
  }

  #nextClean(): string {
    for (;;) {
      const c = this.#next();
      if (c === '' || c > ' ') return c;
    }
  }

  /** An error at the character just read (or at `offset`). */
  #fail(message: string, offset = this.#index - 1): never {
    throw new OrgJsonSyntaxError(message, Math.max(0, Math.min(offset, this.text.length)));
  }

  #readValue(depth: number): OrgJsonValue {
    const c = this.#nextClean();
    if (c === '{' || c === '[') {
      if (depth >= maxDepth) this.#fail('JSON Array or Object depth too large to process.');
      this.#back();
      return c === '{' ? this.#readObject(depth + 1) : this.#readArray(depth + 1);
    }
    return this.#readSimpleValue(c);
  }

  #readObject(depth: number): OrgJsonObject {
    if (this.#nextClean() !== '{') this.#fail("A JSONObject text must begin with '{'");
    const object: OrgJsonObject = new Map();
    for (;;) {
      const c = this.#nextClean();
      if (c === '') this.#fail("A JSONObject text must end with '}'");
      if (c === '}') return object;
      const key = javaString(this.#readSimpleValue(c));
      if (this.#nextClean() !== ':') this.#fail("Expected a ':' after a key");
      if (object.has(key)) this.#fail(`Duplicate key "${key}"`);
      object.set(key, this.#readValue(depth));
      const separator = this.#nextClean();
      if (separator === '}') return object;
      if (separator !== ',' && separator !== ';') this.#fail("Expected a ',' or '}'");
      const after = this.#nextClean();
      if (after === '}') return object;
      if (after === '') this.#fail("A JSONObject text must end with '}'");
      this.#back();
    }
  }

  #readArray(depth: number): OrgJsonValue[] {
    this.#nextClean(); // the '[' seen by the caller
    const array: OrgJsonValue[] = [];
    let c = this.#nextClean();
    if (c === '') this.#fail("Expected a ',' or ']'");
    if (c === ']') return array;
    this.#back();
    for (;;) {
      if (this.#nextClean() === ',') {
        this.#back();
        array.push(null);
      } else {
        this.#back();
        array.push(this.#readValue(depth));
      }
      c = this.#nextClean();
      if (c === ']') return array;
      if (c !== ',') this.#fail("Expected a ',' or ']'");
      c = this.#nextClean();
      if (c === '') this.#fail("Expected a ',' or ']'");
      if (c === ']') return array;
      this.#back();
    }
  }

  /** A quoted string, or an unquoted word read up to a delimiter and then typed like org.json does. */
  #readSimpleValue(first: string): OrgJsonValue {
    if (first === '"' || first === "'") return this.#readString(first);
    let word = '';
    let c = first;
    while (c !== '' && c >= ' ' && !',:]}/\\"[{;=#'.includes(c)) {
      word += c;
      c = this.#next();
    }
    if (c !== '') this.#back();
    word = word.trim();
    // The delimiter that ended the (empty) word is the offending character.
    if (word === '') this.#fail('Missing value', this.#index);
    return wordToValue(word);
  }

  #readString(quote: string): string {
    let result = '';
    for (;;) {
      const c = this.#next();
      if (c === '' || c === '\n' || c === '\r') this.#fail('Unterminated string');
      if (c === quote) return result;
      if (c !== '\\') {
        result += c;
        continue;
      }
      const escaped = this.#next();
      const simple = simpleEscapes[escaped];
      if (simple !== undefined) result += simple;
      else if (escaped === 'u') result += this.#readUnicodeEscape();
      else this.#fail('Illegal escape.');
    }
  }

  #readUnicodeEscape(): string {
    let digits = '';
    for (let i = 0; i < 4; i++) {
      const c = this.#next();
      if (c === '') this.#fail('Substring bounds error');
      digits += c;
    }
    // Integer.parseInt(digits, 16) accepts a sign, so "\u-001" is the character 0xFFFF.
    if (!/^[+-]?[0-9a-fA-F]+$/.test(digits)) this.#fail('Illegal escape.');
    return String.fromCharCode(parseInt(digits, 16) & 0xffff);
  }
}

const simpleEscapes: Record<string, string> = {
  b: '\b',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
  '"': '"',
  "'": "'",
  '\\': '\\',
  '/': '/',
};

/** `JSONObject.stringToValue`: keywords in any case, then numbers, else the word itself. */
function wordToValue(word: string): OrgJsonValue {
  const lower = word.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (lower === 'null') return null;
  return readJavaNumber(word) ?? word;
}

/** `JSONObject.stringToNumber` for the forms agents send; undefined where Java would not read a number. */
function readJavaNumber(word: string): OrgJsonNumber | undefined {
  const sign = word.startsWith('-') ? 1 : 0;
  const digitAt = word[sign] === '.' ? sign + 1 : sign;
  if (!/[0-9]/.test(word[digitAt] ?? '')) return undefined;
  let text = word;
  if (text.startsWith('.')) text = `0${text}`;
  else if (text.startsWith('-.')) text = `-0.${text.slice(2)}`;
  if (/[.eE]/.test(text) || text === '-0') return readBigDecimal(text);
  const integer = /^-?[0-9]+$/.exec(text);
  if (!integer) return undefined;
  const value = BigInt(text);
  return { kind: 'number', javaText: value.toString(), value: Number(value) };
}

/** `new BigDecimal(text).toString()`, and -0 as the Double -0.0 org.json substitutes for it. */
function readBigDecimal(text: string): OrgJsonNumber | undefined {
  const match = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText] = match;
  if (whole === '' && fraction === '') return undefined;
  const value = Number(text);
  if (sign === '-' && value === 0) return { kind: 'number', javaText: '-0.0', value: -0 };
  const scale = fraction.length - Number(exponentText ?? 0);
  const digits = BigInt(`${whole}${fraction}` || '0').toString();
  const adjusted = -scale + (digits.length - 1);
  let javaText: string;
  if (scale >= 0 && adjusted >= -6) {
    if (scale === 0) javaText = digits;
    else if (digits.length > scale)
      javaText = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
    else javaText = `0.${'0'.repeat(scale - digits.length)}${digits}`;
  } else {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    javaText = `${mantissa}E${adjusted >= 0 ? '+' : ''}${adjusted}`;
  }
  return { kind: 'number', javaText: sign === '-' ? `-${javaText}` : javaText, value };
}

/** Line and column (from 1) of a character offset in `text`. */
export function locateOffset(text: string, offset: number, source?: string): SourceLocation {
  const clamped = Math.min(offset, text.length);
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < clamped; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { ...(source ? { source } : {}), line, column: clamped - lineStart + 1, offset: clamped };
}
