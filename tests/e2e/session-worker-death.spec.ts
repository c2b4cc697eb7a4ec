import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  exportedMessages,
  ready,
  shownCount,
  stored,
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
 * The session worker dying in the middle of a session (crashed, out of memory, stopped by the browser):
 * the page finds out by itself (the worker no longer answers), says so, and what was stored while the
 * session ran opens after a reload. The test stops the real worker from inside: a script prepended to the
 * session worker's module (served by the test) closes the worker's global scope on a broadcast, so it
 * stops at once, answering nothing more, as a crashed worker does.
 *
 * The page takes a worker for dead when its periodic check goes unanswered for half a minute. The page's
 * clock is Playwright's (it runs at the real pace, the workers keep their own), and once the worker is
 * stopped the test moves it on one check interval at a time, so the real check and its real deadline decide
 * without the test waiting half a minute of real time each.
 */

const STOP_CHANNEL = 'protoplay-test-stop-session-worker';

async function installWorkerStop(page: Page): Promise<void> {
  // The page's clock, moved on once the worker is stopped.
  await page.clock.install();
  const script = `new BroadcastChannel(${JSON.stringify(STOP_CHANNEL)}).onmessage = () => self.close();\n`;
  await page.route(/\/assets\/session\.worker[\w.-]*\.js(\?.*)?$/, async (route) => {
    try {
      const response = await route.fetch();
      await route.fulfill({ response, body: script + (await response.text()) });
    } catch (error) {
      if (!page.isClosed()) throw error;
    }
  });
}

/**
 * The start every test shares: the worker made stoppable, the page opened (at `link`, else the default
 * session, set up by `configure`), a long session run until `longEnough` holds, then the worker stopped and
 * the page's clock let pass one check interval (5 s) at a time, each firing the page's due timers once (as
 * when a laptop lid is opened again), until the page says the worker stopped; resolves with that notice.
 */
async function stopWorkerMidSession(
  page: Page,
  session: {
    link?: string;
    configure?: () => Promise<void>;
    longEnough: () => Promise<boolean>;
    /** The session stores its transcript every second while it runs (see `storeWhileRunningEvery`). */
    storesOften?: boolean;
  },
): Promise<Locator> {
  await installWorkerStop(page);
  await page.goto(`./${session.storesOften ? WITH_HOOKS : ''}${session.link ?? ''}`);
  await ready(page);
  if (session.storesOften) await storeWhileRunningEvery(page);
  await session.configure?.();
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Running', { timeout: 30_000 });
  await expect.poll(session.longEnough, { timeout: 60_000 }).toBe(true);

  await page.evaluate((channel) => new BroadcastChannel(channel).postMessage({ stop: true }), STOP_CHANNEL);
  const said = page.getByText(/^The session worker stopped: /);
  // The page's clock runs on until the watchdog has waited its 30 s and says so.
  await expect
    .poll(
      async () => {
        await page.clock.fastForward(5000);
        return said.isVisible();
      },
      { timeout: 90_000 },
    )
    .toBe(true);
  await expect(said).toContainText('did not answer for 30 s');
  return said;
}

/** Animated: the session lasts far longer than the test. */
const longSession = (page: Page) => () => configure(page, { rounds: 200, fast: false });

/** Something of the session is stored for a reload (the store writes while the session runs). */
const somethingStored = (page: Page) => () => storedWhileRunning(page);

test('the session worker dies mid-session: the page says so, and what was stored opens after a reload', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const said = await stopWorkerMidSession(page, {
    configure: longSession(page),
    longEnough: somethingStored(page),
    storesOften: true,
  });
  // Nothing is stored any more once the worker is gone: what is stored now is what a reload shows.
  await expect(said).toContainText('What was stored for a reload is kept');
  await expect(said).toContainText('reload the page to continue');
  await expect(status(page)).toContainText('Stopped by an error');
  const kept = (await stored(page))!;
  expect(kept.unfinished).toBe(true);
  expect(kept.messages).toBeGreaterThan(0);

  await page.reload();
  await ready(page);
  await expect(status(page)).toContainText('showing the last session', { timeout: 30_000 });
  await expect(page.getByRole('status').filter({ hasText: 'interrupted' })).toContainText(
    'The last session was interrupted',
  );
  expect(await shownCount(page)).toBe(kept.messages);
});

test('the session worker dies mid-session: Export still gives the transcript, and says which copy it is', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await stopWorkerMidSession(page, {
    configure: longSession(page),
    longEnough: async () => (await shownCount(page)) > 10,
  });
  const shown = await shownCount(page);

  // Every message the page shows is in the export: the page's own copy, and the page says so.
  const messages = await exportedMessages(page);
  expect(messages.length).toBe(shown);
  expect(messages.some((m) => m.text?.includes('<session-init>'))).toBe(true);
  await expect(
    page.getByRole('status').filter({ hasText: "exported the page's own copy of the transcript" }),
  ).toContainText(`${shown} messages, all the page received`);
});

test('the session worker dies mid-match with the transcript it kept: Export gives the stored copy, and says so', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const data = defaultMassimWorkspace();
  data.settings = { ...data.settings, speed: 'animated', steps: 5000 };
  await stopWorkerMidSession(page, {
    link: `#${massimLinkParameter}=${encodeMassimWorkspace(data)}`,
    configure: () => expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim'),
    longEnough: somethingStored(page),
    storesOften: true,
  });
  const kept = (await stored(page))!;

  // The match stayed in the worker: the copy stored for a reload is exported, whole, and the page says so.
  const messages = await exportedMessages(page);
  expect(messages.length).toBe(kept.messages);
  expect(messages.length).toBeGreaterThan(0);
  await expect(
    page.getByRole('status').filter({ hasText: 'exported the copy stored for a reload' }),
  ).toContainText('its last messages may be missing');
});
