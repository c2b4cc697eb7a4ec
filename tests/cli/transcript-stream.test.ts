/**
 * `TranscriptFileStream`: records go to disk while they come (not at the end), and once finished the file
 * is, byte for byte, the one `serialiseTranscript` writes for the records kept in memory.
 */
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTranscriptJson, serialiseTranscript } from '../../src/core/transcript/json-format';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { TranscriptFileStream } from '../../cli/transcript-stream';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-stream-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Records the same messages and annotations into a kept transcript and a streamed one. */
function record(recorders: TranscriptRecorder[], count: number): void {
  for (const recorder of recorders) {
    recorder.addConnection('c1', 'one');
    for (let i = 0; i < count; i++) {
      recorder.text('c1', i % 2 ? 's2c' : 'c2s', `<turn><turn-num>${i}</turn-num>${'x'.repeat(200)}</turn>`);
      if (i % 3 === 0) recorder.annotate('reward', { kind: 'step', turn: i, reward: -i });
    }
    recorder.event('c1', 's2c', 'close');
    recorder.transcript.meta.finished = true;
  }
}

describe('TranscriptFileStream', () => {
  it('writes records as they come and ends as the transcript kept in memory would be written', async () => {
    const path = join(dir, 'nested', 'out.json');
    const stream = new TranscriptFileStream(path, 'rddlsim', dir);
    let t = 0;
    const now = () => (t += 3);
    const kept = new TranscriptRecorder({ protocol: 'rddlsim', now, meta: { seed: 1 } });
    t = 0;
    const streamed = new TranscriptRecorder({
      protocol: 'rddlsim',
      now,
      meta: { seed: 1 },
      sink: stream,
      keep: false,
    });
    t = 0;
    record([kept], 3000);
    t = 0;
    record([streamed], 3000);
    // Far more than one buffer was recorded: most of it is on disk before the end.
    expect(await bytesIn(join(dir, 'nested'))).toBeGreaterThan(300_000);
    expect(streamed.transcript.messages).toHaveLength(0);
    expect(stream.finish(streamed.transcript)).toBe(path);
    const text = await readFile(path, 'utf8');
    expect(parseTranscriptJson(text)).toEqual(parseTranscriptJson(JSON.stringify(kept.transcript)));
    // The exported file of the same session, header first: the streamed one is the same text.
    const exported = serialiseTranscript(kept.transcript);
    const header = (json: string) => json.slice(0, json.indexOf('  "messages": ['));
    expect(header(text)).toContain('"meta": {"seed":1,"finished":true}');
    expect(header(text)).toBe(header(exported));
    expect(text).toBe(exported);
    // The side file of annotations is gone.
    expect((await readdir(join(dir, 'nested'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('writes the header of the exported file when several connections come and go', async () => {
    const path = join(dir, 'connections.json');
    const stream = new TranscriptFileStream(path, 'massim', dir);
    const clock = () => {
      let t = 0;
      return () => (t += 1);
    };
    const recorders = [
      new TranscriptRecorder({ protocol: 'massim', now: clock(), meta: { origin: 'test' } }),
      new TranscriptRecorder({
        protocol: 'massim',
        now: clock(),
        meta: { origin: 'test' },
        sink: stream,
        keep: false,
      }),
    ];
    for (const recorder of recorders) {
      for (const agent of ['A1', 'A2', 'B1']) {
        recorder.addConnection(agent, `agent ${agent}`);
        recorder.text(agent, 's2c', '{"type":"request-action"}');
      }
      recorder.annotate('note', 'two teams');
      recorder.transcript.meta.winner = 'A';
    }
    stream.finish(recorders[1]!.transcript);
    const text = await readFile(path, 'utf8');
    const exported = serialiseTranscript(recorders[0]!.transcript);
    expect(text.split('\n').slice(0, 11)).toEqual(exported.split('\n').slice(0, 11));
    expect(text.split('\n')[9]).toBe('    {"id":"B1","label":"agent B1"}');
    expect(text).toBe(exported);
  });

  it('still reads files streamed before, with the header after the lists', () => {
    const before = [
      '{',
      '  "format": "protoplay-transcript",',
      '  "version": 2,',
      '  "protocol": "rddlsim",',
      '  "messages": [',
      '    {"index":0,"t":0,"conn":"c","dir":"c2s","kind":"open"}',
      '  ],',
      '  "annotations": [',
      '    {"index":0,"type":"note","data":"x"}',
      '  ],',
      '  "startedAt": 7,',
      '  "meta": {"seed":1},',
      '  "connections": [',
      '    {"id":"c","label":"session 1"}',
      '  ]',
      '}',
      '',
    ].join('\n');
    const read = parseTranscriptJson(before);
    expect(read).toMatchObject({ protocol: 'rddlsim', startedAt: 7, meta: { seed: 1 } });
    expect(read.connections).toEqual([{ id: 'c', label: 'session 1' }]);
    expect(read.annotations).toEqual([{ index: 0, type: 'note', data: 'x' }]);
    expect(
      serialiseTranscript(read).startsWith('{\n  "format": "protoplay-transcript",\n  "version": 2,'),
    ).toBe(true);
  });

  it('writes a valid transcript when nothing was recorded', async () => {
    const path = join(dir, 'empty.json');
    const stream = new TranscriptFileStream(path, 'massim', dir);
    const recorder = new TranscriptRecorder({ protocol: 'massim', sink: stream, keep: false });
    stream.finish(recorder.transcript);
    const read = parseTranscriptJson(await readFile(path, 'utf8'));
    expect(read).toMatchObject({ protocol: 'massim', messages: [], annotations: [], connections: [] });
  });

  it('names the file it cannot write', async () => {
    await writeFile(join(dir, 'a-file'), '');
    expect(() => new TranscriptFileStream(join(dir, 'a-file', 'below.json'), 'rddlsim', dir)).toThrow(
      /cannot write the transcript to '.*below\.json'/,
    );
  });
});

/** The bytes of the files in a folder. */
async function bytesIn(folder: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(folder)) total += (await stat(join(folder, name))).size;
  return total;
}
