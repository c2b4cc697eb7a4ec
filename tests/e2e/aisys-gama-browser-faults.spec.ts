import { expect, test, type Page } from '@playwright/test';
import {
  exportedMessages,
  installStorageQuota,
  ready,
  refusedWrites,
  shownMessages,
  setStorageFull,
  stored,
  storedWhileRunning,
  storeWhileRunningEvery,
  WITH_HOOKS,
} from './browser-fault-helpers';
import { configure, setPolicyCode, status } from './playground-page';

/**
 * Faults of the browser itself on the aisysprojserver and GAMA playgrounds: a policy that never returns,
 * one that allocates without end, a policy worker that dies, a reload in the middle of a session, two tabs
 * on the same exercise, the storage quota exceeded while a session runs. Each must be said in the page,
 * and nothing recorded before it may be lost (on show, in the export and stored for a reload).
 */

// The quota tests serve the workers' scripts themselves: no service worker may answer for them.
test.use({ serviceWorkers: 'block' });

interface Playground {
  name: string;
  id: string;
  /** Opens the page on the protocol, restored (`search`: the page's query, e.g. `WITH_HOOKS`). */
  open: (page: Page, hash?: string, search?: string) => Promise<void>;
  /** A policy of the protocol whose act() runs `fault` on its `call`th call, and plays a legal move else. */
  policy: (fault: string, call: number) => string;
  /** Makes the next session take far longer than a test (animated, many rounds or cycles). */
  long: (page: Page) => Promise<void>;
  /** Changes a setting of the protocol's own stored part. */
  changeOwnSetting: (page: Page) => Promise<void>;
  /** A wire message that only a session which played a while has (the export holds it). */
  played: RegExp;
}

const playgrounds: Playground[] = [
  {
    name: 'aisysprojserver',
    id: 'aisys',
    open: async (page, hash = '', search = '') => {
      await page.goto(`./${search}${hash}`);
      await ready(page);
      await page.getByRole('combobox', { name: 'Protocol' }).selectOption('aisys');
      await expect(page.getByRole('combobox', { name: 'Environment' })).toBeVisible();
    },
    policy: (fault, call) =>
      [
        'let calls = 0;',
        'const hoard: number[][] = [];',
        'export function act(percept: Percept, run: Run, context: PolicyContext): Action {',
        '  calls += 1;',
        `  if (calls === ${call}) { ${fault} }`,
        '  return 1;',
        '}',
      ].join('\n'),
    long: (page) => configure(page, { rounds: 500, fast: false }),
    changeOwnSetting: (page) => page.getByRole('switch', { name: 'Parallel runs' }).click(),
    played: /action_requests/,
  },
  {
    name: 'GAMA',
    id: 'gama',
    open: async (page, hash = '', search = '') => {
      await page.goto(`./${search}${hash}`);
      await ready(page);
      await page.getByRole('combobox', { name: 'Protocol' }).selectOption('gama');
      await expect(page.getByRole('combobox', { name: 'Scenario' })).toBeVisible();
    },
    policy: (fault, call) =>
      [
        'let calls = 0;',
        'const hoard: number[][] = [];',
        'export function act(observation: Observation, reward: number, scavenger: Scavenger, context: PolicyContext): Action {',
        '  calls += 1;',
        `  if (calls === ${call}) { ${fault} }`,
        "  return 'idle';",
        '}',
      ].join('\n'),
    long: async (page) => {
      const cycles = page.getByRole('spinbutton', { name: 'Cycles' });
      await cycles.fill('1000');
      await cycles.press('Tab');
      await configure(page, { rounds: 20, fast: false });
    },
    changeOwnSetting: async (page) => {
      const cycles = page.getByRole('spinbutton', { name: 'Cycles' });
      const now = Number(await cycles.inputValue());
      await cycles.fill(String(now === 123 ? 124 : 123));
      await cycles.press('Tab');
    },
    played: /Scav\. 1/,
  },
];

/** Runs and waits for the session to stop on a policy fault; returns the alert's text. */
async function runToFault(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status(page)).toContainText('Stopped by an error', { timeout: 90_000 });
  const alert = page
    .getByRole('alert')
    .filter({ hasText: /policy/ })
    .first();
  await expect(alert).toBeVisible();
  return (await alert.textContent()) ?? '';
}

/** What is on show is what is exported, and it holds the messages played before the fault. */
async function keptAndExported(page: Page, played: RegExp): Promise<number> {
  const messages = await exportedMessages(page);
  expect(messages.length).toBe(await shownMessages(page));
  expect(messages.some((m) => played.test(m.text ?? ''))).toBe(true);
  return messages.length;
}

/** A policy that plays on, for the run after a fault. */
async function playAgain(page: Page, playground: Playground) {
  await configure(page, { rounds: 1, fast: true });
  if (playground.id === 'gama') {
    const cycles = page.getByRole('spinbutton', { name: 'Cycles' });
    await cycles.fill('5');
    await cycles.press('Tab');
  }
  await setPolicyCode(page, playground.policy('', 0));
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 90_000 });
}

for (const playground of playgrounds) {
  test.describe(playground.name, () => {
    test('a policy that never returns is stopped by its budget; what was played is kept and exported', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await playground.open(page);
      await configure(page, { rounds: 3, fast: true });
      await setPolicyCode(page, playground.policy('for (;;) {}', 4));
      expect(await runToFault(page)).toMatch(/policy exceeded 1000 ms/);
      await keptAndExported(page, playground.played);
      await playAgain(page, playground);
    });

    test('a policy that allocates without end is stopped; what was played is kept and exported', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await playground.open(page);
      await configure(page, { rounds: 3, fast: true });
      await setPolicyCode(page, playground.policy('for (;;) hoard.push(new Array(1e6).fill(1));', 4));
      // The budget stops it (terminating its worker frees the memory), or the browser ends the worker first.
      expect(await runToFault(page)).toMatch(/policy exceeded 1000 ms|the policy runtime stopped: /);
      await keptAndExported(page, playground.played);
      await playAgain(page, playground);
    });

    test('a policy worker that dies mid-session is reported; what was recorded is kept, stored and exported', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await playground.open(page);
      await configure(page, { rounds: 3, fast: true });
      await setPolicyCode(
        page,
        playground.policy("setTimeout(() => { throw new Error('worker down'); }, 0);", 4),
      );
      expect(await runToFault(page)).toMatch(/the policy runtime stopped: .*Error: worker down/);
      const exported = await keptAndExported(page, playground.played);
      await expect(page.locator('[data-stored="true"]')).toBeAttached({ timeout: 30_000 });
      await expect.poll(async () => (await stored(page))?.messages, { timeout: 30_000 }).toBe(exported);
      await playAgain(page, playground);
    });

    test('a reload mid-session shows what was recorded until then and says it was interrupted', async ({
      page,
    }) => {
      await playground.open(page, '', WITH_HOOKS);
      await storeWhileRunningEvery(page);
      await playground.long(page);
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await expect(status(page)).toContainText('Running', { timeout: 30_000 });
      await expect.poll(() => storedWhileRunning(page), { timeout: 60_000 }).toBe(true);
      const before = (await stored(page))!.messages;
      expect(before).toBeGreaterThan(0);

      await page.reload();
      await ready(page);
      await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue(playground.id);
      await expect(page.getByRole('status').filter({ hasText: 'interrupted' })).toContainText(
        'The last session was interrupted',
      );
      await expect(status(page)).toContainText('showing the last session');
      expect(await shownMessages(page)).toBeGreaterThanOrEqual(before);
      await keptAndExported(page, playground.played);
    });

    test('two tabs on one exercise: a setting changed in one is heard in the other', async ({ context }) => {
      const hash = `#exercise=${playground.id}-two-tabs`;
      const page = await context.newPage();
      await playground.open(page, hash);
      await expect(page.locator('[data-stored="true"]')).toBeAttached({ timeout: 30_000 });
      const other = await context.newPage();
      await other.goto(`./${hash}`);
      await ready(other);
      await expect(other.getByRole('combobox', { name: 'Protocol' })).toHaveValue(playground.id);
      const warning = other.getByRole('status').filter({ hasText: 'also open in another tab' });
      await expect(warning).toHaveCount(0);

      await playground.changeOwnSetting(page);
      await expect(warning).toBeVisible({ timeout: 30_000 });
      await expect(warning).toContainText('export here to keep this tab’s');
    });

    test('IndexedDB full during a session: said while it runs, nothing lost, stored again once there is room', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await installStorageQuota(page);
      await playground.open(page, '', WITH_HOOKS);
      await storeWhileRunningEvery(page);
      await playground.long(page);
      await page.getByRole('button', { name: 'Run', exact: true }).click();
      await expect(status(page)).toContainText('Running', { timeout: 30_000 });
      await expect.poll(() => storedWhileRunning(page), { timeout: 60_000 }).toBe(true);

      await setStorageFull(page, true);
      const notice = page.getByRole('status').filter({ hasText: 'could not be stored for a reload' });
      await expect(notice).toContainText('storage quota exceeded', { timeout: 60_000 });
      await expect(notice).toContainText('use Export to keep it, or free storage for this site');
      expect(await refusedWrites(page)).toBeGreaterThan(0);

      await expect(status(page)).toContainText('Running');
      const during = await shownMessages(page);
      await expect.poll(() => shownMessages(page), { timeout: 60_000 }).toBeGreaterThan(during);
      const exported = await exportedMessages(page);
      expect(exported.length).toBeGreaterThan(during);

      await setStorageFull(page, false);
      await expect(page.getByRole('status').filter({ hasText: 'stored for a reload again' })).toBeVisible({
        timeout: 60_000,
      });
      const kept = await stored(page);
      expect(kept?.unfinished).toBe(true);
      expect(kept?.messages).toBeGreaterThanOrEqual(exported.length);

      await page.getByRole('button', { name: 'Stop' }).click();
      await expect(status(page)).toContainText(/Stopped|Finished/, { timeout: 30_000 });
      await expect(page.locator('[data-stored="true"]')).toBeAttached({ timeout: 30_000 });
      await expect.poll(async () => (await stored(page))?.unfinished, { timeout: 30_000 }).toBe(false);
      expect((await exportedMessages(page)).length).toBe((await stored(page))?.messages);
    });

    test('IndexedDB full when the protocol’s own settings change: said, and stored again once there is room', async ({
      page,
    }) => {
      await installStorageQuota(page);
      await playground.open(page);
      await expect(page.locator('[data-stored="true"]')).toBeAttached({ timeout: 30_000 });
      await setStorageFull(page, true);
      await playground.changeOwnSetting(page);
      const notice = page.getByRole('status').filter({ hasText: 'code and settings could not be stored' });
      await expect(notice).toContainText('storage quota exceeded', { timeout: 30_000 });
      await setStorageFull(page, false);
      await playground.changeOwnSetting(page);
      await expect(
        page.getByRole('status').filter({ hasText: 'code and settings are stored again' }),
      ).toBeVisible({ timeout: 30_000 });
    });
  });
}
