/**
 * A request body read as the real server reads it: Flask's `request.get_json()` hands the body's bytes to
 * Python's `json.loads`, which
 *
 * - picks the encoding from the first bytes: a UTF-8 byte order mark is skipped, NUL bytes among the first
 *   two mean UTF-16 or UTF-32 (big- or little-endian), anything else is UTF-8;
 * - reads `NaN`, `Infinity` and `-Infinity` as floats;
 * - keeps every digit of an integer, and refuses one of more than 4,300 digits (Python's limit on
 *   converting text to int: a `ValueError`, so a 400);
 * - makes a float of any number written with a point or an exponent (`1.0`, `1e5`), which `repr()` then
 *   prints as a float (`1.0`, `100000.0`, `1e+300`);
 * - keeps an object's keys in the order written (a repeated key keeps its first place and its last value).
 *
 * `JSON.parse` reads what clients send the same way, so it stays the fast path; this reading is for the
 * rest: a body `JSON.parse` refuses, and the fields whose value it cannot tell exactly (a huge integer, or
 * an integral float). The transport hands the body over as UTF-8 text, and its bytes too when they are
 * not UTF-8 (`HttpMessage.bytes`): a body that is UTF-8 is read from its text (`pythonBodyText`), any
 * other from its bytes (`pythonBytesText`), so bodies in UTF-16 or UTF-32, with a byte order mark or
 * without, and bytes that no encoding reads (a 400), go as on the real server.
 */
import { pythonFloatRepr, pythonStringRepr } from '../../envs/aisys/python';
import type { JsonValue } from '../../envs/aisys/api';
import { PythonFloat } from './python-json';

/** A JSON value as Python holds it: ints keep their digits, floats say they are floats, dicts their order. */
export type PythonJson = null | boolean | string | bigint | PythonFloat | PythonJson[] | PythonDict;

/** A Python dict read from JSON: keys in the order first written. */
export type PythonDict = Map<string, PythonJson>;

/** Python's limit on the digits of an int read from text (`sys.int_info.default_max_str_digits`). */
export const PYTHON_INT_MAX_DIGITS = 4300;

/**
 * Deeper than this, the reading gives up as Python does, with a `RecursionError`. Python's own limit is
 * lower (its recursion limit, 1,000, less what the server's stack already holds: about 970 levels on the
 * dev server), but where it falls depends on how the server runs; 2,000 is past it anywhere, and within
 * what JavaScript's stack holds.
 */
const MAX_DEPTH = 2_000;

/**
 * The text `json.loads` reads from a body received as UTF-8 text: without its UTF-8 byte order mark,
 * decoded from UTF-16 or UTF-32 when the first bytes say so; undefined when Python cannot decode it (a
 * `UnicodeDecodeError`, a 400).
 */
export function pythonBodyText(body: string): string | undefined {
  const first = body.charCodeAt(0);
  // What every client sends: an ASCII character other than NUL, then anything but a NUL.
  if (first > 0 && first < 0x80 && body.charCodeAt(1) !== 0) return body;
  if (first === 0xfeff) return body.slice(1);
  const bytes = new TextEncoder().encode(body);
  const encoding = detectEncoding(bytes);
  // Where the UTF-8 reading replaced bytes, they are lost: the text is what there is.
  if (encoding === 'utf-8' || body.includes('\ufffd')) return body;
  return decodeUnits(bytes, encoding);
}

/**
 * The text `json.loads` reads from a body's bytes (`json.detect_encoding`, then decoding with
 * `errors='surrogatepass'`): a byte order mark of UTF-32, UTF-16 or UTF-8 says the encoding and is left
 * out; else NUL bytes among the first two mean UTF-16 or UTF-32; else UTF-8. Undefined when the bytes do
 * not decode (a `UnicodeDecodeError`, which Flask answers with a 400).
 */
export function pythonBytesText(bytes: Uint8Array): string | undefined {
  const [b0, b1, b2, b3] = bytes;
  if (bytes.length >= 4 && b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff)
    return decodeUnits(bytes.subarray(4), 'utf-32-be');
  if (bytes.length >= 4 && b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0)
    return decodeUnits(bytes.subarray(4), 'utf-32-le');
  if (b0 === 0xfe && b1 === 0xff) return decodeUnits(bytes.subarray(2), 'utf-16-be');
  if (b0 === 0xff && b1 === 0xfe) return decodeUnits(bytes.subarray(2), 'utf-16-le');
  if (b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf) return decodeUtf8(bytes.subarray(3));
  const encoding = detectEncoding(bytes);
  return encoding === 'utf-8' ? decodeUtf8(bytes) : decodeUnits(bytes, encoding);
}

/**
 * UTF-8 decoded as Python decodes it with `errors='surrogatepass'`: strictly (no overlong form, nothing
 * past U+10FFFF, no sequence cut short), but an encoded surrogate (ED A0 80 to ED BF BF) passes.
 */
function decodeUtf8(bytes: Uint8Array): string | undefined {
  let text = '';
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      text += String.fromCharCode(lead);
      i++;
      continue;
    }
    const length =
      lead >= 0xc2 && lead <= 0xdf
        ? 2
        : lead >= 0xe0 && lead <= 0xef
          ? 3
          : lead >= 0xf0 && lead <= 0xf4
            ? 4
            : 0;
    if (length === 0 || i + length > bytes.length) return undefined;
    let point = lead & (0x7f >> length);
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k]!;
      if ((next & 0xc0) !== 0x80) return undefined;
      point = (point << 6) | (next & 0x3f);
    }
    // Overlong three- and four-byte forms, and code points past U+10FFFF.
    if ((length === 3 && point < 0x800) || (length === 4 && (point < 0x10000 || point > 0x10ffff)))
      return undefined;
    text += String.fromCodePoint(point);
    i += length;
  }
  return text;
}

type WideEncoding = 'utf-16-be' | 'utf-16-le' | 'utf-32-be' | 'utf-32-le';

/**
 * Python's `json.detect_encoding` for bytes without a byte order mark (taken off before, or impossible in
 * bytes that are valid UTF-8).
 */
function detectEncoding(b: Uint8Array): WideEncoding | 'utf-8' {
  if (b.length >= 4) {
    if (!b[0]) return b[1] ? 'utf-16-be' : 'utf-32-be';
    if (!b[1]) return b[2] || b[3] ? 'utf-16-le' : 'utf-32-le';
  } else if (b.length === 2) {
    if (!b[0]) return 'utf-16-be';
    if (!b[1]) return 'utf-16-le';
  }
  return 'utf-8';
}

/**
 * Bytes decoded as Python decodes them with `errors='surrogatepass'`: a lone surrogate passes, a length
 * that is not a whole number of units or a code point past U+10FFFF does not (undefined).
 */
function decodeUnits(bytes: Uint8Array, encoding: WideEncoding): string | undefined {
  const size = encoding.startsWith('utf-16') ? 2 : 4;
  if (bytes.length % size !== 0) return undefined;
  const bigEndian = encoding.endsWith('be');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let text = '';
  for (let i = 0; i < bytes.length; i += size) {
    if (size === 2) {
      text += String.fromCharCode(view.getUint16(i, !bigEndian));
      continue;
    }
    const point = view.getUint32(i, !bigEndian);
    if (point > 0x10ffff) return undefined;
    text += String.fromCodePoint(point);
  }
  return text;
}

/** Whether the text has a run of more digits than Python reads as one int (only then can it matter). */
export function hasLongDigitRun(text: string): boolean {
  if (text.length <= PYTHON_INT_MAX_DIGITS) return false;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) {
      if (++run > PYTHON_INT_MAX_DIGITS) return true;
    } else run = 0;
  }
  return false;
}

/**
 * The message of the `RecursionError` Python's reading raises for a body nested deeper than it reads, or
 * undefined; what a body that JSON.parse read needs checked (only a long one can be that deep).
 */
export function tooDeepForPython(text: string): string | undefined {
  if (text.length <= MAX_DEPTH) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') {
      if (++depth > MAX_DEPTH) return recursionMessage(char);
    } else if (char === ']' || char === '}') depth--;
  }
  return undefined;
}

function recursionMessage(opening: string): string {
  const kind = opening === '{' ? 'object' : 'array';
  return `maximum recursion depth exceeded while decoding a JSON ${kind} from a unicode string`;
}

/** A problem that makes `json.loads` raise a `ValueError`: its text is not kept (the server answers 400). */
class Unreadable extends Error {}

/** Nesting past `MAX_DEPTH`: Python's `RecursionError`, which the server does not catch. */
class TooDeep extends Error {}

/**
 * What Python's `json.loads(text)` gives: the value, or the exception it raises: a `ValueError` (the
 * server answers 400), or a `RecursionError` with its message (the server crashes: a 500).
 */
export type PythonLoads =
  | { ok: true; value: PythonJson }
  | { ok: false; error: 'ValueError' }
  | { ok: false; error: 'RecursionError'; message: string };

/** Python's `json.loads(text)`. */
export function pythonJsonLoads(text: string): PythonLoads {
  try {
    const reader = new Reader(text);
    reader.skipSpace();
    const value = reader.value(0);
    reader.skipSpace();
    return reader.atEnd() ? { ok: true, value } : { ok: false, error: 'ValueError' };
  } catch (error) {
    if (error instanceof Unreadable) return { ok: false, error: 'ValueError' };
    if (error instanceof TooDeep) return { ok: false, error: 'RecursionError', message: error.message };
    throw error;
  }
}

/** The number grammar of Python's JSON scanner (JSON's own): an int part, then maybe a fraction and an exponent. */
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** A recursive-descent reading of one JSON text as Python's scanner reads it. */
class Reader {
  #at = 0;

  constructor(readonly text: string) {}

  atEnd(): boolean {
    return this.#at === this.text.length;
  }

  skipSpace(): void {
    const { text } = this;
    while (this.#at < text.length) {
      const char = text[this.#at];
      if (char !== ' ' && char !== '\t' && char !== '\n' && char !== '\r') return;
      this.#at++;
    }
  }

  value(depth: number): PythonJson {
    const { text } = this;
    const char = text[this.#at];
    if (depth >= MAX_DEPTH && (char === '{' || char === '[')) throw new TooDeep(recursionMessage(char));
    switch (char) {
      case '"':
        return this.#string();
      case '{':
        return this.#object(depth);
      case '[':
        return this.#array(depth);
    }
    for (const [word, value] of WORDS) {
      if (text.startsWith(word, this.#at)) {
        this.#at += word.length;
        return value;
      }
    }
    return this.#number();
  }

  #number(): bigint | PythonFloat {
    NUMBER.lastIndex = this.#at;
    const match = NUMBER.exec(this.text);
    if (!match) throw new Unreadable('expecting value');
    this.#at += match[0].length;
    if (match[1] === undefined && match[2] === undefined) {
      const digits = match[0].startsWith('-') ? match[0].length - 1 : match[0].length;
      if (digits > PYTHON_INT_MAX_DIGITS)
        throw new Unreadable('exceeds the limit for integer string conversion');
      return BigInt(match[0]);
    }
    return new PythonFloat(Number(match[0]));
  }

  #string(): string {
    const { text } = this;
    this.#at++;
    let out = '';
    let start = this.#at;
    for (;;) {
      if (this.#at >= text.length) throw new Unreadable('unterminated string');
      const code = text.charCodeAt(this.#at);
      if (code === 0x22) {
        out += text.slice(start, this.#at++);
        return out;
      }
      if (code < 0x20) throw new Unreadable('invalid control character');
      if (code !== 0x5c) {
        this.#at++;
        continue;
      }
      out += text.slice(start, this.#at);
      const escape = text[this.#at + 1];
      if (escape === 'u') {
        const hex = text.slice(this.#at + 2, this.#at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Unreadable('invalid \\uXXXX escape');
        out += String.fromCharCode(parseInt(hex, 16));
        this.#at += 6;
      } else {
        const replaced = escape === undefined ? undefined : ESCAPES[escape];
        if (replaced === undefined) throw new Unreadable('invalid escape');
        out += replaced;
        this.#at += 2;
      }
      start = this.#at;
    }
  }

  #object(depth: number): PythonDict {
    const { text } = this;
    const dict: PythonDict = new Map();
    this.#at++;
    this.skipSpace();
    if (text[this.#at] === '}') {
      this.#at++;
      return dict;
    }
    for (;;) {
      if (text[this.#at] !== '"') throw new Unreadable('expecting property name');
      const key = this.#string();
      this.skipSpace();
      if (text[this.#at] !== ':') throw new Unreadable("expecting ':'");
      this.#at++;
      this.skipSpace();
      dict.set(key, this.value(depth + 1));
      this.skipSpace();
      const next = text[this.#at++];
      if (next === '}') return dict;
      if (next !== ',') throw new Unreadable("expecting ',' delimiter");
      this.skipSpace();
    }
  }

  #array(depth: number): PythonJson[] {
    const { text } = this;
    const list: PythonJson[] = [];
    this.#at++;
    this.skipSpace();
    if (text[this.#at] === ']') {
      this.#at++;
      return list;
    }
    for (;;) {
      list.push(this.value(depth + 1));
      this.skipSpace();
      const next = text[this.#at++];
      if (next === ']') return list;
      if (next !== ',') throw new Unreadable("expecting ',' delimiter");
      this.skipSpace();
    }
  }
}

/** The words Python's scanner reads, in the order it tries them. */
const WORDS: readonly (readonly [string, PythonJson])[] = [
  ['null', null],
  ['true', true],
  ['false', false],
  ['NaN', new PythonFloat(NaN)],
  ['Infinity', new PythonFloat(Infinity)],
  ['-Infinity', new PythonFloat(-Infinity)],
];

/** The value as `JSON.parse` gives values: numbers as JavaScript numbers, dicts as plain objects. */
export function fromPythonJson(value: PythonJson): JsonValue {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof PythonFloat) return value.value;
  if (Array.isArray(value)) return value.map(fromPythonJson);
  if (value instanceof Map) {
    const object: Record<string, JsonValue> = {};
    for (const [key, item] of value) {
      // As JSON.parse makes it: an own property, even for `__proto__`.
      Object.defineProperty(object, key, {
        value: fromPythonJson(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return object;
  }
  return value;
}

/**
 * A value `JSON.parse` read, as Python would hold it had each number been written as JavaScript writes it
 * (integral: an int; else a float); for a caller that has no text to read.
 */
export function pythonJsonOf(value: JsonValue): PythonJson {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : new PythonFloat(value);
  if (Array.isArray(value)) return value.map(pythonJsonOf);
  if (value !== null && typeof value === 'object')
    return new Map(Object.entries(value).map(([key, item]) => [key, pythonJsonOf(item)]));
  return value;
}

/** Python's `repr()` of the value: `1.0`, `1e+300`, `nan`, `12345678901234567890`, `{'b': 1, 'a': [2.0]}`. */
export function pythonReprOf(value: PythonJson): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof PythonFloat) return pythonFloatRepr(value.value);
  if (typeof value === 'string') return pythonStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonReprOf).join(', ')}]`;
  const items = [...value].map(([key, item]) => `${pythonStringRepr(key)}: ${pythonReprOf(item)}`);
  return `{${items.join(', ')}}`;
}
