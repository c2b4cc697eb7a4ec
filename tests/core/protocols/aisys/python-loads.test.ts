/**
 * Request bodies read as Python's `json.loads` reads the bytes Flask hands it (expected values printed by
 * python3 3.11).
 */
import { describe, expect, it } from 'vitest';
import {
  fromPythonJson,
  hasLongDigitRun,
  pythonBodyText,
  pythonBytesText,
  pythonJsonLoads,
  pythonReprOf,
} from '../../../../src/core/protocols/aisys/python-loads';

/** What `repr(json.loads(text))` prints, or undefined where it raises. */
const repr = (text: string) => {
  const loaded = pythonJsonLoads(text);
  return loaded.ok ? pythonReprOf(loaded.value) : loaded.error;
};

/** The value json.loads gives (it must give one). */
const loads = (text: string) => {
  const loaded = pythonJsonLoads(text);
  if (!loaded.ok) throw new Error(`json.loads raised ${loaded.error}`);
  return loaded.value;
};

describe("Python's json.loads", () => {
  it('keeps ints exact and floats floats, and reads NaN and Infinity', () => {
    expect(repr('[1, 1.0, 1e5, 100000.0, 1e16, 1E400, -0.0, -0, 12345678901234567890]')).toBe(
      '[1, 1.0, 100000.0, 100000.0, 1e+16, inf, -0.0, 0, 12345678901234567890]',
    );
    expect(repr('[NaN, Infinity, -Infinity, 1.5e-7, 0.0001]')).toBe('[nan, inf, -inf, 1.5e-07, 0.0001]');
  });

  it('keeps the order keys were written in, a repeated key in its first place with its last value', () => {
    expect(repr('{"b": 1, "1": [], "b": {"x": null, "y": true}}')).toBe(
      "{'b': {'x': None, 'y': True}, '1': []}",
    );
  });

  it('refuses what json.loads refuses', () => {
    for (const text of ['', '[1,]', '{"a" 1}', '01', '1.', '-', 'nan', '"\u0001"', '"\\x"', '[1] 2', "'a'"])
      expect(repr(text)).toBe('ValueError');
    expect(loads(`-${'1'.repeat(4300)}`)).toBe(-BigInt('1'.repeat(4300)));
    expect(repr('1'.repeat(4301))).toBe('ValueError');
    expect(repr(`${'1'.repeat(4301)}.5`)).toBe('inf');
  });

  it('gives up on a body nested past its limit as Python does, with a RecursionError', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(pythonJsonLoads(nested(2000)).ok).toBe(true);
    expect(pythonJsonLoads(`{"a":${nested(2000)}}`).ok).toBe(false);
    expect(pythonJsonLoads(nested(2001))).toEqual({
      ok: false,
      error: 'RecursionError',
      message: 'maximum recursion depth exceeded while decoding a JSON array from a unicode string',
    });
  });

  it('reads strings with their escapes, a lone surrogate kept', () => {
    expect(loads('"a\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud800 é"')).toBe('a"\\/\b\f\n\r\té\ud800 é');
  });

  it('gives JSON.parse values back, __proto__ as an own key', () => {
    const text = '{"__proto__": [1.0, 2], "a": {"b": 12345678901234567890}}';
    expect(fromPythonJson(loads(text))).toEqual(JSON.parse(text));
    expect(Object.keys(fromPythonJson(loads(text)) as object)).toEqual(['__proto__', 'a']);
  });

  it('tells a run of more than 4,300 digits', () => {
    expect(hasLongDigitRun(`"${'1'.repeat(4300)}"`)).toBe(false);
    expect(hasLongDigitRun(`[${'1'.repeat(4301)}]`)).toBe(true);
  });
});

describe('the text json.loads decodes from the body', () => {
  const utf16le = (text: string) => String.fromCharCode(...[...text].flatMap((c) => [c.charCodeAt(0), 0]));
  const utf32be = (text: string) =>
    String.fromCharCode(...[...text].flatMap((c) => [0, 0, 0, c.charCodeAt(0)]));

  it('takes off a UTF-8 byte order mark, once', () => {
    expect(pythonBodyText('\ufeff{}')).toBe('{}');
    expect(pythonBodyText('\ufeff\ufeff{}')).toBe('\ufeff{}');
  });

  it('decodes UTF-16 and UTF-32 told by their NUL bytes', () => {
    expect(pythonBodyText(utf16le('{"a": 1}'))).toBe('{"a": 1}');
    expect(pythonBodyText(utf32be('[1]'))).toBe('[1]');
    expect(pythonBodyText('1\0')).toBe('1');
    expect(pythonBodyText(`${utf16le('[1]')} `)).toBeUndefined();
    // A UTF-32 unit past U+10FFFF does not decode.
    expect(pythonBodyText('\0\0\0[\0\u0011\0\0')).toBeUndefined();
  });

  it('leaves UTF-8 text, and text whose bytes are lost, as it is', () => {
    expect(pythonBodyText('{"é": 1}')).toBe('{"é": 1}');
    expect(pythonBodyText('é\0\0\0')).toBe('é\0\0\0');
    expect(pythonBodyText('\0{\ufffd\0')).toBe('\0{\ufffd\0');
  });
});

describe('the text json.loads decodes from bytes that are not UTF-8', () => {
  const bytes = (...values: number[]) => new Uint8Array(values);
  const units16 = (text: string, littleEndian: boolean) =>
    [...text].flatMap((c) => {
      const unit = c.charCodeAt(0);
      return littleEndian ? [unit & 0xff, unit >> 8] : [unit >> 8, unit & 0xff];
    });

  it('reads UTF-16 and UTF-32 by their byte order marks, which it leaves out', () => {
    // b'\xff\xfe[\x00\xe9\x00]\x00'.decode('utf-16') == '[é]'
    expect(pythonBytesText(bytes(0xff, 0xfe, ...units16('[é]', true)))).toBe('[é]');
    expect(pythonBytesText(bytes(0xfe, 0xff, ...units16('[é]', false)))).toBe('[é]');
    // b'\xff\xfe\x00\x00' is UTF-32's mark (little-endian), not UTF-16's followed by a NUL.
    expect(pythonBytesText(bytes(0xff, 0xfe, 0, 0, 0x31, 0, 0, 0))).toBe('1');
    expect(pythonBytesText(bytes(0, 0, 0xfe, 0xff, 0, 0, 0, 0x31))).toBe('1');
    // A mark then an odd number of bytes: 'utf-16' codec, truncated data.
    expect(pythonBytesText(bytes(0xff, 0xfe, 0x31))).toBeUndefined();
  });

  it('reads UTF-16 without a mark from its NUL bytes, whatever its characters', () => {
    // é is E9 00 in UTF-16LE: not UTF-8, read as Python reads it.
    expect(pythonBytesText(bytes(...units16('["é"]', true)))).toBe('["é"]');
  });

  it('refuses bytes no encoding reads, and lets an encoded surrogate pass as Python does', () => {
    expect(pythonBytesText(bytes(0x7b, 0x22, 0xff, 0x22, 0x7d))).toBeUndefined();
    // Cut short, overlong, past U+10FFFF.
    expect(pythonBytesText(bytes(0x5b, 0xc3))).toBeUndefined();
    expect(pythonBytesText(bytes(0x5b, 0xe0, 0x80, 0xaf))).toBeUndefined();
    expect(pythonBytesText(bytes(0x5b, 0xf4, 0x90, 0x80, 0x80))).toBeUndefined();
    // b'"\xed\xa0\x80"'.decode('utf-8', 'surrogatepass') == '"\ud800"'
    expect(pythonBytesText(bytes(0x22, 0xed, 0xa0, 0x80, 0x22))).toBe('"\ud800"');
    // A UTF-8 mark is left out; the text after it is UTF-8.
    expect(pythonBytesText(bytes(0xef, 0xbb, 0xbf, 0x5b, 0xc3, 0xa9, 0x5d))).toBe('[é]');
    expect(pythonBytesText(bytes(0x5b, 0xf0, 0x9f, 0x98, 0x80, 0x5d))).toBe('[\u{1f600}]');
  });
});
