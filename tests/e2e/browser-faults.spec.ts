import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { configure, exportAs, messageRows, setPolicyCode, status } from './playground-page';

/**
 * Faults of the browser itself on the RDDLSim playground: a policy that allocates without end, a policy
 * worker that dies, a reload in the middle of a session, storage over its quota while a session is stored.
 * Each must be said in the page, and nothing recorded before it may be lost (on show and in the export).
 */

async function ready(page: Page): Promise<void> {
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
}

/** The messages of the Protoplay JSON export of what is on show. */
async function exportedMessages(page: Page): Promise<{ type?: string; text?: string }[]> {
  const [file] = await Promise.all([page.waitForEvent('download'), exportAs(page, 'Protoplay JSON')]);
  const json = JSON.parse(readFileSync(await file.path(), 'utf8')) as { messages: { text?: string }[] };
  return json.messages;
}

/** The shown message count of the status line. */
async function shownCount(page: Page): Promise<number> {
  const text = await page.getByText(/^[\d,.]+ messages$/).textContent();
  return Number(text!.replace(/\D/g, ''));
}

/** The transcript the page stored for a reload: its message count, and whether it was marked unfinished. */
function stored(page: Page): Promise<{ messages: number; unfinished: boolean } | undefined> {
  return page.evaluate(
    () =>
      new Promise<{ messages: number; unfinished: boolean } | undefined>((done) => {
        const open = indexedDB.open('keyval-store');
        open.onerror = () => done(undefined);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('keyval')) return done(undefined);
          const store = db.transaction('keyval', 'readonly').objectStore('keyval');
          const blob = store.get('protoplay:last-transcript:v2');
          const flag = store.get('protoplay:unfinished-session:v1');
          flag.onsuccess = () => {
            if (!(blob.result instanceof Blob)) return done(undefined);
            void (blob.result as Blob).text().then((text) => {
              const messages = (JSON.parse(text) as { messages: unknown[] }).messages.length;
              done({ messages, unfinished: flag.result === true });
            });
          };
        };
      }),
  );
}

test('a policy that allocates without end is stopped; the turns before it are kept and exported', async ({
  page,
}) => {
  await page.goto('./');
  await ready(page);
  await configure(page, { rounds: 1, fast: true });
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
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Stopped by an error', { timeout: 60_000 });
  // Growing the heap costs time: the budget stops it (terminating its worker frees the memory), or the
  // browser ends the worker first and the page says so.
  await expect(page.getByRole('alert').filter({ hasText: /policy/ })).toHaveText(
    /^(policy exceeded 1000 ms on round 1, turn 3|the policy runtime stopped: .+)$/,
  );
  await expect(messageRows(page).filter({ hasText: 'r1 t2' }).first()).toBeVisible();
  const messages = await exportedMessages(page);
  expect(messages.length).toBe(await shownCount(page));
  expect(messages.some((m) => m.text?.includes('<turn-num>2</turn-num>'))).toBe(true);

  // A size the browser refuses at once is the policy's own fault, located in its source.
  await setPolicyCode(
    page,
    'export function act() {\n  const big = new Array(2 ** 32);\n  return null;\n}\n',
  );
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'RangeError' })).toHaveText(
    /^policy\.ts:2:\d+: RangeError: Invalid array length$/,
    { timeout: 30_000 },
  );
  // The next policy plays in a worker with its memory back.
  await setPolicyCode(page, 'export function act() {\n  return null;\n}\n');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
});

test('a policy worker that dies mid-session is reported; what was recorded is kept and exported', async ({
  page,
}) => {
  await page.goto('./');
  await ready(page);
  await configure(page, { rounds: 2, fast: true });
  // An error thrown outside any call ends nothing the runtime can catch: the worker reports it to its owner.
  await setPolicyCode(
    page,
    [
      'export function act(observation: Observation): Actions {',
      "  if (observation.turn === 2) setTimeout(() => { throw new Error('worker down'); }, 0);",
      '  return null;',
      '}',
    ].join('\n'),
  );
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Stopped by an error', { timeout: 60_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'worker down' })).toHaveText(
    /^the policy runtime stopped: .*Error: worker down$/,
  );
  await expect(messageRows(page).filter({ hasText: 'r1 t2' }).first()).toBeVisible();
  const messages = await exportedMessages(page);
  expect(messages.length).toBe(await shownCount(page));
  expect(messages.some((m) => m.text?.includes('<turn-num>2</turn-num>'))).toBe(true);
  // A fresh worker plays the next run.
  await setPolicyCode(page, 'export function act() {\n  return null;\n}\n');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
});

test('a reload mid-session shows what was recorded until then and says the session was interrupted', async ({
  page,
}) => {
  await page.goto('./');
  await ready(page);
  // Animated: many rounds take far longer than the test, so the reload comes in the middle.
  await configure(page, { rounds: 200, fast: false });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Running', { timeout: 30_000 });
  // Stored while it runs, marked unfinished.
  await expect.poll(async () => (await stored(page))?.unfinished ?? false, { timeout: 60_000 }).toBe(true);
  const before = (await stored(page))!.messages;
  expect(before).toBeGreaterThan(0);
  await expect(status(page)).toContainText('Running');

  await page.reload();
  await ready(page);
  await expect(page.getByRole('status').filter({ hasText: 'interrupted' })).toContainText(
    'The last session was interrupted',
  );
  await expect(status(page)).toContainText('showing the last session');
  expect(await shownCount(page)).toBeGreaterThanOrEqual(before);
  await expect(messageRows(page).filter({ hasText: 'turn' }).first()).toBeVisible();
  const messages = await exportedMessages(page);
  expect(messages.length).toBe(await shownCount(page));
  for (const tag of ['<session-request>', '<session-init>', '<round-request', '<turn>'])
    expect(messages.some((m) => m.text?.includes(tag))).toBe(true);
  // A session that ends is no longer said to be interrupted after a reload.
  await configure(page, { rounds: 1, fast: true });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
  await expect(page.locator('[data-stored="true"]')).toBeAttached({ timeout: 30_000 });
  await expect.poll(async () => (await stored(page))?.unfinished, { timeout: 30_000 }).toBe(false);
  await page.reload();
  await ready(page);
  await expect(status(page)).toContainText('showing the last session');
  await expect(page.getByRole('status').filter({ hasText: 'interrupted' })).toHaveCount(0);
});

test('storage over its quota while a session is stored: the page says so and offers the export', async ({
  page,
}) => {
  await page.goto('./');
  await ready(page);
  await configure(page, { rounds: 2, fast: true });
  // The browser's real quota, made tiny for this origin: the session worker's IndexedDB writes fail.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(page.url()).origin, quotaSize: 1 });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
  const notice = page.getByRole('status').filter({ hasText: 'not kept for a reload' });
  await expect(notice).toContainText('storage quota exceeded', { timeout: 30_000 });
  await expect(notice).toContainText('Export it to keep it');
  const messages = await exportedMessages(page);
  expect(messages.length).toBe(await shownCount(page));
  expect(messages.some((m) => m.text?.includes('<round-num>2</round-num>'))).toBe(true);
});
