/**
 * Writing transcript files through the one JSON writer: a plain transcript and a whole store read back as
 * their transcript, and a part of a store (one match) as a transcript of its own, numbered from 0, timed
 * from its first message, with only the connections that speak in it and its annotations moved along.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTranscriptFile, writeTranscriptJsonFile } from '../../cli/transcript-file';
import { storeRangeSource, type StoreRange } from '../../src/core/transcript/store/range';
import { parseTranscriptJson, serialiseTranscript } from '../../src/core/transcript/json-format';
import { TranscriptStore } from '../../src/core/transcript/store/store';

const dir = mkdtempSync(join(tmpdir(), 'protoplay-store-files-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Three connections taking turns; `y` closes halfway; a note every seventh message. */
function sampleStore(): TranscriptStore {
  const store = new TranscriptStore({ protocol: 'massim', startedAt: 1_000, meta: { origin: 'test' } });
  store.addConnection('x', 'agent x');
  store.addConnection('y');
  store.addConnection('z');
  for (let i = 0; i < 50; i++) {
    const conn = ['x', 'y', 'z'][i % 3]!;
    store.appendMessage({
      conn,
      dir: i % 2 ? 'c2s' : 's2c',
      t: i * 3.5,
      kind: 'data',
      text: `{"m":${i},"s":"é\\n"}`,
      framing: 'nul',
    });
    if (i % 7 === 0) store.annotate('note', { i });
    if (i === 20) store.appendEvent('y', 'c2s', i * 3.5 + 1, 'close');
  }
  return store;
}

describe('transcript files', () => {
  it('writes the whole store as its transcript', () => {
    const store = sampleStore();
    const path = writeTranscriptJsonFile('whole.json', store, dir);
    expect(readFileSync(path, 'utf8')).toBe(serialiseTranscript(store.toTranscript()));
    expect(parseTranscriptJson(readFileSync(path, 'utf8'))).toEqual(store.toTranscript());
  });

  it('writes a plain transcript as serialising it does', async () => {
    const transcript = sampleStore().toTranscript();
    const path = await writeTranscriptFile('plain.json', transcript, dir);
    expect(readFileSync(path, 'utf8')).toBe(serialiseTranscript(transcript));
    expect(parseTranscriptJson(readFileSync(path, 'utf8'))).toEqual(transcript);
  });

  it('writes a part as a transcript of its own', () => {
    const store = sampleStore();
    // Messages 10..39, preceded by the carried logins 1, 2 and 4; annotations 2..5.
    const range = { from: 10, to: 40, carried: [1, 2, 4], annotationsFrom: 2, annotationsTo: 6 };
    const path = writeTranscriptJsonFile('part.json', storeRangeSource(store, range, { match: 1 }), dir);
    const part = parseTranscriptJson(readFileSync(path, 'utf8'));
    const originals = [1, 2, 4, ...Array.from({ length: 30 }, (_, i) => 10 + i)];
    const offset = Math.min(...originals.map((i) => store.message(i).t));
    expect(part.startedAt).toBe(1_000 + offset);
    expect(part.meta).toEqual({ origin: 'test', match: 1 });
    expect(part.messages).toEqual(
      originals.map((original, index) => ({
        ...store.message(original),
        index,
        t: store.message(original).t - offset,
      })),
    );
    expect(part.connections.map((connection) => connection.id)).toEqual(['x', 'y', 'z']);
    const annotations = [2, 3, 4, 5].map((i) => store.annotation(i));
    expect(part.annotations).toEqual(
      annotations.map((annotation) => ({
        ...annotation,
        index: Math.min(Math.max(annotation.index - 10 + 3, 3), originals.length - 1),
      })),
    );
  });

  it('leaves out connections that do not speak in the part', () => {
    const store = sampleStore();
    const range: StoreRange = { from: 0, to: 1, carried: [], annotationsFrom: 0, annotationsTo: 0 };
    const path = writeTranscriptJsonFile('x-only.json', storeRangeSource(store, range), dir);
    const part = parseTranscriptJson(readFileSync(path, 'utf8'));
    expect(part.connections).toEqual([{ id: 'x', label: 'agent x' }]);
    expect(part.messages).toHaveLength(1);
    expect(part.annotations).toEqual([]);
  });

  it('names the file it cannot write', () => {
    const store = sampleStore();
    writeTranscriptJsonFile('whole.json', store, dir);
    expect(() => writeTranscriptJsonFile(join(dir, 'whole.json', 'inside-a-file.json'), store, dir)).toThrow(
      /cannot write the transcript to '.*inside-a-file\.json'/,
    );
  });
});
