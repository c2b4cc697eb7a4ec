/**
 * What the browser benches record in the page about its smoothness: the Long Tasks API's entries (main-thread
 * tasks over 50 ms of wall clock) from the page's start, and, when asked for, the gaps between animation
 * frames. Init scripts are text (the page has no bundler helpers); `addInitScript` installs them.
 */
import type { Browser, Page } from '@playwright/test';

/** A long task as the page recorded it: start and duration, ms on the page's clock. */
export interface LongTask {
  start: number;
  duration: number;
}

/** Records the page's long tasks in `window.longTasks`. */
export const LONG_TASK_SCRIPT = `
  window.longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
`;

/**
 * Records the page's long tasks and, while `frames` is set, the gaps between its animation frames, in
 * `window.smoothness`.
 */
export const SMOOTHNESS_SCRIPT = `
  const record = { tasks: [], gaps: [], frames: false };
  window.smoothness = record;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record.tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  let last = 0;
  function frame(time) {
    if (record.frames && last) record.gaps.push(time - last);
    last = time;
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
`;

/**
 * The long tasks recorded by `LONG_TASK_SCRIPT` that overlap the time from `from` until now (the page's
 * clock), and now.
 */
export function longTasksSince(page: Page, from: number): Promise<{ end: number; tasks: LongTask[] }> {
  return page.evaluate((from) => {
    const end = performance.now();
    const tasks = (window as unknown as { longTasks: LongTask[] }).longTasks.filter(
      (task) => task.start + task.duration >= from && task.start <= end,
    );
    return { end, tasks };
  }, from);
}

/**
 * A fresh page of the app recording its long tasks, started up and quiet: restored, the policy editor
 * there, and the start-up's own work (the editor, the workers' boot, the service worker's install) over
 * before what is measured.
 *
 * Each page is a fresh browser context, so the build's service worker installs in each: it fetches and
 * caches the whole build (about 15 MB) and compiles its scripts, several hundred ms of CPU on other
 * threads. Measured during an import, that was the first visit's install competing for the 2 cores, not
 * the import: the page is measured once the service worker controls it, as on any later visit. With
 * `visit: 'first'` it is not waited for: what comes next is measured as on a first visit, a second after
 * the page is up (the page registers its service worker only after five quiet seconds without an import).
 */
export async function quietPage(
  browser: Browser,
  url: string,
  visit: 'later' | 'first' = 'later',
): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.addInitScript(LONG_TASK_SCRIPT);
  await page.goto(url);
  await page.locator('[data-restored="true"]').waitFor({ state: 'attached', timeout: 60_000 });
  await page.getByRole('textbox', { name: 'Policy code' }).waitFor({ state: 'attached', timeout: 60_000 });
  if (visit === 'later')
    await page.waitForFunction(
      `!('serviceWorker' in navigator) || navigator.serviceWorker.controller !== null`,
      undefined,
      { polling: 100, timeout: 120_000 },
    );
  await page.waitForTimeout(1000);
  return page;
}
