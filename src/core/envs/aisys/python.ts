/**
 * The bits of Python that show through the course server: its environments are Python plugins, so the
 * texts agents read are built with Python's `repr()`, actions are read with Python's `int()`, and JSON
 * values are tested with Python's truthiness. JSON values arrive as `JSON.parse` gives them, so a number
 * written `1.0` reads as the integer 1 here (Python keeps it a float): the one place these differ.
 */
import type { JsonValue } from './api';

/** Python's `repr()` of a JSON value as `json.loads` gives it: `'x'`, `None`, `[1, 2]`, `{'a': True}`. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number')
    return Number.isInteger(value) ? pythonIntText(value) : pythonFloatRepr(value);
  if (typeof value === 'string') return pythonStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') {
    const items = Object.entries(value).map(([key, item]) => `${pythonStringRepr(key)}: ${pythonRepr(item)}`);
    return `{${items.join(', ')}}`;
  }
  return String(value);
}

/** An integer as Python prints it: every digit, never an exponent. */
export function pythonIntText(value: number): string {
  return Object.is(value, -0) ? '0' : BigInt(value).toString();
}

/**
 * A float as Python's `repr()` prints it: the shortest digits that read back (as JavaScript finds them),
 * always with a decimal point or an exponent, and an exponent from 1e16 up and below 1e-4 (`1e-05`).
 */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, exponentText] = x.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '');
  if (exponent >= 16 || exponent < -4) {
    const body = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const power = `${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
    return `${sign}${body}e${power}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction || '0'}`;
}

/** Characters Python's `repr()` escapes: not printable (control, format, separators other than space...). */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's `repr()` of a string: single quotes unless it holds one and no double quote; escapes as Python. */
export function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    if (char === quote || char === '\\') out += `\\${char}`;
    else if (char === '\t') out += '\\t';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char !== ' ' && NOT_PRINTABLE.test(char)) out += pythonCharEscape(char.codePointAt(0)!);
    else out += char;
  }
  return out + quote;
}

function pythonCharEscape(code: number): string {
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

/** What Python's `int(value)` does with a JSON value: a number, or the exception it raises. */
export type PythonIntResult =
  { ok: true; value: number } | { ok: false; error: 'ValueError' | 'TypeError' | 'OverflowError' };

/** Whether Python's `str.isspace()` holds for one character (JavaScript's \s and the separators 0x1c-0x1f, 0x85). */
function isPythonSpace(char: string): boolean {
  const code = char.charCodeAt(0);
  return /\s/.test(char) || (code >= 0x1c && code <= 0x1f) || code === 0x85;
}

/** Python's `str.strip()`. */
function pythonStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPythonSpace(text[start]!)) start++;
  while (end > start && isPythonSpace(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/**
 * Python's `int()` of a JSON value: booleans are 0 and 1, numbers are truncated towards zero, strings
 * are read as base-10 integer literals (surrounding whitespace, a sign and single underscores between
 * digits allowed, the decimal digits of every script: `'١٢'` is 12); anything else is a TypeError.
 */
export function pythonInt(value: unknown): PythonIntResult {
  if (typeof value === 'boolean') return { ok: true, value: value ? 1 : 0 };
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return { ok: false, error: 'ValueError' };
    if (!Number.isFinite(value)) return { ok: false, error: 'OverflowError' };
    return { ok: true, value: Math.trunc(value) + 0 };
  }
  if (typeof value === 'string') {
    const text = pythonStrip(value);
    if (!/^[+-]?\p{Nd}+(_\p{Nd}+)*$/u.test(text)) return { ok: false, error: 'ValueError' };
    const digits = [...text.replaceAll('_', '')].map((char) =>
      /\p{Nd}/u.test(char) ? String(digitValue(char)) : char,
    );
    return { ok: true, value: Number(digits.join('')) + 0 };
  }
  return { ok: false, error: 'TypeError' };
}

/**
 * The value of a decimal digit of any script. Unicode puts each script's digits 0 to 9 in a row, rows of
 * several sets one after another (the mathematical digits): the value is the distance from the start of
 * the row, modulo 10.
 */
function digitValue(char: string): number {
  let start = char.codePointAt(0)!;
  while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
  return (char.codePointAt(0)! - start) % 10;
}

/** Python's truthiness of a JSON value: `None`, `False`, `0`, `''`, `[]` and `{}` are false. */
export function pythonTruthy(value: JsonValue | undefined): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') {
    for (const key in value) if (Object.hasOwn(value, key)) return true;
    return false;
  }
  return true;
}

/** Python's `==` between two JSON values (`True == 1`, `1.0 == 1`, `'1' != 1`). */
export function pythonEquals(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  const numeric = (x: JsonValue | undefined) => (typeof x === 'boolean' ? Number(x) : x);
  const x = numeric(a);
  const y = numeric(b);
  if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return x === y;
  if (Array.isArray(x) !== Array.isArray(y)) return false;
  if (Array.isArray(x) && Array.isArray(y))
    return x.length === y.length && x.every((item, i) => pythonEquals(item, y[i]));
  const xs = x as Record<string, JsonValue>;
  const ys = y as Record<string, JsonValue>;
  const keys = Object.keys(xs);
  return (
    keys.length === Object.keys(ys).length &&
    keys.every((key) => Object.hasOwn(ys, key) && pythonEquals(xs[key], ys[key]))
  );
}
