/**
 * `protoplay evaluate massim`: two matches per seed (sides swapped) in a small configuration, in policy
 * threads; a policy that throws is stopped with its located reason (exit code 1); usage errors for a
 * configuration the evaluation cannot play.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationReport } from '../../../../src/core/evaluation/report';
import { runChild, runInProcess } from '../../run-cli';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-evaluate-massim-'));
  await writeFile(join(dir, 'skip.js'), "export function act() { return { type: 'skip', p: [] }; }\n");
  await writeFile(
    join(dir, 'throws.js'),
    "export function act(percept, agent) {\n  if (agent.step === 2) throw new Error('massim boom');\n  return { type: 'skip', p: [] };\n}\n",
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SMALL = ['--agents', '2', '--steps', '20', '--grid', '12x12'];

describe('protoplay evaluate massim', () => {
  it('plays two matches per seed and stops a policy that throws', async () => {
    const result = await runChild(
      [
        'evaluate',
        'massim',
        ...SMALL,
        '--opponent',
        'random',
        '--policies',
        'skip.js',
        'throws.js',
        '--seeds',
        '1..2',
        '--workers',
        '2',
        '--json',
      ],
      { cwd: dir },
    );
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as EvaluationReport;
    expect(report).toMatchObject({
      protocol: 'massim',
      unit: 'match',
      roundsPerSeed: 2,
      status: 'failures',
      environment: '2 x 2 agents, 12 x 12, 20 steps vs random',
    });
    const [skip, throws] = report.policies;
    // A team that never acts scores nothing, on either side.
    expect(skip).toMatchObject({ status: 'evaluated', seeds: 2, rounds: 4, mean: 0, sd: 0 });
    expect(skip!.rewards).toEqual({ '1': [0, 0], '2': [0, 0] });
    expect(throws!.status).toBe('failed');
    expect(throws!.failures[0]).toMatchObject({ kind: 'fault', round: 1, turn: 3 });
    expect(throws!.failures[0]!.reason).toMatch(/^throws\.js:2:\d+: Error: massim boom$/);
  });

  it('refuses a match count per seed other than two, and an unknown opponent', async () => {
    const rounds = await runInProcess(
      ['evaluate', 'massim', ...SMALL, '--rounds', '3', '--policies', 'skip.js'],
      { cwd: dir },
    );
    expect(rounds.code).toBe(2);
    expect(rounds.stderr).toContain('a MASSim seed always plays 2 matches');
    const opponent = await runInProcess(
      ['evaluate', 'massim', ...SMALL, '--opponent', 'nobody', '--policies', 'skip.js'],
      { cwd: dir },
    );
    expect(opponent.code).toBe(2);
    expect(opponent.stderr).toMatch(/--opponent must be a \.ts or \.js file or one of skip, random/);
  });
});
