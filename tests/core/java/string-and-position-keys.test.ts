import { describe, expect, it } from 'vitest';
import {
  javaHashOrder,
  javaPositionHash,
  javaStringHashCode,
  javaStringKeyOrder,
} from '../../../src/core/java/hash-map-order';

// Expected values printed by a Java 17 program (String.hashCode, HashMap.keySet) for the same inputs.
describe('Java hash-map order', () => {
  it('computes String.hashCode, overflow included', () => {
    expect(javaStringHashCode('default')).toBe(1544803905);
    expect(javaStringHashCode('worker')).toBe(-782085250);
    expect(javaStringHashCode('explorer')).toBe(-1928898497);
    expect(javaStringHashCode('A')).toBe(65);
    expect(javaStringHashCode('hello')).toBe(99162322);
  });

  it('orders keys by bucket, colliding keys by insertion', () => {
    expect(javaStringKeyOrder(['worker', 'constructor', 'explorer', 'digger', 'default'])).toEqual([
      'default',
      'constructor',
      'explorer',
      'worker',
      'digger',
    ]);
    expect(javaStringKeyOrder(['BB', 'Aa', 'Team Zebra', 'alpha'])).toEqual([
      'BB',
      'Aa',
      'Team Zebra',
      'alpha',
    ]);
  });

  it('follows the table growing beyond 12 keys', () => {
    const keys = Array.from({ length: 20 }, (_, i) => `r${i}`);
    expect(javaStringKeyOrder(keys)).toEqual(
      'r2 r3 r4 r5 r6 r7 r8 r9 r10 r12 r11 r14 r13 r16 r15 r18 r17 r19 r0 r1'.split(' '),
    );
  });

  it('hashes and orders grid positions like Objects.hash(x, y) keys', () => {
    expect([javaPositionHash(3, 7), javaPositionHash(-2, 40), javaPositionHash(69, 69)]).toEqual([
      1061, 939, 3169,
    ]);
    const positions: [number, number][] = [
      [10, 3],
      [2, 2],
      [5, 9],
      [0, 0],
      [7, 1],
      [3, 30],
    ];
    expect(javaHashOrder(positions, ([x, y]) => javaPositionHash(x, y))).toEqual([
      [2, 2],
      [0, 0],
      [5, 9],
      [10, 3],
      [7, 1],
      [3, 30],
    ]);
  });
});
