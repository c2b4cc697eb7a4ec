/**
 * What moving `protoplay run rddlsim` onto the generic runner shape would cost: the same session (noop
 * policy, sysadmin_inst_mdp__1 from the shared IPPC files, Protoplay's generator) played three ways in
 * the same run, in this process, with no socket:
 *
 * - `DirectSession`, what `run rddlsim` plays without `--transcript` or `--wire`: the policy is asked on
 *   the simulator's own observations, no message is written or read;
 * - `EmulatedSession`, what `run rddlsim --wire` and `--transcript` play (and the page's worker): host,
 *   client adapter and pipe, every message encoded, decoded and recorded;
 * - the generic shape every protocol with `endpoints` gets (`playInMemory`: the sans-IO host endpoint and
 *   the sans-IO client driven by `driveClient`, recorded by the protocol's framing), which is what `run`
 *   would be for every protocol on one runner.
 *
 * Rates per second of wall time and of this process's CPU time (which other processes' load does not
 * lower), and each shape's ratio, by CPU time, to `DirectSession` and to `EmulatedSession` of the same run.
 */
import { resolve } from 'node:path';
import { preparePolicy } from '../../cli/protocols/rddlsim/policies';
import { RddlLibrary } from '../../cli/protocols/rddlsim/rddl-library';
import type { CallOutcome } from '../../src/core/policy/types';
import type { Observation } from '../../src/core/protocols/rddlsim/policy-api';
import { openSession } from '../../src/core/protocols/rddlsim/direct-session';
import { RddlsimHost } from '../../src/core/protocols/rddlsim/host';
import { RddlsimHostEndpoint } from '../../src/core/protocols/rddlsim/host-endpoint';
import { rddlsimProtocol } from '../../src/core/protocols/rddlsim/protocol';
import { rddlsimSansIoClient } from '../../src/core/protocols/rddlsim/sans-io-client';
import { EmulatedSession } from '../../src/core/protocols/rddlsim/session';
import { driveClient } from '../../src/core/session/client-driver';
import { playInMemory } from '../../src/core/session/in-memory-play';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { measureRate, printTable, type Rate } from '../lib';

const INSTANCE = 'sysadmin_inst_mdp__1';
const RDDL_DIR = resolve(process.cwd(), '../shared/rddl/ippc2011');
const ROUNDS = 50;
/** The JIT needs a few thousand turns before the code is optimised. */
const WARM = { warmup: 5, repeats: 5 };
/** What a hook the noop policy does not have answers. */
const NO_HOOK: CallOutcome = { ok: true, value: null, logs: [], ms: 0 };

export default async function () {
  const library = await RddlLibrary.fromServerDirectory(RDDL_DIR, { cwd: process.cwd(), mode: 'lenient' });
  const { model, task } = library.load(INSTANCE);
  const horizon = model.info.horizon;
  const turns = ROUNDS * horizon;
  const noop = await preparePolicy('noop', {
    cwd: process.cwd(),
    seed: 0,
    budgetMs: 1000,
    invalidActions: 'stop',
  });
  const sessionOptions = () => ({
    model,
    task,
    policy: noop.forInstance(model.info),
    rounds: ROUNDS,
    seed: 0,
    recordWorld: false,
    keepTranscript: false,
  });

  const direct = await measureRate(
    'DirectSession: run rddlsim (default)',
    turns,
    async () => {
      const session = openSession(sessionOptions(), { wire: false });
      while (session.status === 'ready' || session.status === 'waiting') await session.step();
      if (session.totalReward === undefined) throw new Error('the direct session did not finish');
    },
    WARM,
  );
  const wire = await measureRate(
    'EmulatedSession: run rddlsim --wire',
    turns,
    async () => {
      const session = openSession(sessionOptions(), { wire: true });
      while (session.status === 'ready' || session.status === 'waiting') await session.step();
      if (!(session instanceof EmulatedSession) || session.totalReward === undefined)
        throw new Error('the wire session did not finish');
    },
    WARM,
  );
  const generic = await measureRate(
    'playInMemory + driveClient (generic run)',
    turns,
    async () => {
      const policy = noop.forInstance(model.info);
      const host = new RddlsimHostEndpoint(
        new RddlsimHost({
          resolveInstance: (name) => (name === INSTANCE ? { model, task } : undefined),
          rounds: ROUNDS,
          seed: 0,
          timeLimitSeconds: 0,
          noHeaderScope: 'connection',
        }),
        { log: () => undefined },
      );
      let ended = false;
      const client = driveClient(
        rddlsimSansIoClient(
          { problemName: INSTANCE, info: model.info },
          {
            event: (event) => {
              if (event.kind === 'session-end') ended = true;
            },
          },
        ),
        (request) =>
          request.hook === 'act'
            ? policy.act(request.args[0] as Observation, request.site)
            : Promise.resolve(NO_HOOK),
      );
      const recorder = new TranscriptRecorder({ protocol: rddlsimProtocol.id, keep: false });
      await playInMemory({ protocol: rddlsimProtocol, host, client, recorder }).done;
      if (!ended) throw new Error('the generic session did not reach its end');
    },
    WARM,
  );

  // On a shared machine the wall-clock rate swings with the load; the CPU time barely: ratios use it.
  const perCpuSecond = (rate: Rate) => rate.ops / (rate.cpuSeconds ?? rate.seconds);
  const ratio = (rate: Rate, base: Rate) => `${(perCpuSecond(rate) / perCpuSecond(base)).toFixed(2)}x`;
  printTable(`run rddlsim, three shapes, ${INSTANCE} (${horizon} turns per round), noop policy`, [
    ['shape', 'rounds', 'turns/s', 'turns per CPU s', 'vs DirectSession', 'vs EmulatedSession'],
    ...[direct, wire, generic].map((rate) => [
      rate.label,
      rate.ops / horizon,
      rate.opsPerSecond,
      Math.round(perCpuSecond(rate)),
      ratio(rate, direct),
      ratio(rate, wire),
    ]),
  ]);
}
