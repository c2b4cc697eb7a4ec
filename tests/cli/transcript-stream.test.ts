/**
 * `TranscriptFileStream`: records go to disk while they come (not at the end), the file is readable at
 * every moment (a session killed midway leaves its messages and its annotations, read alike whole and in
 * chunks), and once finished the file is, byte for byte, the one `serialiseTranscript` writes for the
 * records kept in memory.
 */
import { spawn } from 'node:child_process';
import fc from 'fast-check';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseTranscriptJson,
  readTranscriptJson,
  serialiseTranscript,
} from '../../src/core/transcript/json-format';
import { importProblem } from '../../src/core/transcript/import';
import { streamTranscriptJson } from '../../src/core/transcript/json-stream';
import type { Annotation } from '../../src/core/transcript/model';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { TranscriptFileStream } from '../../cli/transcript-stream';
import { BIN, runInProcess } from './run-cli';

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

  it('leaves a file that reads as the records made so far while the session runs', async () => {
    const path = join(dir, 'running.json');
    const stream = new TranscriptFileStream(path, 'rddlsim', dir, 1234);
    const clock = () => {
      let t = 0;
      return () => (t += 1);
    };
    const streamed = new TranscriptRecorder({
      protocol: 'rddlsim',
      now: clock(),
      sink: stream,
      keep: false,
    });
    const kept = new TranscriptRecorder({ protocol: 'rddlsim', now: clock() });
    record([streamed, kept], 3000);
    // Not finished: what is on disk is the start header and the records flushed so far.
    const text = await readFile(path, 'utf8');
    const read = readTranscriptJson(text, 'running.json');
    expect(read.transcript).toMatchObject({ protocol: 'rddlsim', startedAt: 1234 });
    const count = read.transcript!.messages.length;
    expect(count).toBeGreaterThan(1000);
    expect(read.transcript!.messages).toEqual(kept.transcript.messages.slice(0, count));
    // The annotations of those messages are in the file too (as JSON has them: no -0).
    const keptAnnotations = JSON.parse(JSON.stringify(kept.transcript.annotations)) as Annotation[];
    const annotations = read.transcript!.annotations;
    expect(annotations.length).toBeGreaterThan(count / 3 - 2);
    expect(annotations).toEqual(keptAnnotations.slice(0, annotations.length));
    expect(read.damage!.message).toMatch(
      new RegExp(
        `^the file ends (inside|after) (message|annotation) .*; kept the header, .* and ${annotations.length.toLocaleString('en-US')} annotations`,
      ),
    );
    // Read in chunks, the same.
    expect(streamedRead(text, 'running.json')).toEqual(wholeRead(text, 'running.json'));
    // Cut anywhere, read whole and in chunks alike.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60_000 }), (cut) => {
        const part = text.slice(0, cut);
        expect(streamedRead(part, 'cut.json')).toEqual(wholeRead(part, 'cut.json'));
      }),
      { seed: 7, numRuns: 150 },
    );
    // Closed by hand, the lists that come in turn are not lost to a reader of valid JSON.
    const closed = readTranscriptJson(
      `${text.slice(0, text.lastIndexOf('\n  ],\n  "messages": [\n'))}\n  ]\n}\n`,
    ).transcript!;
    expect(closed.messages.length).toBeGreaterThan(count - 5);
    expect(closed.messages).toEqual(kept.transcript.messages.slice(0, closed.messages.length));
    expect(closed.annotations).toEqual(
      keptAnnotations.filter((annotation) => annotation.index < closed.messages.length),
    );
    stream.finish(streamed.transcript);
    expect(readTranscriptJson(await readFile(path, 'utf8')).damage).toBeUndefined();
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

describe('a run killed while it writes its transcript', () => {
  it('leaves a FILE whose messages and annotations inspect reads, with a located error and exit code 1', async () => {
    const rddl = resolve(process.cwd(), '../shared/rddl/ippc2011');
    const path = join(dir, 'killed.json');
    const child = spawn(
      process.execPath,
      [
        BIN,
        'run',
        'rddlsim',
        '--domain',
        join(rddl, 'sysadmin_mdp.rddl'),
        '--instance',
        join(rddl, 'sysadmin_inst_mdp__1.rddl'),
        '--rounds',
        '1000000',
        '--transcript',
        path,
      ],
      { cwd: dir, stdio: 'ignore' },
    );
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    try {
      // Killed once a good part of the session is on disk, whatever the machine's speed.
      await until(async () => ((await stat(path).catch(() => undefined))?.size ?? 0) > 400_000);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    const text = await readFile(path, 'utf8');
    // The messages and annotations written whole before the kill, counted line by line without the reader,
    // and the rewards of the rounds ended before it.
    const lines = text.split('\n');
    let list = '';
    let complete = 0;
    let annotations = 0;
    const roundRewards: { round: number; reward: number }[] = [];
    for (const line of lines.slice(lines.indexOf('  "messages": ['))) {
      const opening = /^ {2}"(messages|annotations)": \[$/.exec(line);
      if (opening) list = opening[1]!;
      let record: { type?: string; data?: { kind?: string; round?: number; reward?: number } };
      try {
        record = JSON.parse(line.trim().replace(/,$/, '')) as typeof record;
      } catch {
        continue;
      }
      if (typeof record !== 'object' || record === null) continue;
      if (list === 'messages') complete++;
      else annotations++;
      if (list === 'annotations' && record.type === 'reward' && record.data?.kind === 'round')
        roundRewards.push({ round: record.data.round!, reward: record.data.reward! });
    }
    expect(complete).toBeGreaterThan(100);
    expect(annotations).toBeGreaterThan(10);
    expect(roundRewards.length).toBeGreaterThan(0);
    const read = readTranscriptJson(text, 'killed.json').transcript!;
    expect(read.annotations).toHaveLength(annotations);
    const result = await runInProcess(['inspect', 'killed.json', '--json'], { cwd: dir });
    expect(result.code).toBe(1);
    // Read in chunks, the same report.
    expect(await runInProcess(['inspect', 'killed.json', '--json', '--stream'], { cwd: dir })).toEqual(
      result,
    );
    const report = JSON.parse(result.stdout) as {
      format: string;
      sessions: number;
      messages: number;
      rounds: { round: number; reward: number | null }[];
      errors: { file: string; line: number; message: string }[];
    };
    expect(report).toMatchObject({ format: 'protoplay-json', sessions: 1, messages: complete });
    // Every round the run reported a reward for before the kill, with that reward.
    expect(report.rounds.length).toBeGreaterThanOrEqual(roundRewards.length);
    for (const { round, reward } of roundRewards)
      expect(report.rounds.find((r) => r.round === round)?.reward).toBeCloseTo(reward, 9);
    expect(report.errors).toEqual([
      {
        file: 'killed.json',
        line: expect.any(Number),
        message: expect.stringMatching(
          new RegExp(
            `^the file ends (inside|after) (message|annotation) [\\d,]+; kept the header, ${complete.toLocaleString('en-US')} complete messages and ${annotations.toLocaleString('en-US')} annotations before it$`,
          ),
        ),
      },
    ]);
    expect(report.errors[0]!.line).toBeGreaterThanOrEqual(lines.length - 1);
  });
});

/** What the whole-file reader keeps of a text, and what it says is damaged. */
function wholeRead(text: string, name: string) {
  try {
    const { transcript, damage } = readTranscriptJson(text, name);
    return {
      messages: transcript?.messages ?? [],
      annotations: transcript?.annotations ?? [],
      problems: damage ? [importProblem(damage, name)] : [],
    };
  } catch (error) {
    return { messages: [], annotations: [], problems: [importProblem(error, name)] };
  }
}

/** The same, read in chunks of 1,000 bytes by the streamed reader. */
function streamedRead(text: string, name: string) {
  const read: ReturnType<typeof wholeRead> = { messages: [], annotations: [], problems: [] };
  const reader = streamTranscriptJson(name, {
    message: (message) => read.messages.push(message),
    annotation: (annotation) => read.annotations.push(annotation),
    problem: (problem) => read.problems.push(problem),
  });
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += 1000) reader.push(bytes.subarray(at, at + 1000));
  reader.end();
  return read;
}

/** Waits (at most a minute and a half) for a condition checked every 50 ms. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await condition()); waited += 50) {
    if (waited > 90_000) throw new Error('the condition was not met in time');
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** The bytes of the files in a folder. */
async function bytesIn(folder: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(folder)) total += (await stat(join(folder, name))).size;
  return total;
}
