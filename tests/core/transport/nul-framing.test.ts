import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  encodeNulFrame,
  longerThan,
  NulSplitter,
  type NulFrame,
} from '../../../src/core/transport/nul-framing';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { massimProtocol } from '../../../src/core/protocols/massim/protocol';
import { rddlsimProtocol } from '../../../src/core/protocols/rddlsim/protocol';
import type { StreamFrame } from '../../../src/core/protocols/contract';

const bytes = (text: string) => new TextEncoder().encode(text);
const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** Every TypeScript and Svelte file under a folder. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(ts|svelte)$/.test(name))
    .map((name) => join(folder, name));
}
const read = (frames: readonly (NulFrame | StreamFrame)[]) =>
  frames.map((frame) => ({
    text: new TextDecoder().decode(frame.bytes),
    framing: frame.framing,
    ...(frame.oversize ? { oversize: true } : {}),
  }));

describe('the shared 0-byte framing', () => {
  it('cuts messages at each NUL across chunks, empty messages included', () => {
    const splitter = new NulSplitter({ kind: 'none' });
    expect(read(splitter.push(bytes('ab')))).toEqual([]);
    expect(splitter.pendingLength).toBe(2);
    expect(read(splitter.push(bytes('c\0\0de\0f')))).toEqual([
      { text: 'abc', framing: 'nul' },
      { text: '', framing: 'nul' },
      { text: 'de', framing: 'nul' },
    ]);
    expect(read(splitter.end())).toEqual([{ text: 'f', framing: 'none' }]);
  });

  it('keeps the frames it gave intact, whatever chunks come after, short or long', () => {
    const splitter = new NulSplitter({ kind: 'none' });
    const given: NulFrame[] = [];
    // Messages of every length from 1 to 41 bytes, cut into chunks of 1 to 7 bytes and one long chunk,
    // over and over: enough for every buffer the splitter holds to be filled again.
    const messages = Array.from({ length: 41 * 200 }, (_, n) => 'm'.repeat(n % 41) + String(n % 10));
    const stream = bytes(messages.map((message) => `${message}\0`).join(''));
    let at = 0;
    for (let size = 1; at < stream.length; size = size === 7 ? 300 : (size % 7) + 1) {
      given.push(...splitter.push(stream.slice(at, at + size)));
      at += size;
    }
    expect(read(given).map((frame) => frame.text)).toEqual(messages);
    expect(splitter.pendingLength).toBe(0);
  });

  it('reads messages cut by the starts of big chunks the same, whatever the chunking (property)', () => {
    // Messages up to 40 kB in chunks up to 200 kB: a message cut by a chunk's start is joined with the
    // chunk's first bytes only, more of it is brought while the message goes on, then the chunk is read in
    // place; the frames given stay intact meanwhile. Some messages are read one at a time, the rest taken.
    const lengths = fc.array(fc.integer({ min: 0, max: 40_000 }), { minLength: 1, maxLength: 12 });
    const sizes = fc.array(fc.constantFrom(1, 9, 1000, 16_383, 16_385, 20_000, 70_000, 200_000), {
      minLength: 1,
    });
    fc.assert(
      fc.property(lengths, sizes, fc.boolean(), (list, chunkSizes, oneAtATime) => {
        const messages = list.map((length, n) => String.fromCharCode(97 + (n % 26)).repeat(length));
        const stream = bytes(messages.map((message) => `${message}\0`).join('') + 'rest');
        const splitter = new NulSplitter({ kind: 'cut', maxMessageBytes: 1 << 20 });
        const given: NulFrame[] = [];
        let at = 0;
        for (let i = 0; at < stream.length; i++) {
          const chunk = stream.slice(at, at + chunkSizes[i % chunkSizes.length]!);
          if (oneAtATime) {
            splitter.append(chunk);
            for (let frame = splitter.next(); frame; frame = splitter.next()) given.push(frame);
          } else given.push(...splitter.push(chunk));
          at += chunk.length;
        }
        expect(read(given).map((frame) => frame.text)).toEqual(messages);
        expect(splitter.pendingLength).toBe(4);
        expect(new TextDecoder().decode(splitter.takeRest())).toBe('rest');
      }),
      { numRuns: 60 },
    );
  });

  it('cut: a message filling the reader buffer is cut there, one byte lost, the rest starts the next', () => {
    const splitter = new NulSplitter({ kind: 'cut', maxMessageBytes: 4 });
    expect(read(splitter.push(bytes('abcdefg\0')))).toEqual([
      { text: 'abc', framing: 'nul', oversize: true },
      { text: 'efg', framing: 'nul' },
    ]);
  });

  it('skip: a message the judge refuses is handed on whole, marked oversize, and reading goes on', () => {
    const splitter = new NulSplitter({ kind: 'skip', judge: longerThan(3) });
    expect(read(splitter.push(bytes('abcdefg\0xyz\0')))).toEqual([
      { text: 'abcdefg', framing: 'nul', oversize: true },
      { text: 'xyz', framing: 'nul' },
    ]);
    expect(splitter.judgeWhole(4)).toBe(true);
    expect(splitter.judgeWhole(3)).toBe(false);
  });

  it('reads one message at a time and gives back the rest unread', () => {
    const splitter = new NulSplitter({ kind: 'none' });
    splitter.append(bytes('one\0two\0thr'));
    expect(read([splitter.next()!])).toEqual([{ text: 'one', framing: 'nul' }]);
    expect(new TextDecoder().decode(splitter.takeRest())).toBe('two\0thr');
    expect(splitter.pendingLength).toBe(0);
    expect(splitter.next()).toBeUndefined();
  });

  it('refuses to judge a whole message while one is unterminated', () => {
    const splitter = new NulSplitter({ kind: 'none' });
    splitter.push(bytes('half'));
    expect(() => splitter.judgeWhole(1)).toThrow('unterminated');
  });

  it('each protocol sets its policy: rddlsim cuts an oversize message, MASSim skips it whole', () => {
    const long = bytes('0123456789\0ok\0');
    const rddlsim = rddlsimProtocol.transport;
    const massim = massimProtocol.transport;
    if (rddlsim.kind !== 'tcp' || massim.kind !== 'tcp') throw new Error('both protocols speak TCP');
    expect(read(rddlsim.framing.splitter('c2s', { maxFrameBytes: 6 }).push(long))).toEqual([
      { text: '01234', framing: 'nul', oversize: true },
      { text: '6789', framing: 'nul' },
      { text: 'ok', framing: 'nul' },
    ]);
    // MASSim's server counts as its receive loop does: the first frame may hold the limit, 6 bytes.
    expect(read(massim.framing.splitter('c2s', { maxFrameBytes: 6 }).push(long))).toEqual([
      { text: '0123456789', framing: 'nul', oversize: true },
      { text: 'ok', framing: 'nul' },
    ]);
    expect(read(massim.framing.splitter('c2s').push(long))).toEqual([
      { text: '0123456789', framing: 'nul' },
      { text: 'ok', framing: 'nul' },
    ]);
  });
});

describe('encodeNulFrame', () => {
  const utf8 = (text: string) => [...new TextEncoder().encode(text)];

  it.each([
    ['empty', ''],
    ['short ASCII', '{"type":"action","content":{"id":3,"type":"skip","p":[]}}'],
    ['short with non-ASCII', '{"é":1,"emoji":"😀"}'],
    ['long ASCII', '<turn>'.repeat(100)],
    ['long with non-ASCII at the end', `${'x'.repeat(500)}é`],
  ])('encodes %s text as UTF-8 followed by one 0 byte', (_, text) => {
    expect([...encodeNulFrame(text)]).toEqual([...utf8(text), 0]);
  });

  it('appends one 0 byte to bytes as they are (a transcript message held as bytes), copying them', () => {
    const payload = new Uint8Array([0x3c, 0xff, 0xfe, 0x3e]);
    const framed = encodeNulFrame(payload);
    expect([...framed]).toEqual([0x3c, 0xff, 0xfe, 0x3e, 0]);
    framed[0] = 1;
    expect(payload[0]).toBe(0x3c);
  });

  it('is the only place product code builds a 0-byte frame', () => {
    const roots = ['src', 'cli', 'workers'];
    const handBuilt = /\+ '\\0'|\\0`|new Uint8Array\(\[0\]\)|Buffer\.from\(\[0\]\)/;
    const found: string[] = [];
    for (const root of roots)
      for (const file of sourceFiles(join(REPO, root)))
        if (!file.endsWith('nul-framing.ts') && handBuilt.test(readFileSync(file, 'utf8'))) found.push(file);
    expect(found).toEqual([]);
  });

  it('is what both stream protocols encode with', () => {
    for (const protocol of [rddlsimProtocol, massimProtocol]) {
      const transport = protocol.transport;
      if (transport.kind !== 'tcp') throw new Error(`${protocol.id} is not a stream protocol`);
      expect(transport.framing.encode).toBe(encodeNulFrame);
    }
  });
});
