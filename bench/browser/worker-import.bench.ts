/**
 * What a big import costs the session worker. The page's Import dialog of the production build opens
 * generated recordings (as in `import.bench.ts`: RDDLSim wire streams and MASSim merged timelines of
 * 100,000 messages and of 50 MB, against a 1,000-message one of the same protocol in the same run), and
 * Chromium's trace gives the CPU time of the session worker's tasks from handing over the file to the page
 * saying "Opened" (read, validated, summed up). Wall-clock figures grow with the machine's load; the
 * worker's CPU time says what reading, validating and showing the file cost, whatever the load. The worker
 * is the dedicated worker thread that computed most in that stretch (the language service's worker may run
 * too, for less).
 *
 * `IMPORT_MESSAGES`, `IMPORT_MB`, `IMPORT_REPEATS` and `IMPORT_PROTOCOLS` as for `browser/import`.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { sharedPath } from '../../tests/cli/shared-folder';
import { loadRecording } from '../../tests/core/protocols/rddlsim/recordings';
import { writeBigMassimTimeline } from '../inspect/big-massim-timeline';
import { writeBigRddlsimStream } from '../inspect/big-recording';
import { median, printTable } from '../lib';
import type { TraceEvent } from './main-thread-trace';
import { ensureBuild, launchChromium, startPreview, stopPreview } from './page-server';

const BIG_MESSAGES = Number(process.env.IMPORT_MESSAGES ?? 100_000);
const BIG_BYTES = Number(process.env.IMPORT_MB ?? 50) * 1e6;
const BASELINE_MESSAGES = 1000;
const REPEATS = Number(process.env.IMPORT_REPEATS ?? 1);
const PROTOCOLS = (process.env.IMPORT_PROTOCOLS ?? 'rddlsim,massim').split(',');

/** Marks in the trace when the page says "Opened" (as text: the page has no bundler helpers). */
const OPENED_SCRIPT = `
  new MutationObserver(() => {
    if (window.openedAt) return;
    for (const status of document.querySelectorAll('[role="status"]'))
      if ((status.textContent ?? '').startsWith('Opened ')) {
        window.openedAt = performance.now();
        console.timeStamp('import opened');
      }
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;

/** What one import cost. */
interface WorkerFigures {
  totalMs: number;
  workerCpuMs: number;
  mainCpuMs: number;
}

/** A recording of one protocol, written to a file of about so many bytes. */
interface Recording {
  protocol: string;
  extension: string;
  write(path: string, bytes: number): Promise<void>;
  count(path: string): Promise<number>;
}

const RECORDINGS: Recording[] = [
  {
    protocol: 'RDDLSim',
    extension: 'log',
    async write(path, bytes) {
      await writeBigRddlsimStream(loadRecording('sysadmin_inst_mdp__1').messages, path, bytes);
    },
    count: async (path) => (await readFile(path)).reduce((sum, byte) => sum + (byte === 0 ? 1 : 0), 0),
  },
  {
    protocol: 'MASSim',
    extension: 'timeline.jsonl',
    async write(path, bytes) {
      const recorded = await readFile(sharedPath('conformance/massim/basic/all.timeline.jsonl'), 'utf8');
      await writeBigMassimTimeline(recorded, path, bytes);
    },
    count: async (path) =>
      (await readFile(path, 'utf8')).split('\n').filter((line) => line.includes('"dir"')).length,
  },
];

/** Imports the file in a fresh page; the CPU of the session worker and of the main thread meanwhile. */
async function importOnce(browser: Browser, url: string, path: string): Promise<WorkerFigures> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    await page.addInitScript(OPENED_SCRIPT);
    await page.goto(url);
    await page.locator('[data-restored="true"]').waitFor({ state: 'attached', timeout: 60_000 });
    await page.getByRole('textbox', { name: 'Policy code' }).waitFor({ state: 'attached', timeout: 60_000 });
    // The start-up's own work (the editor, the workers' boot) is over before the import starts.
    await page.waitForTimeout(1000);
    await page.getByRole('button', { name: 'Import…' }).click();
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
    });
    let trace: Buffer;
    let totalMs: number;
    try {
      const start = await page.evaluate(() => {
        console.timeStamp('import start');
        return performance.now();
      });
      await page.getByLabel('Open a file').setInputFiles(path);
      const opened = await page.waitForFunction('window.openedAt', undefined, {
        polling: 50,
        timeout: 600_000,
      });
      totalMs = ((await opened.jsonValue()) as number) - start;
    } finally {
      trace = await browser.stopTracing();
    }
    const events = (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
    const mark = (message: string) =>
      events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === message)?.ts ?? NaN;
    const from = mark('import start');
    const to = mark('import opened');
    const threadNames = new Map<string, string>();
    for (const e of events)
      if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
    const cpu = new Map<string, number>();
    for (const e of events) {
      if (e.ph !== 'X' || e.name !== 'RunTask' || e.ts < from || e.ts > to) continue;
      const thread = `${e.pid}:${e.tid}`;
      cpu.set(thread, (cpu.get(thread) ?? 0) + (e.tdur ?? e.dur ?? 0) / 1000);
    }
    const of = (name: string) =>
      Math.max(0, ...[...cpu].filter(([thread]) => threadNames.get(thread) === name).map(([, ms]) => ms));
    return { totalMs, workerCpuMs: of('DedicatedWorker thread'), mainCpuMs: of('CrRendererMain') };
  } finally {
    await page.close();
  }
}

export default async function () {
  ensureBuild();
  const dir = await mkdtemp(join(tmpdir(), 'protoplay-worker-import-bench-'));
  const server = await startPreview();
  const browser = await launchChromium();
  try {
    const rows: (string | number)[][] = [];
    const ratios: string[] = [];
    for (const recording of RECORDINGS.filter((r) => PROTOCOLS.includes(r.protocol.toLowerCase()))) {
      const path = join(dir, `${recording.protocol.toLowerCase()}.${recording.extension}`);
      // A small file tells the size of a message.
      await recording.write(path, 2e6);
      const perMessage = (await stat(path)).size / (await recording.count(path));
      let baseline: { messages: number; workerCpuMs: number } | undefined;
      for (const [label, bytes] of [
        [`baseline (${BASELINE_MESSAGES.toLocaleString('en')} messages)`, BASELINE_MESSAGES * perMessage],
        [`${BIG_MESSAGES.toLocaleString('en')} messages`, BIG_MESSAGES * perMessage],
        [`${BIG_BYTES / 1e6} MB`, BIG_BYTES],
      ] as const) {
        await recording.write(path, bytes);
        const messages = await recording.count(path);
        const size = (await stat(path)).size;
        const runs: WorkerFigures[] = [];
        for (let i = 0; i < REPEATS; i++) runs.push(await importOnce(browser, server.url, path));
        const figures = {
          totalMs: median(runs.map((run) => run.totalMs)),
          workerCpuMs: median(runs.map((run) => run.workerCpuMs)),
          mainCpuMs: median(runs.map((run) => run.mainCpuMs)),
        };
        rows.push([
          recording.protocol,
          label,
          messages,
          (size / 1e6).toFixed(1),
          Math.round(figures.totalMs),
          Math.round(figures.workerCpuMs),
          ((figures.workerCpuMs / messages) * 1000).toFixed(1),
          Math.round(figures.mainCpuMs),
        ]);
        if (!baseline) baseline = { messages, workerCpuMs: figures.workerCpuMs };
        else
          ratios.push(
            `${recording.protocol} ${label} / baseline: ${(messages / baseline.messages).toFixed(0)}x the messages, ` +
              `session worker CPU ${(figures.workerCpuMs / baseline.workerCpuMs).toFixed(1)}x`,
          );
      }
      await rm(path);
    }
    printTable(
      `The session worker's CPU during an import in the page (median of ${REPEATS}; until "Opened")`,
      [
        [
          'protocol',
          'file',
          'messages',
          'MB',
          'whole import ms',
          'session worker CPU ms',
          'worker CPU ms per 1,000 messages',
          'main-thread CPU ms',
        ],
        ...rows,
      ],
    );
    for (const line of ratios) console.log(line);
  } finally {
    await browser.close();
    stopPreview(server);
    await rm(dir, { recursive: true, force: true });
  }
}
