/**
 * `protoplay run rddlsim` end to end, as the package's binary in a child process: results as JSON with a
 * TypeScript policy, a policy stuck in `while (true)` stopped by the time budget, and a syntax error
 * located in the policy file; and in-process, rddlsim's semantics scoring as the real server did, with the
 * world recorded. Transcripts are read back with the importer the playground uses.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOneTranscript } from '../../../../src/core/protocols/registry';
import type { Transcript } from '../../../../src/core/transcript/model';
import { validateTranscript } from '../../../../src/core/transcript/validate';
import { rddlsimProtocol } from '../../../../src/core/protocols/rddlsim/protocol';
import { RELAY_ACC_RDDL } from '../../../core/envs/rddl/fixtures';
import { GATE_RDDL } from './gate-domain';
import { loadRecording } from '../../../core/protocols/rddlsim/recordings';
import { runChild, runInProcess } from '../../run-cli';
import { sharedPath } from '../../shared-folder';

const DOMAIN = sharedPath('rddl/ippc2011/sysadmin_mdp.rddl');
const INSTANCE = sharedPath('rddl/ippc2011/sysadmin_inst_mdp__1.rddl');

const POLICIES: Record<string, string> = {
  // Reboots a random computer that is down; typed, so it needs the TypeScript compiler.
  'reboot.ts': [
    'interface Seen { values: Record<string, boolean | number | string> }',
    'export function act(observation: Seen, context: { random(): number }) {',
    '  const down: string[] = Object.keys(observation.values).filter((key) => observation.values[key] === false);',
    '  if (down.length === 0) return null;',
    '  const key = down[Math.floor(context.random() * down.length)]!;',
    "  return { name: 'reboot', args: [key.slice(key.indexOf('(') + 1, -1)] };",
    '}',
  ].join('\n'),
  'loop.ts': [
    'export function act(observation: { turn: number }) {',
    '  if (observation.turn === 2) while (true) {}',
    '  return null;',
    '}',
  ].join('\n'),
  'broken.ts': ['export function act() {', '  const x = ;', '  return null;', '}'].join('\n'),
};

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-run-'));
  for (const [name, code] of Object.entries(POLICIES)) await writeFile(join(dir, name), code);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (policy: string, extra: string[] = []) =>
  runChild(['run', 'rddlsim', '--domain', DOMAIN, '--instance', INSTANCE, '--policy', policy, ...extra], {
    cwd: dir,
  });

async function readTranscript(name: string): Promise<Transcript> {
  return readOneTranscript(await readFile(join(dir, name)), name);
}

// Each case starts its own process; they run side by side.
describe.concurrent('protoplay run rddlsim', () => {
  it('plays a TypeScript policy and prints the rounds and their statistics as JSON', async () => {
    const result = await run('reboot.ts', [
      '--rounds',
      '4',
      '--seed',
      '3',
      '--json',
      '--transcript',
      'reboot.json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      status: string;
      rounds: { round: number; reward: number; turns: number }[];
      summary: { rounds: number; mean: number; standardDeviation: number; confidence95: [number, number] };
      totalReward: number;
    };
    expect(report.status).toBe('finished');
    expect(report.rounds.map((round) => [round.round, round.turns])).toEqual([
      [1, 40],
      [2, 40],
      [3, 40],
      [4, 40],
    ]);
    const rewards = report.rounds.map((round) => round.reward);
    const mean = rewards.reduce((a, b) => a + b, 0) / 4;
    const sd = Math.sqrt(rewards.reduce((sum, x) => sum + (x - mean) ** 2, 0) / 3);
    expect(report.summary.mean).toBeCloseTo(mean, 9);
    expect(report.summary.standardDeviation).toBeCloseTo(sd, 9);
    // t(0.975, 3 degrees of freedom) = 3.182446 (statistics tables).
    expect(report.summary.confidence95[1] - mean).toBeCloseTo((3.182446 * sd) / 2, 4);
    // sysadmin's discount is 1: the session total is the sum of the rounds.
    expect(report.totalReward).toBeCloseTo(
      rewards.reduce((a, b) => a + b, 0),
      9,
    );

    const transcript = await readTranscript('reboot.json');
    expect(validateTranscript(transcript, rddlsimProtocol).violations).toEqual([]);
    const roundEnds = transcript.messages.filter((m) => m.text?.includes('<round-end>'));
    expect(roundEnds.map((m) => Number(/<round-reward>([^<]*)</.exec(m.text!)![1]))).toEqual(rewards);
    // The policy rebooted computers: some actions carry a reboot.
    expect(transcript.messages.some((m) => m.text?.includes('<action-name>reboot</action-name>'))).toBe(true);
    // The world state is recorded only when asked.
    expect(transcript.annotations.filter((a) => a.type === 'world')).toEqual([]);
  });

  it("plays with rddlsim's random numbers and quirks under --semantics rddlsim, scoring as the real server did", async () => {
    // The recorded session is rddlsim's server and Java client playing noop on sysadmin 1, session 1, seed 0.
    const recorded = loadRecording('edge-cases/number_format').messages.find((m) =>
      m.text?.includes('<round-end>'),
    )!;
    const recordedReward = Number(/<round-reward>([^<]*)</.exec(recorded.text!)![1]);
    // noop runs in-process (no policy thread): no need for a child process of its own.
    const result = await runInProcess(
      [
        'run',
        'rddlsim',
        '--domain',
        DOMAIN,
        '--instance',
        INSTANCE,
        '--rounds',
        '1',
        '--semantics',
        'rddlsim',
        '--json',
        '--transcript',
        'real.json',
        '--record-world',
      ],
      { cwd: dir },
    );
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout) as { semantics: string; rounds: { reward: number }[] };
    expect(report.semantics).toBe('rddlsim');
    expect(report.rounds.map((round) => round.reward)).toEqual([recordedReward]);

    const transcript = await readTranscript('real.json');
    expect(transcript.meta).toMatchObject({ semantics: 'rddlsim' });
    const turns = transcript.messages.filter((m) => m.text?.includes('<turn>'));
    const world = transcript.annotations.filter((a) => a.type === 'world');
    expect(world.map((a) => a.index)).toEqual(turns.map((m) => m.index));
    expect(world[0]!.data).toMatchObject({ round: 1, turn: 1 });
  });

  it('stops a policy stuck in while (true) with the time budget, and keeps the transcript', async () => {
    // A budget no call that returns at once can miss, even on a busy machine: only the loop overruns it.
    const result = await run('loop.ts', ['--rounds', '2', '--budget', '2000', '--transcript', 'loop.json']);
    expect(result.code).toBe(3);
    expect(result.stderr.trim().split('\n')).toEqual(['loop.ts: policy exceeded 2000 ms on round 1, turn 2']);
    const transcript = await readTranscript('loop.json');
    const turns = transcript.messages.filter((m) => m.dir === 's2c' && m.text?.includes('<turn>'));
    expect(turns).toHaveLength(2);
    const fault = transcript.annotations.find((a) => a.type === 'error');
    expect(fault?.data).toMatchObject({ source: 'policy', kind: 'timeout', round: 1, turn: 2 });
    // The client closed the connection: the session ended cleanly, as when a real client stops.
    expect(transcript.messages.at(-1)).toMatchObject({ kind: 'close' });
  });

  it('locates a syntax error in the policy file', async () => {
    const result = await run('broken.ts', ['--rounds', '1']);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    // `  const x = ;`: the unexpected `;` is on line 2, column 13.
    expect(lines[0]).toMatch(/^broken\.ts:2:13: /);
  });

  it('reads one file holding domain and instance once when it is given as --domain and --instance', async () => {
    await writeFile(
      join(dir, 'lamp.rddl'),
      [
        'domain lamp_mdp {',
        '  pvariables {',
        '    BONUS : { non-fluent, real, default = 1.0 };',
        '    lit : { state-fluent, bool, default = false };',
        '    press : { action-fluent, bool, default = false };',
        '  };',
        "  cpfs { lit' = if (press) then ~lit else lit; };",
        '  reward = if (lit) then BONUS else 0.0;',
        '}',
        'non-fluents lamp_nf { domain = lamp_mdp; non-fluents { BONUS = 2.0; }; }',
        'instance is1 { domain = lamp_mdp; non-fluents = lamp_nf; horizon = 4; discount = 1.0; }',
      ].join('\n'),
    );
    const result = await runInProcess(
      ['run', 'rddlsim', '--domain', 'lamp.rddl', '--instance', './lamp.rddl', '--rounds', '2', '--json'],
      { cwd: dir },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { instance: string; rounds: { reward: number }[] };
    expect(report.instance).toBe('is1');
    expect(report.rounds.map((round) => round.reward)).toEqual([0, 0]);
  });

  it("plays pyRDDLGym's non-fluents block of only the domain, with the reader's located warning", async () => {
    await writeFile(
      join(dir, 'bare.rddl'),
      [
        'domain bare_mdp {',
        '  pvariables {',
        '    K : { non-fluent, real, default = 3.0 };',
        '    press : { action-fluent, bool, default = false };',
        '  };',
        '  reward = K;',
        '}',
        'non-fluents bare_nf {',
        '  domain = bare_mdp;',
        '}',
        'instance bare1 { domain = bare_mdp; non-fluents = bare_nf; horizon = 2; discount = 1; }',
      ].join('\n'),
    );
    const result = await runInProcess(
      ['run', 'rddlsim', '--domain', 'bare.rddl', '--instance', 'bare.rddl', '--rounds', '1', '--json'],
      { cwd: dir },
    );
    expect(result.code).toBe(0);
    // What rddlsim would refuse is said, located, before the session: the reader's advice reaches `run`.
    expect(result.stderr.trim().split('\n')).toEqual([
      "warning: bare.rddl:10:1: rddlsim requires a 'non-fluents { ... };' section here, with at least one value (pyRDDLGym reads the block without it)",
      'warning: bare.rddl:11:84: rddlsim requires a real number here: write 1.0',
    ]);
    const report = JSON.parse(result.stdout) as { rounds: { reward: number }[] };
    expect(report.rounds.map((round) => round.reward)).toEqual([6]);
  });

  it('says why the server ended a round early: in full once, then by the round that said it', async () => {
    // The no-op breaks the precondition on the third turn: the real server ends the round there.
    await writeFile(join(dir, 'gate.rddl'), GATE_RDDL);
    const args = ['run', 'rddlsim', '--domain', 'gate.rddl', '--instance', 'gate.rddl', '--rounds', '3'];
    const text = await runInProcess(args, { cwd: dir });
    expect(text.code).toBe(0);
    const reason =
      'action precondition is false: t < 2 | press (line 9): the real server ends the round at once (this step is not simulated)';
    expect(text.stdout.split('\n').slice(0, 3)).toEqual([
      `round   1/3  reward          2.0  turns 2  (ended early: ${reason})`,
      'round   2/3  reward          2.0  turns 2  (ended early, as round 1)',
      'round   3/3  reward          2.0  turns 2  (ended early, as round 1)',
    ]);
    // Played through the XML messages, the reason comes from the emulated server's note: the same.
    for (const extra of [[], ['--wire']]) {
      const json = await runInProcess([...args, '--json', ...extra], { cwd: dir });
      const report = JSON.parse(json.stdout) as { rounds: { turns: number; endedBy?: string }[] };
      expect(report.rounds).toEqual(
        [1, 2, 3].map((round) => ({ round, reward: 2, turns: 2, counted: true, endedBy: reason })),
      );
    }
  });
});

describe('protoplay run rddlsim on RDDL rddlsim cannot order', () => {
  const convoy = join(import.meta.dirname, '../../../core/envs/rddl/rebinding/convoy.rddl');
  const args = [
    'run',
    'rddlsim',
    '--domain',
    convoy,
    '--instance-name',
    'convoy_two_trucks',
    '--rounds',
    '1',
  ];

  it('fails at load with the located reason under --semantics rddlsim, and plays it by default', async () => {
    const failed = await runInProcess([...args, '--semantics', 'rddlsim']);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(
      /convoy\.rddl:12:63: rddlsim cannot order this domain's fluents: collecting the parents of blocked\(t1\), it reads \?l in at\(\?t, \?l\)/,
    );
    const played = await runInProcess(args);
    expect(played.code).toBe(0);
    expect(played.stdout).toMatch(/total reward\s+10\.0/);
  });
});

describe('protoplay run rddlsim on RDDL rddlsim runs although its types do not fit', () => {
  it('plays it under --semantics rddlsim with located warnings, and refuses it by default saying so', async () => {
    await writeFile(join(dir, 'relay_acc.rddl'), RELAY_ACC_RDDL);
    const args = [
      'run',
      'rddlsim',
      '--domain',
      'relay_acc.rddl',
      '--instance',
      'relay_acc.rddl',
      '--rounds',
      '2',
    ];
    const played = await runInProcess([...args, '--semantics', 'rddlsim', '--json'], { cwd: dir });
    expect(played.code).toBe(0);
    const warnings = played.stderr.trim().split('\n');
    expect(warnings).toHaveLength(4);
    expect(warnings[0]).toMatch(
      /^warning: relay_acc\.rddl:8:\d+: 'NEXT' is declared int but its default c1 is an object/,
    );
    // rddlsim's own simulator scores every round of this domain 23.5.
    const report = JSON.parse(played.stdout) as { rounds: { reward: number }[] };
    expect(report.rounds.map((round) => round.reward)).toEqual([23.5, 23.5]);

    const refused = await runInProcess(args, { cwd: dir });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(
      /relay_acc\.rddl:8:\d+: .*rddlsim checks no types and runs it, and so does `--semantics rddlsim`/,
    );
  });
});
