import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../run-cli';
import { sharedPath } from '../shared-folder';

describe('protoplay inspect on the MASSim server replay folder', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'protoplay-inspect-replay-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads a whole run folder (replays, logs, results): one session per simulation, not rule-checked', async () => {
    const result = await runInProcess([
      'inspect',
      sharedPath('conformance/massim/multisim/server-run'),
      '--json',
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ protocol: 'massim', format: 'massim-replay', sessions: 2, errors: [] });
    expect(report.unchecked).toHaveLength(2);
    expect((report.rounds as unknown[]).length).toBe(2);
  });

  it('exits 1 and locates a step file cut off mid-JSON, still printing what it read', async () => {
    const copy = join(dir, 'basic');
    await cp(sharedPath('conformance/massim/basic/server-run/replays'), copy, { recursive: true });
    const [folder] = await readdir(copy);
    await writeFile(join(copy, folder!, '10.json'), '{"10": {"scores": [["A", 0]');
    const result = await runInProcess(['inspect', copy]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('massim-replay');
    expect(result.stdout).toContain('session 1: 4 connections');
    expect(result.stdout).toMatch(/10\.json:1: not valid JSON.*steps 10–14 are left out/);
  });

  it('refuses an empty folder as a usage error', async () => {
    const empty = join(dir, 'empty');
    await mkdir(empty);
    const result = await runInProcess(['inspect', empty]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('holds no files');
  });
});
