/**
 * A round that never ends, played through the real UI of the production build in Chromium: an RDDL
 * instance whose terminate-when condition can never come true, the Noop policy, "as fast as possible".
 * Every few seconds it samples how far the round is, the page's element count and JS heap, and how long
 * the page takes to answer (a task queued on its main thread, measured in the page); at the end it presses
 * Stop and measures, in the page, the time from the click to the status line saying "Stopped". The
 * baseline, in the same run, is the same page idle before Run: its answer time and element count.
 */
import type { Page } from '@playwright/test';
import { median, printTable } from '../lib';
import { ensureBuild, launchChromium, startPreview, stopPreview } from './page-server';

const SECONDS = Number(process.env.ENDLESS_SECONDS ?? 40);
const SAMPLE_MS = 5000;

const ENDLESS_RDDL = `domain endless_walk {
  requirements = { integer-valued };
  pvariables {
    x : { state-fluent, int, default = 0 };
    go : { action-fluent, bool, default = false };
  };
  cpfs { x' = if (go) then x + 1 else x; };
  reward = -1;
}
instance endless_inst {
  domain = endless_walk;
  max-nondef-actions = 1;
  horizon = terminate-when (x < 0);
  discount = 1.0;
}
`;

interface Sample {
  seconds: number;
  turn: number;
  elements: number;
  heapMb: number;
  answerMs: number;
}

/** One sample: the turn in the status line, elements, heap, and the delay of a task queued now. */
function sample(page: Page, started: number): Promise<Sample> {
  return page.evaluate(
    `new Promise((resolve) => {
      const queued = performance.now();
      setTimeout(() => {
        const status = [...document.querySelectorAll('[role=status]')].map((e) => e.textContent).join(' ');
        resolve({
          seconds: Math.round((Date.now() - ${started}) / 1000),
          turn: Number((/turn (\\d+)/.exec(status) || [])[1] || 0),
          elements: document.getElementsByTagName('*').length,
          heapMb: performance.memory ? performance.memory.usedJSHeapSize / 1e6 : NaN,
          answerMs: performance.now() - queued,
        });
      }, 0);
    })`,
  ) as Promise<Sample>;
}

/** Clicks Stop in the page and resolves with the ms until a status says "Stopped". */
const STOP_SCRIPT = `new Promise((resolve) => {
  const statuses = () => [...document.querySelectorAll('[role=status]')].map((e) => e.textContent).join(' ');
  const stop = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Stop');
  const clicked = performance.now();
  const observer = new MutationObserver(() => {
    if (!statuses().includes('Stopped')) return;
    observer.disconnect();
    resolve({ ms: performance.now() - clicked, status: statuses() });
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  stop.click();
})`;

export default async function () {
  ensureBuild();
  const server = await startPreview();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(server.url);
    await page.locator('[data-restored="true"]').waitFor({ state: 'attached', timeout: 60_000 });
    await page.getByRole('textbox', { name: 'Policy code' }).waitFor({ state: 'attached', timeout: 60_000 });
    await page.getByRole('group', { name: 'Sample policies' }).getByRole('button', { name: 'Noop' }).click();
    await page
      .getByLabel('Open RDDL file(s)…')
      .setInputFiles({ name: 'endless.rddl', mimeType: 'text/plain', buffer: Buffer.from(ENDLESS_RDDL) });
    await page.getByLabel('Rounds').fill('1');
    await page.getByLabel('Speed').selectOption('fast');
    await page.waitForTimeout(1000);
    const idle: Sample[] = [];
    for (let i = 0; i < 5; i++) idle.push(await sample(page, Date.now()));

    await page.getByRole('button', { name: 'Run' }).click();
    const started = Date.now();
    const samples: Sample[] = [];
    while (Date.now() - started < SECONDS * 1000) {
      await page.waitForTimeout(SAMPLE_MS);
      samples.push(await sample(page, started));
    }
    const stop = (await page.evaluate(STOP_SCRIPT)) as { ms: number; status: string };
    const stoppedAt = Number(/turn (\d+)/.exec(stop.status)?.[1] ?? 0);

    const idleAnswer = median(idle.map((s) => s.answerMs));
    printTable(`A round that never ends, ${SECONDS} s at full speed (Noop policy)`, [
      ['window', 's', 'turn', 'elements', 'JS heap MB', 'answer ms', 'answer / idle'],
      ['idle page before Run (baseline)', 0, 0, idle[0]!.elements, idle[0]!.heapMb.toFixed(1), idleAnswer, 1],
      ...samples.map((s) => [
        'running',
        s.seconds,
        s.turn,
        s.elements,
        s.heapMb.toFixed(1),
        s.answerMs,
        (s.answerMs / Math.max(1, idleAnswer)).toFixed(1),
      ]),
    ]);
    const perTurn =
      samples.length > 1
        ? (samples[samples.length - 1]!.heapMb - samples[0]!.heapMb) /
          Math.max(1, samples[samples.length - 1]!.turn - samples[0]!.turn)
        : NaN;
    console.log(
      `Stop: "Stopped" shown ${stop.ms.toFixed(0)} ms after the click (at turn ${stoppedAt}); ` +
        `elements: ${samples[0]?.elements} -> ${samples[samples.length - 1]?.elements}; ` +
        `heap growth ${(perTurn * 1e6).toFixed(0)} bytes per turn (the log rows, turns and messages kept)`,
    );
  } finally {
    await browser.close();
    stopPreview(server);
  }
}
