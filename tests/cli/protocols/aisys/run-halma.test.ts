/**
 * `protoplay run aisys` on the Halma-like games: the environments come from the ready-made list, the
 * greedy sample is their default policy, and the report, transcript and seed behave as for Nim.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aisysProtocol } from '../../../../src/core/protocols/aisys/protocol';
import { validate } from '../../../../src/core/protocols/machine';
import { parseTranscriptJson } from '../../../../src/core/transcript/json-format';
import { runInProcess } from '../../run-cli';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-aisys-halma-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('protoplay run aisys --env halma...', () => {
  it('plays Halma with the greedy sample by default, the same games for the same seed', async () => {
    const file = join(dir, 'halma.json');
    const args = ['run', 'aisys', '--env', 'halma', '--runs', '6', '--seed', '2', '--json'];
    const result = await runInProcess([...args, '--transcript', file], { now: () => 1000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      runs: { run: string; outcome: number; actions: number }[];
    };
    expect(report).toMatchObject({ protocol: 'aisys', env: 'halma', policy: 'greedy', status: 'finished' });
    expect(report.runs.length).toBeGreaterThanOrEqual(6);
    for (const run of report.runs) {
      expect([0, 0.5, 1]).toContain(run.outcome);
      // A game takes a handful of moves at least: the pieces have a long way to go.
      expect(run.actions).toBeGreaterThan(5);
    }
    const transcript = parseTranscriptJson(await readFile(file, 'utf8'));
    expect(transcript.messages[0]!.http).toMatchObject({ method: 'PUT', path: '/act/halma' });
    const firstAnswer = JSON.parse(transcript.messages[1]!.text!) as {
      action_requests: { percept: Record<string, unknown> }[];
    };
    expect(Object.keys(firstAnswer.action_requests[0]!.percept)).toEqual(['A', 'B']);
    for (const machine of aisysProtocol.machines)
      expect(validate(machine, transcript.messages).violations).toEqual([]);
    const again = await runInProcess(args);
    expect((JSON.parse(again.stdout) as typeof report).runs).toEqual(report.runs);
  });

  it('plays the three-player star and the rhombus, one run at a time, with a text report', async () => {
    for (const env of ['halma-3', 'halma-rhombus']) {
      const result = await runInProcess([
        'run',
        'aisys',
        '--env',
        env,
        '--policy',
        'greedy',
        '--runs',
        '3',
        '--no-parallel-runs',
      ]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const rounds = result.stdout
        .split('\n')
        .filter((line) => /^round +\d+\/3 +reward +(0|0\.5|1)\.?\d* +turns \d+$/.test(line));
      expect(rounds.length).toBe(3);
    }
  });
});
