import { expect, test } from '@playwright/test';
import {
  exportedMessages,
  ready,
  shownCount,
  stored,
  storedWhileRunning,
  storeWhileRunningEvery,
  WITH_HOOKS,
} from './browser-fault-helpers';
import { configure, messageRows, setPolicyCode, status } from './playground-page';

/**
 * Faults of the browser itself on the RDDLSim playground: a policy that allocates without end, a policy
 * worker that dies, a reload in the middle of a session.
 * Each must be said in the page, and nothing recorded before it may be lost (on show and in the export).
 */

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
  await page.goto(`./${WITH_HOOKS}`);
  await ready(page);
  await storeWhileRunningEvery(page);
  // Animated: many rounds take far longer than the test, so the reload comes in the middle.
  await configure(page, { rounds: 200, fast: false });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Running', { timeout: 30_000 });
  // Stored while it runs, marked unfinished.
  await expect.poll(() => storedWhileRunning(page), { timeout: 60_000 }).toBe(true);
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
