import { expect, test, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { editor, messageRows, setPolicyCode } from './playground-page';

/**
 * RDDLSim's Compare in the built page, down to the transcripts: a noop saved, a policy that reboots the
 * server on turn 4 of each round as the current code; for a chosen seed both sessions' transcripts open
 * side by side, every message of both, the first different action highlighted and scrolled to, N and P
 * stepping between differences; each side exports as a file and opens in the message log; at phone width
 * one column shows at a time, with a switch; the message-type filter hides rows by type, by keyboard.
 */

const REBOOT_ON_TURN_4 = [
  'export function act(observation: Observation): Actions {',
  "  return observation.turn === 4 ? { name: 'reboot', args: ['server'] } : null;",
  '}',
].join('\n');

// Not the verdict, which also counts episodes when GAMA's unit is the episode.
const progressText = (panel: ReturnType<Page['getByRole']>) =>
  panel.getByRole('status').filter({ hasText: /^\d+ \/ \d+ episodes/ });

/** Compares the noop (saved) with the rebooting policy on seeds 1 and 2, two rounds each; opens seed 2. */
async function compareAndOpenSeed2(page: Page) {
  await page.goto('./');
  await editor(page);
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('group', { name: 'Sample policies' }).getByRole('button', { name: 'Noop' }).click();
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Evaluate' });
  await panel.getByRole('button', { name: 'Save version' }).click();
  await expect(panel.getByText(/^Saved version: saved at/)).toBeVisible();
  await setPolicyCode(page, REBOOT_ON_TURN_4);
  await panel.getByLabel('First seed').fill('1');
  await panel.getByLabel('Last seed').fill('2');
  await panel.getByLabel('Rounds per seed').fill('2');
  await panel.getByRole('button', { name: 'Compare' }).click();
  await expect(progressText(panel)).toContainText('4 / 4 episodes – done', { timeout: 120_000 });
  await panel.getByLabel('Seed', { exact: true }).fill('2');
  await panel.getByRole('button', { name: 'Find where they differ' }).click();
  await expect(panel.getByRole('status', { name: 'Divergence' })).toContainText(
    'On seed 2, the two first differ on round 1, turn 4',
    { timeout: 60_000 },
  );
  const view = panel.getByRole('region', { name: 'Transcripts side by side' });
  // Both transcripts are read and lined up in a worker: the view says when it is done.
  await expect(view).toHaveAttribute('aria-busy', 'false', { timeout: 60_000 });
  return { panel, view };
}

test('both transcripts side by side, the first different action highlighted; N and P; export and open', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const { view } = await compareAndOpenSeed2(page);
  // Every message of both sessions: the session's start, both rounds' turns and actions, its end.
  const heads = view.locator('.head');
  const counts = await heads.allTextContents();
  const sizes = counts.map((text) => Number(/(\d+) messages/.exec(text)![1]));
  expect(sizes[0]).toBeGreaterThan(40);
  expect(sizes[1]).toBe(sizes[0]);
  const list = view.getByRole('listbox', { name: 'Messages of both transcripts' });
  await expect(list.getByRole('option').first()).toHaveAttribute('aria-setsize', String(sizes[0]));

  const first = view.locator('[data-first-difference]');
  await expect(first).toBeInViewport();
  await expect(first.locator('.side-0')).toContainText(/C→S\s*actions\s*r1 t4\s*noop/);
  await expect(first.locator('.side-1')).toContainText(/C→S\s*actions\s*r1 t4\s*reboot/);
  const status = view.getByRole('status', { name: 'Difference' });
  await expect(status).toContainText('Difference 1 of 2: round 1, turn 4');

  // By keyboard: N to round 2's turn 4 (scrolled to), P back; arrows move row by row.
  await list.focus();
  await page.keyboard.press('n');
  await expect(status).toContainText('Difference 2 of 2: round 2, turn 4');
  const selected = list.locator('[role="option"][aria-selected="true"]');
  await expect(selected).toBeInViewport();
  await expect(selected.locator('.side-1')).toContainText(/r2 t4\s*reboot/);
  await expect(view.getByRole('button', { name: /Next difference/ })).toBeDisabled();
  await page.keyboard.press('p');
  await expect(status).toContainText('Difference 1 of 2: round 1, turn 4');
  await page.keyboard.press('ArrowDown');
  await expect(status).toHaveText('2 differences');
  // The row after the action: the server's next turn, on both sides, shown in full below.
  await expect(selected.locator('.side-0')).toContainText(/S→C\s*turn\s*r1 t5/);
  await expect(view.getByRole('group', { name: 'Message of current code' })).toContainText(
    '<turn-num>5</turn-num>',
  );

  // Export: the current code's transcript as a Protoplay JSON file naming the policy and the seed.
  const download = page.waitForEvent('download');
  await view.getByRole('button', { name: 'Export the transcript of current code' }).click();
  const file = JSON.parse(await readFile((await (await download).path())!, 'utf8')) as {
    format: string;
    meta: Record<string, unknown>;
    messages: unknown[];
  };
  expect(file.format).toBe('protoplay-transcript');
  expect(file.meta).toMatchObject({ seed: 2, policy: 'current code' });
  expect(file.messages).toHaveLength(sizes[1]!);

  // Open: the saved version's transcript in the page's message log, as an imported one.
  await view.getByRole('button', { name: /Open the transcript of saved version/ }).click();
  await expect(page.getByText(/Opened the transcript of saved version .*, seed 2/)).toBeVisible();
  await expect(messageRows(page).first()).toBeAttached({ timeout: 30_000 });
  await expect(messageRows(page).first()).toHaveAttribute('aria-setsize', String(sizes[0]));
});

test('at phone width one column shows at a time, with a switch; the type filter works by keyboard', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const { view } = await compareAndOpenSeed2(page);
  const first = view.locator('[data-first-difference]');
  await expect(first).toBeInViewport();
  await expect(first.locator('.side-0')).toBeVisible();
  await expect(first.locator('.side-1')).toBeHidden();
  await expect(first).toContainText('noop');
  await view.getByRole('radio', { name: 'current code' }).check();
  await expect(first.locator('.side-0')).toBeHidden();
  await expect(first.locator('.side-1')).toBeVisible();
  await expect(first.locator('.side-1')).toContainText('reboot');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // The message-type filter, by keyboard: hiding the server's turns leaves the other rows, and N / P still
  // step through the differences (the actions).
  const list = view.getByRole('listbox', { name: 'Messages of both transcripts' });
  const setSize = async () => Number(await list.getByRole('option').first().getAttribute('aria-setsize'));
  const allRows = await setSize();
  const filter = view.locator('summary', { hasText: 'Filter' });
  await filter.focus();
  await page.keyboard.press('Enter');
  const turns = view.getByRole('checkbox', { name: 'turn', exact: true });
  await expect(turns).toBeChecked();
  await turns.focus();
  await page.keyboard.press('Space');
  await expect(turns).not.toBeChecked();
  await expect(filter).toContainText('1 hidden');
  await expect.poll(setSize).toBeLessThan(allRows);
  const shownRows = await setSize();
  await expect(view.getByText(`${shownRows} of ${allRows} rows`)).toBeVisible();
  await expect(list.getByRole('option').filter({ hasText: /S→C\s*turn\b/ })).toHaveCount(0);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  const status = view.getByRole('status', { name: 'Difference' });
  await list.focus();
  await page.keyboard.press('n');
  await expect(status).toContainText('Difference 2 of 2: round 2, turn 4');
  await expect(list.locator('[role="option"][aria-selected="true"] .side-1')).toContainText(/r2 t4\s*reboot/);
  // Hiding the actions too leaves no difference in view; showing all again brings every row back.
  const actions = view.getByRole('checkbox', { name: 'actions', exact: true });
  await actions.focus();
  await page.keyboard.press('Space');
  await expect(status).toHaveText('No differences in the message types shown.');
  await actions.focus();
  await page.keyboard.press('Space');
  await turns.focus();
  await page.keyboard.press('Space');
  await expect.poll(setSize).toBe(allRows);
  await expect(filter).not.toContainText('hidden');
});

/** Saves the `saved` sample, switches to `current`, compares on seeds 1..2 and opens seed 1 side by side. */
async function compareSamples(page: Page, saved: string, current: string) {
  const samples = page.getByRole('group', { name: 'Sample policies' });
  await samples.getByRole('button', { name: saved, exact: true }).click();
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Evaluate' });
  await panel.getByRole('button', { name: 'Save version' }).click();
  await expect(panel.getByText(/^Saved version: saved at/)).toBeVisible();
  await samples.getByRole('button', { name: current, exact: true }).click();
  await panel.getByLabel('First seed').fill('1');
  await panel.getByLabel('Last seed').fill('2');
  await panel.getByRole('button', { name: 'Compare' }).click();
  await expect(progressText(panel)).toContainText('4 / 4 episodes – done', { timeout: 120_000 });
  await panel.getByLabel('Seed', { exact: true }).fill('1');
  await panel.getByRole('button', { name: 'Find where they differ' }).click();
  const view = panel.getByRole('region', { name: 'Transcripts side by side' });
  await expect(view.locator('[data-first-difference]')).toBeInViewport({ timeout: 60_000 });
  return view;
}

test('aisys: the HTTP exchanges of both sessions side by side, the first other answer highlighted', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption('aisys');
  const view = await compareSamples(page, 'Take one', 'Perfect Nim');
  const first = view.locator('[data-first-difference]');
  // The policies answer the server's action requests: the client's PUTs differ, never before the first.
  await expect(first.locator('.side-0')).toContainText(/C→S\s*act/);
  await expect(first.locator('.side-1')).toContainText(/C→S\s*act/);
  const status = view.getByRole('status', { name: 'Difference' });
  await expect(status).toContainText(/^Difference 1 of \d+: row \d+$/);
  const list = view.getByRole('listbox', { name: 'Messages of both transcripts' });
  await list.focus();
  await page.keyboard.press('n');
  await expect(status).toContainText(/^Difference 2 of \d+/);
});

test('GAMA: the policy answers as the server; its replies are what differ', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption('gama');
  await page.getByRole('combobox', { name: 'Scenario' }).selectOption('C_basic_single_entrance_region');
  const cycles = page.getByRole('spinbutton', { name: 'Cycles' });
  await cycles.fill('10');
  await cycles.press('Tab');
  const view = await compareSamples(page, 'Random', 'Greedy');
  const first = view.locator('[data-first-difference]');
  await expect(first.locator('.side-0')).toContainText(/S→C\s*reply\s*r1 t\d+\s*Scav\. \d+/);
  await expect(first.locator('.side-1')).toContainText(/S→C\s*reply\s*r1 t\d+\s*Scav\. \d+/);
  await expect(view.getByRole('status', { name: 'Difference' })).toContainText(
    /^Difference 1 of \d+: round 1, turn \d+$/,
  );
});

test('a policy that fails on the seed: both transcripts up to its failure, the failure said', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto('./');
  await editor(page);
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('group', { name: 'Sample policies' }).getByRole('button', { name: 'Noop' }).click();
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Evaluate' });
  await panel.getByRole('button', { name: 'Save version' }).click();
  await expect(panel.getByText(/^Saved version: saved at/)).toBeVisible();
  await setPolicyCode(
    page,
    [
      'export function act(observation: Observation): Actions {',
      "  if (observation.turn === 3) throw new Error('boom at turn 3');",
      '  return null;',
      '}',
    ].join('\n'),
  );
  await panel.getByLabel('First seed').fill('1');
  await panel.getByLabel('Last seed').fill('1');
  await panel.getByRole('button', { name: 'Compare' }).click();
  await expect(progressText(panel)).toContainText('– done', { timeout: 120_000 });
  await panel.getByRole('button', { name: 'Find where they differ' }).click();
  await expect(panel.getByRole('status', { name: 'Divergence' })).toContainText(
    /On seed 1, current code failed on this seed: policy\.ts:2:\d+: Error: boom at turn 3/,
    { timeout: 60_000 },
  );
  const view = panel.getByRole('region', { name: 'Transcripts side by side' });
  const first = view.locator('[data-first-difference]');
  await expect(first).toBeInViewport();
  // The noop acted on turn 3; the failing policy sent nothing there: its session ended.
  await expect(first.locator('.side-0')).toContainText(/C→S\s*actions\s*r1 t3\s*noop/);
  await expect(first.locator('.side-1')).not.toContainText('actions');
  const sizes = (await view.locator('.head').allTextContents()).map((text) =>
    Number(/(\d+) messages/.exec(text)![1]),
  );
  expect(sizes[1]).toBeGreaterThan(0);
  expect(sizes[1]).toBeLessThan(sizes[0]!);
});
