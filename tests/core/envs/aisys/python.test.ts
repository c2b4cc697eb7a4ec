/**
 * Python's semantics as the course server's plugins show them, against what CPython 3.11 prints (the
 * expected values were produced by python3 itself).
 */
import { describe, expect, it } from 'vitest';
import {
  pythonEquals,
  pythonFloatRepr,
  pythonInt,
  pythonRepr,
  pythonTruthy,
} from '../../../../src/core/envs/aisys/python';

describe('pythonRepr', () => {
  it.each([
    ['x', "'x'"],
    ["it's", `"it's"`],
    ['say "hi"', `'say "hi"'`],
    [`both ' and "`, `'both \\' and "'`],
    ['tab\tnl\nbs\\', "'tab\\tnl\\nbs\\\\'"],
    ['\x00\x7f\x85', "'\\x00\\x7f\\x85'"],
    ['é€😀', "'é€😀'"],
    ['\u200b zero-width', "'\\u200b zero-width'"],
    ['\ud800', "'\\ud800'"],
  ])('writes the string %j as Python does', (text, expected) => {
    expect(pythonRepr(text)).toBe(expected);
  });

  it('writes other JSON values as Python does', () => {
    expect(pythonRepr(null)).toBe('None');
    expect(pythonRepr(true)).toBe('True');
    expect(pythonRepr(false)).toBe('False');
    expect(pythonRepr(1)).toBe('1');
    expect(pythonRepr(2.5)).toBe('2.5');
    expect(pythonRepr([1, 'a', null])).toBe("[1, 'a', None]");
    expect(pythonRepr({ a: 1, b: [true] })).toBe("{'a': 1, 'b': [True]}");
    expect(pythonRepr(1e22)).toBe('10000000000000000000000');
  });
});

describe('pythonFloatRepr', () => {
  it.each([
    [1e16, '1e+16'],
    [1e15, '1000000000000000.0'],
    [1.5e-5, '1.5e-05'],
    [0.0001, '0.0001'],
    [1e22, '1e+22'],
    [123, '123.0'],
    [-0, '-0.0'],
    [2 ** 60, '1.152921504606847e+18'],
    [1 / 3, '0.3333333333333333'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1.5e300, '1.5e+300'],
    [-0.5, '-0.5'],
  ])('writes %d as %s', (value, expected) => {
    expect(pythonFloatRepr(value)).toBe(expected);
  });
});

describe('pythonInt', () => {
  it.each([
    ['3', 3],
    [' 3 ', 3],
    ['+3', 3],
    ['-3', -3],
    ['1_0', 10],
    ['007', 7],
    ['\u20033', 3],
    ['\u0663', 3],
    ['\u0661\u0662', 12],
    ['\u096f', 9],
    ['\u{1d7d9}', 1],
  ])('reads the string %j as %d', (text, value) => {
    expect(pythonInt(text)).toEqual({ ok: true, value });
  });

  it.each(['1__0', '3.0', '0x10', '', '  ', '1e3'])('refuses the string %j with ValueError', (text) => {
    expect(pythonInt(text)).toEqual({ ok: false, error: 'ValueError' });
  });

  it('truncates numbers, reads booleans, and raises TypeError for anything else', () => {
    expect(pythonInt(2.7)).toEqual({ ok: true, value: 2 });
    expect(pythonInt(-2.7)).toEqual({ ok: true, value: -2 });
    expect(pythonInt(true)).toEqual({ ok: true, value: 1 });
    expect(pythonInt(null)).toEqual({ ok: false, error: 'TypeError' });
    expect(pythonInt([1])).toEqual({ ok: false, error: 'TypeError' });
    expect(pythonInt({})).toEqual({ ok: false, error: 'TypeError' });
  });
});

describe('truthiness and equality', () => {
  it('finds false what Python finds false', () => {
    for (const value of [null, false, 0, '', [], {}]) expect(pythonTruthy(value)).toBe(false);
    for (const value of [true, 1, -1, 'x', [0], { a: null }]) expect(pythonTruthy(value)).toBe(true);
  });

  it('compares as == does: booleans are numbers, strings are not', () => {
    expect(pythonEquals(true, 1)).toBe(true);
    expect(pythonEquals(false, 0)).toBe(true);
    expect(pythonEquals('1', 1)).toBe(false);
    expect(pythonEquals(null, 0)).toBe(false);
    expect(pythonEquals([1, { a: true }], [1, { a: 1 }])).toBe(true);
    expect(pythonEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });
});
