import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBigRddlsimStream } from '../../../bench/inspect/big-recording';
import { loadRecording } from '../../core/protocols/rddlsim/recordings';
import { runChild, runInProcess, type CliResult } from '../run-cli';

/** Runs `protoplay` in a child whose JS heap is capped: reading a big file whole would exhaust it. */
function runCapped(args: string[], heapMiB: number): Promise<CliResult> {
  return runChild(args, { nodeArgs: [`--max-old-space-size=${heapMiB}`] });
}

describe('protoplay inspect reads big files in chunks', () => {
  let dir: string;
  const recorded = loadRecording('sysadmin_inst_mdp__1').messages;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'protoplay-inspect-stream-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('prints the same report read in chunks as read whole, for sound and damaged files', async () => {
    const sound = join(dir, 'sound.log');
    await writeBigRddlsimStream(recorded, sound, 300_000);
    const cut = join(dir, 'cut.log');
    await writeBigRddlsimStream(recorded, cut, 300_000, { truncateLast: true });
    const pyrddlgym = resolve('tests/data/pyrddlgym/session.log');
    for (const file of [sound, cut, pyrddlgym]) {
      const whole = await runInProcess(['inspect', file, '--json']);
      const streamed = await runInProcess(['inspect', file, '--json', '--stream']);
      const report = JSON.parse(streamed.stdout) as { messages: number };
      expect(report.messages).toBeGreaterThan(5);
      expect(streamed).toEqual(whole);
    }
  });

  it('reads 150 MB under a 128 MiB heap, with every round, and locates a message cut by the end', async () => {
    const big = join(dir, 'big.log');
    const { rounds, roundReward, size } = await writeBigRddlsimStream(recorded, big, 150e6, {
      truncateLast: true,
    });
    expect(size).toBeGreaterThan(140e6);
    const result = await runCapped(['inspect', big, '--json'], 128);
    expect(result.stderr).not.toContain('heap out of memory');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      format: string;
      rounds: { round: number; reward: number }[];
      violations: unknown[];
      errors: { file: string; byte?: number; message: string }[];
    };
    expect(report.format).toBe('rddlsim-wire-text');
    expect(report.rounds).toHaveLength(rounds);
    expect(report.rounds.every((round) => round.reward === roundReward)).toBe(true);
    const text = await readFile(big);
    const lastStart = text.lastIndexOf(0) + 1;
    let line = 1;
    for (let at = text.indexOf(0x0a); at >= 0 && at < lastStart; at = text.indexOf(0x0a, at + 1)) line++;
    expect(report.errors).toEqual([
      {
        file: big,
        line,
        byte: lastStart,
        message: expect.stringContaining('ends in the middle of a message'),
      },
    ]);
    // The session-end was cut, so the session did not end as the protocol requires.
    expect(report.violations.length).toBeGreaterThan(0);
  });
});
