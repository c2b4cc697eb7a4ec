/**
 * Turns per second of a full playground session, as a learner feels it: the built app in Chromium, the
 * session worker (host, environment, transcript), the nested policy worker (user code, compiled and
 * supervised) and the per-frame batches to the page, from pressing Run until the page holds the finished
 * transcript. The baseline, measured in the same run: the same session (same domain, seed, policy source
 * and policy runtime) in Node in-process, no worker and no page, so the ratio is the cost of the worker
 * boundaries and the page.
 */
import { DEFAULT_EXAMPLE, exampleSources, loadRddl } from '../../src/core/envs/rddl';
import { createInProcessEndpoint } from '../../src/core/policy/in-process-endpoint';
import { PolicySupervisor } from '../../src/core/policy/supervisor';
import type { PolicySource } from '../../src/core/policy/types';
import { instanceSummary } from '../../src/core/protocols/rddlsim/action-encoding';
import { rddlsimTaskText } from '../../src/core/protocols/rddlsim/host';
import { EmulatedSession } from '../../src/core/protocols/rddlsim/session';
import { RDDLSIM_SAMPLES } from '../../src/core/protocols/rddlsim/samples';
import type { BenchRequest, BenchResult } from '../../src/app/bench-api';
import { measureRate, median, printTable } from '../lib';
import { ensureBuild, launchChromium, startPreview, stopPreview } from './page-server';

const PORT = Number(process.env.BENCH_PORT ?? 4188);
/** Rounds per measured session (the default domain has 40 turns per round). */
const ROUNDS = 25;
const REPEATS = 5;
const SEED = 1;

function policySource(code: string): PolicySource {
  return { code, language: 'ts', fileName: 'policy.ts', level: 'policy', seed: SEED };
}

/** The same session in Node, in-process: EmulatedSession asking the policy runtime directly. */
async function playInProcess(code: string): Promise<number> {
  const example = DEFAULT_EXAMPLE;
  const model = loadRddl(exampleSources(example));
  const summary = instanceSummary(model.info);
  const supervisor = new PolicySupervisor({ spawn: createInProcessEndpoint, budgetMs: 10_000 });
  await supervisor.load({ ...policySource(code), context: { instance: summary } });
  const session = new EmulatedSession({
    model,
    task: rddlsimTaskText(example.domain, example.instance),
    rounds: ROUNDS,
    seed: SEED,
    onPolicyFault: 'stop',
    policy: {
      act: (observation, site) => supervisor.call('act', [observation], {}, site),
      hook: (name, args, site) => supervisor.call(name, args, {}, site),
    },
  });
  await session.run();
  if (session.status !== 'finished') throw new Error(`in-process session ended ${session.status}`);
  return session.transcript.messages.filter((m) => m.text?.includes('<turn>')).length;
}

export default async function () {
  ensureBuild();
  const server = await startPreview(PORT);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}?bench`);
    await page.waitForFunction(() => 'protoplayBench' in window);
    const rows: (string | number)[][] = [
      [
        'policy (default domain, 25 rounds x 40 turns)',
        'browser turns/s',
        'node in-process turns/s',
        'ratio',
        'browser ms/session',
      ],
    ];
    for (const sampleId of ['noop', 'network-heuristic']) {
      const sample = RDDLSIM_SAMPLES.find((s) => s.id === sampleId)!;
      const request: BenchRequest = {
        environment: DEFAULT_EXAMPLE.id,
        rounds: ROUNDS,
        seed: SEED,
        policy: policySource(sample.code),
      };
      const runs: BenchResult[] = [];
      for (let i = 0; i < REPEATS + 1; i++) {
        const result = await page.evaluate(
          (r) =>
            (
              window as unknown as { protoplayBench: (r: BenchRequest) => Promise<BenchResult> }
            ).protoplayBench(r),
          request,
        );
        if (result.phase !== 'finished') throw new Error(`browser session ended ${result.phase}`);
        if (i > 0) runs.push(result); // the first run warms the workers' code up
      }
      const turns = runs[0]!.turns;
      const browserRate = median(runs.map((r) => (r.turns / r.ms) * 1000));
      const node = await measureRate(`${sample.label} in-process`, turns, () => playInProcess(sample.code), {
        warmup: 1,
        repeats: REPEATS,
      });
      rows.push([
        sample.label,
        browserRate,
        node.opsPerSecond,
        `${(browserRate / node.opsPerSecond).toFixed(2)}x`,
        median(runs.map((r) => r.ms)),
      ]);
    }
    printTable(
      'Full session in the browser worker (end to end) vs the same session in Node in-process',
      rows,
    );
  } finally {
    await browser.close();
    stopPreview(server);
  }
}
