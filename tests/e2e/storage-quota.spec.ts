import { expect, test, type Page } from '@playwright/test';
import {
  exportedMessages,
  installStorageQuota,
  ready,
  refusedWrites,
  shownMessages,
  setStorageFull,
  stored,
  storedValue,
  storedWhileRunning,
  storeWhileRunningEvery,
  WITH_HOOKS,
} from './browser-fault-helpers';
import { configure, status } from './playground-page';
import {
  defaultMassimWorkspace,
  encodeMassimWorkspace,
  massimLinkParameter,
} from '../../src/core/protocols/massim/playground/workspace-data';

/**
 * The browser's storage full in the middle of a live session (IndexedDB aborting writes with a
 * QuotaExceededError, see `installStorageQuota`): the page says so while the session runs (what was not
 * stored, why, what to do), the session goes on, every message stays in the page and is exported, and once
 * there is room again the next periodic store succeeds and the page says that too. The same for the
 * learner's code and settings.
 */

// The test serves the workers' scripts itself: no service worker may answer for it.
test.use({ serviceWorkers: 'block' });

const sessions: { name: string; start: (page: Page) => Promise<void> }[] = [
  {
    name: 'an RDDLSim session',
    start: async (page) => {
      await page.goto(`./${WITH_HOOKS}`);
      await ready(page);
      await storeWhileRunningEvery(page);
      // Animated: far longer than the test, so the session runs throughout.
      await configure(page, { rounds: 200, fast: false });
    },
  },
  {
    name: 'a MASSim match',
    start: async (page) => {
      const data = defaultMassimWorkspace();
      data.settings = { ...data.settings, speed: 'animated', steps: 5000 };
      await page.goto(`./${WITH_HOOKS}#${massimLinkParameter}=${encodeMassimWorkspace(data)}`);
      await ready(page);
      await storeWhileRunningEvery(page);
      await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
    },
  },
];

for (const { name, start } of sessions) {
  test(`IndexedDB full during ${name}: said while it runs, nothing lost, stored again once there is room`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await installStorageQuota(page);
    await start(page);
    await page.getByRole('button', { name: 'Run' }).click();
    await expect(status(page)).toContainText('Running', { timeout: 30_000 });
    // Stored while it runs, as usual.
    await expect.poll(() => storedWhileRunning(page), { timeout: 60_000 }).toBe(true);

    await setStorageFull(page, true);
    const notice = page.getByRole('status').filter({ hasText: 'could not be stored for a reload' });
    await expect(notice).toContainText('storage quota exceeded', { timeout: 60_000 });
    await expect(notice).toContainText('The session goes on and every message stays in this page');
    await expect(notice).toContainText('use Export to keep it, or free storage for this site');
    expect(await refusedWrites(page)).toBeGreaterThan(0);

    // The session goes on recording.
    await expect(status(page)).toContainText('Running');
    const during = await shownMessages(page);
    await expect.poll(() => shownMessages(page), { timeout: 60_000 }).toBeGreaterThan(during);
    // Everything recorded is in the export.
    const exported = await exportedMessages(page);
    expect(exported.length).toBeGreaterThan(during);

    // Room again: the next periodic store keeps everything up to then, and the page says so.
    await setStorageFull(page, false);
    await expect(page.getByRole('status').filter({ hasText: 'stored for a reload again' })).toBeVisible({
      timeout: 60_000,
    });
    await expect(notice).toHaveCount(0);
    const kept = await stored(page);
    expect(kept?.unfinished).toBe(true);
    expect(kept?.messages).toBeGreaterThanOrEqual(exported.length);

    // Stopped (a MASSim match ends as finished): the whole session is stored, and the page says nothing is left to store.
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(status(page)).toContainText(/Stopped|Finished/, { timeout: 30_000 });
    await expect(page.locator('[data-stored="true"]')).toBeAttached({ timeout: 30_000 });
    await expect.poll(async () => (await stored(page))?.unfinished, { timeout: 30_000 }).toBe(false);
    expect((await exportedMessages(page)).length).toBe((await stored(page))?.messages);
  });
}

test('IndexedDB full when the learner changes the settings: said, and stored again once there is room', async ({
  page,
}) => {
  await installStorageQuota(page);
  await page.goto('./');
  await ready(page);
  await setStorageFull(page, true);
  await page.getByLabel('Rounds').fill('7');
  const notice = page.getByRole('status').filter({ hasText: 'code and settings could not be stored' });
  await expect(notice).toContainText('storage quota exceeded', { timeout: 30_000 });
  await expect(notice).toContainText('Keep a copy of your code, or free storage for this site');
  // Nothing is left waiting: the failed write is over (and said).
  await expect(page.locator('[data-stored="true"]')).toBeAttached({ timeout: 30_000 });

  await setStorageFull(page, false);
  await page.getByLabel('Rounds').fill('8');
  await expect(
    page.getByRole('status').filter({ hasText: 'code and settings are stored again' }),
  ).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-stored="true"]')).toBeAttached({ timeout: 30_000 });
  expect(await storedRounds(page)).toBe(8);
});

/** The rounds of the settings the page stored (read from its IndexedDB). */
async function storedRounds(page: Page): Promise<unknown> {
  return ((await storedValue(page, 'protoplay:settings:v1')) as { rounds?: unknown } | undefined)?.rounds;
}
