import { describe, expect, it } from 'vitest';
import {
  javaHashMapLayout,
  javaHashMapOrder,
  javaStringHashCode,
} from '../../../src/core/java/hash-map-order';

const keys = (...names: string[]) => names.map((key) => ({ key, hashCode: javaStringHashCode(key) }));

describe('javaStringHashCode', () => {
  it('computes String.hashCode as Java does', () => {
    // Values from the Java documentation's formula s[0]*31^(n-1) + ... (checked by hand).
    expect(javaStringHashCode('')).toBe(0);
    expect(javaStringHashCode('a')).toBe(97);
    expect(javaStringHashCode('ab')).toBe(97 * 31 + 98);
    // The classic collision pair.
    expect(javaStringHashCode('Aa')).toBe(javaStringHashCode('BB'));
    // Overflow wraps to a negative int: "polygenelubricants".hashCode() == Integer.MIN_VALUE.
    expect(javaStringHashCode('polygenelubricants')).toBe(-2147483648);
  });
});

describe('javaHashMapOrder', () => {
  it('iterates buckets in index order', () => {
    expect(javaHashMapOrder(keys('c', 'a', 'b'))).toEqual(['a', 'b', 'c']);
  });

  it('keeps insertion order inside a bucket', () => {
    expect(javaHashMapOrder(keys('BB', 'Aa'))).toEqual(['BB', 'Aa']);
    expect(javaHashMapOrder(keys('Aa', 'BB'))).toEqual(['Aa', 'BB']);
  });

  it('splits buckets when the table grows past 12 entries', () => {
    // \u0011 (17) and \u0001 (1) share bucket 1 of 16, then go to buckets 17 and 1 of 32.
    const fillers = Array.from({ length: 11 }, (_, i) => String.fromCharCode(2 + i));
    const small = javaHashMapOrder(keys('\u0011', '\u0001', ...fillers.slice(0, 10)));
    expect(small.slice(0, 2)).toEqual(['\u0011', '\u0001']);
    const grown = javaHashMapOrder(keys('\u0011', '\u0001', ...fillers));
    expect(grown[0]).toBe('\u0001');
    expect(grown[grown.length - 1]).toBe('\u0011');
  });

  it('ignores repeated keys', () => {
    expect(javaHashMapOrder(keys('b', 'a', 'b'))).toEqual(['a', 'b']);
  });
});

describe('javaHashMapLayout', () => {
  it('orders by a table that was grown before and cleared (a cleared HashSet keeps its table)', () => {
    // \u0011 (17) and \u0001 (1) share bucket 1 of 16 but not of 32.
    expect(javaHashMapLayout(keys('\u0011', '\u0001')).keys).toEqual(['\u0011', '\u0001']);
    expect(javaHashMapLayout(keys('\u0011', '\u0001'), 32)).toEqual({
      keys: ['\u0001', '\u0011'],
      capacity: 32,
    });
  });

  it('reports the capacity the table grew to', () => {
    const many = Array.from({ length: 13 }, (_, i) => String.fromCharCode(65 + i));
    expect(javaHashMapLayout(keys(...many)).capacity).toBe(32);
    expect(javaHashMapLayout(keys(...many.slice(0, 12))).capacity).toBe(16);
  });
});
