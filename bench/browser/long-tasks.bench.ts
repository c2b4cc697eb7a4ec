/**
 * How smooth the page stays during a long live session: a 200-round session of the default domain at full
 * speed (about 16,000 messages), played through the real UI (rounds, speed, Run) of the production build in
 * Chromium, while a PerformanceObserver records the page's long tasks (main-thread tasks over 50 ms) and a
 * requestAnimationFrame loop records the longest gap between frames. The baseline, in the same run, is the
 * page sitting idle for as long as the session took: what the page costs when nothing arrives.
 */
import { chromium, type Page } from '@playwright/test';
import { printTable } from '../lib';
import { ensureBuild, startPreview, stopPreview } from './page-server';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROUNDS = Number(process.env.LONG_TASKS_ROUNDS ?? 200);
const REPEATS = 3;

/** What the page felt over one window of time. */
interface Smoothness {
  ms: number;
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

/**
 * Starts recording long tasks and frame gaps in the page, from the moment the page loads. The script is
 * text: a compiled function would carry the bundler's helpers, which do not exist in the page.
 */
const OBSERVER_SCRIPT = `
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

/** Runs `during` and reports the long tasks and frame gaps that fell inside it. */
async function measure(page: Page, during: () => Promise<void>): Promise<Omit<Smoothness, 'messages'>> {
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
  const inside = tasks.filter((t) => t.start >= start && t.start <= end);
  return {
    ms: end - start,
    longTasks: inside.length,
    longTaskMs: inside.reduce((sum, t) => sum + t.duration, 0),
    longestTaskMs: Math.max(0, ...inside.map((t) => t.duration)),
    longestFrameGapMs: Math.max(0, ...gaps),
  };
}

/** One fast session through the UI, measured from the click on Run until the status says Finished. */
async function session(page: Page): Promise<Smoothness> {
  const figures = await measure(page, async () => {
    await page.getByRole('button', { name: /^(Run|Restart)$/ }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Finished|Stopped/ })
      .waitFor({ timeout: 300_000 });
  });
  const count = await page.getByText(/^[\d,.k]+ messages$/).textContent();
  return { ...figures, messages: Number((count ?? '').replace(/[^\d]/g, '')) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export default async function () {
  ensureBuild();
  const server = await startPreview();
  const browser = await chromium.launch({
    ...(CHROMIUM ? { executablePath: CHROMIUM } : {}),
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(OBSERVER_SCRIPT);
    await page.goto(server.url);
    // Monaco loading is a long task of its own: wait for it before measuring.
    await page.getByRole('textbox', { name: 'Policy code' }).waitFor({ state: 'attached', timeout: 60_000 });
    await page.getByLabel('Rounds').fill(String(ROUNDS));
    await page.getByLabel('Speed').selectOption('fast');
    await page.waitForTimeout(1000);

    const sessions: Smoothness[] = [];
    for (let i = 0; i < REPEATS; i++) sessions.push(await session(page));
    const sessionMs = median(sessions.map((s) => s.ms));
    // Let the page finish what follows a session (storing the transcript) before the idle window.
    await page.waitForTimeout(2000);
    const idle = await measure(page, () => page.waitForTimeout(sessionMs));

    const row = (label: string, values: Omit<Smoothness, 'messages'>[]) => [
      label,
      median(values.map((v) => v.ms)),
      median(values.map((v) => v.longTasks)),
      median(values.map((v) => v.longTaskMs)),
      median(values.map((v) => v.longestTaskMs)),
      median(values.map((v) => v.longestFrameGapMs)),
    ];
    printTable(
      `Page long tasks during a ${ROUNDS}-round fast session (${sessions[0]!.messages} messages; median of ${REPEATS})`,
      [
        ['window', 'ms', 'long tasks', 'long-task ms', 'longest task ms', 'longest frame gap ms'],
        row('idle page, same duration (baseline)', [idle]),
        row('live session', sessions),
      ],
    );
    const perSession = sessions.map((s) => `${s.longTasks} tasks / ${s.longTaskMs.toFixed(0)} ms`);
    console.log(`each session: ${perSession.join('; ')}`);
  } finally {
    await browser.close();
    stopPreview(server);
  }
}
