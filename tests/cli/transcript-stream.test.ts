/**
 * `TranscriptFileStream`: the file is written while records come (not at the end), and once finished it
 * is the same transcript `serialiseTranscript` writes for the records kept in memory.
 */
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTranscriptJson } from '../../src/core/transcript/json-format';
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
    expect((await stat(path)).size).toBeGreaterThan(300_000);
    expect(streamed.transcript.messages).toHaveLength(0);
    expect(stream.finish(streamed.transcript)).toBe(path);
    const text = await readFile(path, 'utf8');
    expect(parseTranscriptJson(text)).toEqual(parseTranscriptJson(JSON.stringify(kept.transcript)));
    // The side file of annotations is gone.
    expect((await readdir(join(dir, 'nested'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
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
