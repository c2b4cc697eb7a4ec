/**
 * JSON exactly as the Python side writes it. The server answers with Flask's `jsonify` (compact, keys sorted
 * at every level, non-ASCII escaped, a newline at the end) and reports HTTP errors with `json.dumps`
 * (`", "` and `": "` between items, keys in insertion order, no newline), which is also how the course's
 * Python clients write their requests. Integral numbers are written as Python ints; a `PythonFloat` is
 * written as Python writes a float (`1.0`), since JavaScript numbers do not say which they were.
 */
import { pythonFloatRepr, pythonIntText } from '../../envs/aisys/python';

/** A number Python holds as a float (a rating), written `1.0` rather than `1`. */
export class PythonFloat {
  constructor(readonly value: number) {}
}

interface DumpStyle {
  itemSeparator: string;
  keySeparator: string;
  sortKeys: boolean;
}

const FLASK: DumpStyle = { itemSeparator: ',', keySeparator: ':', sortKeys: true };
const DUMPS: DumpStyle = { itemSeparator: ', ', keySeparator: ': ', sortKeys: false };

/** The body Flask's `jsonify(value)` sends. */
export function flaskJson(value: unknown): string {
  return `${dump(value, FLASK)}\n`;
}

/** Python's `json.dumps(value)` with its default settings. */
export function pythonJsonDumps(value: unknown): string {
  return dump(value, DUMPS);
}

function dump(value: unknown, style: DumpStyle): string {
  if (value === null || value === undefined) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (value instanceof PythonFloat) return floatText(value.value);
  if (typeof value === 'number') return Number.isInteger(value) ? pythonIntText(value) : floatText(value);
  if (typeof value === 'string') return asciiString(value);
  if (Array.isArray(value)) return `[${value.map((item) => dump(item, style)).join(style.itemSeparator)}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  if (style.sortKeys) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const items = entries.map(([key, item]) => `${asciiString(key)}${style.keySeparator}${dump(item, style)}`);
  return `{${items.join(style.itemSeparator)}}`;
}

function floatText(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  return pythonFloatRepr(x);
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

/** A JSON string with everything outside printable ASCII escaped as `\uXXXX` (Python's `ensure_ascii`). */
function asciiString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code <= 0x7e && char !== '"' && char !== '\\') out += char;
    else out += SHORT_ESCAPES[char] ?? `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}
