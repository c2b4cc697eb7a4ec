/**
 * Cycles per second of a GAMA session in the page with 12 scavengers (scenario C, 21 x 11 legend
 * observations), as a learner feels it: the built app in Chromium, from Run until the page holds the
 * finished transcript (or, in batch mode, every episode's result). The target is 1,000 cycles/s.
 *
 * Three paths, measured in the same run: step by step (the GAMA side and the API side in the session
 * worker, every request a round trip to the policy worker: the baseline, what a session started with Step
 * plays), fast (Run as fast as possible: the episode loop inside the policy worker beside the policy, a
 * chunk of cycles per round trip, the transcript batched to the page), and fast in batch mode (results
 * only). Baseline outside the page: the same episodes in Node in-process (the same policy runtime, no
 * worker and no page).
 */
import type { BenchRequest, BenchResult } from '../../src/app/bench-api';
import { findScavengerScenario } from '../../src/core/envs/scavenger';
import type { PolicySource } from '../../src/core/policy/types';
import {
  GAMA_ACT,
  GAMA_SAMPLES,
  GamaPolicyRuntime,
  gamaProtocol,
  playGamaEpisodes,
} from '../../src/core/protocols/gama';
import type { GamaSessionOptions } from '../../src/core/protocols/gama/playground/options';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { measureRate, median, printTable } from '../lib';
import { ensureBuild, launchChromium, startPreview, stopPreview } from './page-server';

const PORT = Number(process.env.BENCH_PORT ?? 4190);
const SCENARIO = 'C_basic_single_entrance_region';
const CYCLES = 300;
const EPISODES = 2;
const REPEATS = 3;
const SEED = 1;
const OPTIONS: GamaSessionOptions = {
  cycles: CYCLES,
  observation: 'legend',
  sendTerminal: true,
  faithfulQuirks: false,
  batch: false,
};

function policySource(code: string): PolicySource {
  return { code, language: 'ts', fileName: 'policy.ts', level: 'policy', seed: SEED };
}

/** The same episodes in Node, in-process, recorded: cycles played. */
async function playInProcess(code: string): Promise<number> {
  const runtime = new GamaPolicyRuntime();
  const loaded = runtime.load(policySource(code));
  if (!loaded.ok) throw new Error(loaded.fault.message);
  const results = await playGamaEpisodes({
    simulation: { scenario: findScavengerScenario(SCENARIO)!, seed: SEED, maxCycles: CYCLES },
    decide: async (decision) => {
      const outcome = await runtime.call(GAMA_ACT, [decision], {});
      if (!outcome.ok) throw new Error(outcome.fault.message);
      return outcome.value as string;
    },
    episodes: EPISODES,
    recorder: new TranscriptRecorder({ protocol: gamaProtocol.id }),
  });
  return results.reduce((sum, r) => sum + r.cycles, 0);
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
        `sample, path (scenario C, 12 scavengers, ${EPISODES} x ${CYCLES} cycles)`,
        'browser cycles/s',
        'browser requests/s',
        'vs step by step',
        'node in-process cycles/s',
        'vs node',
        'target 1,000 cycles/s',
      ],
    ];
    const paths = [
      { label: 'step by step (baseline)', startPaused: true, batch: false },
      { label: 'fast (Run)', startPaused: false, batch: false },
      { label: 'fast, batch mode', startPaused: false, batch: true },
    ];
    for (const sampleId of ['greedy', 'random']) {
      const sample = GAMA_SAMPLES.find((s) => s.id === sampleId)!;
      const node = await measureRate(
        `${sample.label} in-process`,
        EPISODES * CYCLES,
        () => playInProcess(sample.code),
        { warmup: 1, repeats: REPEATS },
      );
      let baseline = 0;
      for (const path of paths) {
        const request: BenchRequest = {
          protocol: gamaProtocol.id,
          environment: SCENARIO,
          rounds: EPISODES,
          seed: SEED,
          policy: policySource(sample.code),
          options: { ...OPTIONS, batch: path.batch },
          startPaused: path.startPaused,
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
        // Every episode plays its cycles (neither sample empties the map in 300 cycles).
        const cycles = EPISODES * CYCLES;
        const browserRate = median(runs.map((r) => (cycles / r.ms) * 1000));
        // Batch mode keeps no frames: its requests are the other paths' (the same episodes).
        const requests = path.batch ? (rows.at(-1)![2] as number) / (rows.at(-1)![1] as number) : 0;
        const requestRate = path.batch
          ? browserRate * requests
          : median(runs.map((r) => (r.turns / r.ms) * 1000));
        if (path.startPaused) baseline = browserRate;
        rows.push([
          `${sample.label}, ${path.label}`,
          browserRate,
          requestRate,
          `${(browserRate / baseline).toFixed(2)}x`,
          node.opsPerSecond,
          `${(browserRate / node.opsPerSecond).toFixed(2)}x`,
          browserRate >= 1000 ? 'met' : 'not met',
        ]);
      }
    }
    printTable('GAMA session in the page (end to end): step by step vs fast, and Node in-process', rows);
  } finally {
    await browser.close();
    stopPreview(server);
  }
}
