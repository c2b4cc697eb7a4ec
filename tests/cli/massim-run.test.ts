/**
 * `protoplay run massim`: a whole match in one process. As a child process of the package's binary with
 * `--json`; repeatable for the same seed; a policy file that throws stops the match with a located line
 * and exit code 3; a configuration file with an error stops every command with a located line.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChild, runInProcess } from './run-cli';
import { machineViolations, readTranscript } from './massim-tcp';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-massim-run-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface RunDocument {
  protocol: string;
  status: string;
  seed: number | null;
  policies: Record<string, string>;
  simulations: { simulation: number; teams: string[]; steps: number; scores: Record<string, number> }[];
  transcript?: string;
}

const quick = ['--agents', '3', '--steps', '25', '--grid', '20x20'];

describe('run massim', () => {
  it('prints one JSON document with the scores of every simulation (child process)', async () => {
    const transcriptPath = join(dir, 'child.json');
    const result = await runChild([
      'run',
      'massim',
      ...quick,
      '--teams',
      '3',
      '--policy-a',
      'fetcher',
      '--policy-b',
      'explorer',
      '--seed',
      '4',
      '--json',
      '--transcript',
      transcriptPath,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout) as RunDocument;
    expect(document).toMatchObject({
      protocol: 'massim',
      status: 'finished',
      seed: 4,
      policies: { A: 'fetcher', B: 'explorer', C: 'random' },
    });
    expect(document.simulations).toHaveLength(1);
    expect(document.simulations[0]).toMatchObject({ simulation: 1, teams: ['A', 'B', 'C'], steps: 25 });
    expect(Object.keys(document.simulations[0]!.scores).sort()).toEqual(['A', 'B', 'C']);

    const transcript = await readTranscript(document.transcript!);
    expect(machineViolations(transcript)).toEqual([]);
    expect(transcript.connections).toHaveLength(9);
    // The last reward annotation holds the final scores the command printed.
    const rewards = transcript.annotations.filter((annotation) => annotation.type === 'reward');
    expect(rewards).toHaveLength(25);
    expect((rewards.at(-1)!.data as { scores: unknown }).scores).toEqual(document.simulations[0]!.scores);
  });

  it('plays the same match again for the same seed and policies', async () => {
    const play = async (name: string) => {
      const path = join(dir, name);
      const result = await runInProcess(
        ['run', 'massim', ...quick, '--policy', 'random', '--seed', '9', '--transcript', path],
        { now: () => 1_800_000_000_000 },
      );
      expect(result.code).toBe(0);
      return readTranscript(path);
    };
    const [first, second] = [await play('one.json'), await play('two.json')];
    // Each team's policy thread answers when it is ready, so the teams' frames may interleave differently;
    // every connection's own sequence is the same.
    const texts = (transcript: typeof first) =>
      transcript.connections.map((c) =>
        transcript.messages.filter((m) => m.conn === c.id).map((m) => `${m.dir} ${m.text}`),
      );
    expect(texts(second)).toEqual(texts(first));
    // Random movers do move: the sessions are not trivially equal.
    const moves = texts(first)
      .flat()
      .filter((text) => text.includes('"type":"move"'));
    expect(moves.length).toBeGreaterThan(50);
  });

  it('offers the playground block fetcher, which completes 1-block tasks (a random mover never scores)', async () => {
    let fetched = 0;
    for (const seed of [1, 2, 3]) {
      const result = await runChild([
        'run',
        'massim',
        '--policy-a',
        'fetcher',
        '--policy-b',
        'random',
        '--seed',
        String(seed),
        '--json',
      ]);
      expect(result.code).toBe(0);
      const { simulations } = JSON.parse(result.stdout) as RunDocument;
      fetched += simulations[0]!.scores.A!;
      expect(simulations[0]!.scores.B).toBe(0);
    }
    expect(fetched).toBeGreaterThan(0);
  });

  it('stops at the first throw of a policy file with a located line (exit 3)', async () => {
    const policy = join(dir, 'throws.ts');
    await writeFile(
      policy,
      [
        'export function act(percept: unknown, agent: { step: number }) {',
        "  if (agent.step === 4) throw new Error('no plan for step 4');",
        "  return { type: 'skip', p: [] };",
        '}',
        '',
      ].join('\n'),
    );
    // A generous budget: a loaded machine must not turn the throw into an overrun.
    const budget = ['--budget', '10000'];
    const result = await runChild(['run', 'massim', ...quick, ...budget, '--policy-a', policy], {
      cwd: dir,
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^throws\.ts:2:\d+: .*no plan for step 4\n$/);

    const skipping = await runChild(
      ['run', 'massim', ...quick, ...budget, '--policy-a', policy, '--on-policy-error', 'skip'],
      { cwd: dir },
    );
    expect(skipping.code).toBe(0);
    expect(skipping.stderr).toMatch(
      /^warning: throws\.ts:2:\d+: .*no plan for step 4 \(team A does no_action at step 4\)/,
    );
    expect(skipping.stdout).toMatch(/simulation 1 +A \d+ {2}B \d+\n$/);
  });

  it('reports a configuration file error as file:line:column for run and serve (exit 1)', async () => {
    const config = join(dir, 'broken.json');
    await writeFile(
      config,
      [
        '{',
        '  "server": {',
        '    "tournamentMode": "round-robin",',
        '    "teamsPerMatch": "two"',
        '  },',
        '  "match": [],',
        '  "teams": {}',
        '}',
        '',
      ].join('\n'),
    );
    for (const command of ['run', 'serve']) {
      const result = await runInProcess([command, 'massim', '--config', 'broken.json'], { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^broken\.json:\d+:\d+: .+\n$/);
      expect(result.stdout).toBe('');
    }
    const mixed = await runInProcess(['run', 'massim', '--config', 'broken.json', '--agents', '2'], {
      cwd: dir,
    });
    expect(mixed.code).toBe(2);
  });
});
