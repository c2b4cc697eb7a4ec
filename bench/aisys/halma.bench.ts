/**
 * Halma actions per second through the emulated aisysprojserver, five runs in parallel (the course
 * client's default), every exchange recorded:
 *
 * - `AisysSession` (client and host joined in memory, what `protoplay run` and the playground play) with
 *   the greedy sample in the policy runtime `protoplay run aisys --env halma` loads it into, on each of the
 *   three ready-made boards; every action also costs the server the opponents' moves;
 * - the host alone answering the requests of a played session again (its ceiling on the star).
 *
 * Baselines: perfect Nim through the same session, measured in this run (the cheapest game there is), and
 * the real server's ~250 applied actions per second at saturation from the research notes
 * (research/aisysprojserver.md section 5: a noted figure, not measured here).
 */
import { AisysHost } from '../../src/core/protocols/aisys/host';
import { localDecide, supervisedDecide } from '../../src/core/protocols/aisys/decide';
import { AisysPolicyRuntime } from '../../src/core/protocols/aisys/policy-runtime';
import { AISYS_SAMPLES } from '../../src/core/protocols/aisys/samples';
import { findAisysEnvironment } from '../../src/core/protocols/aisys/environments';
import { AisysSession } from '../../src/core/protocols/aisys/session';
import { measureRate, printTable, type Rate } from '../lib';

/** Applied actions per second of the real server at saturation, as the research notes give it (not measured). */
const NOTED_REAL_SERVER_ACTIONS_PER_SECOND = 250;
const NIM_RUNS = 2000;
const HALMA_RUNS = 100;

/** The greedy sample, loaded as `protoplay run` loads a built-in policy. */
function greedySample(env: string) {
  const sample = AISYS_SAMPLES.find((candidate) => candidate.id === 'halma-greedy')!;
  const runtime = new AisysPolicyRuntime();
  const loaded = runtime.load({
    code: sample.code,
    language: 'ts',
    fileName: 'greedy.ts',
    level: 'policy',
    seed: 0,
  });
  if (!loaded.ok) throw new Error('the greedy sample does not load');
  return supervisedDecide({ call: (hook, args, context) => runtime.call(hook, args, context) }, { env });
}

/** Plays a session and counts the actions its finished runs took. */
async function sessionRate(
  label: string,
  env: string,
  runs: number,
  decide: () => ReturnType<typeof localDecide>,
) {
  let actions = 0;
  const rate = await measureRate(
    label,
    1,
    async () => {
      const session = new AisysSession({ env, runs, decide: decide(), seed: 1, now: () => 0 });
      await session.run();
      actions = session.finished.reduce((sum, run) => sum + run.actions, 0);
    },
    { warmup: 1, repeats: 3 },
  );
  return { ...rate, ops: actions, opsPerSecond: actions / rate.seconds };
}

export default async function () {
  const rates: Rate[] = [];
  rates.push(
    await sessionRate('AisysSession, perfect Nim on nim (baseline)', 'nim', NIM_RUNS, () =>
      localDecide((percept) => (percept as number) % 4 || 1),
    ),
  );
  for (const env of ['halma', 'halma-3', 'halma-rhombus'])
    rates.push(
      await sessionRate(`AisysSession, greedy sample on ${env}`, env, HALMA_RUNS, () => greedySample(env)),
    );
  rates.push(await hostAlone());

  const nim = rates[0]!.opsPerSecond;
  printTable('aisys Halma, 5 runs in parallel, recorded', [
    ['setup', 'actions', 'actions/s', 'vs Nim session', 'vs real server (noted)'],
    ...rates.map((rate) => [
      rate.label,
      rate.ops,
      rate.opsPerSecond,
      `${(rate.opsPerSecond / nim).toFixed(2)}x`,
      `${Math.round(rate.opsPerSecond / NOTED_REAL_SERVER_ACTIONS_PER_SECOND)}x`,
    ]),
    ['aisysprojserver 0.1.3, saturated (research notes, not measured here)', '', 250, '', '1x'],
  ]);
}

/** The host alone: the requests of a played Halma session, answered again by fresh hosts (same seed). */
async function hostAlone(): Promise<Rate> {
  const played = new AisysSession({
    env: 'halma',
    runs: HALMA_RUNS,
    decide: greedySample('halma'),
    seed: 5,
    now: () => 0,
  });
  await played.run();
  const requests = played.transcript.messages
    .filter((message) => message.dir === 'c2s')
    .map((message) => ({
      meta: { method: 'PUT', path: '/act/halma', headers: { 'content-type': 'application/json' } },
      body: message.text!,
    }));
  const actions = played.finished.reduce((sum, run) => sum + run.actions, 0);
  const preset = findAisysEnvironment('halma')!;
  return measureRate(
    'host alone on halma, answering prepared requests',
    actions,
    () => {
      const host = new AisysHost({ seed: 5, now: () => 0 });
      host.addEnvironment('halma', preset.envClass, preset.config);
      host.addAgent('halma', 'agent');
      for (const request of requests) host.handle(request);
    },
    { warmup: 2, repeats: 5 },
  );
}
