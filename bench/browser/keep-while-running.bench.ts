/**
 * What storing a running session's transcript every few seconds costs (the store that lets a reload or a
 * crashed tab show the session again, marked unfinished): the built app in Chromium, a long RDDLSim
 * session and a long MASSim match played at full speed through the real workers, from Run until the page
 * holds the end, with the stores while running at the product's pace (every 5 s) and, as the baseline in
 * the same run, without them (stored only once the session is quiet). The runs alternate, so a load that
 * changes on the machine weighs on both alike. Each store writes the whole transcript so far, from the
 * session worker.
 */
import { loadavg } from 'node:os';
import { DEFAULT_EXAMPLE } from '../../src/core/envs/rddl';
import { KEEP_WHILE_RUNNING_MS } from '../../src/core/session/transcript-keeper';
import { MASSIM_SAMPLES } from '../../src/core/protocols/massim/samples';
import { RDDLSIM_SAMPLES } from '../../src/core/protocols/rddlsim/samples';
import {
  defaultMassimWorkspace,
  encodeMassimWorkspace,
  massimLinkParameter,
} from '../../src/state/protocols/massim/workspace-data';
import type { BenchRequest, BenchResult } from '../../src/app/bench-api';
import type { MassimBenchRequest, MassimBenchResult } from '../../src/ui/protocols/massim/bench-api';
import { median, printTable } from '../lib';
import { ensureBuild, launchChromium, startPreview, stopPreview } from './page-server';

const PORT = Number(process.env.BENCH_PORT ?? 4193);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const SEED = 1;
/**
 * Long enough for several stores while running, each of a bigger transcript (the default domain has 40
 * turns per round).
 */
const RDDL_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1000);
const MASSIM_STEPS = Number(process.env.BENCH_STEPS ?? 3000);

type Page = import('@playwright/test').Page;

/** One session as the page plays it: its rate (turns or steps per second) and its time. */
interface Played {
  rate: number;
  ms: number;
  messages: number;
}

async function keepWhileRunning(page: Page, ms: number): Promise<void> {
  await page.evaluate(
    (every) =>
      (
        window as unknown as { protoplayKeepWhileRunning: (ms: number) => Promise<void> }
      ).protoplayKeepWhileRunning(every),
    ms,
  );
}

async function playRddl(page: Page): Promise<Played> {
  const sample = RDDLSIM_SAMPLES.find((s) => s.id === 'noop')!;
  const request: BenchRequest = {
    environment: DEFAULT_EXAMPLE.id,
    rounds: RDDL_ROUNDS,
    seed: SEED,
    policy: { code: sample.code, language: 'ts', fileName: 'policy.ts', level: 'policy', seed: SEED },
  };
  const result = await page.evaluate(
    (r) =>
      (window as unknown as { protoplayBench: (r: BenchRequest) => Promise<BenchResult> }).protoplayBench(r),
    request,
  );
  if (result.phase !== 'finished') throw new Error(`the RDDLSim session ended ${result.phase}`);
  return { rate: (result.turns / result.ms) * 1000, ms: result.ms, messages: result.messages };
}

async function playMassim(page: Page): Promise<Played> {
  const code = MASSIM_SAMPLES.find((s) => s.id === 'skip')!.code;
  const request: MassimBenchRequest = {
    agentsPerTeam: 5,
    width: 40,
    height: 40,
    steps: MASSIM_STEPS,
    seed: SEED,
    code,
  };
  const result = await page.evaluate(
    (r) =>
      (
        window as unknown as {
          protoplayMassimBench: (r: MassimBenchRequest) => Promise<MassimBenchResult>;
        }
      ).protoplayMassimBench(r),
    request,
  );
  if (result.phase !== 'finished' || result.steps !== MASSIM_STEPS)
    throw new Error(`the MASSim match ended ${result.phase} after ${result.steps} steps`);
  return { rate: (result.steps / result.ms) * 1000, ms: result.ms, messages: result.messages };
}

/** Plays warm-up, then `REPEATS` rounds of on/off pairs; the medians of each. */
async function compare(page: Page, play: (page: Page) => Promise<Played>) {
  await keepWhileRunning(page, 0);
  await play(page); // warms the workers' code up
  const on: Played[] = [];
  const off: Played[] = [];
  for (let i = 0; i < REPEATS; i++) {
    // Each pair in the other order: neither setting always follows the same one.
    for (const keeping of i % 2 === 0 ? [true, false] : [false, true]) {
      await keepWhileRunning(page, keeping ? KEEP_WHILE_RUNNING_MS : 0);
      (keeping ? on : off).push(await play(page));
    }
  }
  await keepWhileRunning(page, KEEP_WHILE_RUNNING_MS);
  const pick = (runs: Played[]) => ({
    rate: median(runs.map((r) => r.rate)),
    ms: median(runs.map((r) => r.ms)),
    messages: runs[0]!.messages,
  });
  return { on: pick(on), off: pick(off) };
}

export default async function () {
  ensureBuild();
  const server = await startPreview(PORT);
  const browser = await launchChromium();
  try {
    const rows: (string | number)[][] = [
      [
        'session (full speed)',
        'rate, stored every 5 s',
        'rate, stored only when quiet',
        'ratio',
        'ms per session (5 s / quiet)',
        'messages',
      ],
    ];
    const rddlPage = await browser.newPage();
    await rddlPage.goto(`${server.url}?bench`);
    await rddlPage.waitForFunction(() => 'protoplayBench' in window);
    const rddl = await compare(rddlPage, playRddl);
    rows.push([
      `RDDLSim, default domain, ${RDDL_ROUNDS} rounds (turns/s)`,
      rddl.on.rate,
      rddl.off.rate,
      `${(rddl.on.rate / rddl.off.rate).toFixed(2)}x`,
      `${Math.round(rddl.on.ms)} / ${Math.round(rddl.off.ms)}`,
      rddl.on.messages,
    ]);
    await rddlPage.close();

    const massimPage = await browser.newPage();
    const link = `${massimLinkParameter}=${encodeMassimWorkspace(defaultMassimWorkspace())}`;
    await massimPage.goto(`${server.url}?bench#${link}`);
    await massimPage.waitForFunction(() => 'protoplayMassimBench' in window);
    const massim = await compare(massimPage, playMassim);
    rows.push([
      `MASSim, 2 x 5 on 40 x 40, ${MASSIM_STEPS} steps (steps/s)`,
      massim.on.rate,
      massim.off.rate,
      `${(massim.on.rate / massim.off.rate).toFixed(2)}x`,
      `${Math.round(massim.on.ms)} / ${Math.round(massim.off.ms)}`,
      massim.on.messages,
    ]);
    printTable(
      `Storing a running session every ${KEEP_WHILE_RUNNING_MS / 1000} s vs only when quiet (median of ${REPEATS} alternating pairs, load average ${loadavg()[0]!.toFixed(1)})`,
      rows,
    );
  } finally {
    await browser.close();
    stopPreview(server);
  }
}
