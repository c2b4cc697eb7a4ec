/**
 * What every protocol's replay shares: the JSON differ (the first differing member, in the recorded key
 * order, with both values) and the comparison of a conversation (counts, the first difference located).
 */
import { describe, expect, it } from 'vitest';
import {
  compareConversation,
  firstJsonDifference,
  mergeComparisons,
} from '../../../src/core/protocols/replay';
import type { TranscriptMessage } from '../../../src/core/transcript/model';

const message = (index: number, text: string, status?: number): TranscriptMessage => ({
  index,
  conn: 'c',
  dir: 's2c',
  t: 0,
  kind: 'data',
  text,
  ...(status !== undefined ? { http: { exchange: index - 1, status } } : {}),
});

describe('firstJsonDifference', () => {
  it('finds nothing in equal values, whatever the key order', () => {
    expect(firstJsonDifference({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBeUndefined();
  });

  it('names the path of the first differing member, and both values', () => {
    expect(firstJsonDifference({ a: { b: [1, 2, 3] } }, { a: { b: [1, 5, 3] } })).toEqual({
      path: '$.a.b[1]',
      recorded: 2,
      emulated: 5,
    });
    expect(firstJsonDifference({ 'odd key': 1 }, { 'odd key': 2 })?.path).toBe('$["odd key"]');
  });

  it('says which side lacks a member or an element', () => {
    expect(firstJsonDifference({ a: 1 }, { a: 1, b: 2 })).toEqual({
      path: '$.b',
      recorded: undefined,
      emulated: 2,
    });
    expect(firstJsonDifference([1, 2], [1])).toEqual({ path: '$[1]', recorded: 2, emulated: undefined });
    expect(firstJsonDifference({ a: [] }, { a: {} })).toEqual({ path: '$.a', recorded: [], emulated: {} });
  });

  it('leaves out the keys it is told to', () => {
    const clock = (key: string) => key === 'time';
    expect(firstJsonDifference({ time: 1, v: 2 }, { time: 9, v: 2 }, clock)).toBeUndefined();
    expect(firstJsonDifference({ time: 1, v: 2 }, { time: 9, v: 3 }, clock)?.path).toBe('$.v');
  });
});

describe('compareConversation', () => {
  it('counts the positions that differ and locates the first one', () => {
    const recorded = [
      message(1, '{"a":1}'),
      message(3, '{"a":2}'),
      message(5, 'plain'),
      message(7, '{"a":4}'),
    ];
    const result = compareConversation(
      recorded,
      [{ text: '{ "a": 1 }' }, { text: '{"a":3}' }, { text: 'other' }],
      { conn: 'c' },
    );
    expect(result.compared).toBe(4);
    expect(result.differing).toBe(3);
    expect(result.first).toMatchObject({
      recordedIndex: 3,
      position: 1,
      path: '$.a',
      recorded: '2',
      emulated: '3',
      recordedText: '{"a":2}',
      emulatedText: '{"a":3}',
    });
  });

  it('compares an HTTP status before the body; a message only the emulator sent is a difference', () => {
    const status = compareConversation([message(2, '{}', 200)], [{ text: '{}', status: 500 }], { conn: 'c' });
    expect(status.first).toMatchObject({ path: 'status', recorded: '200', emulated: '500' });
    const extra = compareConversation([], [{ text: 'more' }], { conn: 'c' });
    expect(extra).toMatchObject({
      compared: 0,
      differing: 1,
      first: { recordedIndex: undefined, emulated: 'more' },
    });
  });

  it('merges conversations keeping the earliest recorded difference', () => {
    const a = compareConversation([message(9, '1')], [{ text: '2' }], { conn: 'a' });
    const b = compareConversation([message(4, '1')], [{ text: '3' }], { conn: 'b' });
    const merged = mergeComparisons([a, b]);
    expect(merged).toMatchObject({ compared: 2, differing: 2, first: { recordedIndex: 4, conn: 'c' } });
  });
});
