/**
 * The sequence chart with 100,000 messages against 10,000 in the same run: a real recording's rounds
 * repeated into an rddlsim stream of each size, imported through the page's Import dialog of the
 * production build in Chromium, then the Sequence tab opened and the chart driven as a person would (zoom in
 * step by step to single marks, move the selection with the arrow keys, drag to pan, zoom back out). While
 * that runs a PerformanceObserver records the page's long tasks (over 50 ms) and a requestAnimationFrame
 * loop the longest gap between frames. Each key or drag is timed until the second frame after it (the chart
 * draws in the next one).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { loadRecording } from '../../tests/core/protocols/rddlsim/recordings';
import { writeBigRddlsimStream } from '../inspect/big-recording';
import { median, printTable } from '../lib';
import { SMOOTHNESS_SCRIPT } from './long-task-record';
import { ensureBuild, launchChromium, startPreview, stopPreview } from './page-server';

const SIZES = (process.env.SEQUENCE_SIZES ?? '10000,100000').split(',').map(Number);

declare global {
  interface Window {
    smoothness?: { tasks: { start: number; duration: number }[]; gaps: number[]; frames: boolean };
  }
}

/** Resolves at the second frame from now: the chart has drawn what the last input asked for. */
const TWO_FRAMES = () =>
  new Promise<number>((done) =>
    requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now()))),
  );

interface Figures {
  messages: number;
  firstChartMs: number;
  inputs: number;
  medianInputMs: number;
  worstInputMs: number;
  longTasks: number;
  longestTaskMs: number;
  longestFrameGapMs: number;
}

async function chartRun(page: Page, url: string, file: string, messages: number): Promise<Figures> {
  await page.goto(url);
  await page.locator('[data-restored="true"]').waitFor({ state: 'attached', timeout: 60_000 });
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(file);
  await page.getByRole('status').filter({ hasText: 'Opened' }).waitFor({ timeout: 300_000 });
  // Every row read by the page before the chart is asked for.
  const count = messages.toLocaleString('en');
  await page.getByText(`${count} of ${count} messages`).waitFor({ timeout: 300_000 });
  // Monaco loading is a long task of its own: done before measuring.
  await page.getByRole('textbox', { name: 'Policy code' }).waitFor({ state: 'attached', timeout: 60_000 });
  await page.waitForTimeout(2000);

  const start = await page.evaluate(() => {
    window.smoothness!.gaps = [];
    window.smoothness!.frames = true;
    return performance.now();
  });
  await page.getByRole('tab', { name: 'Sequence' }).click();
  const chart = page.getByRole('region', { name: 'Sequence chart' });
  await chart.locator('canvas').waitFor();
  const firstDrawn = await page.evaluate(TWO_FRAMES);

  const plot = chart.getByRole('application');
  await plot.focus();
  const times: number[] = [];
  const input = async (act: () => Promise<void>) => {
    const before = await page.evaluate(() => performance.now());
    await act();
    times.push((await page.evaluate(TWO_FRAMES)) - before);
  };
  await input(() => page.keyboard.press('Home'));
  for (let i = 0; i < 14; i++) await input(() => page.keyboard.press('+'));
  for (let i = 0; i < 30; i++) await input(() => page.keyboard.press('ArrowRight'));
  await input(() => page.keyboard.press('End'));
  for (let i = 0; i < 7; i++) await input(() => page.keyboard.press('-'));
  const box = (await plot.boundingBox())!;
  for (let i = 0; i < 5; i++)
    await input(async () => {
      await page.mouse.move(box.x + box.width * 0.2, box.y + 60);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.7, box.y + 60, { steps: 5 });
      await page.mouse.up();
    });
  await input(() => page.keyboard.press('0'));

  const { end, tasks, gaps } = await page.evaluate(() => {
    window.smoothness!.frames = false;
    return { end: performance.now(), tasks: window.smoothness!.tasks, gaps: window.smoothness!.gaps };
  });
  if (process.env.SEQUENCE_DEBUG) console.log(times.map((t) => t.toFixed(0)).join(' '));
  const inside = tasks.filter((t) => t.start >= start && t.start <= end);
  return {
    messages,
    firstChartMs: firstDrawn - start,
    inputs: times.length,
    medianInputMs: median(times),
    worstInputMs: Math.max(...times),
    longTasks: inside.length,
    longestTaskMs: Math.max(0, ...inside.map((t) => t.duration)),
    longestFrameGapMs: Math.max(0, ...gaps),
  };
}

export default async function () {
  ensureBuild();
  const dir = await mkdtemp(join(tmpdir(), 'protoplay-sequence-bench-'));
  const server = await startPreview();
  const browser = await launchChromium();
  try {
    const recorded = loadRecording('sysadmin_inst_mdp__1').messages;
    const perByte = recorded.length / recorded.reduce((sum, m) => sum + (m.text?.length ?? 0) + 1, 0);
    const results: Figures[] = [];
    // The first visit installs the page's service worker and caches the build: not measured.
    const warmUp = await browser.newPage();
    await warmUp.goto(server.url);
    await warmUp.locator('[data-restored="true"]').waitFor({ state: 'attached', timeout: 60_000 });
    await warmUp
      .getByRole('textbox', { name: 'Policy code' })
      .waitFor({ state: 'attached', timeout: 60_000 });
    await warmUp.waitForTimeout(3000);
    await warmUp.close();
    for (const size of SIZES) {
      const file = join(dir, `stream-${size}.log`);
      // Rounds added until the stream holds `size` messages at least.
      let messages = 0;
      for (let target = size; messages < size; target *= 1.03) {
        await writeBigRddlsimStream(recorded, file, Math.ceil(target / perByte));
        messages = (await readFile(file)).reduce((n, byte) => (byte === 0 ? n + 1 : n), 0);
      }
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.addInitScript(SMOOTHNESS_SCRIPT);
      results.push(await chartRun(page, server.url, file, messages));
      await page.close();
    }
    const base = results[0]!;
    const ratio = (value: number, of: number) => (of > 0 ? `${(value / of).toFixed(2)}×` : 'n/a');
    printTable('Sequence chart: tab opened, then zoom, arrows, drags and fit (baseline: the first size)', [
      [
        'messages',
        'first chart ms',
        'inputs',
        'median input→frame ms',
        'vs baseline',
        'worst input ms',
        'long tasks',
        'longest task ms',
        'longest frame gap ms',
      ],
      ...results.map((r) => [
        r.messages,
        r.firstChartMs,
        r.inputs,
        r.medianInputMs,
        ratio(r.medianInputMs, base.medianInputMs),
        r.worstInputMs,
        r.longTasks,
        r.longestTaskMs,
        r.longestFrameGapMs,
      ]),
    ]);
  } finally {
    await browser.close();
    stopPreview(server);
    await rm(dir, { recursive: true, force: true });
  }
}
