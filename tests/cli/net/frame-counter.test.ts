/**
 * Counting the message in progress of a terminated byte stream: what lets the TCP server refuse a message
 * it would otherwise hold whole.
 */
import { describe, expect, it } from 'vitest';
import { describeByteCount, TerminatorCounter } from '../../../cli/net/frame-counter';

const bytes = (text: string) => new TextEncoder().encode(text.replace(/\|/g, '\0'));

describe('TerminatorCounter', () => {
  it('accepts messages up to the cap, however they are chunked', () => {
    const counter = new TerminatorCounter(0, 4);
    expect(counter.push(bytes('abcd|ab'))).toBe(true);
    expect(counter.pendingBytes).toBe(2);
    expect(counter.push(bytes('cd|'))).toBe(true);
    expect(counter.pendingBytes).toBe(0);
    expect(counter.push(bytes('a|b|cd|abcd'))).toBe(true);
    expect(counter.pendingBytes).toBe(4);
  });

  it('refuses a message longer than the cap inside one chunk or across chunks', () => {
    expect(new TerminatorCounter(0, 4).push(bytes('ab|abcde|a'))).toBe(false);
    const counter = new TerminatorCounter(0, 4);
    expect(counter.push(bytes('|abc'))).toBe(true);
    expect(counter.push(bytes('de|'))).toBe(false);
    const unterminated = new TerminatorCounter(0, 4);
    expect(unterminated.push(bytes('abc'))).toBe(true);
    expect(unterminated.push(bytes('de'))).toBe(false);
  });
});

describe('describeByteCount', () => {
  it('names sizes as a log line would', () => {
    expect(describeByteCount(300)).toBe('300 bytes');
    expect(describeByteCount(65536)).toBe('64 KiB');
    expect(describeByteCount(1536)).toBe('1.5 KiB');
    expect(describeByteCount(1024 * 1024)).toBe('1 MiB');
    expect(describeByteCount(3 * 1024 * 1024 + 1)).toBe('3.0 MiB');
  });
});
