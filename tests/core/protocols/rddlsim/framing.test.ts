import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  NulSplitter,
  ServerStreamSplitter,
  encodeFrame,
  type WireFrame,
} from '../../../../src/core/protocols/rddlsim/framing';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const bytes = (text: string) => encoder.encode(text);
const texts = (frames: WireFrame[]) => frames.map((frame) => decoder.decode(frame.bytes));

/** Feeds `data` in chunks of the given sizes (cycling), collecting every frame. */
function feed(
  splitter: { push(chunk: Uint8Array): WireFrame[] },
  data: Uint8Array,
  sizes: number[],
): WireFrame[] {
  const frames: WireFrame[] = [];
  let offset = 0;
  for (let i = 0; offset < data.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length]!);
    frames.push(...splitter.push(data.subarray(offset, offset + size)));
    offset += size;
  }
  return frames;
}

describe('NulSplitter', () => {
  it('splits pipelined messages sent in one chunk', () => {
    const frames = new NulSplitter().push(bytes('<a/>\0<b/>\0<c'));
    expect(texts(frames)).toEqual(['<a/>', '<b/>']);
    expect(frames.every((frame) => frame.framing === 'nul')).toBe(true);
  });

  it('joins a message that arrives one byte at a time', () => {
    const splitter = new NulSplitter();
    expect(texts(feed(splitter, bytes('<?xml version="1.0"?>\n<round-request/>\0'), [1]))).toEqual([
      '<?xml version="1.0"?>\n<round-request/>',
    ]);
    expect(splitter.pendingLength).toBe(0);
  });

  it('keeps every frame intact whatever is pushed later', () => {
    const splitter = new NulSplitter();
    const frames = [
      ...splitter.push(bytes('<a/>\0<b')),
      ...splitter.push(bytes('b/>\0<c/>\0<d')),
      ...splitter.push(bytes('/>\0')),
      ...splitter.push(bytes('<eeeeeeeeeeee/>\0<f/>\0')),
    ];
    expect(texts(frames)).toEqual(['<a/>', '<bb/>', '<c/>', '<d/>', '<eeeeeeeeeeee/>', '<f/>']);
  });

  it('keeps empty messages (the server parses them and fails)', () => {
    expect(texts(new NulSplitter().push(bytes('\0\0')))).toEqual(['', '']);
  });

  it('returns the unterminated rest at the end of the stream', () => {
    const splitter = new NulSplitter();
    splitter.push(bytes('<a/>\0<actions/'));
    const rest = splitter.end();
    expect(texts(rest)).toEqual(['<actions/']);
    expect(rest[0]!.framing).toBe('none');
    expect(splitter.end()).toEqual([]);
  });

  it('cuts an oversize message like the real server: max - 1 bytes, one byte lost, the rest is the next message', () => {
    const splitter = new NulSplitter({ maxMessageBytes: 8 });
    const frames = splitter.push(bytes('0123456789AB\0'));
    expect(texts(frames)).toEqual(['0123456', '89AB']);
    expect(frames[0]!.oversize).toBe(true);
    expect(frames[1]!.oversize).toBeUndefined();
  });
});

describe('ServerStreamSplitter', () => {
  it('splits NUL-terminated messages, including the literal null', () => {
    const stream = bytes('null\0<?xml version="1.0" encoding="UTF-8"?>\n<round-init/>\0');
    const frames = new ServerStreamSplitter().push(stream);
    expect(texts(frames)).toEqual(['null', '<?xml version="1.0" encoding="UTF-8"?>\n<round-init/>']);
    expect(frames.map((frame) => frame.framing)).toEqual(['nul', 'nul']);
  });

  it('finds the end of each root element in no-header mode, whatever the chunking', () => {
    const messages = [
      '<session-init><task>QUJD</task><session-id>1</session-id></session-init>',
      '<round-init><round-num>1</round-num></round-init>',
      '<turn><turn-num>1</turn-num><no-observed-fluents/></turn>',
      '<x a="1>2" b=\'/>\'><!-- </x> --><![CDATA[</x>]]><?pi </x>?><y/></x>',
      '<empty/>',
      '<c><!----->x<![CDATA[]]]]>y</c>',
    ];
    for (const sizes of [[1], [3, 7], [1000]]) {
      const frames = feed(new ServerStreamSplitter(), bytes(messages.join('')), sizes);
      expect(texts(frames)).toEqual(messages);
      expect(frames.every((frame) => frame.framing === 'none')).toBe(true);
    }
  });

  it('follows a server switching to no-header mode mid-stream (the flag is global to the process)', () => {
    const frames = new ServerStreamSplitter().push(
      bytes('<?xml version="1.0" encoding="UTF-8"?>\n<round-end/>\0<session-end><a/></session-end>'),
    );
    expect(frames.map((frame) => [decoder.decode(frame.bytes), frame.framing])).toEqual([
      ['<?xml version="1.0" encoding="UTF-8"?>\n<round-end/>', 'nul'],
      ['<session-end><a/></session-end>', 'none'],
    ]);
  });

  it('ends a no-header message at a NUL that comes before its root closes, whatever the chunking', () => {
    const stream = bytes('<turn><turn-num>1\0<round-end><a/></round-end><x><!-- \0 -->\0<y/>');
    for (const sizes of [[1], [3, 7], [1000]]) {
      const frames = feed(new ServerStreamSplitter(), stream, sizes);
      expect(frames.map((frame) => [decoder.decode(frame.bytes), frame.framing])).toEqual([
        ['<turn><turn-num>1', 'nul'],
        ['<round-end><a/></round-end>', 'none'],
        ['<x><!-- ', 'nul'],
        [' -->', 'nul'],
        ['<y/>', 'none'],
      ]);
    }
  });

  it('ends a message found by its root at an early NUL too', () => {
    const frames = new ServerStreamSplitter({ findEnd: 'root' }).push(bytes('<a><b>\0<c/>\0'));
    expect(frames.map((frame) => [decoder.decode(frame.bytes), frame.framing])).toEqual([
      ['<a><b>', 'nul'],
      ['<c/>', 'nul'],
    ]);
  });

  it('keeps an incomplete no-header message until the end of the stream', () => {
    const splitter = new ServerStreamSplitter();
    expect(splitter.push(bytes('<turn><turn-num>1</turn-num>'))).toEqual([]);
    const rest = splitter.end();
    expect(texts(rest)).toEqual(['<turn><turn-num>1</turn-num>']);
    expect(rest[0]!.framing).toBe('none');
  });

  it('cuts an oversize message', () => {
    const frames = new ServerStreamSplitter({ maxMessageBytes: 10 }).push(bytes('<a>xxxxxxxxxxxxxxx</a>'));
    expect(frames[0]!.oversize).toBe(true);
    expect(frames[0]!.bytes.length).toBe(9);
  });

  it('recovers any mix of framings from any chunking (property)', () => {
    const element = fc
      .tuple(
        fc.constantFrom('turn', 'round-init', 'x'),
        fc.string({ unit: fc.constantFrom('a', '<', '>', '&', ' ', '"') }),
      )
      .map(
        ([name, text]) =>
          `<${name} k="${text.replace(/[<&"]/g, '')}"><v>${text.replace(/[<&]/g, '')}</v><e/></${name}>`,
      );
    const message = fc.record({ body: element, framing: fc.constantFrom('nul' as const, 'none' as const) });
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1 }),
        (list, sizes) => {
          const wire = list.map(({ body, framing }) =>
            framing === 'nul' ? `<?xml version="1.0" encoding="UTF-8"?>\n${body}\0` : body,
          );
          const frames = feed(new ServerStreamSplitter(), bytes(wire.join('')), sizes);
          expect(frames.map((frame) => frame.framing)).toEqual(list.map((m) => m.framing));
          expect(texts(frames)).toEqual(wire.map((w) => w.replace(/\0$/, '')));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('ServerStreamSplitter over big chunks', () => {
  it('reads long messages cut by the starts of big chunks, from a reused buffer once released (property)', () => {
    // A reader that reuses one buffer for every chunk (as a file reader may) releases the splitter after
    // reading the frames: what it kept of an unfinished message is its own, the next chunk overwrites the
    // buffer. Messages up to 40 kB in chunks up to 200 kB, both framings.
    const message = fc.record({
      length: fc.integer({ min: 0, max: 40_000 }),
      framing: fc.constantFrom('nul' as const, 'none' as const),
    });
    const sizes = fc.array(fc.constantFrom(1, 7, 1000, 16_383, 16_385, 20_000, 70_000, 200_000), {
      minLength: 1,
    });
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 10 }), sizes, (list, chunkSizes) => {
        const wire = list.map(({ length, framing }, n) => {
          const body = `<turn><v>${'x'.repeat(length)}</v><n>${n}</n></turn>`;
          return framing === 'nul' ? `<?xml version="1.0" encoding="UTF-8"?>\n${body}\0` : body;
        });
        const stream = bytes(wire.join(''));
        const splitter = new ServerStreamSplitter({ findEnd: 'root' });
        const buffer = new Uint8Array(200_000);
        const read: string[] = [];
        let at = 0;
        for (let i = 0; at < stream.length; i++) {
          const size = Math.min(chunkSizes[i % chunkSizes.length]!, stream.length - at);
          buffer.set(stream.subarray(at, at + size));
          read.push(...texts(splitter.push(buffer.subarray(0, size))));
          splitter.release();
          buffer.fill(0x3c);
          at += size;
        }
        read.push(...texts(splitter.end()));
        expect(read).toEqual(wire.map((w) => w.replace(/\0$/, '')));
      }),
      { numRuns: 60 },
    );
  });
});

describe('encodeFrame', () => {
  it('appends one NUL in default mode and nothing in no-header mode', () => {
    expect([...encodeFrame('<a/>', 'nul')]).toEqual([...bytes('<a/>'), 0]);
    expect([...encodeFrame('<a/>', 'none')]).toEqual([...bytes('<a/>')]);
  });

  it('writes text beyond ASCII as UTF-8', () => {
    expect([...encodeFrame('<a>é</a>', 'nul')]).toEqual([...bytes('<a>é</a>'), 0]);
    expect([...encodeFrame('😀', 'none')]).toEqual([...bytes('😀')]);
  });
});
