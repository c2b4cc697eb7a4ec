/**
 * Actions per second of an aisys session in the page, as a learner feels it: perfect Nim on `nim` with
 * five runs in parallel (the course client's default), the built app in Chromium, the emulated server and
 * the course client in the session worker, each response's actions decided by the sample in the policy
 * worker (one round trip per response), every exchange recorded and batched to the page, from Run until
 * the page holds the finished transcript. Baselines measured in the same run: the same session in Node in
 * memory (`AisysSession`) with the same policy runtime in-process (no worker, no page), and with a plain
 * function as the policy (the emulator's own pace). Actions are counted as the action requests answered.
 */
import type { BenchRequest, BenchResult } from '../../src/app/bench-api';
import type { PolicySource } from '../../src/core/policy/types';
import {
  AISYS_SAMPLES,
  AisysPolicyRuntime,
  AisysSession,
  aisysProtocol,
  localDecide,
  supervisedDecide,
} from '../../src/core/protocols/aisys';
import type { AisysPlaygroundOptions } from '../../src/core/protocols/aisys/playground/options';
import { measureRate, median, printTable } from '../lib';
import { ensureBuild, launchChromium, startPreview, stopPreview } from './page-server';

const PORT = Number(process.env.BENCH_PORT ?? 4191);
const RUNS = 1000;
const REPEATS = 3;
const SEED = 1;
const OPTIONS: AisysPlaygroundOptions = {
  parallelRuns: true,
  abandonOldRuns: false,
  faithfulBugs: true,
  accounts: [],
};
const SAMPLE = AISYS_SAMPLES.find((s) => s.id === 'nim-optimal')!;

function policySource(): PolicySource {
  return { code: SAMPLE.code, language: 'ts', fileName: 'policy.ts', level: 'policy', seed: SEED };
}

/** The same session in Node, in memory, the policy in the same runtime in-process: actions applied. */
async function playInMemory(withRuntime: boolean): Promise<number> {
  let decide = localDecide((percept) => (percept as number) % 4 || 1);
  if (withRuntime) {
    const runtime = new AisysPolicyRuntime();
    const loaded = runtime.load(policySource());
    if (!loaded.ok) throw new Error(loaded.fault.message);
    decide = supervisedDecide(
      { call: (hook, args, context) => runtime.call(hook, args, context) },
      { env: 'nim' },
    );
  }
  const session = new AisysSession({ env: 'nim', runs: RUNS, seed: SEED, decide });
  await session.run();
  return session.finished.reduce((sum, run) => sum + run.actions, 0);
}

export default async function () {
  ensureBuild();
  const server = await startPreview(PORT);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}?bench`);
    await page.waitForFunction(() => 'protoplayBench' in window);
    const request: BenchRequest = {
      protocol: aisysProtocol.id,
      environment: 'nim',
      rounds: RUNS,
      seed: SEED,
      policy: policySource(),
      options: OPTIONS,
    };
    const runs: BenchResult[] = [];
    for (let i = 0; i < REPEATS + 1; i++) {
      const result = await page.evaluate(
        (r) =>
          (window as unknown as { protoplayBench: (r: BenchRequest) => Promise<BenchResult> }).protoplayBench(
            r,
          ),
        request,
      );
      if (result.phase !== 'finished') throw new Error(`browser session ended ${result.phase}`);
      if (i > 0) runs.push(result); // the first run warms the workers' code up
    }
    const browserRate = median(runs.map((r) => (r.turns / r.ms) * 1000));
    const exchangesRate = median(runs.map((r) => (r.messages / 2 / r.ms) * 1000));
    let actions = 0;
    const runtime = await measureRate(
      'in memory, the policy runtime in-process',
      RUNS * 3,
      async () => {
        actions = await playInMemory(true);
      },
      { warmup: 1, repeats: REPEATS },
    );
    const runtimeRate = actions / runtime.seconds;
    const plain = await measureRate(
      'in memory, a plain function',
      RUNS * 3,
      async () => {
        actions = await playInMemory(false);
      },
      { warmup: 1, repeats: REPEATS },
    );
    const plainRate = actions / plain.seconds;
    printTable(
      `aisys session in the page (end to end) vs in memory in Node: perfect Nim, ${RUNS} runs, 5 in parallel`,
      [
        ['path', 'actions/s', 'exchanges/s', 'page / this'],
        ['page: session worker + policy worker + page', browserRate, exchangesRate, '1.00x'],
        [
          'Node in memory, policy runtime in-process',
          runtimeRate,
          '',
          `${(browserRate / runtimeRate).toFixed(2)}x`,
        ],
        ['Node in memory, plain function', plainRate, '', `${(browserRate / plainRate).toFixed(2)}x`],
      ],
    );
  } finally {
    await browser.close();
    stopPreview(server);
  }
}
