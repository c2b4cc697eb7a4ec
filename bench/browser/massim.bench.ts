/**
 * Steps per second of a whole MASSim match in the playground, as a learner feels it: the built app in
 * Chromium, the session worker (emulated host, scenario, transcript store, reader), one policy worker per
 * team (user code, compiled and supervised, one call per team and step) and the per-frame news to the page,
 * from pressing Run until the page holds the last step. Both teams play the trivial `skip` sample. The
 * baseline, measured in the same run: the same match (same shape, seed and policy source, same team
 * runtime, read by the same reader) in Node in-process, no worker and no page, so the ratio is the cost of
 * the worker boundaries and the page. The real massim_2022 server's rates on this kind of machine are
 * given where they were measured (2 x 20 on 70 x 70: ~43 steps/s; 2 x 40 on 100 x 100: ~23 steps/s).
 */
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { quickMassimConfig } from '../../src/core/envs/massim';
import {
  MassimMatchRunner,
  batchedTeamDecide,
  type MassimTeamBatchReply,
} from '../../src/core/protocols/massim';
import { MassimTranscriptReader } from '../../src/core/protocols/massim/reader';
import { MASSIM_SAMPLES } from '../../src/core/protocols/massim/samples';
import { MASSIM_TEAM_STEP, MassimTeamRuntime } from '../../src/core/protocols/massim/team-runtime';
import {
  defaultMassimWorkspace,
  encodeMassimWorkspace,
  massimLinkParameter,
} from '../../src/core/protocols/massim/playground/workspace-data';
import type { MassimBenchRequest, MassimBenchResult } from '../../src/ui/protocols/massim/bench-api';
import { measureRate, median, printTable } from '../lib';
import { ensureBuild, launchChromium, startPreview, stopPreview } from './page-server';

const ROOT = resolve(import.meta.dirname, '../..');
/** A build of its own: another build of `dist/` may be under way. */
const OUT = join(ROOT, 'bench/out/massim-app');
const PORT = Number(process.env.BENCH_PORT ?? 4189);
const REPEATS = 3;
const SEED = 1;
const STEPS = 200;
const SHAPES = [
  { label: '2 x 5 on 40 x 40 (default)', agentsPerTeam: 5, width: 40, height: 40, realServer: undefined },
  { label: '2 x 20 on 70 x 70', agentsPerTeam: 20, width: 70, height: 70, realServer: 43 },
  { label: '2 x 40 on 100 x 100', agentsPerTeam: 40, width: 100, height: 100, realServer: 23 },
];

const SKIP = MASSIM_SAMPLES.find((s) => s.id === 'skip')!.code;

/** The same match in Node, in-process: team runtimes answering the runner's batches directly, then read. */
async function playInProcess(shape: (typeof SHAPES)[number]): Promise<number> {
  const team = () => {
    const runtime = new MassimTeamRuntime();
    const loaded = runtime.load({
      code: SKIP,
      language: 'ts',
      fileName: 'team.ts',
      level: 'policy',
      seed: SEED,
    });
    if (!loaded.ok) throw new Error(loaded.fault.message);
    return batchedTeamDecide(async (batch) => {
      const outcome = await runtime.call(MASSIM_TEAM_STEP, [batch], {});
      if (!outcome.ok) throw new Error(outcome.fault.message);
      return outcome.value as MassimTeamBatchReply;
    });
  };
  const runner = new MassimMatchRunner({
    config: quickMassimConfig({ ...shape, steps: STEPS }),
    teams: { A: team(), B: team() },
    seed: SEED,
  });
  await runner.run();
  const reader = new MassimTranscriptReader(runner.host.store, { judgeAgents: false });
  return reader.read().frames.length;
}

/**
 * Milliseconds from moving the timeline's slider to a step until the world view shows that step (the page
 * asks the worker for the world, which unpacks it from the transcript store), for steps in random order.
 */
async function scrubTimes(page: import('@playwright/test').Page, steps: number): Promise<number[]> {
  // No named functions inside: the page gets the callback's source as it is, without the helpers the
  // TypeScript runner would add around them.
  return page.evaluate(async (steps) => {
    const slider = document.querySelector<HTMLInputElement>('input[aria-label="Step shown"]')!;
    const times: number[] = [];
    let seed = 7;
    for (let i = 0; i < 20; i++) {
      seed = (seed * 48271) % 2147483647;
      const step = seed % (steps - 1);
      const started = performance.now();
      slider.value = String(step);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      while (
        !document
          .querySelector('[role="img"][aria-label^="World after step"]')
          ?.getAttribute('aria-label')
          ?.startsWith(`World after step ${step}:`)
      )
        await new Promise((resolve) => requestAnimationFrame(resolve));
      times.push(performance.now() - started);
    }
    return times;
  }, steps);
}

export default async function () {
  ensureBuild(OUT);
  const server = await startPreview(PORT, OUT);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const link = `${massimLinkParameter}=${encodeMassimWorkspace(defaultMassimWorkspace())}`;
    await page.goto(`${server.url}?bench#${link}`);
    await page.waitForFunction(() => 'protoplayMassimBench' in window);
    const rows: (string | number)[][] = [
      [
        `shape (${STEPS} steps, skip vs skip)`,
        'browser steps/s',
        'node in-process steps/s',
        'ratio',
        'browser x real server',
        'browser ms/match',
      ],
    ];
    for (const shape of SHAPES) {
      const request: MassimBenchRequest = { ...shape, steps: STEPS, seed: SEED, code: SKIP };
      const runs: MassimBenchResult[] = [];
      for (let i = 0; i < REPEATS + 1; i++) {
        const result = await page.evaluate(
          (r) =>
            (
              window as unknown as {
                protoplayMassimBench: (r: MassimBenchRequest) => Promise<MassimBenchResult>;
              }
            ).protoplayMassimBench(r),
          request,
        );
        if (result.phase !== 'finished' || result.steps !== STEPS)
          throw new Error(`browser match ended ${result.phase} after ${result.steps} steps`);
        if (i > 0) runs.push(result); // the first run warms the workers' code up
      }
      const browserRate = median(runs.map((r) => (r.steps / r.ms) * 1000));
      const node = await measureRate(`${shape.label} in-process`, STEPS, () => playInProcess(shape), {
        warmup: 1,
        repeats: REPEATS,
      });
      rows.push([
        shape.label,
        browserRate,
        node.opsPerSecond,
        `${(browserRate / node.opsPerSecond).toFixed(2)}x`,
        shape.realServer ? `${(browserRate / shape.realServer).toFixed(1)}x` : '—',
        median(runs.map((r) => r.ms)),
      ]);
    }
    printTable(
      `MASSim match in the browser (end to end) vs the same match in Node in-process (load average ${loadavg()[0]!.toFixed(1)})`,
      rows,
    );
    // The page now shows the last (largest) match: scrub it.
    const times = (await scrubTimes(page, STEPS)).sort((a, b) => a - b);
    printTable(
      `Scrubbing the last match (${SHAPES[SHAPES.length - 1]!.label}, ${STEPS} steps) to random steps`,
      [
        ['until the world view shows the step', 'median ms', '90th percentile ms', 'slowest ms'],
        [
          '20 steps in random order',
          median(times),
          times[Math.floor(times.length * 0.9)]!,
          times[times.length - 1]!,
        ],
      ],
    );
  } finally {
    await browser.close();
    stopPreview(server);
  }
}
