/**
 * What storing a running session's transcript every few seconds costs (the store that lets a reload or a
 * crashed tab show the session again, marked unfinished): the built app in Chromium, a long RDDLSim
 * session and a long MASSim match played at full speed through the real workers, from Run until the page
 * holds the end, with the stores while running at the product's pace (every 5 s) and, as the baseline in
 * the same run, without them (stored only once the session is quiet). Each store appends what was
 * recorded since the last one; the earlier way, each store writing the whole transcript so far, is
 * measured in the same run too. The runs rotate, so a load that changes on the machine weighs on all alike.
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
} from '../../src/core/protocols/massim/playground/workspace-data';
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

/** How the session's transcript is stored while it runs. */
type Keeping = 'parts' | 'whole' | 'quiet';
const KEEPINGS: readonly Keeping[] = ['parts', 'whole', 'quiet'];

async function keepWhileRunning(page: Page, keeping: Keeping): Promise<void> {
  await page.evaluate(
    ([every, whole]) =>
      (
        window as unknown as { protoplayKeepWhileRunning: (ms: number, whole: boolean) => Promise<void> }
      ).protoplayKeepWhileRunning(every, whole),
    [keeping === 'quiet' ? 0 : KEEP_WHILE_RUNNING_MS, keeping === 'whole'] as const,
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

/** Plays warm-up, then `REPEATS` rounds of one session per way of storing; the medians of each. */
async function compare(page: Page, play: (page: Page) => Promise<Played>) {
  await keepWhileRunning(page, 'quiet');
  await play(page); // warms the workers' code up
  const runs: Record<Keeping, Played[]> = { parts: [], whole: [], quiet: [] };
  for (let i = 0; i < REPEATS; i++) {
    // Each round starts with another way: none always follows the same one.
    for (let k = 0; k < KEEPINGS.length; k++) {
      const keeping = KEEPINGS[(i + k) % KEEPINGS.length]!;
      await keepWhileRunning(page, keeping);
      runs[keeping].push(await play(page));
    }
  }
  await keepWhileRunning(page, 'parts');
  const pick = (played: Played[]) => ({
    rate: median(played.map((r) => r.rate)),
    ms: median(played.map((r) => r.ms)),
    messages: played[0]!.messages,
  });
  return { on: pick(runs.parts), whole: pick(runs.whole), off: pick(runs.quiet) };
}

/** A table row: the rates of each way, their ratios to storing only when quiet, times and messages. */
function row(label: string, result: Awaited<ReturnType<typeof compare>>): (string | number)[] {
  const { on, whole, off } = result;
  return [
    label,
    on.rate,
    whole.rate,
    off.rate,
    `${(on.rate / off.rate).toFixed(2)}x`,
    `${(whole.rate / off.rate).toFixed(2)}x`,
    `${Math.round(on.ms)} / ${Math.round(whole.ms)} / ${Math.round(off.ms)}`,
    on.messages,
  ];
}

export default async function () {
  ensureBuild();
  const server = await startPreview(PORT);
  const browser = await launchChromium();
  try {
    const rows: (string | number)[][] = [
      [
        'session (full speed)',
        'rate, new parts every 5 s',
        'rate, whole every 5 s',
        'rate, only when quiet',
        'ratio parts',
        'ratio whole',
        'ms per session (parts / whole / quiet)',
        'messages',
      ],
    ];
    const rddlPage = await browser.newPage();
    await rddlPage.goto(`${server.url}?bench`);
    await rddlPage.waitForFunction(() => 'protoplayBench' in window);
    const rddl = await compare(rddlPage, playRddl);
    rows.push(row(`RDDLSim, default domain, ${RDDL_ROUNDS} rounds (turns/s)`, rddl));
    await rddlPage.close();

    const massimPage = await browser.newPage();
    const link = `${massimLinkParameter}=${encodeMassimWorkspace(defaultMassimWorkspace())}`;
    await massimPage.goto(`${server.url}?bench#${link}`);
    await massimPage.waitForFunction(() => 'protoplayMassimBench' in window);
    const massim = await compare(massimPage, playMassim);
    rows.push(row(`MASSim, 2 x 5 on 40 x 40, ${MASSIM_STEPS} steps (steps/s)`, massim));
    printTable(
      `Storing a running session every ${KEEP_WHILE_RUNNING_MS / 1000} s (new parts, or the whole transcript) vs only when quiet (median of ${REPEATS} rotating rounds, load average ${loadavg()[0]!.toFixed(1)})`,
      rows,
    );
  } finally {
    await browser.close();
    stopPreview(server);
  }
}
