/**
 * The neutral memo of recent readings: a reading goes back only to the very record it was read from,
 * unchanged since; the readings kept never outnumber the slots.
 */
import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../../src/core/transcript/model';
import { RecentReadings } from '../../../src/core/transcript/recent-readings';

function record(index: number, text: string, extra: Partial<TranscriptMessage> = {}): TranscriptMessage {
  return { index, t: index, conn: 'c', dir: 's2c', kind: 'data', text, ...extra };
}

/** A memo whose readings count the reads: reading n is the n-th read. */
function counting(capacity: number) {
  const memo = new RecentReadings<{ n: number; text: string | undefined }>(capacity);
  let reads = 0;
  const read = (message: TranscriptMessage) => memo.read(message, (m) => ({ n: ++reads, text: m.text }));
  return { memo, read, reads: () => reads };
}

describe('RecentReadings', () => {
  it('reads a record once while it is kept', () => {
    const { read, reads } = counting(8);
    const message = record(3, 'a');
    const first = read(message);
    expect(read(message)).toBe(first);
    expect(reads()).toBe(1);
  });

  it('reads a twin record, a record sharing the slot, and a changed record afresh', () => {
    const { read, reads } = counting(8);
    const message = record(3, 'a');
    const first = read(message);
    expect(read(record(3, 'a'))).not.toBe(first);
    expect(read(record(11, 'a')).n).toBe(3);
    // The slot now holds index 11: the first record is read again.
    expect(read(message).n).toBe(4);
    const changes: ((m: TranscriptMessage) => void)[] = [
      (m) => (m.text = 'b'),
      (m) => (m.dir = 'c2s'),
      (m) => (m.kind = 'close'),
      (m) => (m.framing = 'none'),
      (m) => (m.base64 = 'AA=='),
      (m) => (m.http = { exchange: 1, status: 200, headers: {} }),
      (m) => (m.http!.headers = { 'content-type': 'text/plain' }),
    ];
    let before = reads();
    for (const change of changes) {
      change(message);
      const now = read(message);
      expect(now.n).toBe(++before);
      expect(read(message)).toBe(now);
    }
    expect(read(message).text).toBe('b');
  });

  it('keeps at most its capacity, the latest in their slots', () => {
    const { memo, read, reads } = counting(16);
    const records = Array.from({ length: 40 }, (_, i) => record(i, `m${i}`));
    for (const message of records) read(message);
    expect(memo.size).toBe(16);
    for (const message of records.slice(24)) read(message);
    expect(reads()).toBe(40);
    read(records[0]!);
    expect(reads()).toBe(41);
    memo.clear();
    expect(memo.size).toBe(0);
  });

  it('asks for a power of two', () => {
    expect(() => new RecentReadings(12)).toThrow(RangeError);
    expect(() => new RecentReadings(0)).toThrow(RangeError);
    expect(new RecentReadings(4096).capacity).toBe(4096);
  });
});
