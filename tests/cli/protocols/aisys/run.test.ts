/**
 * `protoplay run aisys`: runs against the emulated server in memory, with built-in and file policies, its
 * text and JSON reports, the transcript, and its usage and policy errors.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aisysProtocol } from '../../../../src/core/protocols/aisys/protocol';
import { validate } from '../../../../src/core/protocols/machine';
import { parseTranscriptJson } from '../../../../src/core/transcript/json-format';
import { runInProcess } from '../../run-cli';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-aisys-run-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('protoplay run aisys', () => {
  it('plays the runs and prints each with its outcome, then the summary', async () => {
    const result = await runInProcess([
      'run',
      'aisys',
      '--env',
      'nim',
      '--policy',
      'optimal',
      '--runs',
      '10',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(
      lines.filter((line) => /^round +\d+\/\d+ +reward +1\.0 +turns \d$/.test(line)).length,
    ).toBeGreaterThanOrEqual(10);
    expect(result.stdout).toContain('mean reward     1.0');
  });

  it('tells the runs past --runs apart, as extra runs of the answer that reached the limit', async () => {
    const result = await runInProcess(['run', 'aisys', '--env', 'nim', '--runs', '12']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    // Seed 0, five runs in parallel: the answer that finishes the 12th finishes the 13th to the 15th.
    expect(lines.slice(11, 15)).toEqual([
      'round  12/12  reward          1.0  turns 3',
      'round  13  reward          1.0  turns 3  (extra run: finished in the answer that reached --runs 12)',
      'round  14  reward          1.0  turns 3  (extra run: finished in the answer that reached --runs 12)',
      'round  15  reward          1.0  turns 3  (extra run: finished in the answer that reached --runs 12)',
    ]);
    expect(lines).toContain('rounds          15');
    expect(lines).toContain(
      'extra runs      3 of the 15 (they finished in the answer that reached --runs 12)',
    );
    const json = await runInProcess(['run', 'aisys', '--env', 'nim', '--runs', '12', '--json']);
    const report = JSON.parse(json.stdout) as { runLimit: number; rounds: { pastTotal?: string }[] };
    expect(report.runLimit).toBe(12);
    expect(report.rounds.filter((round) => round.pastTotal !== undefined)).toHaveLength(3);
  });

  it('prints one JSON document with --json and writes a transcript both machines accept', async () => {
    const file = join(dir, 'run.json');
    const result = await runInProcess(
      [
        'run',
        'aisys',
        '--env',
        'nim-strong',
        '--policy',
        'random',
        '--runs',
        '8',
        '--seed',
        '4',
        '--json',
        '--transcript',
        file,
      ],
      { now: () => 1000 },
    );
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      status: string;
      runs: { run: string; outcome: number; actions: number }[];
    };
    expect(report).toMatchObject({
      protocol: 'aisys',
      env: 'nim-strong',
      policy: 'random',
      seed: 4,
      status: 'finished',
    });
    expect(report.runs.length).toBeGreaterThanOrEqual(8);
    const transcript = parseTranscriptJson(await readFile(file, 'utf8'));
    expect(transcript.protocol).toBe('aisys');
    expect(transcript.messages[0]!.http).toMatchObject({ method: 'PUT', path: '/act/nim-strong' });
    for (const machine of aisysProtocol.machines)
      expect(validate(machine, transcript.messages).violations).toEqual([]);
    // The same seed plays the same runs.
    const again = await runInProcess([
      'run',
      'aisys',
      '--env',
      'nim-strong',
      '--policy',
      'random',
      '--runs',
      '8',
      '--seed',
      '4',
      '--json',
    ]);
    expect((JSON.parse(again.stdout) as typeof report).runs).toEqual(report.runs);
  });

  it('runs a policy file in a worker thread, with a memory per run', async () => {
    const policy = join(dir, 'memory.ts');
    await writeFile(
      policy,
      `export function act(percept: number, run: { memory: { n?: number }; actNo: number }) {
  run.memory.n = (run.memory.n ?? 0) + 1;
  if (run.memory.n !== run.actNo + 1) throw new Error('forgot');
  return percept % 4 || 1;
}
`,
    );
    const result = await runInProcess([
      'run',
      'aisys',
      '--policy',
      policy,
      '--runs',
      '6',
      '--no-parallel-runs',
      '--json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ parallelRuns: false, status: 'finished' });
  });

  it('ends with the policy exit code and the located error when the policy fails', async () => {
    const broken = join(dir, 'broken.ts');
    await writeFile(broken, 'export function act(percept: number) {\n  return percept +;\n}\n');
    const syntax = await runInProcess(['run', 'aisys', '--policy', broken], { cwd: dir });
    expect(syntax.code).toBe(3);
    expect(syntax.stderr).toMatch(/^broken\.ts:2:\d+: /);
    const throwing = join(dir, 'throwing.ts');
    await writeFile(throwing, 'export function act() {\n  throw new Error("no idea");\n}\n');
    const thrown = await runInProcess(['run', 'aisys', '--policy', throwing], { cwd: dir });
    expect(thrown.code).toBe(3);
    expect(thrown.stderr).toMatch(/throwing\.ts:2:\d+: .*no idea/);
  });

  it('refuses unknown environments and contradicting flags', async () => {
    const unknown = await runInProcess(['run', 'aisys', '--env', 'chess']);
    expect(unknown).toMatchObject({
      code: 2,
      stderr:
        "error: unknown environment 'chess'; one of nim, nim-strong, wumpus-cave, halma, halma-3, halma-rhombus\n",
    });
    const both = await runInProcess(['run', 'aisys', '--parallel-runs', '--no-parallel-runs']);
    expect(both.code).toBe(2);
  });
});
