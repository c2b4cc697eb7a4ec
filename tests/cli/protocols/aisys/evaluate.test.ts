/**
 * `protoplay evaluate aisys`: runs of Nim as rewards, a policy that throws stopped with its located reason
 * while the other is evaluated (exit code 1), and a clean evaluation (exit code 0).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationReport } from '../../../../src/core/evaluation/report';
import { runChild } from '../../run-cli';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-evaluate-aisys-'));
  await writeFile(join(dir, 'one.js'), 'export function act() { return 1; }\n');
  await writeFile(
    join(dir, 'throws.js'),
    "export function act(percept, run) {\n  if (run.actNo === 1) throw new Error('nope');\n  return 1;\n}\n",
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('protoplay evaluate aisys', () => {
  it('scores runs of Nim per seed and stops a policy that throws', async () => {
    const result = await runChild(
      [
        'evaluate',
        'aisys',
        '--env',
        'nim',
        '--policies',
        'one.js',
        'throws.js',
        '--seeds',
        '1..3',
        '--rounds',
        '6',
        '--json',
      ],
      { cwd: dir },
    );
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as EvaluationReport;
    expect(report).toMatchObject({ protocol: 'aisys', environment: 'nim', unit: 'run', status: 'failures' });
    const [one, throws] = report.policies;
    expect(one).toMatchObject({ status: 'evaluated', seeds: 3, rounds: 18 });
    // Nim's outcome is 1 for a win and 0 for a loss.
    for (const rewards of Object.values(one!.rewards)) {
      expect(rewards).toHaveLength(6);
      for (const reward of rewards) expect([0, 1]).toContain(reward);
    }
    expect(throws!.status).toBe('failed');
    expect(throws!.failures[0]!.kind).toBe('fault');
    expect(throws!.failures[0]!.reason).toMatch(/^throws\.js:2:\d+: Error: nope$/);
  });

  it('exits 0 when every policy is evaluated', async () => {
    const result = await runChild(
      ['evaluate', 'aisys', '--policies', 'one.js', '--seeds', '1..2', '--rounds', '3'],
      { cwd: dir },
    );
    expect(result.stderr).not.toMatch(/failed/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^aisys nim: 1 policy, 2 seeds x 3 runs/);
  });
});
