/**
 * How fast a big recording opens in the page and how smooth the page stays meanwhile. Recordings of
 * RDDLSim (a wire stream: a recorded session's rounds repeated, see bench/inspect/big-recording.ts) and
 * MASSim (a merged timeline: the recorded basic run's steps repeated, see
 * bench/inspect/big-massim-timeline.ts) of 100,000 messages and of 50 MB are opened through the page's
 * Import dialog of the production build in Chromium. Measured from handing over the file: the first drawn
 * chart (RDDLSim: a point of "Total reward per round"; MASSim: the scores per step), the whole import
 * (the page says "Opened": read, validated and summed up), and the page's long tasks meanwhile (main-thread
 * tasks over 50 ms, from a PerformanceObserver): how many, the longest, and their total. Beside them, from
 * Chromium's trace of the same import, the CPU time of each main-thread task: how many took over 50 ms of
 * CPU, the longest, and the main thread's CPU time in all; and the CPU time of the page's workers (the
 * session worker reads, validates and reads the file for the views). The baseline, in the same run, is a
 * 1,000-message recording of the same protocol. Long tasks are wall clock and grow on a loaded machine
 * (a task waiting for a core lasts longer); the CPU figures say what the page's own work cost, whatever
 * the load. For the longest task by CPU, the bench prints what it did (script, style and layout, paint,
 * garbage collection: the trace's events directly inside it).
 *
 * `IMPORT_MESSAGES` (default 100000) and `IMPORT_MB` (default 50) size the big files, `IMPORT_REPEATS`
 * (default 1) repeats each import in a fresh page (the median is printed), `IMPORT_PROTOCOLS` picks
 * `rddlsim`, `massim` or both (default).
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { sharedPath } from '../../tests/cli/shared-folder';
import { loadRecording } from '../../tests/core/protocols/rddlsim/recordings';
import { writeBigMassimTimeline } from '../inspect/big-massim-timeline';
import { writeBigRddlsimStream } from '../inspect/big-recording';
import { median, printTable } from '../lib';
import { traceMainThread } from './main-thread-trace';
import { ensureBuild, launchChromium, startPreview, stopPreview } from './page-server';

const BIG_MESSAGES = Number(process.env.IMPORT_MESSAGES ?? 100_000);
const BIG_BYTES = Number(process.env.IMPORT_MB ?? 50) * 1e6;
const BASELINE_MESSAGES = 1000;
const REPEATS = Number(process.env.IMPORT_REPEATS ?? 1);
const PROTOCOLS = (process.env.IMPORT_PROTOCOLS ?? 'rddlsim,massim').split(',');

/** Records the page's long tasks from the moment it loads (as text: the page has no bundler helpers). */
const OBSERVER_SCRIPT = `
  window.longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
`;

/** What one import cost. */
interface ImportFigures {
  firstChartMs: number;
  totalMs: number;
  longTasks: number;
  longestTaskMs: number;
  longTaskMs: number;
  /** Main-thread tasks over 50 ms of CPU time (from the trace). */
  cpuLongTasks: number;
  /** What the longest task by CPU time did (see `MainThreadTasks.longestParts`), as text. */
  longestParts: string;
  longestCpuMs: number;
  mainThreadCpuMs: number;
  /** CPU time of the page's workers (from the trace): reading, validating, reading for the views. */
  workerCpuMs: number;
}

/** A recording of one protocol, written to a file of about so many messages or bytes. */
interface Recording {
  protocol: string;
  /** Writes about `bytes` bytes to `path`; resolves with the file's size. */
  write(path: string, bytes: number): Promise<number>;
  count(path: string): Promise<number>;
  /** A page condition: the first chart is drawn. */
  firstChart: string;
}

const rddlsim: Recording = {
  protocol: 'RDDLSim',
  async write(path, bytes) {
    const recorded = loadRecording('sysadmin_inst_mdp__1').messages;
    return (await writeBigRddlsimStream(recorded, path, bytes)).size;
  },
  // One message ends with each NUL byte.
  count: async (path) => (await readFile(path)).reduce((sum, byte) => sum + (byte === 0 ? 1 : 0), 0),
  firstChart: `document.querySelector('[aria-label="Total reward per round"] [aria-label^="Round "]') !== null`,
};

const massim: Recording = {
  protocol: 'MASSim',
  async write(path, bytes) {
    const recorded = await readFile(sharedPath('conformance/massim/basic/all.timeline.jsonl'), 'utf8');
    return (await writeBigMassimTimeline(recorded, path, bytes)).size;
  },
  // One line per message (the recorder writes no other lines in a merged timeline).
  count: async (path) =>
    (await readFile(path, 'utf8')).split('\n').filter((line) => line.includes('"dir"')).length,
  firstChart: `(() => { const path = document.querySelector('[aria-label="Scores per step"] path'); return !!path && (path.getAttribute('d') ?? '').length > 10; })()`,
};

async function importOnce(
  browser: Browser,
  page: Page,
  path: string,
  recording: Recording,
): Promise<ImportFigures> {
  await page.getByRole('button', { name: 'Import…' }).click();
  const start = await page.evaluate(() => performance.now());
  let chartAt = 0;
  const cpu = await traceMainThread(browser, page, async () => {
    await page.getByLabel('Open a file').setInputFiles(path);
    const firstChart = await page.waitForFunction(
      `(${recording.firstChart}) ? performance.now() : false`,
      undefined,
      { polling: 50, timeout: 600_000 },
    );
    chartAt = (await firstChart.jsonValue()) as number;
    await page
      .getByRole('status')
      .filter({ hasText: /^Opened / })
      .first()
      .waitFor({ timeout: 600_000 });
  });
  const wall = await page.evaluate(
    ({ from, chartAt }) => {
      const end = performance.now();
      const tasks = (
        window as unknown as { longTasks: { start: number; duration: number }[] }
      ).longTasks.filter((task) => task.start + task.duration >= from && task.start <= end);
      return {
        firstChartMs: chartAt - from,
        totalMs: end - from,
        longTasks: tasks.length,
        longestTaskMs: Math.max(0, ...tasks.map((task) => task.duration)),
        longTaskMs: tasks.reduce((sum, task) => sum + task.duration, 0),
      };
    },
    { from: start, chartAt },
  );
  return {
    ...wall,
    cpuLongTasks: cpu.cpuOver50,
    longestParts: cpu.longestParts
      .slice(0, 5)
      .map((part) => `${part.name} ${part.cpuMs.toFixed(1)}`)
      .join(', '),
    longestCpuMs: cpu.longestCpuMs,
    mainThreadCpuMs: cpu.cpuMs,
    workerCpuMs: cpu.workerCpuMs,
  };
}

/** Imports the file `REPEATS` times, each in a fresh page; the medians. */
async function measure(
  browser: Browser,
  url: string,
  path: string,
  recording: Recording,
): Promise<ImportFigures> {
  const runs: ImportFigures[] = [];
  for (let i = 0; i < REPEATS; i++) {
    // A fresh page each time: the previous import's views and stored transcript are not measured.
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(OBSERVER_SCRIPT);
    await page.goto(url);
    await page.locator('[data-restored="true"]').waitFor({ state: 'attached', timeout: 60_000 });
    await page.getByRole('textbox', { name: 'Policy code' }).waitFor({ state: 'attached', timeout: 60_000 });
    // The start-up's own work (the editor, the workers' boot) is over before the import starts.
    await page.waitForTimeout(1000);
    runs.push(await importOnce(browser, page, path, recording));
    await page.close();
  }
  const of = (key: Exclude<keyof ImportFigures, 'longestParts'>) => median(runs.map((run) => run[key]));
  // The parts of the longest task of all the runs.
  const worst = runs.reduce((a, b) => (b.longestCpuMs > a.longestCpuMs ? b : a));
  return {
    firstChartMs: of('firstChartMs'),
    totalMs: of('totalMs'),
    longTasks: of('longTasks'),
    longestTaskMs: of('longestTaskMs'),
    longTaskMs: of('longTaskMs'),
    cpuLongTasks: of('cpuLongTasks'),
    longestCpuMs: of('longestCpuMs'),
    mainThreadCpuMs: of('mainThreadCpuMs'),
    workerCpuMs: of('workerCpuMs'),
    longestParts: `${Math.round(worst.longestCpuMs)} ms of CPU: ${worst.longestParts}`,
  };
}

/** Writes a file of about `messages` messages: a small one tells the size of a message. */
async function writeMessages(recording: Recording, path: string, messages: number): Promise<number> {
  await recording.write(path, 2e6);
  const perMessage = (await stat(path)).size / (await recording.count(path));
  return recording.write(path, messages * perMessage);
}

export default async function () {
  ensureBuild();
  const dir = await mkdtemp(join(tmpdir(), 'protoplay-import-bench-'));
  const server = await startPreview();
  const browser = await launchChromium();
  try {
    const rows: (string | number)[][] = [];
    const ratios: string[] = [];
    const longest: string[] = [];
    for (const recording of [rddlsim, massim].filter((r) => PROTOCOLS.includes(r.protocol.toLowerCase()))) {
      const name = recording.protocol.toLowerCase();
      const files = [
        {
          label: `baseline (${BASELINE_MESSAGES.toLocaleString('en')} messages)`,
          messages: BASELINE_MESSAGES,
        },
        { label: `${BIG_MESSAGES.toLocaleString('en')} messages`, messages: BIG_MESSAGES },
        { label: `${BIG_BYTES / 1e6} MB`, bytes: BIG_BYTES },
      ];
      let baseline: ImportFigures | undefined;
      let baselineMessages = 1;
      for (const [i, file] of files.entries()) {
        const path = join(dir, `${name}-${i}.${name === 'massim' ? 'timeline.jsonl' : 'log'}`);
        const size =
          file.messages !== undefined
            ? await writeMessages(recording, path, file.messages)
            : await recording.write(path, file.bytes);
        const messages = await recording.count(path);
        const figures = await measure(browser, server.url, path, recording);
        await rm(path);
        rows.push([
          recording.protocol,
          file.label,
          messages,
          (size / 1e6).toFixed(1),
          figures.firstChartMs,
          figures.totalMs,
          figures.longTasks,
          figures.longestTaskMs,
          figures.longTaskMs,
          figures.cpuLongTasks,
          Math.round(figures.longestCpuMs),
          Math.round(figures.mainThreadCpuMs),
          Math.round(figures.workerCpuMs),
        ]);
        longest.push(`${recording.protocol} ${file.label}: the longest task took ${figures.longestParts}`);
        if (!baseline) {
          baseline = figures;
          baselineMessages = messages;
          continue;
        }
        ratios.push(
          `${recording.protocol} ${file.label} / baseline: ${(messages / baselineMessages).toFixed(0)}x the messages, ` +
            `first chart ${(figures.firstChartMs / baseline.firstChartMs).toFixed(2)}x, ` +
            `whole import ${(figures.totalMs / baseline.totalMs).toFixed(1)}x the time, ` +
            `main-thread CPU ${(figures.mainThreadCpuMs / baseline.mainThreadCpuMs).toFixed(1)}x, ` +
            `worker CPU ${(figures.workerCpuMs / baseline.workerCpuMs).toFixed(1)}x`,
        );
      }
    }
    printTable(`Importing a recording in the page (median of ${REPEATS}; ms from handing over the file)`, [
      [
        'protocol',
        'file',
        'messages',
        'MB',
        'first chart ms',
        'whole import ms',
        'tasks > 50 ms',
        'longest task ms',
        'long-task ms',
        'tasks > 50 ms CPU',
        'longest task CPU ms',
        'main-thread CPU ms',
        'worker CPU ms',
      ],
      ...rows,
    ]);
    for (const line of ratios) console.log(line);
    console.log(
      '\nWhat the longest main-thread task did (CPU ms of the work directly inside it, from the trace):',
    );
    for (const line of longest) console.log(line);
  } finally {
    await browser.close();
    stopPreview(server);
    await rm(dir, { recursive: true, force: true });
  }
}
