import { expect, test, type Page } from '@playwright/test';
import { setPolicyCode } from './playground-page';
import {
  defaultMassimWorkspace,
  encodeMassimWorkspace,
  massimLinkParameter,
} from '../../src/state/protocols/massim/workspace-data';

/**
 * Compare in the built page: the saved version is kept across reloads, another tab's current code can be
 * the baseline, and for a chosen seed both policies' decisions open side by side with the first difference
 * highlighted and scrolled to. MASSim with small matches, so the first difference is known: a team that
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

/** Finds where the two differ on seed 1 and checks the side-by-side view. */
async function expectDivergenceAtStep15(panel: ReturnType<Page['getByRole']>, labels: [RegExp, RegExp]) {
  await panel.getByLabel('Seed', { exact: true }).fill('1');
  await panel.getByRole('button', { name: 'Find where they differ' }).click();
  const divergence = panel.getByRole('status', { name: 'Divergence' });
  // Step 15 is the 16th decision of the first match (the late mover as team A).
  await expect(divergence).toContainText('On seed 1, the two first differ on round 1, turn 16', {
    timeout: 60_000,
  });
  for (const label of labels) {
    const column = panel.getByRole('region', { name: label });
    await column.scrollIntoViewIfNeeded();
    const first = column.locator('li[aria-current="step"]');
    await expect(first).toHaveCount(1);
    await expect(first).toContainText('round 1, turn 16');
    // Scrolled to: visible although 15 rows come before it in a column that shows fewer.
    await expect(first).toBeInViewport();
  }
  await expect(
    panel.getByRole('region', { name: labels[0] }).locator('li[aria-current="step"]'),
  ).toContainText('"skip"');
  await expect(
    panel.getByRole('region', { name: labels[1] }).locator('li[aria-current="step"]'),
  ).toContainText('"move"');
}

test('the saved version is kept across a reload; Compare opens both decision lists side by side', async ({
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
  await expectDivergenceAtStep15(panel, [/^Decisions of saved version/, /^Decisions of current code/]);
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
  await expectDivergenceAtStep15(panel, [/^Decisions of code of the tab/, /^Decisions of current code/]);
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
