/**
 * What opening the playground costs the machine: the production build in Chromium, a first visit (a fresh
 * browser context, its service worker kept out so its precache does not run), from navigation until the
 * policy editor is there and then 4 s more (the workers' start-up, Monaco's later features). Measured: the
 * wall clock until the editor is there, and the CPU time of every Chromium process over the whole span
 * (from Linux's per-thread counters), split into the page's main thread, its workers and the rest (the
 * browser process, V8's helper threads, the network service).
 *
 * Two ways of opening the page, alternated in the same run:
 * - **as shipped**: the pointer and the focus stay away from the editor (a learner who runs the sample, a
 *   course page's embedded view, a developer opening a transcript): the TypeScript service does not start;
 * - **baseline**: the pointer moves over the editor as soon as it is there, which starts the TypeScript
 *   service at once, as every page load did before it waited for the learner.
 *
 * Linux only (it reads /proc). `PAGE_LOAD_REPEATS` (default 5) sets the repeats; the medians are printed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { platform } from 'node:os';
import type { Browser } from '@playwright/test';
import { median, printTable } from '../lib';
import { ensureBuild, launchChromium, startPreview, stopPreview } from './page-server';

const REPEATS = Number(process.env.PAGE_LOAD_REPEATS ?? 5);
const SETTLE_MS = 4000;

/** CPU ms of every thread of every Chromium process, keyed by process and thread. */
function chromiumThreads(): Map<string, { kind: 'main' | 'worker' | 'other'; ms: number }> {
  const threads = new Map<string, { kind: 'main' | 'worker' | 'other'; ms: number }>();
  const tick = 10; // ms per clock tick (USER_HZ 100 on Linux)
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let command: string;
    let tasks: string[];
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!/chrom/i.test(command.split('\0')[0] ?? '')) continue;
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // gone meanwhile
    }
    const renderer = command.includes('--type=renderer');
    for (const task of tasks) {
      try {
        const name = readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim();
        const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ms = (Number(fields[11]) + Number(fields[12])) * tick;
        const kind =
          renderer && task === pid
            ? 'main'
            : renderer && name.startsWith('DedicatedWorker')
              ? 'worker'
              : 'other';
        threads.set(`${pid}/${task}`, { kind, ms });
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return threads;
}

interface Load {
  editorMs: number;
  main: number;
  workers: number;
  other: number;
  serviceLoaded: boolean;
}

async function openOnce(browser: Browser, url: string, hoverEditor: boolean): Promise<Load> {
  const before = chromiumThreads();
  const context = await browser.newContext({
    serviceWorkers: 'block',
    viewport: { width: 1280, height: 800 },
  });
  try {
    const page = await context.newPage();
    let serviceLoaded = false;
    page.on('request', (request) => {
      if (/\/ts\.worker[^/]*\.js/.test(request.url())) serviceLoaded = true;
    });
    const start = Date.now();
    await page.goto(url);
    await page.getByRole('textbox', { name: 'Policy code' }).waitFor({ state: 'attached', timeout: 60_000 });
    const editorMs = Date.now() - start;
    if (hoverEditor) await page.getByRole('code').first().hover();
    await page.waitForTimeout(SETTLE_MS);
    const after = chromiumThreads();
    const cpu = { main: 0, workers: 0, other: 0 };
    for (const [key, thread] of after) {
      const spent = thread.ms - (before.get(key)?.ms ?? 0);
      if (spent > 0) cpu[thread.kind === 'worker' ? 'workers' : thread.kind] += spent;
    }
    return { editorMs, ...cpu, serviceLoaded };
  } finally {
    await context.close();
  }
}

export default async function () {
  if (platform() !== 'linux') {
    console.log('page-load: skipped, it reads the CPU time of threads from Linux /proc');
    return;
  }
  ensureBuild();
  const server = await startPreview();
  const browser = await launchChromium();
  try {
    await openOnce(browser, server.url, false); // warms the preview server and the disk cache
    const runs: Record<'shipped' | 'baseline', Load[]> = { shipped: [], baseline: [] };
    for (let i = 0; i < REPEATS; i++) {
      runs.shipped.push(await openOnce(browser, server.url, false));
      runs.baseline.push(await openOnce(browser, server.url, true));
    }
    const row = (label: string, loads: Load[]) => {
      const total = median(loads.map((l) => l.main + l.workers + l.other));
      return {
        total,
        cells: [
          label,
          median(loads.map((l) => l.editorMs)),
          median(loads.map((l) => l.main)),
          median(loads.map((l) => l.workers)),
          median(loads.map((l) => l.other)),
          total,
          `${loads.filter((l) => l.serviceLoaded).length}/${loads.length}`,
        ],
      };
    };
    const shipped = row('as shipped (pointer and focus away from the editor)', runs.shipped);
    const baseline = row('baseline (pointer over the editor at once)', runs.baseline);
    printTable(
      `Opening the playground, a first visit, until ${SETTLE_MS / 1000} s after the editor is there (median of ${REPEATS}; CPU ms of every Chromium process)`,
      [
        [
          'page',
          'editor there ms',
          'main thread CPU',
          'workers CPU',
          'other CPU',
          'all CPU',
          'TypeScript service loaded',
        ],
        shipped.cells,
        baseline.cells,
      ],
    );
    console.log(
      `\nas shipped / baseline: ${(shipped.total / baseline.total).toFixed(2)}x the CPU time of a page load`,
    );
  } finally {
    await browser.close();
    stopPreview(server);
  }
}
