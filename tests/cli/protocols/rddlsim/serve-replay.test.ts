/**
 * `protoplay serve rddlsim` against rddlsim's own recorded clients: every recorded client stream (the four
 * complete Java-client sessions and the scripted edge cases) is replayed over TCP to a server configured
 * as the recording's was, and each answer is compared with what the real server answered: in value,
 * except the wall-clock `time-left` (random values too: the server uses rddlsim's generator, and each
 * replay is session 1 with seed 0, as each recording was). Then several clients at once, with clients
 * that made the real server exit among them, on one server that must keep serving.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RddlLibrary } from '../../../../cli/protocols/rddlsim/rddl-library';
import { RddlsimServer, type RddlsimServerOptions } from '../../../../cli/protocols/rddlsim/server';
import { sharedPath } from '../../shared-folder';
import { replay, replayPlan, structureOf, withoutClock, type ReplayStep } from './replay-client';

const RECORDINGS = sharedPath('conformance/rddlsim');
const MAIN_SESSIONS = [
  'sysadmin_inst_mdp__1',
  'sysadmin_inst_pomdp__1',
  'elevators_inst_mdp__1',
  'game_of_life_inst_mdp__1',
];

/**
 * How each edge case's server was started, beyond what its session-init shows (rounds, time limit and
 * session id are read from the recording itself).
 */
interface EdgeCaseSetup {
  library: 'ippc' | 'testdomains';
  monitorExecution?: boolean;
  /** The client waited on purpose (to run out of session time): keep its timing. */
  keepTiming?: boolean;
}

const EDGE_CASES: Record<string, EdgeCaseSetup> = {
  action_variants: { library: 'ippc' },
  actions_instead_of_round_request: { library: 'ippc' },
  execute_policy: { library: 'ippc', monitorExecution: true },
  javaclient_term: { library: 'testdomains' },
  leading_ws: { library: 'ippc' },
  malformed_round_request: { library: 'ippc' },
  malformed_session_request: { library: 'ippc' },
  minimal_no_header: { library: 'ippc' },
  no_header_flag: { library: 'ippc' },
  number_format: { library: 'ippc' },
  pddl: { library: 'ippc' },
  pipelined: { library: 'ippc' },
  resource_request: { library: 'ippc' },
  round_request_instead_of_action: { library: 'ippc' },
  slow_client: { library: 'ippc', keepTiming: true },
  state_fluent_as_action_default: { library: 'ippc' },
  state_fluent_as_action_nondefault: { library: 'ippc' },
  terminate_when: { library: 'testdomains' },
  too_many_actions: { library: 'ippc' },
  typed_actions: { library: 'testdomains' },
  unknown_action: { library: 'ippc' },
  unknown_instance: { library: 'ippc' },
  wrong_root_session_request: { library: 'ippc' },
  ws_no_decl: { library: 'ippc' },
};
/** Recorded edge cases that need a setup the server cannot have, and why. */
const NOT_REPLAYED: Record<string, string> = {
  rddl2_domainfile: 'its server read a domain from a .rddl2 file, a format Protoplay does not parse',
};

let libraries: Record<EdgeCaseSetup['library'], RddlLibrary>;
const servers: RddlsimServer[] = [];

beforeAll(async () => {
  const cwd = process.cwd();
  libraries = {
    ippc: await RddlLibrary.fromServerDirectory(sharedPath('rddl/ippc2011'), { cwd, mode: 'lenient' }),
    testdomains: await RddlLibrary.fromServerDirectory(join(RECORDINGS, 'testdomains'), {
      cwd,
      mode: 'lenient',
    }),
  };
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function startServer(options: Partial<RddlsimServerOptions> & Pick<RddlsimServerOptions, 'library'>) {
  const server = await RddlsimServer.start({
    host: '127.0.0.1',
    port: 0,
    rounds: 2,
    seed: 0,
    timeLimitSeconds: 1080,
    monitorExecution: false,
    noHeaderScope: 'process',
    maxMessageBytes: 10 * 1024 * 1024,
    semantics: 'rddlsim',
    log: () => undefined,
    ...options,
  });
  servers.push(server);
  return server;
}

/**
 * What the recording's session-init says about its server: rounds per session, the time limit, and how
 * many sessions the server had served before (session ids count connections from 1).
 */
function recordedSetup(steps: readonly ReplayStep[]) {
  const init = steps.flatMap((step) => step.expected).find((text) => text.includes('<session-init>'));
  if (!init) return { rounds: 2, timeLimitSeconds: 1080, earlierSessions: 0 };
  const field = (name: string) => Number(new RegExp(`<${name}>([^<]*)</${name}>`).exec(init)![1]);
  return {
    rounds: field('num-rounds'),
    timeLimitSeconds: field('time-allowed') / 1000,
    earlierSessions: field('session-id') - 1,
  };
}

/** Starts a server set up as the recording's was and replays the recorded client against it. */
async function replayAgainstServer(
  steps: ReplayStep[],
  library: RddlLibrary,
  setup: Partial<EdgeCaseSetup> = {},
) {
  const { rounds, timeLimitSeconds, earlierSessions } = recordedSetup(steps);
  const server = await startServer({
    library,
    rounds,
    timeLimitSeconds,
    monitorExecution: setup.monitorExecution ?? false,
  });
  for (let i = 0; i < earlierSessions; i++) await replay(server.address.port, []);
  return replay(server.address.port, steps, { keepTiming: setup.keepTiming ?? false });
}

function plan(relative: string): ReplayStep[] {
  return replayPlan(new Uint8Array(readFileSync(join(RECORDINGS, `${relative}.transcript`))));
}

/** Compares every step's answers with the recording's, printing the step on a mismatch. */
function expectSameAnswers(
  steps: ReplayStep[],
  replayed: Awaited<ReturnType<typeof replay>>,
  compare: (text: string) => string,
) {
  steps.forEach((step, i) => {
    const got = replayed[i]!;
    expect({ step: i, answers: got.received.map(compare) }).toEqual({
      step: i,
      answers: step.expected.map(compare),
    });
    if (step.expectClose) expect({ step: i, closed: got.closed }).toEqual({ step: i, closed: true });
  });
}

describe('serve answers recorded clients as rddlsim did', () => {
  it('covers every recorded edge case', () => {
    const recorded = readdirSync(join(RECORDINGS, 'edge-cases'))
      .filter((file) => file.endsWith('.transcript'))
      .map((file) => file.replace(/\.transcript$/, ''));
    expect(recorded.sort()).toEqual([...Object.keys(EDGE_CASES), ...Object.keys(NOT_REPLAYED)].sort());
  });

  it('replays the four Java-client sessions with the same answers, random values included', async () => {
    await Promise.all(
      MAIN_SESSIONS.map(async (name) => {
        const raw = new Uint8Array(readFileSync(join(RECORDINGS, `${name}.c2s.raw`)));
        const steps = plan(name);
        // The record file holds exactly the raw client stream, chunk by chunk.
        const sent = Buffer.concat(steps.flatMap((step) => (step.send === 'close' ? [] : [step.send])));
        expect(Buffer.compare(sent, raw)).toBe(0);
        expectSameAnswers(steps, await replayAgainstServer(steps, libraries.ippc), withoutClock);
      }),
    );
  });

  for (const [name, setup] of Object.entries(EDGE_CASES)) {
    it(`answers the ${name} probe as the real server did`, async () => {
      const steps = plan(`edge-cases/${name}`);
      expectSameAnswers(
        steps,
        await replayAgainstServer(steps, libraries[setup.library], setup),
        withoutClock,
      );
    });
  }
});

describe('serve with several clients at once', () => {
  it('serves concurrent sessions independently and survives clients that made rddlsim exit', async () => {
    const server = await startServer({ library: libraries.ippc, rounds: 2, noHeaderScope: 'connection' });
    // Sessions of two rounds, like the server's.
    const clients = [
      'game_of_life_inst_mdp__1',
      'edge-cases/actions_instead_of_round_request',
      'elevators_inst_mdp__1',
      'edge-cases/state_fluent_as_action_default',
      'sysadmin_inst_pomdp__1',
      'edge-cases/no_header_flag',
      'edge-cases/malformed_session_request',
    ];
    const plans = clients.map((name) => plan(name));
    const results = await Promise.all(plans.map((steps) => replay(server.address.port, steps)));
    plans.forEach((steps, i) => expectSameAnswers(steps, results[i]!, structureOf));
    // Each session simulated with seed + id - 1 whatever the others did: a fresh server whose first
    // session has that seed gives the same values.
    for (const [i, name] of clients.entries()) {
      if (name.startsWith('edge-cases/')) continue;
      const init = results[i]![0]!.received[0]!;
      const sessionId = Number(/<session-id>(\d+)<\/session-id>/.exec(init)![1]);
      const alone = await startServer({ library: libraries.ippc, rounds: 2, seed: sessionId - 1 });
      const replayedAlone = await replay(alone.address.port, plans[i]!);
      const values = (text: string) => withoutClock(text).replace(/<session-id>\d+<\/session-id>/, '');
      expect(results[i]!.map((step) => step.received.map(values))).toEqual(
        replayedAlone.map((step) => step.received.map(values)),
      );
    }
    // And the server still serves a complete session afterwards.
    const after = plan('game_of_life_inst_mdp__1');
    const replayedAfter = await replay(server.address.port, after);
    expect(
      replayedAfter.flatMap((step) => step.received).some((text) => text.includes('<session-end>')),
    ).toBe(true);
    // Each session ends when the server has seen its connection close.
    await vi.waitFor(() => expect(server.endedSessions).toBe(clients.length + 1), { timeout: 90_000 });
  });
});
