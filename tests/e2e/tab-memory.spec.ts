import { expect, test } from '@playwright/test';
import { exportedMessages, ready, shownCount, stored } from './browser-fault-helpers';
import { setPolicyCode, status } from './playground-page';

/**
 * A policy that allocates until the browser gives up: Chromium ends the whole tab (a worker's heap is not
 * capped on its own), so nothing in the page can report it then. What must hold: the tab opened again
 * shows the turns played before, as an interrupted session.
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

test('the tab opened again shows the turns played, and says the session was interrupted', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await page.goto('./');
  await ready(page);
  // A budget long enough for the allocation to exhaust the heap before it runs out.
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('keyval-store');
        open.onsuccess = () => {
          const tx = open.result.transaction('keyval', 'readwrite');
          tx.objectStore('keyval').put(
            { rounds: 1, speed: 'fast', budgetMs: 60_000 },
            'protoplay:settings:v1',
          );
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
  await page.reload();
  await ready(page);
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
  // What was stored and what the page says, named in the failure if the notice is missing (it was once,
  // on a loaded machine): nothing stored, a transcript stored as finished, or one that did not open.
  const found = JSON.stringify(await stored(again));
  const says = (await again.getByRole('status').allTextContents()).join(' | ');
  await expect(
    again.getByRole('status').filter({ hasText: 'interrupted' }),
    `the reopened page says "${says}"; stored: ${found}`,
  ).toContainText('The last session was interrupted');
  await expect(status(again)).toContainText('showing the last session');
  const messages = await exportedMessages(again);
  expect(messages.length).toBe(shown);
  expect(messages.some((m) => m.text?.includes('<turn-num>2</turn-num>'))).toBe(true);
});
