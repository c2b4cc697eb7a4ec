/**
 * How fast a big recording opens in the page and how smooth the page stays meanwhile: an rddlsim wire
 * stream of about 100,000 messages (a recorded session's rounds repeated, see
 * bench/inspect/big-recording.ts) is opened through the page's Import dialog of the production build in
 * Chromium, and the time from handing over the file to the first drawn chart (the "Total reward per round"
 * chart with its points) is measured, while a PerformanceObserver records the page's long tasks (main-thread
 * tasks over 50 ms). The baseline, in the same run, is a file a tenth of the size. Times are wall clock and
 * grow on a loaded machine; the long tasks say whether the main thread was blocked.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { loadRecording } from '../../tests/core/protocols/rddlsim/recordings';
import { writeBigRddlsimStream } from '../inspect/big-recording';
import { median, printTable } from '../lib';
import { ensureBuild, launchChromium, startPreview, stopPreview } from './page-server';

/** Messages in the big file (`IMPORT_MESSAGES`); its size follows (a real session's messages, ~0.8 kB each). */
const BIG_MESSAGES = Number(process.env.IMPORT_MESSAGES ?? 100_000);
const REPEATS = 2;

/** Records the page's long tasks from the moment it loads (as text: the page has no bundler helpers). */
const OBSERVER_SCRIPT = `
  window.longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
`;

interface ImportFigures {
  ms: number;
  longTasks: number;
  longestTaskMs: number;
  longTaskMs: number;
}

async function importOnce(page: Page, path: string): Promise<ImportFigures> {
  await page.getByRole('button', { name: 'Import…' }).click();
  const start = await page.evaluate(() => performance.now());
  await page.getByLabel('Open a file').setInputFiles(path);
  // The first chart: a bar of the total reward per round is drawn.
  await page.waitForFunction(
    `document.querySelector('[aria-label="Total reward per round"] [aria-label^="Round "]') !== null`,
    undefined,
    { polling: 50, timeout: 600_000 },
  );
  return page.evaluate((from) => {
    const end = performance.now();
    const tasks = (
      window as unknown as { longTasks: { start: number; duration: number }[] }
    ).longTasks.filter((task) => task.start + task.duration >= from && task.start <= end);
    return {
      ms: end - from,
      longTasks: tasks.length,
      longestTaskMs: Math.max(0, ...tasks.map((task) => task.duration)),
      longTaskMs: tasks.reduce((sum, task) => sum + task.duration, 0),
    };
  }, start);
}

export default async function () {
  ensureBuild();
  const dir = await mkdtemp(join(tmpdir(), 'protoplay-import-bench-'));
  const server = await startPreview();
  const browser = await launchChromium();
  try {
    const recorded = loadRecording('sysadmin_inst_mdp__1').messages;
    const texts = recorded.filter((m) => m.kind === 'data').map((m) => m.text ?? '');
    const bytesPerMessage = texts.reduce((sum, t) => sum + Buffer.byteLength(t) + 1, 0) / texts.length;
    const bigBytes = BIG_MESSAGES * bytesPerMessage;
    const files = [
      { label: 'baseline (a tenth)', path: join(dir, 'small.log'), bytes: bigBytes / 10 },
      { label: 'big', path: join(dir, 'big.log'), bytes: bigBytes },
    ];
    const rows: (string | number)[][] = [];
    for (const file of files) {
      const { size } = await writeBigRddlsimStream(recorded, file.path, file.bytes);
      const messages = (await readFile(file.path)).reduce((count, byte) => count + (byte === 0 ? 1 : 0), 0);
      const runs: ImportFigures[] = [];
      for (let i = 0; i < REPEATS; i++) {
        // A fresh page each time: the previous import's views and stored transcript are not measured.
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        await page.addInitScript(OBSERVER_SCRIPT);
        await page.goto(server.url);
        await page.locator('[data-restored="true"]').waitFor({ state: 'attached', timeout: 60_000 });
        await page
          .getByRole('textbox', { name: 'Policy code' })
          .waitFor({ state: 'attached', timeout: 60_000 });
        await page.waitForTimeout(1000);
        runs.push(await importOnce(page, file.path));
        await page.close();
      }
      rows.push([
        file.label,
        messages,
        (size / 1e6).toFixed(1),
        median(runs.map((r) => r.ms)),
        median(runs.map((r) => r.longTasks)),
        median(runs.map((r) => r.longTaskMs)),
        median(runs.map((r) => r.longestTaskMs)),
      ]);
    }
    const base = rows[0]!;
    const big = rows[1]!;
    printTable(`Importing an rddlsim recording in the page until the first chart (median of ${REPEATS})`, [
      ['file', 'messages', 'MB', 'ms to first chart', 'long tasks', 'long-task ms', 'longest task ms'],
      ...rows,
    ]);
    console.log(
      `big / baseline: ${(Number(big[3]) / Number(base[3])).toFixed(1)}x the time for ${(Number(big[1]) / Number(base[1])).toFixed(1)}x the messages`,
    );
  } finally {
    await browser.close();
    stopPreview(server);
    await rm(dir, { recursive: true, force: true });
  }
}
