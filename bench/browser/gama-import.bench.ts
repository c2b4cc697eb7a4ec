/**
 * How smooth the page stays while a big GAMA frame log opens. A log of 100,000 frames (episodes of scenario C,
 * twelve scavengers, see bench/gama/big-frame-log.ts) is opened through the page's Import dialog of the
 * production build in Chromium, with the GAMA views on show (the world pane: the selected scavenger's
 * observation, the cycle on show; the message log; the reward chart). Measured from handing over the file:
 * the first view (the selected scavenger's observation drawn), the page saying "Opened" (read, validated and
 * summed up), all shown (the message log holds every message: the views go on filling after "Opened"),
 * the page's long tasks meanwhile (main-thread tasks over 50 ms, from a PerformanceObserver: wall clock, so
 * they grow on a loaded machine), and from Chromium's trace of the same import the CPU time of the longest
 * main-thread task and of the main thread in all (what the page's own work cost, whatever the load). The
 * Episodes tab is then opened and timed until its table lists every episode. The baseline, in the same run,
 * is a 1,000-frame log.
 *
 * `GAMA_PAGE_MESSAGES` (default 100000) sizes the big log, `GAMA_PAGE_REPEATS` (default 1) repeats each
 * import in a fresh page (the median is printed).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { writeBigGamaFrameLog } from '../gama/big-frame-log';
import { median, printTable } from '../lib';
import { traceMainThread } from './main-thread-trace';
import { longTasksSince, quietPage } from './long-task-record';
import { ensureBuild, launchChromium, startPreview, stopPreview } from './page-server';

const BIG_MESSAGES = Number(process.env.GAMA_PAGE_MESSAGES ?? 100_000);
const BASELINE_MESSAGES = 1000;
const REPEATS = Number(process.env.GAMA_PAGE_REPEATS ?? 1);

/** The first GAMA view: a scavenger's observation drawn from the opened frames. */
const FIRST_VIEW = `document.querySelector('[role="img"][aria-label^="What "]') !== null`;

/** What one import cost. */
interface ImportFigures {
  firstViewMs: number;
  /** Until the page says "Opened" (read, validated, summed up). */
  openedMs: number;
  /** Until the views hold every message. */
  totalMs: number;
  longTasks: number;
  longestTaskMs: number;
  longestCpuMs: number;
  /** What the longest task by CPU time did, as text. */
  longestParts: string;
  mainThreadCpuMs: number;
  /** From clicking the Episodes tab until its table lists every episode. */
  episodesMs: number;
}

async function importOnce(
  browser: Browser,
  page: Page,
  path: string,
  episodes: number,
): Promise<ImportFigures> {
  await page.getByRole('button', { name: 'Import…' }).click();
  const start = await page.evaluate(() => performance.now());
  let viewAt = 0;
  let openedAt = 0;
  const cpu = await traceMainThread(browser, page, async () => {
    await page.getByLabel('Open a file').setInputFiles(path);
    const firstView = await page.waitForFunction(`(${FIRST_VIEW}) ? performance.now() : false`, undefined, {
      polling: 50,
      timeout: 600_000,
    });
    viewAt = (await firstView.jsonValue()) as number;
    await page
      .getByRole('status')
      .filter({ hasText: /^Opened / })
      .first()
      .waitFor({ timeout: 600_000 });
    openedAt = await page.evaluate(() => performance.now());
    // The views go on filling after "Opened": until the message log holds every message.
    const count = await page
      .getByText(/^[\d,]+ messages$/)
      .first()
      .textContent();
    const all = (count ?? '').replace(' messages', '');
    await page.waitForFunction((all) => document.body.innerText.includes(`${all} of ${all} messages`), all, {
      polling: 100,
      timeout: 600_000,
    });
  });
  const { end, tasks } = await longTasksSince(page, start);
  const wall = {
    firstViewMs: viewAt - start,
    openedMs: openedAt - start,
    totalMs: end - start,
    longTasks: tasks.length,
    longestTaskMs: Math.max(0, ...tasks.map((task) => task.duration)),
  };
  const tabAt = await page.evaluate(() => performance.now());
  await page.getByRole('tab', { name: /^Episodes/ }).click();
  // One row per episode, the last one cut.
  await page.waitForFunction(
    ({ wanted }) =>
      document.querySelectorAll('table[aria-label="Social metrics per episode"] tbody th[scope="row"]')
        .length >= wanted,
    { wanted: episodes },
    { polling: 50, timeout: 600_000 },
  );
  const episodesMs = (await page.evaluate(() => performance.now())) - tabAt;
  return {
    ...wall,
    longestCpuMs: cpu.longestCpuMs,
    longestParts: cpu.longestParts
      .slice(0, 5)
      .map((part) => `${part.name} ${part.cpuMs.toFixed(1)}`)
      .join(', '),
    mainThreadCpuMs: cpu.cpuMs,
    episodesMs,
  };
}

/** Imports the file `REPEATS` times, each in a fresh page; the medians. */
async function measure(
  browser: Browser,
  url: string,
  path: string,
  episodes: number,
): Promise<ImportFigures> {
  const runs: ImportFigures[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const page = await quietPage(browser, url);
    runs.push(await importOnce(browser, page, path, episodes));
    await page.close();
  }
  const of = (key: Exclude<keyof ImportFigures, 'longestParts'>) => median(runs.map((run) => run[key]));
  const worst = runs.reduce((a, b) => (b.longestCpuMs > a.longestCpuMs ? b : a));
  return {
    firstViewMs: of('firstViewMs'),
    openedMs: of('openedMs'),
    totalMs: of('totalMs'),
    longTasks: of('longTasks'),
    longestTaskMs: of('longestTaskMs'),
    longestCpuMs: of('longestCpuMs'),
    mainThreadCpuMs: of('mainThreadCpuMs'),
    episodesMs: of('episodesMs'),
    longestParts: `${Math.round(worst.longestCpuMs)} ms of CPU: ${worst.longestParts}`,
  };
}

/** Episodes in a written log: each starts with the same first frame. */
async function episodesIn(path: string): Promise<number> {
  const lines = (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'));
  return lines.filter((line) => line === lines[0]).length;
}

export default async function () {
  ensureBuild();
  const dir = await mkdtemp(join(tmpdir(), 'protoplay-gama-page-bench-'));
  const server = await startPreview();
  const browser = await launchChromium();
  try {
    const rows: (string | number)[][] = [];
    const notes: string[] = [];
    let baseline: ImportFigures | undefined;
    for (const messages of [BASELINE_MESSAGES, BIG_MESSAGES]) {
      const path = join(dir, `gama-${messages}.log`);
      const { size } = await writeBigGamaFrameLog(path, messages);
      const figures = await measure(browser, server.url, path, await episodesIn(path));
      await rm(path);
      const label = messages === BASELINE_MESSAGES ? 'baseline' : 'big';
      rows.push([
        label,
        messages,
        (size / 1e6).toFixed(1),
        Math.round(figures.firstViewMs),
        Math.round(figures.openedMs),
        Math.round(figures.totalMs),
        figures.longTasks,
        Math.round(figures.longestTaskMs),
        Math.round(figures.longestCpuMs),
        Math.round(figures.mainThreadCpuMs),
        Math.round(figures.episodesMs),
      ]);
      notes.push(`${label}: the longest main-thread task took ${figures.longestParts}`);
      if (!baseline) {
        baseline = figures;
        continue;
      }
      notes.push(
        `big / baseline: ${(messages / BASELINE_MESSAGES).toFixed(0)}x the frames, ` +
          `first view ${(figures.firstViewMs / baseline.firstViewMs).toFixed(2)}x, ` +
          `"Opened" ${(figures.openedMs / baseline.openedMs).toFixed(1)}x, ` +
          `all shown ${(figures.totalMs / baseline.totalMs).toFixed(1)}x, ` +
          `longest task CPU ${(figures.longestCpuMs / baseline.longestCpuMs).toFixed(1)}x, ` +
          `main-thread CPU ${(figures.mainThreadCpuMs / baseline.mainThreadCpuMs).toFixed(1)}x`,
      );
    }
    printTable(`Opening a GAMA frame log in the page (median of ${REPEATS}; ms from handing over the file)`, [
      [
        'file',
        'frames',
        'MB',
        'first view ms',
        '"Opened" ms',
        'all shown ms',
        'tasks > 50 ms',
        'longest task ms',
        'longest task CPU ms',
        'main-thread CPU ms',
        'episodes tab ms',
      ],
      ...rows,
    ]);
    for (const line of notes) console.log(line);
  } finally {
    await browser.close();
    stopPreview(server);
    await rm(dir, { recursive: true, force: true });
  }
}
