/**
 * `protoplay inspect` hands a Protoplay JSON transcript's annotations to the protocol's reader in order
 * with the messages, whether it reads the file whole or in chunks (`--stream`): for a protocol whose rounds
 * and rewards are only in annotations, both print the same `--json` report, for a finished file and for a
 * file cut short while its session was being written (the lists coming in turn). A MASSim transcript,
 * whose host annotates the world at every step, reads alike too.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranscriptFileStream } from '../../../cli/transcript-stream';
import { addProtocols } from '../../../src/core/protocols/registry';
import { serialiseTranscript } from '../../../src/core/transcript/json-format';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import { annotatedRewardsProtocol } from '../../support/counter-protocol/annotated-rewards-protocol';
import { runInProcess } from '../run-cli';

addProtocols([annotatedRewardsProtocol]);
const PROTOCOL = annotatedRewardsProtocol.id;

const ROUNDS = 6;
/** The reward each round's annotation reports (the wire's `end` says otherwise). */
const rewardOf = (round: number) => round * 10 - 0.5;

/** Games of the counter, the rewards of each round in an annotation; one `add` too many in round 2. */
function play(recorder: TranscriptRecorder): void {
  recorder.addConnection('c1', 'game');
  recorder.event('c1', 'c2s', 'open');
  for (let round = 1; round <= ROUNDS; round++) {
    recorder.text('c1', 's2c', JSON.stringify({ type: 'start', target: 300 }));
    for (let step = 0; step < 150; step++) {
      recorder.text('c1', 's2c', JSON.stringify({ type: 'state', value: step * 2, reward: -1 }));
      recorder.text('c1', 'c2s', JSON.stringify({ type: 'add', amount: 2 }));
      if (round === 2 && step === 10) recorder.text('c1', 'c2s', JSON.stringify({ type: 'add', amount: 1 }));
      if (step % 25 === 0) recorder.annotate('note', { message: `round ${round}, step ${step}` });
    }
    const end = recorder.text('c1', 's2c', JSON.stringify({ type: 'end', total: -150 }));
    recorder.annotate('reward', { kind: 'round', round, reward: rewardOf(round) }, end.index);
  }
  recorder.event('c1', 's2c', 'close');
}

interface Report {
  protocol: string;
  messages: number;
  rounds: { session: number; round: number; reward: number | null }[];
  violations: { index: number; rule: string }[];
  errors: { message: string }[];
}

/** `inspect FILE --json`, read whole and in chunks: both results, the report parsed. */
async function inspectBoth(file: string) {
  const whole = await runInProcess(['inspect', file, '--json']);
  const streamed = await runInProcess(['inspect', file, '--json', '--stream']);
  return { whole, streamed, report: JSON.parse(whole.stdout) as Report };
}

describe('inspect hands annotations to the protocol reader, whole and in chunks alike', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'protoplay-inspect-annotations-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('prints the same rounds, rewards and violations for a finished transcript', async () => {
    let t = 0;
    const recorder = new TranscriptRecorder({ protocol: PROTOCOL, now: () => (t += 2) });
    play(recorder);
    const file = join(dir, 'finished.json');
    await writeFile(file, serialiseTranscript(recorder.transcript));
    const { whole, streamed, report } = await inspectBoth(file);
    expect(whole.code).toBe(1);
    expect(streamed).toEqual(whole);
    expect(report.protocol).toBe(PROTOCOL);
    // More messages than the reader is handed at once: annotations come with later batches.
    expect(report.messages).toBeGreaterThan(1800);
    expect(report.rounds).toEqual(
      Array.from({ length: ROUNDS }, (_, i) => ({ session: 1, round: i + 1, reward: rewardOf(i + 1) })),
    );
    expect(report.violations).toEqual([
      // Round 1 is 303 messages; round 2's extra add follows the start, 10 steps and the 11th state and add.
      expect.objectContaining({ index: 303 + 1 + 2 * 10 + 2, rule: 'counter.add.expected' }),
    ]);
    expect(report.errors).toEqual([]);
  });

  it('prints the same report for a transcript cut short while it was written', async () => {
    const file = join(dir, 'running.json');
    const stream = new TranscriptFileStream(file, PROTOCOL, dir, 5);
    let t = 0;
    const recorder = new TranscriptRecorder({
      protocol: PROTOCOL,
      now: () => (t += 2),
      sink: stream,
      keep: false,
    });
    play(recorder);
    stream.flush();
    // Not finished; the file as a kill would leave it midway through round 5.
    const text = await readFile(file, 'utf8');
    const cutAt = text.indexOf('{"kind":"round","round":4');
    expect(cutAt).toBeGreaterThan(0);
    const cut = join(dir, 'cut.json');
    // Inside a message line (annotations have no direction).
    const kept = text.slice(0, text.indexOf('"dir":"s2c"', cutAt + 5_000));
    await writeFile(cut, kept);
    // Every annotation line before the cut is whole: all are kept.
    const annotations = kept.split('\n').filter((line) => /^ {4}\{"index":\d+,"type":/.test(line)).length;
    expect(annotations).toBeGreaterThan(4 * 7);
    const { whole, streamed, report } = await inspectBoth(cut);
    expect(whole.code).toBe(1);
    expect(streamed).toEqual(whole);
    expect(report.rounds).toEqual(
      [1, 2, 3, 4].map((round) => ({ session: 1, round, reward: rewardOf(round) })),
    );
    expect(report.violations).toHaveLength(1);
    expect(report.errors).toEqual([
      {
        file: cut,
        line: kept.split('\n').length,
        message: `the file ends inside message ${report.messages.toLocaleString('en-US')}; kept the header, ${report.messages.toLocaleString('en-US')} complete messages and ${annotations} annotations before it`,
      },
    ]);
    stream.finish(recorder.transcript);
  });

  it('reads a MASSim transcript with its world annotations alike', async () => {
    const file = join(dir, 'massim.json');
    const run = await runInProcess([
      'run',
      'massim',
      '--steps',
      '12',
      '--agents',
      '2',
      '--wait-between-simulations',
      '0',
      '--seed',
      '3',
      '--transcript',
      file,
    ]);
    expect(run.code).toBe(0);
    expect(await readFile(file, 'utf8')).toContain('"type":"world"');
    const { whole, streamed, report } = await inspectBoth(file);
    expect(whole.code).toBe(0);
    expect(streamed).toEqual(whole);
    expect(report.rounds).toHaveLength(1);
  });
});
