/**
 * `protoplay connect rddlsim` with user policies that use the hooks and that fail, against an in-process
 * `protoplay serve` over loopback TCP: every hook is called in order with the round summaries, what the
 * policy prints is kept next to the message it answered, a failing `act` stops the session (exit 3, the
 * file and the site named) or, with `--on-policy-error noop`, sends a noop and the session goes on.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RddlLibrary } from '../../../../cli/protocols/rddlsim/rddl-library';
import { RddlsimServer } from '../../../../cli/protocols/rddlsim/server';
import { rddlsimProtocol } from '../../../../src/core/protocols/rddlsim/protocol';
import { parseTranscriptJson } from '../../../../src/core/transcript/json-format';
import { validateTranscript } from '../../../../src/core/transcript/validate';
import { runInProcess } from '../../run-cli';
import { GATE_POMDP_RDDL, GATE_RDDL } from './gate-domain';
import { sharedPath } from '../../shared-folder';

const INSTANCE = 'sysadmin_inst_mdp__1';
let dir: string;
let server: RddlsimServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-connect-policy-'));
  const library = await RddlLibrary.fromServerDirectory(sharedPath('rddl/ippc2011'), {
    cwd: process.cwd(),
    mode: 'lenient',
  });
  server = await startServer(library, 2);
});

/** An emulated rddlsim server on a free loopback port, serving `library`'s instances. */
function startServer(library: RddlLibrary, rounds: number): Promise<RddlsimServer> {
  return RddlsimServer.start({
    library,
    host: '127.0.0.1',
    port: 0,
    rounds,
    seed: 0,
    timeLimitSeconds: 0,
    monitorExecution: false,
    noHeaderScope: 'connection',
    maxMessageBytes: 1 << 20,
    semantics: 'protoplay',
    log: () => undefined,
  });
}

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Plays one session with the policy file's text; resolves to the result and the recorded transcript. */
async function connectWith(name: string, code: string, extra: string[] = []) {
  const policyPath = join(dir, `${name}.ts`);
  const transcriptPath = join(dir, `${name}.json`);
  await writeFile(policyPath, code);
  const result = await runInProcess(
    [
      'connect',
      'rddlsim',
      '--port',
      String(server.address.port),
      '--instance',
      INSTANCE,
      '--policy',
      policyPath,
      '--transcript',
      transcriptPath,
      '--json',
      ...extra,
    ],
    { cwd: dir },
  );
  const transcript = parseTranscriptJson(await readFile(transcriptPath, 'utf8'));
  return { ...result, transcript };
}

describe('connect rddlsim with a policy', () => {
  it('calls every hook in order with the round summaries, and keeps what the policy prints', async () => {
    const { code, stdout, transcript } = await connectWith(
      'hooks',
      `export function act(observation, context) {
  return null;
}
export function onRoundStart(round, context) {
  context.log('start ' + round);
}
export function onRoundEnd(summary, context) {
  context.log('end ' + summary.round + ' counted=' + summary.counted + ' turns=' + summary.turns);
}
export function onSessionEnd(result, context) {
  context.log('session ' + result.rounds.length + ' rounds, total ' + result.totalReward);
}
`,
    );
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { status: string; totalReward: number };
    expect(report.status).toBe('finished');
    const printed = transcript.annotations
      .filter((annotation) => annotation.type === 'policy-log')
      .map((annotation) => (annotation.data as { text: string }).text);
    expect(printed).toEqual([
      'start 1',
      'end 1 counted=true turns=40',
      'start 2',
      'end 2 counted=true turns=40',
      `session 2 rounds, total ${report.totalReward}`,
    ]);
    // Each line sits on the server message its hook answered.
    const [firstStart] = transcript.annotations.filter((annotation) => annotation.type === 'policy-log');
    expect(transcript.messages[firstStart!.index]!.text).toContain('<round-init>');
    expect(validateTranscript(transcript, rddlsimProtocol).violations).toEqual([]);
  });

  it('stops on a failing act with exit 3, naming the file and the turn; the transcript keeps the turn', async () => {
    const { code, stderr, transcript } = await connectWith(
      'throws',
      `export function act(observation) {
  if (observation.turn === 3) throw new Error('no idea what to do');
  return null;
}
`,
    );
    expect(code).toBe(3);
    expect(stderr).toMatch(/throws\.ts.*no idea what to do/);
    const sent = transcript.messages.filter((m) => m.dir === 'c2s' && m.kind === 'data');
    // session-request, round-request, the actions of turns 1 and 2: nothing after the failure.
    expect(sent).toHaveLength(4);
    const error = transcript.annotations.find(
      (annotation) =>
        annotation.type === 'error' && (annotation.data as { source: string }).source === 'policy',
    );
    expect(error?.data).toMatchObject({ round: 1, turn: 3 });
  });

  it('with --on-policy-error noop, a failing act sends a noop and the session goes on', async () => {
    const { code, stdout, transcript } = await connectWith(
      'throws-noop',
      `export function act(observation) {
  if (observation.turn === 3) throw new Error('no idea what to do');
  return null;
}
`,
      ['--on-policy-error', 'noop'],
    );
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { status: string }).status).toBe('finished');
    const errors = transcript.annotations.filter(
      (annotation) =>
        annotation.type === 'error' && (annotation.data as { source: string }).source === 'policy',
    );
    expect(errors.map((annotation) => annotation.data)).toMatchObject([
      { round: 1, turn: 3 },
      { round: 2, turn: 3 },
    ]);
    const actions = transcript.messages.filter((m) => m.dir === 'c2s' && m.text?.includes('<actions'));
    expect(actions).toHaveLength(80);
    expect(validateTranscript(transcript, rddlsimProtocol).violations).toEqual([]);
  });
});

describe('protoplay connect rddlsim, rounds the server ends early', () => {
  /** Serves the one-file domain and instance `rddl` for `rounds` rounds; `play` gets the server's port. */
  async function withGateServer(rddl: string, play: (port: string) => Promise<void>): Promise<void> {
    const gateDir = await mkdtemp(join(tmpdir(), 'protoplay-connect-gate-'));
    await writeFile(join(gateDir, 'gate.rddl'), rddl);
    const gateServer = await startServer(
      await RddlLibrary.fromServerDirectory(gateDir, { cwd: process.cwd(), mode: 'lenient' }),
      3,
    );
    try {
      await play(String(gateServer.address.port));
    } finally {
      await gateServer.close();
      await rm(gateDir, { recursive: true, force: true });
    }
  }

  it('names the constraint the actions broke when it sees the whole state, once in full', async () => {
    // The no-op breaks the precondition on the third turn (t = 2): the server ends each round there, and
    // its round-end says only the turns used. One file holds domain and instance, so the server's task is
    // that file twice, as rddlsim's is; the client reads it once, and checks the actions it sent in the
    // state it observed (all of it: the instance is fully observed).
    await withGateServer(GATE_RDDL, async (port) => {
      const args = ['connect', 'rddlsim', '--port', port, '--instance', 'gate1'];
      const text = await runInProcess(args);
      expect(text.code).toBe(0);
      const reason =
        'the server ended the round before its horizon of 5 turns: action precondition is false: ' +
        't < 2 | press (line 9), checked here for the actions sent in the state observed then';
      expect(text.stdout.split('\n').slice(0, 3)).toEqual([
        `round   1/3  reward          2.0  turns 2  (ended early: ${reason})`,
        'round   2/3  reward          2.0  turns 2  (ended early, as round 1)',
        'round   3/3  reward          2.0  turns 2  (ended early, as round 1)',
      ]);
      const json = JSON.parse((await runInProcess([...args, '--json'])).stdout) as { rounds: unknown[] };
      expect(json.rounds).toEqual(
        [1, 2, 3].map((round) => ({ round, reward: 2, turns: 2, counted: true, endedBy: reason })),
      );

      // `inspect` reads the same from the session's recording alone (the task, the turns, the actions).
      const recorded = join(dir, 'gate1.json');
      expect((await runInProcess([...args, '--transcript', recorded])).code).toBe(0);
      const inspected = await runInProcess(['inspect', recorded]);
      expect(inspected.code).toBe(0);
      expect(inspected.stdout.split('\n').filter((line) => line.startsWith('  round '))).toEqual([
        `  round 1: reward 2 (ended early: ${reason})`,
        '  round 2: reward 2 (ended early, as round 1)',
        '  round 3: reward 2 (ended early, as round 1)',
      ]);
      const report = JSON.parse((await runInProcess(['inspect', recorded, '--json'])).stdout) as {
        rounds: unknown[];
      };
      expect(report.rounds).toEqual(
        [1, 2, 3].map((round) => ({ session: 1, round, reward: 2, endedEarly: reason })),
      );
    });
  });

  it('says why rddlsim ends rounds early when it cannot see the state the precondition reads', async () => {
    await withGateServer(GATE_POMDP_RDDL, async (port) => {
      const text = await runInProcess(['connect', 'rddlsim', '--port', port, '--instance', 'gate2']);
      expect(text.code).toBe(0);
      const reason =
        'the server ended the round before its horizon of 5 turns: rddlsim does so when it finds the actions ' +
        'sent not applicable (a false action precondition or state-action constraint, too many non-default ' +
        'actions, a state fluent sent as an action); its console names the constraint';
      expect(text.stdout.split('\n')[0]).toBe(
        `round   1/3  reward          2.0  turns 2  (ended early: ${reason})`,
      );
    });
  });
});
