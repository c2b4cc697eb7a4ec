import { expect, test } from '@playwright/test';
import {
  exportedTranscript,
  ready,
  shownCount,
  storeValue,
  stored,
  storedValue,
} from './browser-fault-helpers';
import { setPolicyCode, status } from './playground-page';

/**
 * A policy that allocates until the browser gives up: Chromium ends the whole tab (a worker's heap is not
 * capped on its own), so nothing in the page can report it then. What must hold: the tab opened again
 * shows the turns played before, as an interrupted session. On a loaded machine Chromium sometimes first
 * reports the policy worker's failure to the page, which records it and ends the session, before the tab
 * goes: the tab opened again then shows that ended session, the failure included, and no "interrupted".
 */
// As playwright.config.ts launches Chromium, with a smaller V8 heap: the browser gives up sooner, and
// the test is lighter on the machine running it.
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
test.use({
  launchOptions: {
    ...(chromiumPath ? { executablePath: chromiumPath } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--js-flags=--max-old-space-size=256',
    ],
  },
});

test('the tab opened again shows the turns played, and says the session was interrupted (or how it ended)', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await page.goto('./');
  await ready(page);
  // A budget long enough for the allocation to exhaust the heap before it runs out. The page stores its
  // settings a moment after it starts, which may overwrite what is written here before the reload: written
  // again until the page opened after the reload has kept it.
  const settingsKey = 'protoplay:settings:v1';
  const writeBudget = () => storeValue(page, settingsKey, { rounds: 1, speed: 'fast', budgetMs: 60_000 });
  const storedBudget = async () =>
    ((await storedValue(page, settingsKey)) as { budgetMs?: unknown } | undefined)?.budgetMs;
  for (let attempt = 1; ; attempt++) {
    await writeBudget();
    await page.reload();
    await ready(page);
    // Past the page's own first store of its settings.
    await page.waitForTimeout(1000);
    if ((await storedBudget()) === 60_000) break;
    expect(attempt, 'the budget written before the reload was not kept').toBeLessThan(3);
  }
  await setPolicyCode(
    page,
    [
      'export function act(observation: Observation): Actions {',
      '  const hoard: number[][] = [];',
      '  if (observation.turn === 3) for (;;) hoard.push(new Array(1e6).fill(1));',
      '  return null;',
      '}',
    ].join('\n'),
  );
  // Two turns a step at a time: each pause stores the transcript, as unfinished.
  for (const turn of [1, 2]) {
    await page.getByRole('button', { name: 'Step' }).click();
    await expect(status(page)).toContainText(`Paused · round 1, turn ${turn}`, { timeout: 30_000 });
  }
  // Everything on show is stored, as unfinished.
  const shown = await shownCount(page);
  await expect
    .poll(async () => await stored(page), { timeout: 30_000 })
    .toEqual({
      messages: shown,
      unfinished: true,
    });
  const crashed = new Promise<void>((resolve) => page.on('crash', () => resolve()));
  await page.getByRole('button', { name: 'Resume' }).click();
  await crashed;

  const again = await context.newPage();
  await again.goto('./');
  await ready(again);
  await expect(status(again)).toContainText('showing the last session');
  const kept = await stored(again);
  const { messages, annotations } = await exportedTranscript(again);
  expect(messages.some((m) => m.text?.includes('<turn-num>2</turn-num>'))).toBe(true);
  const interrupted = again.getByRole('status').filter({ hasText: 'interrupted' });
  if (kept?.unfinished === false) {
    // The session ended first: the policy's failure on turn 3 is recorded, after the turns played (its
    // runtime stopped, or, on a machine slow enough, the allocation outran even its budget).
    expect(messages.length).toBeGreaterThan(shown);
    expect(messages.some((m) => m.text?.includes('<turn-num>3</turn-num>'))).toBe(true);
    expect(annotations).toContainEqual(
      expect.objectContaining({
        type: 'error',
        data: expect.objectContaining({
          source: 'policy',
          message: expect.stringMatching(/stopped|exceeded/),
        }),
      }),
    );
    await expect(interrupted).toHaveCount(0);
    return;
  }
  // What was stored and what the page says, named in the failure if the notice is missing.
  const says = (await again.getByRole('status').allTextContents()).join(' | ');
  await expect(
    interrupted,
    `the reopened page says "${says}"; stored: ${JSON.stringify(kept)}`,
  ).toContainText('The last session was interrupted');
  // The turns shown before, and any the page stored while the policy allocated (it stores a running
  // session every few seconds, and a loaded machine may take that long to give up).
  expect(messages.length).toBeGreaterThanOrEqual(shown);
});
