import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../run-cli';
import { sharedPath } from '../shared-folder';

const rddlsim = (name: string) => sharedPath(`conformance/rddlsim/${name}`);

describe('protoplay inspect', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'protoplay-inspect-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads a sound recording: protocol, format, rounds with their rewards, exit 0', async () => {
    const result = await runInProcess(['inspect', rddlsim('sysadmin_inst_mdp__1.transcript'), '--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      protocol: 'rddlsim',
      format: 'rddlsim-record-file',
      sessions: 1,
      messages: 254,
      violations: [],
      errors: [],
    });
    const rewards = (report.rounds as { reward: number }[]).map((round) => round.reward);
    const recorded = (await readFile(rddlsim('sysadmin_inst_mdp__1.s2c.raw'), 'latin1')).match(
      /<round-reward>([^<]*)</g,
    )!;
    expect(rewards).toEqual(recorded.map((tag) => Number(tag.slice('<round-reward>'.length, -1))));
    // Every round used its horizon: none says it ended early.
    expect((report.rounds as object[]).filter((round) => 'endedEarly' in round)).toEqual([]);
  });

  it('says why the real server ended a round before its horizon, from the recording alone', async () => {
    // The real rddlsim ended each of these rounds early; its console (in the conformance folder, never
    // seen by a client) names why. The task's RDDL, the state observed and the actions sent tell the same.
    const tooMany = rddlsim('edge-cases/too_many_actions.transcript');
    const text = await runInProcess(['inspect', tooMany]);
    expect(text.stdout).toContain(
      '  round 1: reward 18.5 (ended early: the server ended the round before its horizon of 40 turns: ' +
        '2 non-default actions, but max-nondef-actions is 1, checked here for the actions sent in the state ' +
        'observed then)\n',
    );
    // Round 2 never ended (the probe closed the connection): nothing to say of it.
    expect(text.stdout).toContain('  round 2: no total reported\n');
    const serverLog = await readFile(rddlsim('edge-cases/too_many_actions.server.log'), 'latin1');
    expect(serverLog).toContain('Number of non-default actions (2) exceeds limit (1)');

    const json = async (file: string, ...more: string[]) =>
      (JSON.parse((await runInProcess(['inspect', file, '--json', ...more])).stdout) as { rounds: object[] })
        .rounds;
    const stateAsAction = await json(rddlsim('edge-cases/state_fluent_as_action_nondefault.transcript'));
    expect(stateAsAction).toEqual([
      {
        session: 1,
        round: 1,
        reward: 0,
        endedEarly:
          'the server ended the round before its horizon of 40 turns: running is a state-fluent, not an ' +
          'action (NullPointerException): rddlsim finds the action not applicable, checked here for the ' +
          'actions sent in the state observed then',
      },
    ]);
    // Read in chunks, the same.
    expect(
      await json(rddlsim('edge-cases/state_fluent_as_action_nondefault.transcript'), '--stream'),
    ).toEqual(stateAsAction);
    // Rounds that end by the instance's condition (terminate-when) end when they should.
    const byCondition = await json(rddlsim('edge-cases/terminate_when.transcript'));
    expect(byCondition.length).toBeGreaterThan(0);
    expect(byCondition.filter((round) => 'endedEarly' in round)).toEqual([]);
  });

  it('reads the two raw streams of one connection together', async () => {
    const result = await runInProcess([
      'inspect',
      rddlsim('game_of_life_inst_mdp__1.c2s.raw'),
      rddlsim('game_of_life_inst_mdp__1.s2c.raw'),
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^rddlsim: rddlsim byte streams of one connection/);
    expect(result.stdout).toContain('session 1: 1 connection');
  });

  it('keeps what a damaged file holds, names the damage and the broken rules, exit 1', async () => {
    const text = await readFile(rddlsim('sysadmin_inst_mdp__1.transcript'), 'latin1');
    const lines = text.split('\n');
    const at = lines.findIndex((line, i) => i > 60 && line.startsWith('@@ '));
    lines[at] = '@@ broken header';
    const damaged = join(dir, 'damaged.transcript');
    await writeFile(damaged, lines.join('\n'), 'latin1');
    const result = await runInProcess(['inspect', damaged, '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      messages: number;
      errors: unknown[];
      violations: { rule: string }[];
    };
    expect(report.messages).toBeGreaterThan(10);
    expect(report.errors).toEqual([
      {
        file: damaged,
        line: at + 1,
        byte: expect.any(Number),
        message: expect.stringContaining('not a record header'),
      },
    ]);
    // The session stops mid-way: its machines say what was still due.
    expect(report.violations.map((v) => v.rule)).toContain('rddlsim.session.unfinished');
  });

  it('reads a Protoplay JSON transcript cut at two thirds: what was written whole, and where it ends', async () => {
    const rddl = (name: string) => sharedPath(`rddl/ippc2011/${name}`);
    const run = await runInProcess(
      [
        'run',
        'rddlsim',
        '--domain',
        rddl('sysadmin_mdp.rddl'),
        '--instance',
        rddl('sysadmin_inst_mdp__1.rddl'),
        '--rounds',
        '2',
        '--transcript',
        'whole.json',
      ],
      { cwd: dir },
    );
    expect(run.code).toBe(0);
    const whole = await readFile(join(dir, 'whole.json'), 'utf8');
    const sound = await runInProcess(['inspect', 'whole.json'], { cwd: dir });
    expect(sound.code).toBe(0);
    const cut = whole.slice(0, Math.floor((whole.length * 2) / 3));
    await writeFile(join(dir, 'cut.json'), cut);
    // The messages whole in the cut file: the lines of messages that end with their closing brace.
    const lines = cut.split('\n');
    const complete = lines.filter((line) => /^ {4}\{"index":\d+.*\},?$/.test(line)).length;
    const where = lines.at(-1)!.endsWith('}')
      ? `after message ${complete - 1}`
      : `inside message ${complete}`;
    expect(complete).toBeGreaterThan(50);
    const result = await runInProcess(['inspect', 'cut.json'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('(protoplay-json, confidence 100%)\n1 session\n');
    expect(result.stdout).toContain(`session 1: 1 connection, ${complete} messages, `);
    expect(result.stdout).toContain('  round 1: reward ');
    expect(result.stdout).toContain(
      `cut.json:${lines.length}: the file ends ${where}; kept the header, ${complete} complete messages and 0 annotations before it\n`,
    );
  });

  it('reports a protocol rule broken by a real client, located', async () => {
    const result = await runInProcess([
      'inspect',
      rddlsim('edge-cases/round_request_instead_of_action.transcript'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('violation at message 5 (session-1, server): rddlsim.actions.expected');
  });

  it('refuses unknown input and usage errors with their exit codes', async () => {
    const noise = join(dir, 'noise.txt');
    await writeFile(noise, 'hello');
    const unknown = await runInProcess(['inspect', noise]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('is not a format Protoplay knows');
    expect((await runInProcess(['inspect'])).code).toBe(2);
    expect((await runInProcess(['inspect', noise, '--protocol', 'chess'])).code).toBe(2);
    expect((await runInProcess(['inspect', '--help'])).stdout).toContain('rddlsim-record-file');
  });
});
