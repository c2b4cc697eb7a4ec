import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBigMassimTimeline } from '../../../bench/inspect/big-massim-timeline';
import { runChild, runInProcess, type CliResult } from '../run-cli';
import { sharedPath } from '../shared-folder';

/** Runs `protoplay` in a child whose JS heap is capped: reading a big file whole would exhaust it. */
function runCapped(args: string[], heapMiB: number): Promise<CliResult> {
  return runChild(args, { nodeArgs: [`--max-old-space-size=${heapMiB}`] });
}

const timeline = (run: string) => sharedPath(`conformance/massim/${run}/all.timeline.jsonl`);

describe('protoplay inspect reads MASSim recordings in chunks', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'protoplay-inspect-massim-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('prints the same report read in chunks as read whole: real runs, a long match, damaged files', async () => {
    const long = join(dir, 'long', 'all.timeline.jsonl');
    await mkdir(join(dir, 'long'));
    await writeBigMassimTimeline(await readFile(timeline('basic'), 'utf8'), long, 400_000);
    const lines = (await readFile(timeline('probes'), 'utf8')).split('\n');
    lines[40] = '{"t": 1795294218908, "conn": "agentA2.conn1", "dir": "s2c", "te';
    const damaged = join(dir, 'damaged.timeline.jsonl');
    await writeFile(damaged, lines.join('\n').slice(0, -40));
    const files = ['basic', 'probes', 'events', 'multisim'].map(timeline);
    for (const file of [...files, long, damaged]) {
      const whole = await runInProcess(['inspect', file, '--json']);
      const streamed = await runInProcess(['inspect', file, '--json', '--stream']);
      const report = JSON.parse(streamed.stdout) as { format: string; messages: number };
      expect(report.format).toBe('massim-timeline');
      expect(report.messages).toBeGreaterThan(40);
      expect(streamed).toEqual(whole);
    }
    const report = JSON.parse((await runInProcess(['inspect', damaged, '--json', '--stream'])).stdout) as {
      errors: { line: number; message: string }[];
    };
    expect(report.errors).toEqual([
      { file: expect.stringContaining('damaged'), line: 41, message: 'Not a JSON line.' },
      {
        file: expect.stringContaining('damaged'),
        line: lines.length - 1,
        message: expect.stringContaining('ends in the middle of a line'),
      },
    ]);
  });

  it('reads 120 MB under a 64 MiB heap, with every step, and locates a line cut by the end', async () => {
    const big = join(dir, 'all.timeline.jsonl');
    const { steps, size } = await writeBigMassimTimeline(
      await readFile(timeline('basic'), 'utf8'),
      big,
      120e6,
      {
        truncateLast: true,
      },
    );
    expect(size).toBeGreaterThan(110e6);
    const result = await runCapped(['inspect', big, '--json'], 64);
    expect(result.stderr).not.toContain('heap out of memory');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      format: string;
      messages: number;
      violations: unknown[];
      errors: { file: string; line: number; message: string }[];
    };
    expect(report.format).toBe('massim-timeline');
    // 4 agents: a request-action and an action per step, and every agent's frames before and after.
    expect(report.messages).toBeGreaterThan(steps * 8);
    expect(report.violations).toEqual([]);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]!.message).toContain('ends in the middle of a line');
  });
});
