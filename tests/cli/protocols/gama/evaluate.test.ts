/**
 * `protoplay evaluate gama`: episodes of a scenario per seed as rewards; a scavenger that never moves
 * collects nothing; a policy that throws is stopped with its located reason (exit code 1).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationReport } from '../../../../src/core/evaluation/report';
import { runChild } from '../../run-cli';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-evaluate-gama-'));
  await writeFile(join(dir, 'idle.js'), "export function act() { return 'idle'; }\n");
  await writeFile(join(dir, 'throws.js'), "export function act() {\n  throw new Error('gama boom');\n}\n");
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('protoplay evaluate gama', () => {
  it('scores episodes per seed and stops a policy that throws', async () => {
    const result = await runChild(
      [
        'evaluate',
        'gama',
        '--scenario',
        'C',
        '--cycles',
        '30',
        '--policies',
        'idle.js',
        'throws.js',
        '--seeds',
        '1..3',
        '--json',
      ],
      { cwd: dir },
    );
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as EvaluationReport;
    expect(report).toMatchObject({ protocol: 'gama', unit: 'episode', status: 'failures' });
    const [idle, throws] = report.policies;
    expect(idle).toMatchObject({ status: 'evaluated', seeds: 3, rounds: 3, mean: 0, sd: 0 });
    expect(throws!.failures[0]).toMatchObject({ kind: 'fault', round: 1, turn: 1 });
    expect(throws!.failures[0]!.reason).toMatch(/^throws\.js:2:\d+: Error: gama boom$/);
  });
});
