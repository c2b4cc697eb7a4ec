import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GAMA_SAMPLES, gamaFrameLogFormat } from '../../../../src/core/protocols/gama';
import type { Transcript } from '../../../../src/core/transcript/model';
import { runChild, runInProcess } from '../../run-cli';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gama-run-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('run gama', () => {
  it('plays episodes headless and prints rewards and the social metrics; the same seed repeats', async () => {
    const args = [
      'run',
      'gama',
      '--scenario',
      'A',
      '--policy',
      'greedy',
      '--episodes',
      '2',
      '--cycles',
      '150',
      '--seed',
      '4',
      '--json',
    ];
    const first = await runInProcess(args, { cwd: dir });
    const second = await runInProcess(args, { cwd: dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(second.stdout);
    const report = JSON.parse(first.stdout);
    expect(report).toMatchObject({ protocol: 'gama', scenario: 'A_small', policy: 'greedy', seed: 4 });
    expect(report.episodes).toHaveLength(2);
    expect(report.episodes[0].scavengers[0].reward).toBeGreaterThan(0);
    expect(Object.keys(report.episodes[0].metrics)).toEqual([
      'utilitarian',
      'equality',
      'sustainability',
      'peace',
    ]);
    const text = await runInProcess(
      ['run', 'gama', '--scenario', 'A', '--policy', 'random', '--cycles', '20'],
      { cwd: dir },
    );
    expect(text.stdout).toMatch(/^episode {3}1 {2}cycles {3}20 {2}reward/);
    expect(text.stdout).toMatch(/\nutilitarian {5}\d/);
  });

  it('writes the transcript and a frame log that reads back', async () => {
    const result = await runInProcess(
      [
        'run',
        'gama',
        '--scenario',
        'A',
        '--policy',
        'random',
        '--cycles',
        '10',
        '--transcript',
        't.json',
        '--frame-log',
        'f.gamalog',
        '--observation',
        'rgb',
      ],
      { cwd: dir },
    );
    expect(result.code).toBe(0);
    const log = await readFile(join(dir, 'f.gamalog'));
    const outcome = gamaFrameLogFormat.read([{ name: 'f.gamalog', bytes: log }]);
    expect(outcome.problems).toEqual([]);
    expect(outcome.transcripts[0]!.messages.filter((m) => m.dir === 's2c')).toHaveLength(11);
    expect(JSON.parse(await readFile(join(dir, 't.json'), 'utf8')).protocol).toBe('gama');
  });

  it('stops with exit 3 and a located message when the policy throws, or goes on with --on-policy-error idle', async () => {
    await writeFile(join(dir, 'thrower.ts'), "export function act() {\n  throw new Error('no idea');\n}\n");
    const stopped = await runChild(
      ['run', 'gama', '--scenario', 'A', '--policy', 'thrower.ts', '--cycles', '5'],
      { cwd: dir },
    );
    expect(stopped.code).toBe(3);
    expect(stopped.stderr).toContain('thrower.ts:2:');
    expect(stopped.stderr).toContain('no idea');
    const idle = await runChild(
      [
        'run',
        'gama',
        '--scenario',
        'A',
        '--policy',
        'thrower.ts',
        '--cycles',
        '5',
        '--on-policy-error',
        'idle',
        '--json',
      ],
      { cwd: dir },
    );
    expect(idle.code).toBe(3);
    expect(JSON.parse(idle.stdout).episodes[0].cycles).toBe(5);
  });

  it('plays a policy file in its thread (the episodes beside it) to the same transcript as in-process', async () => {
    const transcripts: Transcript[] = [];
    for (const sample of ['random', 'sustainable']) {
      const code = GAMA_SAMPLES.find((s) => s.id === sample)!.code;
      await writeFile(join(dir, `${sample}.ts`), code);
      for (const policy of [sample, `${sample}.ts`]) {
        const args = ['run', 'gama', '--scenario', 'C', '--policy', policy, '--cycles', '60'];
        const more = ['--episodes', '2', '--seed', '5', '--record-world', '--transcript', `${policy}.json`];
        const result = await runChild([...args, ...more, '--json'], { cwd: dir });
        expect(result.code, result.stderr).toBe(0);
        expect(JSON.parse(result.stdout).episodes).toHaveLength(2);
        transcripts.push(JSON.parse(await readFile(join(dir, `${policy}.json`), 'utf8')) as Transcript);
      }
    }
    const timeless = (t: Transcript) => ({
      connections: t.connections,
      messages: t.messages.map((m) => ({ ...m, t: 0 })),
      annotations: t.annotations,
    });
    const [random, randomFile, sustainable, sustainableFile] = transcripts.map(timeless);
    expect(random!.messages.length).toBeGreaterThan(2 * 60 * 3);
    // The random sample tags: notes of tags and worlds (--record-world) are on both sides.
    expect(random!.annotations.some((a) => a.type === 'note')).toBe(true);
    expect(random!.annotations.some((a) => a.type === 'world')).toBe(true);
    expect(randomFile).toEqual(random);
    expect(sustainableFile).toEqual(sustainable);
  });

  it('stops a policy file stuck in a call with exit 3, naming the budget', async () => {
    await writeFile(
      join(dir, 'stuck.ts'),
      'let calls = 0;\nexport function act() {\n  if (++calls === 30) while (true) {}\n  return "idle";\n}\n',
    );
    const result = await runChild(
      ['run', 'gama', '--scenario', 'C', '--policy', 'stuck.ts', '--cycles', '50', '--budget', '300'],
      { cwd: dir },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('stuck.ts: policy exceeded 300 ms');
  });

  it('reports bad options as usage errors', async () => {
    for (const [args, message] of [
      [['--view', '20'], '--view must be AHEAD,SIDES'],
      [['--observation', 'png'], '--observation must be one of legend, rgb'],
      [['--cycles', '0'], '--cycles must be at least 1'],
    ] as const) {
      const result = await runInProcess(['run', 'gama', ...args], { cwd: dir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
  });
});
