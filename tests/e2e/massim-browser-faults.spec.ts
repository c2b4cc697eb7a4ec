import { expect, test, type Page } from '@playwright/test';
import {
  exportedMessages,
  ready,
  shownMessages,
  stored,
  storedWhileRunning,
  storeWhileRunningEvery,
  WITH_HOOKS,
} from './browser-fault-helpers';
import {
  defaultMassimWorkspace,
  encodeMassimWorkspace,
  massimLinkParameter,
} from '../../src/core/protocols/massim/playground/workspace-data';

/**
 * Faults of the browser itself on the MASSim playground: a team policy that allocates without end, a
 * team's policy worker that dies, a reload in the middle of a match, two tabs on the same exercise. Each
 * must be said in the page, and nothing recorded before it may be lost (on show and in the export).
 */

const status = (page: Page) =>
  page.getByRole('status').filter({ hasText: /Ready|Running|Paused|Finished|Stopped/ });
const timeline = (page: Page) => page.getByRole('toolbar', { name: 'Timeline' });

/** Opens MASSim with team A's code; `speed` and `steps` of the match settings. */
async function openMassim(
  page: Page,
  code: string | undefined,
  speed: 'fast' | 'animated',
  steps: number,
  search = '',
) {
  const data = defaultMassimWorkspace();
  if (code !== undefined) data.teamA = { code, language: 'ts', level: 'policy' };
  data.settings = { ...data.settings, speed, steps };
  await page.goto(`./${search}#${massimLinkParameter}=${encodeMassimWorkspace(data)}`);
  await ready(page);
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
}

/** Every frame of the export that is a request-action, by step. */
function requestSteps(messages: { text?: string }[]): Set<number> {
  const steps = new Set<number>();
  for (const m of messages) {
    const step = /^\{"type":"request-action","content":\{"step":(\d+)/.exec(m.text ?? '');
    if (step) steps.add(Number(step[1]));
  }
  return steps;
}

test('a team policy that allocates without end is stopped; the steps before it are kept and exported', async ({
  page,
}) => {
  await openMassim(
    page,
    [
      'const hoard: number[][] = [];',
      'export function act(percept: Percept, agent: Agent, team: Team): Action {',
      '  if (agent.step === 3) for (;;) hoard.push(new Array(1e6).fill(1));',
      "  return { type: 'skip', p: [] };",
      '}',
    ].join('\n'),
    'fast',
    20,
  );
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Stopped by an error', { timeout: 60_000 });
  // The budget stops it (terminating its worker frees the memory), or the browser ends the worker first.
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: /team A/ })
      .first(),
  ).toHaveText(/^team A: (policy exceeded 1000 ms on step 3|the policy runtime stopped: .+)$/);
  const messages = await exportedMessages(page);
  expect(messages.length).toBe(await shownMessages(page));
  for (const step of [0, 1, 2, 3]) expect(requestSteps(messages).has(step)).toBe(true);
  // The next match plays with its memory back.
  await page.getByRole('tab', { name: 'Team A' }).click();
  await page.getByRole('group', { name: 'Sample policies' }).getByRole('button', { name: 'Skip' }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
});

test("a team's policy worker that dies mid-match is reported; what was recorded is kept and exported", async ({
  page,
}) => {
  await openMassim(
    page,
    [
      'export function act(percept: Percept, agent: Agent, team: Team): Action {',
      "  if (agent.step === 2) setTimeout(() => { throw new Error('worker down'); }, 0);",
      "  return { type: 'skip', p: [] };",
      '}',
    ].join('\n'),
    'fast',
    20,
  );
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Stopped by an error', { timeout: 60_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'worker down' }).first()).toHaveText(
    /^team A: the policy runtime stopped: .*Error: worker down$/,
  );
  const messages = await exportedMessages(page);
  expect(messages.length).toBe(await shownMessages(page));
  for (const step of [0, 1, 2]) expect(requestSteps(messages).has(step)).toBe(true);
  // The page stores what was recorded, and says nothing is left to store.
  await expect(page.locator('[data-stored="true"]')).toBeAttached({ timeout: 30_000 });
  expect((await stored(page))?.messages).toBe(messages.length);
});

test('a reload mid-match shows what was recorded until then and says the match was interrupted', async ({
  page,
}) => {
  // Animated and long: the reload comes in the middle.
  await openMassim(page, undefined, 'animated', 5000, WITH_HOOKS);
  await storeWhileRunningEvery(page);
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Running', { timeout: 30_000 });
  await expect.poll(() => storedWhileRunning(page), { timeout: 60_000 }).toBe(true);
  const before = (await stored(page))!.messages;
  expect(before).toBeGreaterThan(0);

  await page.reload();
  await ready(page);
  await expect(page.getByRole('status').filter({ hasText: 'interrupted' })).toContainText(
    'The last session was interrupted',
  );
  await expect(timeline(page)).toContainText(/Step \d+/, { timeout: 30_000 });
  const messages = await exportedMessages(page);
  expect(messages.length).toBeGreaterThanOrEqual(before);
  expect(requestSteps(messages).has(0)).toBe(true);
});

test('two tabs on one exercise: a MASSim match setting changed in one is heard in the other', async ({
  context,
}) => {
  const page = await context.newPage();
  await page.goto('./#exercise=massim-two-tabs');
  await ready(page);
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption('massim');
  await expect(page.locator('[data-stored="true"]')).toBeAttached({ timeout: 30_000 });
  const other = await context.newPage();
  await other.goto('./#exercise=massim-two-tabs');
  await ready(other);
  await expect(other.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
  const warning = other.getByRole('status').filter({ hasText: 'also open in another tab' });
  await expect(warning).toHaveCount(0);

  // Only MASSim's own part of the workspace changes: its match settings.
  await page.getByText('Match settings').click();
  const steps = page.getByRole('spinbutton', { name: 'Steps', exact: true });
  await steps.fill('123');
  await steps.press('Tab');
  await expect(warning).toBeVisible({ timeout: 30_000 });
  await expect(warning).toContainText('export here to keep this tab’s');
});
