import { expect, test, type Page } from '@playwright/test';
import { setPolicyCode } from './playground-page';
import {
  defaultMassimWorkspace,
  encodeMassimWorkspace,
  massimLinkParameter,
} from '../../src/core/protocols/massim/playground/workspace-data';

/**
 * Compare in the built page: the saved version is kept across reloads, another tab's current code can be
 * the baseline, and for a chosen seed both policies' transcripts open side by side with the first difference
 * highlighted and scrolled to, N and P stepping between the differences. MASSim with small matches, so the first difference is known: a team that
 * skips, against one that skips until step 15 and then moves.
 */

const SKIP = "export function act() {\n  return { type: 'skip', p: [] };\n}\n";
const LATE_MOVER =
  "export function act(percept: Percept, agent: Agent): Action {\n  if (agent.step < 15) return { type: 'skip', p: [] };\n  return { type: 'move', p: ['n'] };\n}\n";

function link(teamA: string): string {
  const data = defaultMassimWorkspace();
  data.settings = { ...data.settings, speed: 'fast', steps: 20, agentsPerTeam: 2, width: 15, height: 15 };
  data.teamA = { code: teamA, language: 'ts', level: 'policy' };
  return `./#${massimLinkParameter}=${encodeMassimWorkspace(data)}`;
}

async function openEvaluate(page: Page, teamA: string) {
  await page.goto(link(teamA));
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  return page.getByRole('region', { name: 'Evaluate' });
}

const progressText = (panel: ReturnType<Page['getByRole']>) =>
  panel.getByRole('status').filter({ hasText: /episodes/ });

/**
 * Finds where the two differ on seed 1 and checks the side-by-side view: both matches' transcripts of the
 * seed, the first match on show, its first different action (agent A1 at step 15) highlighted and
 * scrolled to; N and P step between the differences (agent A2 at the same step, then later steps).
 */
async function expectDivergenceAtStep15(panel: ReturnType<Page['getByRole']>, labels: [RegExp, RegExp]) {
  await panel.getByLabel('Seed', { exact: true }).fill('1');
  await panel.getByRole('button', { name: 'Find where they differ' }).click();
  const divergence = panel.getByRole('status', { name: 'Divergence' });
  // Step 15 is the 16th decision of the first match (the late mover as team A).
  await expect(divergence).toContainText('On seed 1, the two first differ on round 1, turn 16', {
    timeout: 60_000,
  });
  const view = panel.getByRole('region', { name: 'Transcripts side by side' });
  await expect(view).toHaveAttribute('data-session', '1');
  await expect(view.getByLabel('Match')).toHaveValue('0');
  for (const label of labels) await expect(view.getByRole('heading', { name: label })).toBeVisible();
  const first = view.locator('[data-first-difference]');
  await expect(first).toHaveCount(1);
  await expect(first).toBeInViewport();
  // Both sides' messages at that place, rendered as the message log renders them.
  await expect(first.locator('.side-0')).toContainText(/action\s*r1 t15\s*skip/);
  await expect(first.locator('.side-1')).toContainText(/action\s*r1 t15\s*move/);
  const status = view.getByRole('status', { name: 'Difference' });
  await expect(status).toContainText(/^Difference 1 of \d+: round 1, turn 15$/);
  const total = Number(/of (\d+)/.exec((await status.textContent()) ?? '')![1]);
  // Both agents of the late mover's team move at steps 15 to 19.
  expect(total).toBe(10);

  // The keyboard: N to the next difference (the other agent, same step), N again to step 16, P back.
  const list = view.getByRole('listbox', { name: 'Messages of both transcripts' });
  await list.focus();
  await list.press('n');
  await expect(status).toContainText('Difference 2 of 10: round 1, turn 15');
  await list.press('n');
  await expect(status).toContainText('Difference 3 of 10: round 1, turn 16');
  const selected = list.locator('[role="option"][aria-selected="true"]');
  await expect(selected).toBeInViewport();
  await expect(selected.locator('[data-difference]')).toHaveCount(1);
  await expect(selected.locator('.side-1')).toContainText(/r1 t16\s*move/);
  await list.press('p');
  await list.press('p');
  await expect(status).toContainText('Difference 1 of 10: round 1, turn 15');
  await expect(view.getByRole('button', { name: /Previous difference/ })).toBeDisabled();
  // The selected row's messages in full, each side's own.
  await expect(view.getByRole('group', { name: /^Message of / }).first()).toContainText('"skip"');
  await expect(view.getByRole('group', { name: /^Message of / }).nth(1)).toContainText('"move"');
}

test('the saved version is kept across a reload; Compare opens both transcripts side by side', async ({
  page,
}) => {
  test.setTimeout(240_000);
  let panel = await openEvaluate(page, SKIP);
  await panel.getByRole('button', { name: 'Save version' }).click();
  await expect(panel.getByText(/^Saved version: saved at/)).toBeVisible();

  // The page loaded again, with other code: the saved version is still offered.
  await page.goto('about:blank');
  panel = await openEvaluate(page, LATE_MOVER);
  await expect(panel.getByText(/^Saved version: saved at/)).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByLabel('Compare with')).toHaveValue('saved');
  await panel.getByLabel('First seed').fill('1');
  await panel.getByLabel('Last seed').fill('2');
  await panel.getByRole('button', { name: 'Compare' }).click();
  await expect(progressText(panel)).toContainText('4 / 4 episodes – done', { timeout: 120_000 });
  const results = panel.getByRole('table', { name: 'Evaluation results' });
  await expect(
    results
      .getByRole('row', { name: /saved version/ })
      .getByRole('cell')
      .first(),
  ).toHaveText('4');
  await expect(panel.getByRole('status', { name: 'Verdict' })).toContainText('4 matches on 2 seeds');
  await expectDivergenceAtStep15(panel, [/^saved version/, /^current code/]);
});

test("another tab's current code is a Compare baseline", async ({ context }) => {
  test.setTimeout(240_000);
  const other = await context.newPage();
  await other.goto(link(SKIP));
  await expect(other.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });

  const page = await context.newPage();
  const panel = await openEvaluate(page, LATE_MOVER);
  const choice = panel.getByLabel('Compare with');
  await expect(choice.locator('option', { hasText: /the code of the tab opened at/ })).toHaveCount(1, {
    timeout: 30_000,
  });
  const value = await choice
    .locator('option', { hasText: /the code of the tab opened at/ })
    .getAttribute('value');
  await choice.selectOption(value!);
  await panel.getByLabel('First seed').fill('1');
  await panel.getByLabel('Last seed').fill('2');
  await panel.getByRole('button', { name: 'Compare' }).click();
  await expect(progressText(panel)).toContainText('4 / 4 episodes – done', { timeout: 120_000 });
  const results = panel.getByRole('table', { name: 'Evaluation results' });
  await expect(
    results
      .getByRole('row', { name: /code of the tab opened at/ })
      .getByRole('cell')
      .first(),
  ).toHaveText('4');
  // The other tab's code is the one that skips throughout.
  await expectDivergenceAtStep15(panel, [/^code of the tab/, /^current code/]);
});

test('a policy whose allocation fails is reported with the reason; the other policy goes on', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('group', { name: 'Sample policies' }).getByRole('button', { name: 'Noop' }).click();
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Evaluate' });
  await panel.getByRole('button', { name: 'Save version' }).click();
  await setPolicyCode(
    page,
    [
      'export function act(observation: Observation): Actions {',
      '  if (observation.turn === 2) (globalThis as any).kept = new ArrayBuffer(2 ** 45);',
      '  return null;',
      '}',
    ].join('\n'),
  );
  await panel.getByLabel('First seed').fill('1');
  await panel.getByLabel('Last seed').fill('4');
  await panel.getByRole('button', { name: 'Compare' }).click();
  await expect(panel.getByRole('list', { name: 'Failures' })).toContainText(
    /current code: fault on seed \d: policy\.ts:2:\d+: RangeError: (Invalid array buffer length|Array buffer allocation failed)/,
    { timeout: 120_000 },
  );
  await expect(progressText(panel)).toContainText('– done', { timeout: 120_000 });
  // The saved version played every seed.
  await expect(
    panel
      .getByRole('table', { name: 'Evaluation results' })
      .getByRole('row', { name: /saved version/ })
      .getByRole('cell')
      .first(),
  ).toHaveText('4');
});
