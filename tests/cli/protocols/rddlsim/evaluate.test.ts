/**
 * `protoplay evaluate rddlsim` end to end, as the package's binary in a child process: two policies from a
 * folder written to CSV and JSON with exit code 0; a looping policy added makes the exit code 1 and its
 * row says why; rounds the server ends early (a no-op breaking a precondition) are counted with their
 * reason in the table, the JSON and the CSV; bad arguments are usage errors (exit code 2).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationReport } from '../../../../src/core/evaluation/report';
import { formatReport } from '../../../../cli/evaluate/evaluate';
import { runChild, runInProcess } from '../../run-cli';
import { sharedPath } from '../../shared-folder';
import { GATE_RDDL } from './gate-domain';

const DOMAIN = sharedPath('rddl/ippc2011/sysadmin_mdp.rddl');
const INSTANCE = sharedPath('rddl/ippc2011/sysadmin_inst_mdp__1.rddl');

const POLICIES: Record<string, string> = {
  'submissions/a-noop.js': 'export function act() { return null; }',
  'submissions/b-reboot.ts': [
    'export function act(observation: { values: Record<string, unknown> }, context: { random(): number }) {',
    '  const down = Object.keys(observation.values).filter((key) => observation.values[key] === false);',
    '  if (down.length === 0) return null;',
    '  const key = down[Math.floor(context.random() * down.length)]!;',
    "  return { name: 'reboot', args: [key.slice(key.indexOf('(') + 1, -1)] };",
    '}',
  ].join('\n'),
  'loop.js': 'export function act(o) { if (o.turn === 2) while (true) {} return null; }',
  'gate/noop.js': 'export function act() { return null; }',
  'gate/press.js': "export function act(o) { return o.turn >= 2 ? { name: 'press', args: [] } : null; }",
};

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-evaluate-'));
  await mkdir(join(dir, 'submissions'));
  await mkdir(join(dir, 'gate'));
  await writeFile(join(dir, 'gate.rddl'), GATE_RDDL);
  for (const [name, code] of Object.entries(POLICIES)) await writeFile(join(dir, name), code);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const evaluate = (extra: string[]) =>
  runChild(['evaluate', 'rddlsim', '--domain', DOMAIN, '--instance', INSTANCE, '--workers', '2', ...extra], {
    cwd: dir,
  });

function parseCsv(text: string): Record<string, string>[] {
  const [header, ...rows] = text.trimEnd().split('\n');
  const names = header!.split(',');
  return rows.map((row) => {
    const cells: string[] = [];
    const pattern = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
    for (const match of row.matchAll(pattern)) {
      const cell = match[1]!;
      cells.push(cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell);
      if (match[2] === '') break;
    }
    return Object.fromEntries(names.map((name, i) => [name, cells[i] ?? '']));
  });
}

describe('protoplay evaluate rddlsim', () => {
  it('evaluates a folder of policies on the same seeds and writes CSV and JSON', async () => {
    const result = await evaluate([
      '--policies',
      'submissions',
      '--seeds',
      '1..6',
      '--out',
      'r.csv',
      '--out',
      'out/r.json',
    ]);
    expect(result.stderr).toMatch(/evaluated 12\/12 episodes/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/submissions\/b-reboot\.ts vs submissions\/a-noop\.js: \+/);

    const report = JSON.parse(await readFile(join(dir, 'out/r.json'), 'utf8')) as EvaluationReport;
    expect(report).toMatchObject({
      format: 'protoplay-evaluation',
      protocol: 'rddlsim',
      environment: 'sysadmin_inst_mdp__1',
      unit: 'round',
      seeds: [1, 2, 3, 4, 5, 6],
      status: 'complete',
    });
    const [noop, reboot] = report.policies;
    expect(noop).toMatchObject({ policy: 'submissions/a-noop.js', status: 'evaluated', seeds: 6, rounds: 6 });
    expect(Object.keys(noop!.rewards)).toEqual(['1', '2', '3', '4', '5', '6']);
    const mean =
      Object.values(noop!.rewards)
        .flat()
        .reduce((a, b) => a + b, 0) / 6;
    expect(noop!.mean).toBeCloseTo(mean, 9);
    expect(reboot!.mean!).toBeGreaterThan(noop!.mean!);
    expect(report.comparisons).toHaveLength(1);
    expect(report.comparisons[0]).toMatchObject({ policy: reboot!.policy, baseline: noop!.policy, pairs: 6 });
    expect(report.comparisons[0]!.verdict).toMatch(/^submissions\/b-reboot\.ts is better by|^no detectable/);

    const csv = parseCsv(await readFile(join(dir, 'r.csv'), 'utf8'));
    expect(csv.map((row) => [row.kind, row.policy, row.status])).toEqual([
      ['policy', 'submissions/a-noop.js', 'evaluated'],
      ['policy', 'submissions/b-reboot.ts', 'evaluated'],
      ['comparison', 'submissions/b-reboot.ts', ''],
    ]);
    expect(Number(csv[0]!.mean)).toBeCloseTo(noop!.mean!, 9);
    expect(Number(csv[2]!.p_value)).toBeCloseTo(report.comparisons[0]!.p!, 12);
  });

  it('exits 1 when a policy fails, with the reason in its row, and evaluates the others', async () => {
    const result = await evaluate([
      '--policies',
      'submissions/a-noop.js',
      'loop.js',
      '--seeds',
      '1..3',
      '--budget',
      '1500',
      '--out',
      'fail.csv',
      '--json',
    ]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as EvaluationReport;
    expect(report.status).toBe('failures');
    expect(report.policies.map((p) => [p.policy, p.status, p.seeds])).toEqual([
      ['submissions/a-noop.js', 'evaluated', 3],
      ['loop.js', 'failed', 0],
    ]);
    const csv = parseCsv(await readFile(join(dir, 'fail.csv'), 'utf8'));
    expect(csv[1]).toMatchObject({ policy: 'loop.js', status: 'failed' });
    // Each of the policy's threads that was playing a seed when it looped counts a failure: how many threads
    // it had then depends on the machine's cores and on timing (a thread freed by the noop policy goes to
    // it), so one failure at least and at most one per seed.
    expect(Number(csv[1]!.failures)).toBeGreaterThanOrEqual(1);
    expect(Number(csv[1]!.failures)).toBeLessThanOrEqual(3);
    expect(csv[1]!.reason).toMatch(
      /^timeout on seed \d: a call took longer than its budget of 1500 ms on round 1, turn 2/,
    );
  });

  it('counts the rounds the server ended early, with the reason and where it first happened', async () => {
    const args = ['evaluate', 'rddlsim', '--domain', 'gate.rddl', '--instance', 'gate.rddl'];
    const options = ['--policies', 'gate', '--seeds', '1..3', '--rounds', '2', '--workers', '2'];
    const result = await runChild([...args, ...options, '--json', '--out', 'gate.csv'], { cwd: dir });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as EvaluationReport;
    const [noop, press] = report.policies;
    expect(noop!.policy).toBe('gate/noop.js');
    // The no-op breaks the precondition on turn 3 of every round; pressing there keeps the round going.
    expect(Object.values(noop!.rewards).flat()).toEqual([2, 2, 2, 2, 2, 2]);
    expect(noop!.endedEarly.units).toBe(6);
    expect(noop!.endedEarly.reasons).toEqual([
      {
        reason: expect.stringMatching(/^action precondition is false: t < 2 \| press \(line 9\)/) as string,
        units: 6,
        seed: 1,
        round: 1,
      },
    ]);
    expect(Object.values(press!.rewards).flat()).toEqual([5, 5, 5, 5, 5, 5]);
    expect(press!.endedEarly).toEqual({ units: 0, reasons: [] });
    // The table (without --json) says it under the policies.
    const text = formatReport(report, 1);
    expect(text).toContain(
      [
        '  gate/noop.js: 6 of 6 rounds ended early:',
        '    6 rounds (first seed 1, round 1): action precondition is false: t < 2 | press (line 9): ',
      ].join('\n'),
    );
    expect(text).not.toMatch(/gate\/press\.js: \d+ of/);

    const csv = parseCsv(await readFile(join(dir, 'gate.csv'), 'utf8'));
    expect(csv.slice(0, 2).map((row) => [row.policy, row.ended_early])).toEqual([
      ['gate/noop.js', '6'],
      ['gate/press.js', '0'],
    ]);
  });

  it('refuses bad arguments with usage errors', async () => {
    const base = ['evaluate', 'rddlsim', '--domain', DOMAIN, '--instance', INSTANCE];
    const none = await runInProcess(base, { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/give the policies/);
    const seeds = await runInProcess([...base, '--policies', 'loop.js', '--seeds', '5..1'], { cwd: dir });
    expect(seeds.code).toBe(2);
    expect(seeds.stderr).toMatch(/--seeds: seed range '5\.\.1' ends before it starts/);
    const out = await runInProcess([...base, '--policies', 'loop.js', '--out', 'r.txt'], { cwd: dir });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/must end in \.csv or \.json/);
    const stray = await runInProcess([...base, 'loop.js'], { cwd: dir });
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/unexpected argument 'loop\.js'/);
  });
});
