import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Annotation, Transcript, TranscriptMessage } from '../../../../src/core/transcript/model';
import { TranscriptStore, type AnnotationPacker } from '../../../../src/core/transcript/store/store';

const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', '{"type":"action"}', 'é\u2028\ud800x', 'x'.repeat(300)),
);

const message: fc.Arbitrary<Omit<TranscriptMessage, 'index'>> = fc.oneof(
  fc.record(
    {
      conn: fc.constantFrom('agentA1.conn1', 'agentB1.conn1', 'conn3'),
      dir: fc.constantFrom('c2s' as const, 's2c' as const),
      t: fc.oneof(fc.nat(1_000_000), fc.double({ min: 0, max: 1e6, noNaN: true })),
      kind: fc.constant('data' as const),
      text,
      framing: fc.constantFrom('nul' as const, 'none' as const, 'frame' as const),
      channel: fc.constantFrom('Scav. 1', 'Scav. 12', 'nim/ann'),
      http: fc.record(
        {
          exchange: fc.nat(100),
          method: fc.constantFrom('GET', 'PUT'),
          path: fc.constantFrom('/act/nim', '/results/nim'),
          status: fc.constantFrom(200, 401, 405),
          headers: fc.dictionary(fc.constantFrom('content-type', 'x-a'), fc.string({ maxLength: 8 })),
        },
        { requiredKeys: ['exchange'] },
      ),
    },
    { requiredKeys: ['conn', 'dir', 't', 'kind', 'text'] },
  ),
  fc.record({
    conn: fc.constantFrom('agentA1.conn1', 'conn3'),
    dir: fc.constantFrom('c2s' as const, 's2c' as const),
    t: fc.nat(1000),
    kind: fc.constant('data' as const),
    base64: fc.uint8Array({ maxLength: 20 }).map((bytes) => btoa(String.fromCharCode(...bytes))),
  }),
  fc.record(
    {
      conn: fc.constantFrom('agentA1.conn1', 'conn9'),
      dir: fc.constantFrom('c2s' as const, 's2c' as const),
      t: fc.nat(1000),
      kind: fc.constantFrom('open' as const, 'close' as const, 'error' as const),
      text,
    },
    { requiredKeys: ['conn', 'dir', 't', 'kind'] },
  ),
);

const transcript: fc.Arbitrary<Transcript> = fc.array(message, { maxLength: 120 }).chain((messages) =>
  fc
    .array(
      fc.record({
        index: fc.nat(Math.max(0, messages.length - 1)),
        type: fc.constantFrom<Annotation['type']>('world', 'note', 'reward', 'violation'),
        data: fc.jsonValue(),
      }),
      { maxLength: 20 },
    )
    .map((annotations) => ({
      format: 'protoplay-transcript' as const,
      version: 2 as const,
      protocol: 'massim' as const,
      startedAt: 1_763_760_000_000,
      meta: { origin: 'test', seed: 3 },
      connections: [{ id: 'conn0', label: 'listed before it speaks' }],
      // The order `store.message` writes keys in, so whole objects compare equal.
      messages: messages.map(({ conn, dir, t, kind, text, base64, framing, channel, http }, index) => ({
        index,
        t,
        conn,
        dir,
        kind,
        ...(text !== undefined ? { text } : {}),
        ...(base64 !== undefined ? { base64 } : {}),
        ...(framing !== undefined ? { framing } : {}),
        ...(channel !== undefined ? { channel } : {}),
        ...(http !== undefined ? { http } : {}),
      })),
      annotations: messages.length === 0 ? [] : annotations,
    })),
);

describe('TranscriptStore', () => {
  it('gives back every transcript exactly, whatever the chunking and compression', () => {
    fc.assert(
      fc.property(
        transcript,
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 500 }),
        fc.constantFrom('deflate' as const, 'none' as const, 'later' as const),
        fc.nat(3),
        (original, chunkMessages, chunkLiteralCharacters, compression, compressedLater) => {
          const store = TranscriptStore.fromTranscript(original, {
            chunkMessages,
            chunkLiteralCharacters,
            compression,
          });
          // With `later`, some of the sealed chunks compressed afterwards (and some not).
          for (let i = 0; i < compressedLater; i++) store.compressSealed(2);
          const expectedConnections = [...original.connections];
          for (const m of original.messages)
            if (!expectedConnections.some((c) => c.id === m.conn)) expectedConnections.push({ id: m.conn });
          expect(store.toTranscript()).toEqual({ ...original, connections: expectedConnections });
          // Random access reads the same as the whole.
          for (let i = original.messages.length - 1; i >= 0; i -= 7) {
            expect(store.message(i)).toEqual(original.messages[i]);
            expect(store.messageJson(i)).toBe(JSON.stringify(store.message(i)));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps phrased messages as the phrases they were written with', () => {
    const store = new TranscriptStore({ protocol: 'massim', chunkMessages: 3 });
    const hello = store.phrases.intern('{"hello":');
    const world = store.phrases.intern('"world"}');
    const indices = [0, 1, 2, 3, 4].map((i) =>
      i % 2 === 0
        ? store.appendPhrased('a', 's2c', i, (out) => {
            out.push(hello);
            out.push(out.book.intern(String(i)));
            out.push(world);
          })
        : store.appendText('a', 'c2s', i, `plain ${i}`),
    );
    expect(indices).toEqual([0, 1, 2, 3, 4]);
    expect(store.messages().map((m) => m.text)).toEqual([
      '{"hello":0"world"}',
      'plain 1',
      '{"hello":2"world"}',
      'plain 3',
      '{"hello":4"world"}',
    ]);
    const phrases: number[] = [];
    expect(store.readPhrases(4, { push: (p) => phrases.push(p) })).toBe(true);
    expect(phrases.map((p) => store.phrases.text(p)).join('')).toBe('{"hello":4"world"}');
    expect(store.readPhrases(3, { push: (p) => phrases.push(p) })).toBe(false);
    expect(store.payload(1)).toBe('plain 1');
    // The same numbers copied into a typed array, after what it already holds.
    const target = new Int32Array(8).fill(-9);
    expect(store.copyPhrases(4, target, 2)).toBe(3);
    expect([...target.subarray(0, 5)]).toEqual([-9, -9, ...phrases]);
    expect(store.copyPhrases(3, target, 0)).toBe(-1);
    expect(store.copyPhrases(2, target, 6)).toBe(-2);
    expect([...target.subarray(5)]).toEqual([-9, -9, -9]);
  });

  it('writes the JSON of phrased messages from escaped phrases, even with escapes and split surrogate pairs', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 4 }), { maxLength: 12 }), (pieces) => {
        const store = new TranscriptStore({ protocol: 'massim' });
        store.appendPhrased(
          'a"\\b',
          's2c',
          -0,
          (out) => pieces.forEach((piece) => out.push(out.book.intern(piece))),
          'nul',
        );
        expect(store.message(0).text).toBe(pieces.join(''));
        expect(store.messageJson(0)).toBe(JSON.stringify(store.message(0)));
      }),
      { numRuns: 300 },
    );
    const store = new TranscriptStore({ protocol: 'massim' });
    store.appendPhrased('a', 'c2s', 1, (out) =>
      ['"\n', '\ud83d', '\ude00', '\u0001'].forEach((p) => out.push(out.book.intern(p))),
    );
    expect(store.messageJson(0)).toBe(JSON.stringify(store.message(0)));
    expect(JSON.parse(store.messageJson(0)).text).toBe('"\n\ud83d\ude00\u0001');
  });

  it('indexes messages by connection and by step', () => {
    const store = new TranscriptStore({ protocol: 'massim', chunkMessages: 4 });
    store.appendEvent('a', 'c2s', 0, 'open');
    for (let step = 0; step < 5; step++) {
      store.markStep(1, step);
      store.appendText('a', 's2c', step, `request ${step} to a`);
      store.appendText('b', 's2c', step, `request ${step} to b`);
      store.appendText('b', 'c2s', step, `action ${step} of b`);
      store.annotate('reward', { step });
    }
    expect(Array.from(store.messagesOf('b'))).toEqual([2, 3, 5, 6, 8, 9, 11, 12, 14, 15]);
    expect(Array.from(store.messagesOf('nobody'))).toEqual([]);
    expect(store.stepRange(1, 2)).toEqual({ group: 1, step: 2, from: 7, to: 10 });
    expect(store.stepRange(1, 4)).toEqual({ group: 1, step: 4, from: 13, to: 16 });
    expect(store.stepRange(0, 2)).toBeUndefined();
    expect(store.steps().map((s) => s.from)).toEqual([1, 4, 7, 10, 13]);
    const range = store.stepRange(1, 3)!;
    expect(store.messages(range.from, range.to).map((m) => m.text)).toEqual([
      'request 3 to a',
      'request 3 to b',
      'action 3 of b',
    ]);
    expect(store.annotationsBetween(range.from, range.to)).toEqual([
      { index: 12, type: 'reward', data: { step: 3 } },
    ]);
  });

  it('finds annotations between messages even when they were not annotated in message order', () => {
    const store = new TranscriptStore({ protocol: 'rddlsim' });
    for (let i = 0; i < 10; i++) store.appendText('s', 'c2s', i, `m${i}`);
    store.annotate('note', 'late', 8);
    store.annotate('note', 'early', 2);
    store.annotate('note', 'middle', 5);
    expect(store.annotationsBetween(2, 6).map((a) => a.data)).toEqual(['early', 'middle']);
    expect(store.annotationsOfType('note')).toEqual([0, 1, 2]);
  });

  it('hands annotations a packer knows to it and unpacks them on reading', () => {
    const packed: unknown[] = [];
    const packer: AnnotationPacker = {
      pack: (type, data) => (type === 'world' ? packed.push(JSON.stringify(data)) - 1 : undefined),
      unpack: (number) => JSON.parse(packed[number] as string),
      byteLength: 0,
    };
    const store = new TranscriptStore({ protocol: 'massim', packers: [packer] });
    store.appendText('a', 's2c', 0, 'x');
    store.annotate('world', { step: 1, cells: [1, 2] });
    store.annotate('note', { kept: 'as given' });
    expect(packed).toEqual(['{"step":1,"cells":[1,2]}']);
    expect(store.toTranscript().annotations).toEqual([
      { index: 0, type: 'world', data: { step: 1, cells: [1, 2] } },
      { index: 0, type: 'note', data: { kept: 'as given' } },
    ]);
  });

  it('packs annotations given to pack later in order, when asked, when read, or before the next', () => {
    const packed: unknown[] = [];
    const packer: AnnotationPacker = {
      pack: (type, data) => (type === 'world' ? packed.push(JSON.stringify(data)) - 1 : undefined),
      unpack: (number) => JSON.parse(packed[number] as string),
      byteLength: 0,
    };
    const store = new TranscriptStore({ protocol: 'massim', packers: [packer] });
    store.appendText('a', 's2c', 0, 'x');
    store.annotate('world', { step: 1 }, undefined, { packLater: true });
    store.annotate('world', { step: 2 }, undefined, { packLater: true });
    store.appendText('a', 's2c', 1, 'y');
    expect(packed).toEqual([]);
    expect(store.annotationCount).toBe(2);
    store.packPending();
    expect(packed).toEqual(['{"step":1}', '{"step":2}']);
    // Read before being packed: packed then, in order.
    store.annotate('world', { step: 3 }, undefined, { packLater: true });
    store.annotate('world', { step: 4 }, undefined, { packLater: true });
    expect(store.annotation(3)).toEqual({ index: 1, type: 'world', data: { step: 4 } });
    expect(packed).toHaveLength(4);
    // An annotation packed at once packs those waiting first.
    store.annotate('world', { step: 5 }, undefined, { packLater: true });
    store.annotate('world', { step: 6 });
    expect(packed.slice(4)).toEqual(['{"step":5}', '{"step":6}']);
    expect(store.toTranscript().annotations.map((a) => [a.index, (a.data as { step: number }).step])).toEqual(
      [
        [0, 1],
        [0, 2],
        [1, 3],
        [1, 4],
        [1, 5],
        [1, 6],
      ],
    );
  });

  it('compresses the plain text of full chunks', () => {
    const store = new TranscriptStore({ protocol: 'massim', chunkMessages: 100 });
    for (let i = 0; i < 1000; i++) store.appendText('a', 'c2s', i, `{"type":"action","content":{"id":${i}}}`);
    const size = store.size();
    expect(size.chunks).toBe(10);
    const characters = 1000 * 40;
    expect(size.literalBytes).toBeLessThan(characters / 2);
    expect(store.message(555).text).toBe('{"type":"action","content":{"id":555}}');
  });

  it('compresses full chunks afterwards, a few at a time, when asked to compress later', () => {
    const store = new TranscriptStore({ protocol: 'massim', chunkMessages: 100, compression: 'later' });
    for (let i = 0; i < 1000; i++) store.appendText('a', 'c2s', i, `{"type":"action","content":{"id":${i}}}`);
    const before = store.messages();
    const bytes = before.reduce((sum, message) => sum + message.text!.length * 2, 0);
    // Nothing compressed while appending: the text is kept as it came.
    expect(store.size().literalBytes).toBe(bytes);
    expect(store.compressSealed(4)).toBe(true);
    const some = store.size().literalBytes;
    expect(some).toBeLessThan(bytes * 0.7);
    let calls = 1;
    while (store.compressSealed()) calls++;
    // Nine sealed chunks (the tenth is still open): four, then one a call, the last saying none is left.
    expect(calls).toBe(5);
    expect(store.size().literalBytes).toBeLessThan(some / 2);
    expect(store.messages()).toEqual(before);
    // Past `laterCharacters` waiting, sealing compresses the oldest at once.
    const bounded = new TranscriptStore({
      protocol: 'massim',
      chunkMessages: 100,
      compression: 'later',
      laterCharacters: 10_000,
    });
    for (const message of before) bounded.appendText(message.conn, message.dir, message.t, message.text!);
    expect(bounded.size().literalBytes).toBeLessThan(2 * (10_000 + 2 * 100 * 40));
    expect(bounded.messages()).toEqual(before);
    // Other stores have nothing to compress later.
    const deflated = new TranscriptStore({ protocol: 'massim', chunkMessages: 10 });
    for (let i = 0; i < 50; i++) deflated.appendText('a', 'c2s', i, 'x'.repeat(100));
    expect(deflated.compressSealed()).toBe(false);
  });

  it('refuses indices it does not hold', () => {
    const store = new TranscriptStore({ protocol: 'massim' });
    expect(() => store.message(0)).toThrow(RangeError);
    store.appendText('a', 'c2s', 0, 'x');
    expect(() => store.message(1)).toThrow(RangeError);
    expect(() => store.annotation(0)).toThrow(RangeError);
  });
});
