/**
 * How fast a big recording opens in the page and how smooth the page stays meanwhile. Recordings of
 * RDDLSim (a wire stream: a recorded session's rounds repeated, see bench/inspect/big-recording.ts),
 * MASSim (a merged timeline: the recorded basic run's steps repeated, see
 * bench/inspect/big-massim-timeline.ts), aisys (a Protoplay JSON transcript of played Nim runs, see
 * bench/aisys/big-transcript.ts) and GAMA (a frame log of played episodes, see bench/gama/big-frame-log.ts)
 * of 100,000 messages and of 50 MB are opened through the page's
 * Import dialog of the production build in Chromium. The baseline, in the same run, is a 1,000-message
 * recording of the same protocol.
 *
 * Each file is imported twice, each time in a fresh page:
 * - **as a user sees it** (no tracing): from handing over the file, the first drawn chart (RDDLSim: a point
 *   of "Total reward per round", as for aisys; MASSim: the scores per step; GAMA: the observation), the whole import (the page says "Opened":
 *   read, validated and summed up), when the page had every message (the status line's message count
 *   stopped growing: a big import's last slices reach the page after "Opened"), and the page's long tasks
 *   until "Opened" (main-thread tasks over 50 ms of
 *   wall clock, from a PerformanceObserver): how many, the longest, their total, and when each began;
 * - **traced** (Chromium's trace): the CPU time of each main-thread task: how many took over 50 ms and over
 *   12 ms of CPU, the longest, and the main thread's CPU time in all, and what the longest task did
 *   (script, style and layout, paint, garbage collection: the trace's events directly inside it, with the
 *   scripts that ran). Tracing costs CPU itself (on a 2-core machine it lengthens the page's tasks), so
 *   the wall-clock figures never come from a traced import.
 * Long tasks are wall clock and grow on a loaded machine (a task waiting for a core lasts longer); the CPU
 * figures say what the page's own work cost, whatever the load. The load average is printed with them.
 *
 * `IMPORT_MESSAGES` (default 100000) and `IMPORT_MB` (default 50) size the big files, `IMPORT_REPEATS`
 * (default 1) repeats each import in a fresh page (the median is printed), `IMPORT_PROTOCOLS` picks
 * some of `rddlsim,massim,aisys,gama` (default all four), `IMPORT_TRACE=0` leaves out the traced imports.
 * `IMPORT_VISIT=first` imports as on a first visit: a second after the page is up, without waiting for
 * the service worker (by default each page is measured once its service worker controls it, see
 * `quietPage`). `IMPORT_PICK_MS` (default 0) is how long the user takes to pick the file once the Import
 * dialog is open: the page loads what reading a file of the protocol on show needs meanwhile
 * (`prepareOpen`), so 0 is the worst case, a file handed over the moment the dialog opens.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { sharedPath } from '../../tests/cli/shared-folder';
import { loadRecording } from '../../tests/core/protocols/rddlsim/recordings';
import { writeBigAisysTranscript } from '../aisys/big-transcript';
import { writeBigGamaFrameLog } from '../gama/big-frame-log';
import { writeBigMassimTimeline } from '../inspect/big-massim-timeline';
import { writeBigRddlsimStream } from '../inspect/big-recording';
import { median, printTable } from '../lib';
import { longTasksSince, quietPage } from './long-task-record';
import { traceMainThread, type MainThreadTasks } from './main-thread-trace';
import { ensureBuild, launchChromium, startPreview, stopPreview } from './page-server';

const BIG_MESSAGES = Number(process.env.IMPORT_MESSAGES ?? 100_000);
const BIG_BYTES = Number(process.env.IMPORT_MB ?? 50) * 1e6;
const BASELINE_MESSAGES = 1000;
const REPEATS = Number(process.env.IMPORT_REPEATS ?? 1);
const PROTOCOLS = (process.env.IMPORT_PROTOCOLS ?? 'rddlsim,massim,aisys,gama').split(',');
const TRACED = process.env.IMPORT_TRACE !== '0';
const VISIT = process.env.IMPORT_VISIT === 'first' ? 'first' : 'later';
/** How long the user takes to pick the file once the Import dialog is open (default 0: at once). */
const PICK_MS = Number(process.env.IMPORT_PICK_MS ?? 0);
/** The CPU time per task the page aims to stay under, so that a task lasts under 50 ms on a shared machine. */
const SHORT_TASK_CPU_MS = 12;

/** What one import cost as a user sees it (not traced). */
interface WallFigures {
  firstChartMs: number;
  totalMs: number;
  /** When the page had every message (its message count stopped growing; at least `totalMs`). */
  allShownMs: number;
  longTasks: number;
  longestTaskMs: number;
  longTaskMs: number;
  /** Each long task: when it began (ms from handing over the file) and how long it lasted. */
  when: { start: number; duration: number }[];
}

/** What one traced import cost the main thread in CPU time. */
interface CpuFigures {
  /** Main-thread tasks over 50 ms of CPU time. */
  cpuLongTasks: number;
  /** Main-thread tasks over `SHORT_TASK_CPU_MS` of CPU time. */
  cpuOverAim: number;
  longestCpuMs: number;
  mainThreadCpuMs: number;
  /** CPU time of the page's workers (the session worker reads, validates and reads the file for the views). */
  workerCpuMs: number;
  /** What the longest task by CPU time did, as text (see `MainThreadTasks.longestParts`). */
  longestParts: string;
  /** The tasks over `SHORT_TASK_CPU_MS` of CPU: when, how long and what, as text. */
  heavy: string[];
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

/** The reward chart's first round point (the standard workbench of aisys and GAMA draws it, as RDDLSim's). */
const FIRST_ROUND_POINT = `document.querySelector('[aria-label="Total reward per round"] [aria-label^="Round "]') !== null`;

const aisys: Recording = {
  protocol: 'aisys',
  // A Protoplay JSON transcript of a played course session (runs of Nim), read whole by the page.
  write: (path, bytes) => writeBigAisysTranscript(path, bytes),
  count: async (path) => (await readFile(path, 'utf8')).split('"dir":').length - 1,
  firstChart: FIRST_ROUND_POINT,
};

const gama: Recording = {
  protocol: 'GAMA',
  // A frame log of played episodes, read in chunks; a small one tells the size of a message.
  async write(path, bytes) {
    const probe = 2000;
    const perMessage = (await writeBigGamaFrameLog(path, probe)).size / probe;
    return (await writeBigGamaFrameLog(path, Math.round(bytes / perMessage))).size;
  },
  // One frame per line; the log's comments start with '#'.
  count: async (path) =>
    (await readFile(path, 'utf8')).split('\n').filter((line) => line !== '' && !line.startsWith('#')).length,
  // The first view: the selected scavenger's observation drawn (a 1,000-message file ends no episode, so
  // the reward chart has no round point yet).
  firstChart: `document.querySelector('[role="img"][aria-label^="What "]') !== null`,
};

/** A fresh page of the app, started up and quiet, recording its long tasks. */
async function freshPage(browser: Browser, url: string): Promise<Page> {
  const page = await quietPage(browser, url, VISIT);
  await page.getByRole('button', { name: 'Import…' }).click();
  if (PICK_MS > 0) await page.waitForTimeout(PICK_MS);
  return page;
}

/** Hands the file to the Import dialog and waits until the page says it is opened; when the chart came. */
async function importFile(page: Page, path: string, recording: Recording): Promise<number> {
  await page.getByLabel('Open a file').setInputFiles(path);
  const firstChart = await page.waitForFunction(
    `(${recording.firstChart}) ? performance.now() : false`,
    undefined,
    { polling: 50, timeout: 600_000 },
  );
  const chartAt = (await firstChart.jsonValue()) as number;
  // A plain query, polled: Playwright's own role queries run on the page's main thread and took a few
  // hundred ms of it during a big import, in tasks of the page's.
  await page.waitForFunction(
    `[...document.querySelectorAll('[role="status"]')].some((e) => /^Opened /.test(e.textContent.trim()))`,
    undefined,
    { polling: 50, timeout: 600_000 },
  );
  return chartAt;
}

/** How long the status line's message count must stay the same to say the page has every message. */
const SETTLED_MS = 1500;

/**
 * When the page had every message, on its clock: the status line's message count, polled from `from`
 * (slices of a big import keep coming, one per frame, after "Opened"), last changed then.
 */
async function allShownAt(page: Page, from: number): Promise<number> {
  const count = () =>
    page.evaluate(() => {
      const text = document.querySelector('footer.status .count')?.textContent ?? '';
      return { text, now: performance.now() };
    });
  let last = await count();
  let changedAt = from;
  while (last.now - changedAt < SETTLED_MS) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next = await count();
    if (next.text !== last.text) changedAt = next.now;
    last = next;
  }
  return changedAt;
}

/** One import as a user sees it: times and long tasks, without tracing. */
async function importUntraced(page: Page, path: string, recording: Recording): Promise<WallFigures> {
  const start = await page.evaluate(() => performance.now());
  const chartAt = await importFile(page, path, recording);
  const { end, tasks } = await longTasksSince(page, start);
  const shownAt = await allShownAt(page, end);
  return {
    firstChartMs: chartAt - start,
    totalMs: end - start,
    allShownMs: shownAt - start,
    longTasks: tasks.length,
    longestTaskMs: Math.max(0, ...tasks.map((task) => task.duration)),
    longTaskMs: tasks.reduce((sum, task) => sum + task.duration, 0),
    when: tasks.map((task) => ({ start: task.start - start, duration: task.duration })),
  };
}

/** One traced import: the main thread's tasks by CPU time. */
async function importTraced(
  browser: Browser,
  page: Page,
  path: string,
  recording: Recording,
): Promise<CpuFigures> {
  const cpu: MainThreadTasks = await traceMainThread(
    browser,
    page,
    async () => {
      await importFile(page, path, recording);
    },
    SHORT_TASK_CPU_MS,
  );
  return {
    cpuLongTasks: cpu.cpuOver50,
    cpuOverAim: cpu.cpuPerTask.filter((ms) => ms > SHORT_TASK_CPU_MS).length,
    longestCpuMs: cpu.longestCpuMs,
    mainThreadCpuMs: cpu.cpuMs,
    workerCpuMs: cpu.workerCpuMs,
    longestParts: `${Math.round(cpu.longestCpuMs)} ms of CPU: ${cpu.longestParts
      .slice(0, 6)
      .map((part) => `${part.name} ${part.cpuMs.toFixed(1)}`)
      .join(', ')}`,
    heavy: cpu.heavy.map(
      (task) =>
        `${Math.round(task.cpuMs)} ms at ${Math.round(task.atMs)} (${task.parts
          .map((part) => `${part.name} ${part.cpuMs.toFixed(1)}`)
          .join(', ')})`,
    ),
  };
}

/** Imports the file `REPEATS` times untraced (and as many times traced), each in a fresh page; medians. */
async function measure(
  browser: Browser,
  url: string,
  path: string,
  recording: Recording,
): Promise<{ wall: WallFigures; cpu: CpuFigures | undefined }> {
  const walls: WallFigures[] = [];
  const cpus: CpuFigures[] = [];
  for (let i = 0; i < REPEATS; i++) {
    // A fresh page each time: the previous import's views and stored transcript are not measured.
    let page = await freshPage(browser, url);
    walls.push(await importUntraced(page, path, recording));
    await page.close();
    if (!TRACED) continue;
    page = await freshPage(browser, url);
    cpus.push(await importTraced(browser, page, path, recording));
    await page.close();
  }
  const wallOf = (key: Exclude<keyof WallFigures, 'when'>) => median(walls.map((run) => run[key]));
  // The long tasks of the run with the longest one.
  const worstWall = walls.reduce((a, b) => (b.longestTaskMs > a.longestTaskMs ? b : a));
  const wall: WallFigures = {
    firstChartMs: wallOf('firstChartMs'),
    totalMs: wallOf('totalMs'),
    allShownMs: wallOf('allShownMs'),
    longTasks: wallOf('longTasks'),
    longestTaskMs: wallOf('longestTaskMs'),
    longTaskMs: wallOf('longTaskMs'),
    when: worstWall.when,
  };
  if (!cpus.length) return { wall, cpu: undefined };
  const cpuOf = (key: Exclude<keyof CpuFigures, 'longestParts' | 'heavy'>) =>
    median(cpus.map((run) => run[key]));
  const worstCpu = cpus.reduce((a, b) => (b.longestCpuMs > a.longestCpuMs ? b : a));
  return {
    wall,
    cpu: {
      cpuLongTasks: cpuOf('cpuLongTasks'),
      cpuOverAim: cpuOf('cpuOverAim'),
      longestCpuMs: cpuOf('longestCpuMs'),
      mainThreadCpuMs: cpuOf('mainThreadCpuMs'),
      workerCpuMs: cpuOf('workerCpuMs'),
      longestParts: worstCpu.longestParts,
      heavy: worstCpu.heavy,
    },
  };
}

/** Writes a file of about `messages` messages: a small one tells the size of a message. */
async function writeMessages(recording: Recording, path: string, messages: number): Promise<number> {
  await recording.write(path, 2e6);
  const perMessage = (await stat(path)).size / (await recording.count(path));
  return recording.write(path, messages * perMessage);
}

/** The load averages over 1, 5 and 15 minutes, as text. */
function load(): string {
  return loadavg()
    .map((n) => n.toFixed(1))
    .join(', ');
}

export default async function () {
  ensureBuild();
  const dir = await mkdtemp(join(tmpdir(), 'protoplay-import-bench-'));
  const server = await startPreview();
  const browser = await launchChromium();
  const loadBefore = load();
  try {
    const wallRows: (string | number)[][] = [];
    const cpuRows: (string | number)[][] = [];
    const ratios: string[] = [];
    const longest: string[] = [];
    const whenLong: string[] = [];
    const heavy: string[] = [];
    for (const recording of [rddlsim, massim, aisys, gama].filter((r) =>
      PROTOCOLS.includes(r.protocol.toLowerCase()),
    )) {
      const name = recording.protocol.toLowerCase();
      const files = [
        {
          label: `baseline (${BASELINE_MESSAGES.toLocaleString('en')} messages)`,
          messages: BASELINE_MESSAGES,
        },
        { label: `${BIG_MESSAGES.toLocaleString('en')} messages`, messages: BIG_MESSAGES },
        { label: `${BIG_BYTES / 1e6} MB`, bytes: BIG_BYTES },
      ];
      let baseline: { wall: WallFigures; cpu: CpuFigures | undefined } | undefined;
      let baselineMessages = 1;
      for (const [i, file] of files.entries()) {
        const path = join(dir, `${name}-${i}.${name === 'massim' ? 'timeline.jsonl' : 'log'}`);
        const size =
          file.messages !== undefined
            ? await writeMessages(recording, path, file.messages)
            : await recording.write(path, file.bytes);
        const messages = await recording.count(path);
        const { wall, cpu } = await measure(browser, server.url, path, recording);
        await rm(path);
        const what = [recording.protocol, file.label, messages, (size / 1e6).toFixed(1)];
        wallRows.push([
          ...what,
          wall.firstChartMs,
          wall.totalMs,
          wall.allShownMs,
          wall.longTasks,
          wall.longestTaskMs,
          wall.longTaskMs,
        ]);
        whenLong.push(
          `${recording.protocol} ${file.label}: ` +
            (wall.when.length
              ? wall.when
                  .slice(0, 12)
                  .map((task) => `${Math.round(task.duration)} ms at ${Math.round(task.start)}`)
                  .join(', ') + (wall.when.length > 12 ? ', ...' : '')
              : 'none'),
        );
        if (cpu) {
          cpuRows.push([
            ...what,
            cpu.cpuLongTasks,
            cpu.cpuOverAim,
            Math.round(cpu.longestCpuMs),
            Math.round(cpu.mainThreadCpuMs),
            Math.round(cpu.workerCpuMs),
          ]);
          longest.push(`${recording.protocol} ${file.label}: the longest task took ${cpu.longestParts}`);
          heavy.push(
            `${recording.protocol} ${file.label}: ${cpu.heavy.length ? cpu.heavy.slice(0, 8).join('; ') : 'none'}${cpu.heavy.length > 8 ? '; ...' : ''}`,
          );
        }
        if (!baseline) {
          baseline = { wall, cpu };
          baselineMessages = messages;
          continue;
        }
        ratios.push(
          `${recording.protocol} ${file.label} / baseline: ${(messages / baselineMessages).toFixed(0)}x the messages, ` +
            `first chart ${(wall.firstChartMs / baseline.wall.firstChartMs).toFixed(2)}x, ` +
            `whole import ${(wall.totalMs / baseline.wall.totalMs).toFixed(1)}x the time` +
            (cpu && baseline.cpu
              ? `, main-thread CPU ${(cpu.mainThreadCpuMs / baseline.cpu.mainThreadCpuMs).toFixed(1)}x, ` +
                `worker CPU ${(cpu.workerCpuMs / baseline.cpu.workerCpuMs).toFixed(1)}x`
              : ''),
        );
      }
    }
    console.log(`\nload average (1, 5, 15 min) before: ${loadBefore}; after: ${load()} (2 cores)`);
    printTable(
      `Importing a recording in the page, not traced (median of ${REPEATS}; ms from handing over the file; ${VISIT === 'first' ? 'a first visit, the service worker not installed' : 'a later visit, the page controlled by its service worker'})`,
      [
        [
          'protocol',
          'file',
          'messages',
          'MB',
          'first chart ms',
          'whole import ms',
          'all shown ms',
          'tasks > 50 ms',
          'longest task ms',
          'long-task ms',
        ],
        ...wallRows,
      ],
    );
    console.log('\nWhen the long tasks began (ms from handing over the file) and how long they lasted:');
    for (const line of whenLong) console.log(line);
    if (cpuRows.length) {
      printTable(`The same imports traced: main-thread CPU time per task (median of ${REPEATS})`, [
        [
          'protocol',
          'file',
          'messages',
          'MB',
          'tasks > 50 ms CPU',
          `tasks > ${SHORT_TASK_CPU_MS} ms CPU`,
          'longest task CPU ms',
          'main-thread CPU ms',
          'worker CPU ms',
        ],
        ...cpuRows,
      ]);
    }
    console.log('');
    for (const line of ratios) console.log(line);
    if (longest.length) {
      console.log(
        '\nWhat the longest main-thread task did (CPU ms of the work directly inside it and of the scripts it ran, from the trace):',
      );
      for (const line of longest) console.log(line);
      console.log(
        `\nThe tasks over ${SHORT_TASK_CPU_MS} ms of CPU (ms of CPU at ms from the first task traced, and their biggest parts):`,
      );
      for (const line of heavy) console.log(line);
    }
  } finally {
    await browser.close();
    stopPreview(server);
    await rm(dir, { recursive: true, force: true });
  }
}
