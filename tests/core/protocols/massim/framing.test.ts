import { describe, expect, it } from 'vitest';
import { NulFrameSplitter, type SplitFrame } from '../../../../src/core/protocols/massim/framing';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (frame: SplitFrame) => new TextDecoder().decode(frame.bytes);

function splitAll(splitter: NulFrameSplitter, chunks: string[]): SplitFrame[] {
  const frames: SplitFrame[] = [];
  for (const chunk of chunks) splitter.push(bytes(chunk), (frame) => void frames.push(frame));
  return frames;
}

describe('NulFrameSplitter', () => {
  it('joins partial frames and separates pipelined ones', () => {
    const splitter = new NulFrameSplitter();
    const frames = splitAll(splitter, ['{"a"', ':1}\0{"b":2}\0{"c', '":3}\0', '{"d']);
    expect(frames.map(text)).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(frames.every((frame) => !frame.discarded)).toBe(true);
    expect(splitter.pendingBytes).toBe(3);
  });

  it('keeps empty frames (two 0 bytes in a row) as frames', () => {
    expect(splitAll(new NulFrameSplitter(), ['\0\0x\0']).map(text)).toEqual(['', '', 'x']);
  });

  it('can stop after a frame and hand back the unread bytes', () => {
    const splitter = new NulFrameSplitter();
    const seen: string[] = [];
    const rest = splitter.push(bytes('auth\0action\0tail'), (frame) => {
      seen.push(text(frame));
      return false;
    });
    expect(seen).toEqual(['auth']);
    expect(new TextDecoder().decode(rest)).toBe('action\0tail');
  });

  // Expected frames come from running the real server's receive loop (AgentManager.receive) on the
  // same bytes with maxPacketLength 5.
  it.each([
    [
      ['abcde', 'abcd', 'abcde', 'ab'],
      ['abcde', 'abcd', 'ab'],
    ],
    [['abcdef', 'a'], ['a']],
    [['abcdefghijk', 'abc', 'abcd'], []],
    [
      ['abcdefghijkl', 'abc', 'ab'],
      ['abc', 'ab'],
    ],
  ])('discards frames over maxPacketLength as the server counts them: %j', (sent, kept) => {
    for (const chunkSize of [1, 3, 1000]) {
      const wire = sent.map((frame) => `${frame}\0`).join('');
      const chunks = wire.match(new RegExp(`[^]{1,${chunkSize}}`, 'g'))!;
      const frames = splitAll(new NulFrameSplitter({ maxPacketLength: 5 }), chunks);
      expect(frames.map(text)).toEqual(sent);
      expect(frames.filter((frame) => !frame.discarded).map(text)).toEqual(kept);
    }
  });

  it('counts a whole frame given by its length as it counts the same frame pushed as bytes', () => {
    const lengths = [5, 4, 6, 0, 5, 12, 3, 4, 5, 1, 7, 4, 4];
    const pushed = new NulFrameSplitter({ maxPacketLength: 5 });
    const counted = new NulFrameSplitter({ maxPacketLength: 5 });
    const discarded: boolean[] = [];
    for (const length of lengths)
      pushed.push(bytes(`${'x'.repeat(length)}\0`), (frame) => void discarded.push(frame.discarded));
    expect(lengths.map((length) => counted.countWholeFrame(length))).toEqual(discarded);
    expect(discarded).toContain(true);
    expect(discarded).toContain(false);
    expect(new NulFrameSplitter().countWholeFrame(1_000_000)).toBe(false);
    const partial = new NulFrameSplitter();
    partial.push(bytes('{"a"'), () => undefined);
    expect(() => partial.countWholeFrame(3)).toThrow(/unterminated/);
  });
});
