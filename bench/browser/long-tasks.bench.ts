/**
 * How smooth the page stays during a long live session: a 200-round session of the default domain at full
 * speed (about 16,000 messages), played through the real UI (rounds, speed, Run) of the production build in
 * Chromium, while a PerformanceObserver records the page's long tasks (main-thread tasks over 50 ms) and a
 * requestAnimationFrame loop records the longest gap between frames. Long tasks are wall-clock time and
 * grow when other processes compete for the cores, so the CPU time of the page's main thread (read from
 * /proc on Linux) is reported beside them: it does not depend on the machine's load. The baseline, in the
 * same run, is the page sitting idle for as long as the session took: what the page costs when nothing
 * arrives.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { median, printTable } from '../lib';
import { SMOOTHNESS_SCRIPT } from './long-task-record';
import { ensureBuild, launchChromium, startPreview, stopPreview } from './page-server';

const ROUNDS = Number(process.env.LONG_TASKS_ROUNDS ?? 200);
const REPEATS = 3;

/** What the page felt over one window of time. */
interface Smoothness {
  ms: number;
  /** CPU time of the page's main thread, when it can be read. */
  mainThreadCpuMs: number | undefined;
  longTasks: number;
  longTaskMs: number;
  longestTaskMs: number;
  longestFrameGapMs: number;
  messages: number;
}

declare global {
  interface Window {
    smoothness?: { tasks: { start: number; duration: number }[]; gaps: number[]; frames: boolean };
  }
}

/** Clock ticks of the main thread of each renderer process of the browser (Linux), by process id. */
async function rendererMainThreadTicks(browser: Browser): Promise<Map<number, number>> {
  const ticks = new Map<number, number>();
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as {
    processInfo: { type: string; id: number }[];
  };
  await cdp.detach();
  for (const { type, id } of processInfo) {
    if (type !== 'renderer') continue;
    try {
      // The main thread's id is the process id; utime and stime are fields 14 and 15 of its stat.
      const stat = readFileSync(`/proc/${id}/task/${id}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(id, Number(fields[11]) + Number(fields[12]));
    } catch {
      // not Linux, or the process ended meanwhile
    }
  }
  return ticks;
}

/** Linux counts CPU time in clock ticks of 10 ms (USER_HZ = 100 on every mainstream kernel). */
const MS_PER_TICK = 10;

/** Runs `during` and reports the long tasks and frame gaps that fell inside it. */
async function measure(
  browser: Browser,
  page: Page,
  during: () => Promise<void>,
): Promise<Omit<Smoothness, 'messages'>> {
  const ticksBefore = await rendererMainThreadTicks(browser);
  const start = await page.evaluate(() => {
    window.smoothness!.gaps = [];
    window.smoothness!.frames = true;
    return performance.now();
  });
  await during();
  const { end, tasks, gaps } = await page.evaluate(() => {
    window.smoothness!.frames = false;
    return { end: performance.now(), tasks: window.smoothness!.tasks, gaps: window.smoothness!.gaps };
  });
  const ticksAfter = await rendererMainThreadTicks(browser);
  // The page's renderer is the one whose main thread worked most (a spare renderer idles).
  const spent = [...ticksAfter].map(([pid, after]) => after - (ticksBefore.get(pid) ?? after));
  const inside = tasks.filter((t) => t.start >= start && t.start <= end);
  return {
    ms: end - start,
    mainThreadCpuMs: spent.length ? Math.max(...spent) * MS_PER_TICK : undefined,
    longTasks: inside.length,
    longTaskMs: inside.reduce((sum, t) => sum + t.duration, 0),
    longestTaskMs: Math.max(0, ...inside.map((t) => t.duration)),
    longestFrameGapMs: Math.max(0, ...gaps),
  };
}

/** One fast session through the UI, measured from the click on Run until the status says Finished. */
async function session(browser: Browser, page: Page): Promise<Smoothness> {
  const figures = await measure(browser, page, async () => {
    await page.getByRole('button', { name: /^(Run|Restart)$/ }).click();
    // Polled sparingly: role queries in the page would add work of their own to what is measured.
    const phase = (pattern: string, polling: number) =>
      page.waitForFunction(
        `[...document.querySelectorAll('[role=status]')].some((e) => /${pattern}/.test(e.textContent))`,
        undefined,
        { polling, timeout: 300_000 },
      );
    // The previous session's "Finished" stays until this one reports that it runs.
    await phase('Running', 20);
    await phase('Finished|Stopped', 250);
  });
  const count = await page.getByText(/^[\d,.k]+ messages$/).textContent();
  return { ...figures, messages: Number((count ?? '').replace(/[^\d]/g, '')) };
}

export default async function () {
  ensureBuild();
  const server = await startPreview();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(SMOOTHNESS_SCRIPT);
    await page.goto(server.url);
    // Monaco loading is a long task of its own: wait for it before measuring.
    await page.getByRole('textbox', { name: 'Policy code' }).waitFor({ state: 'attached', timeout: 60_000 });
    await page.getByLabel('Rounds').fill(String(ROUNDS));
    await page.getByLabel('Speed').selectOption('fast');
    await page.waitForTimeout(1000);

    const sessions: Smoothness[] = [];
    for (let i = 0; i < REPEATS; i++) sessions.push(await session(browser, page));
    const sessionMs = median(sessions.map((s) => s.ms));
    // Let the page finish what follows a session (storing the transcript) before the idle window.
    await page.waitForTimeout(2000);
    const idle = await measure(browser, page, () => page.waitForTimeout(sessionMs));

    const cpu = (values: Omit<Smoothness, 'messages'>[]) => {
      const known = values.map((v) => v.mainThreadCpuMs).filter((v): v is number => v !== undefined);
      return known.length ? median(known) : 'n/a';
    };
    const row = (label: string, values: Omit<Smoothness, 'messages'>[]) => [
      label,
      median(values.map((v) => v.ms)),
      cpu(values),
      median(values.map((v) => v.longTasks)),
      median(values.map((v) => v.longTaskMs)),
      median(values.map((v) => v.longestTaskMs)),
      median(values.map((v) => v.longestFrameGapMs)),
    ];
    printTable(
      `Page long tasks during a ${ROUNDS}-round fast session (${sessions[0]!.messages} messages; median of ${REPEATS})`,
      [
        [
          'window',
          'ms',
          'main-thread CPU ms',
          'long tasks',
          'long-task ms',
          'longest task ms',
          'longest frame gap ms',
        ],
        row('idle page, same duration (baseline)', [idle]),
        row('live session', sessions),
      ],
    );
    const perSession = sessions.map(
      (s) => `${s.longTasks} tasks / ${s.longTaskMs.toFixed(0)} ms, CPU ${s.mainThreadCpuMs ?? 'n/a'} ms`,
    );
    console.log(`each session: ${perSession.join('; ')}`);
  } finally {
    await browser.close();
    stopPreview(server);
  }
}
