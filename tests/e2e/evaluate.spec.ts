import { expect, test, type Page } from '@playwright/test';
import { GATE_RDDL } from '../cli/protocols/rddlsim/gate-domain';
import { editor, setPolicyCode } from './playground-page';

/**
 * Evaluate and Compare on RDDLSim in the built page: many seeds in Web Workers, the summary, the
 * histogram; a saved version compared with the current code on the same seeds, with the verdict, both
 * curves and the first decision where they part; Cancel keeping what ended; a looping policy stopped by
 * its budget; and all of it by keyboard on a phone-width screen. The same panel evaluates GAMA episodes.
 */

async function openEvaluate(page: Page) {
  await page.goto('./');
  await editor(page);
  const toggle = page.getByRole('button', { name: 'Evaluate', exact: true });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  return page.getByRole('region', { name: 'Evaluate' });
}

const progressText = (panel: ReturnType<Page['getByRole']>) =>
  panel.getByRole('status').filter({ hasText: /episodes/ });

test('Evaluate, then Compare a saved version with the current code, and find where they differ', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const panel = await openEvaluate(page);
  await page.getByRole('group', { name: 'Sample policies' }).getByRole('button', { name: 'Noop' }).click();

  await panel.getByLabel('First seed').fill('1');
  await panel.getByLabel('Last seed').fill('8');
  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(progressText(panel)).toContainText('8 / 8 episodes – done', { timeout: 90_000 });
  const results = panel.getByRole('table', { name: 'Evaluation results' });
  const current = results.getByRole('row', { name: /current code/ });
  await expect(current.getByRole('cell').first()).toHaveText('8');
  await expect(current.getByRole('cell').nth(2)).toHaveText(/^\[-?[\d.]+, -?[\d.]+\]$/);
  const histogram = panel.getByRole('img', { name: /Histogram of rewards per round/ });
  expect(await histogram.locator('rect').count()).toBeGreaterThan(0);

  // Save the noop, switch to the heuristic, compare on the same seeds.
  await panel.getByRole('button', { name: 'Save version' }).click();
  await expect(panel.getByText(/^Saved version: saved at/)).toBeVisible();
  await page
    .getByRole('group', { name: 'Sample policies' })
    .getByRole('button', { name: 'Heuristic' })
    .click();
  await panel.getByRole('button', { name: 'Compare' }).click();
  await expect(progressText(panel)).toContainText('16 / 16 episodes – done', { timeout: 90_000 });
  await expect(
    results
      .getByRole('row', { name: /saved version/ })
      .getByRole('cell')
      .first(),
  ).toHaveText('8');
  await expect(
    results
      .getByRole('row', { name: /current code/ })
      .getByRole('cell')
      .first(),
  ).toHaveText('8');
  const verdict = panel.getByRole('status', { name: 'Verdict' });
  await expect(verdict).toContainText(
    /is better by .* per round, p|no detectable difference with 8 rounds|no difference/,
  );
  await expect(verdict).toContainText('8 rounds on 8 seeds');
  const curves = panel.getByRole('img', { name: 'Reward per seed of each policy' });
  await expect(curves.locator('path.curve')).toHaveCount(2);

  await panel.getByLabel('Seed', { exact: true }).fill('3');
  await panel.getByRole('button', { name: 'Find where they differ' }).click();
  const divergence = panel.getByRole('status', { name: 'Divergence' });
  await expect(divergence).toContainText(
    /On seed 3, (the two first differ on round \d+, turn \d+|both took the same)/,
    {
      timeout: 60_000,
    },
  );
  // The saved version is the noop: wherever they differ, it did nothing.
  if (/first differ/.test((await divergence.textContent()) ?? ''))
    await expect(divergence.locator('dd').first()).toHaveText('[]');
});

test('Cancel keeps what ended; a looping policy is stopped by its budget', async ({ page }) => {
  test.setTimeout(180_000);
  const panel = await openEvaluate(page);
  await page.getByRole('group', { name: 'Sample policies' }).getByRole('button', { name: 'Noop' }).click();
  await panel.getByLabel('Last seed').fill('5000');
  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(progressText(panel)).toContainText(/^[1-9]\d* \/ 5000 episodes/, { timeout: 90_000 });
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(progressText(panel)).toContainText('cancelled');
  const ended = Number(/^(\d+)/.exec((await progressText(panel).textContent()) ?? '')![1]);
  expect(ended).toBeGreaterThan(0);
  expect(ended).toBeLessThan(5000);
  const row = panel
    .getByRole('table', { name: 'Evaluation results' })
    .getByRole('row', { name: /current code/ });
  expect(Number(await row.getByRole('cell').first().textContent())).toBeGreaterThanOrEqual(1);

  await setPolicyCode(
    page,
    [
      'export function act(observation: Observation): Actions {',
      '  if (observation.turn === 2) while (true) {}',
      '  return null;',
      '}',
    ].join('\n'),
  );
  await panel.getByLabel('Last seed').fill('2');
  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(panel.getByRole('list', { name: 'Failures' })).toContainText(
    /current code: timeout on seed [12]: a call took longer than its budget of \d+ ms on round 1, turn 2/,
    { timeout: 90_000 },
  );
  await expect(progressText(panel)).toContainText('2 / 2 episodes – done');
});

test('by keyboard on a phone-width screen; rounds the server ended early are counted with the reason', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const panel = await openEvaluate(page);
  // A domain whose no-op breaks the action precondition on turn 3: the server ends every round there.
  await page
    .getByLabel('Open RDDL file(s)…')
    .setInputFiles({ name: 'gate.rddl', mimeType: 'text/plain', buffer: Buffer.from(GATE_RDDL) });
  await expect(page.getByRole('status').filter({ hasText: 'Opened gate.rddl' })).toBeVisible();
  await page.getByRole('tablist', { name: 'Editor files' }).getByRole('tab', { name: 'Policy' }).click();
  await page.getByRole('group', { name: 'Sample policies' }).getByRole('button', { name: 'Noop' }).click();
  const last = panel.getByLabel('Last seed');
  await last.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('4');
  // Enter in the form runs the evaluation.
  await page.keyboard.press('Enter');
  await expect(progressText(panel)).toContainText('4 / 4 episodes – done', { timeout: 90_000 });
  const early = panel.getByRole('list', { name: 'Ended early' });
  await expect(early).toContainText('current code: 4 of 4 rounds ended early');
  await expect(early).toContainText(
    '4 rounds (first seed 1, round 1): action precondition is false: t < 2 | press (line 9)',
  );
  await expect(panel.getByRole('img', { name: /Histogram/ })).toBeInViewport({ ratio: 0.1 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // Close is reachable by Tab and closes the panel.
  await panel.getByRole('button', { name: 'Close Evaluate' }).focus();
  await page.keyboard.press('Enter');
  await expect(panel).toHaveCount(0);
});

test('GAMA scavengers: Evaluate episodes of the scenario in the same panel', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption('gama');
  await page.getByRole('combobox', { name: 'Scenario' }).selectOption('C_basic_single_entrance_region');
  const cycles = page.getByRole('spinbutton', { name: 'Cycles' });
  await cycles.fill('30');
  await cycles.press('Tab');
  await page.getByRole('button', { name: 'Greedy' }).click();
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Evaluate' });
  await expect(panel.getByLabel('Episodes per seed')).toBeVisible();
  await panel.getByLabel('Last seed').fill('3');
  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(progressText(panel)).toContainText('3 / 3 episodes – done', { timeout: 120_000 });
  const row = panel
    .getByRole('table', { name: 'Evaluation results' })
    .getByRole('row', { name: /current code/ });
  await expect(row.getByRole('cell').first()).toHaveText('3');
  await expect(panel.getByRole('img', { name: 'Histogram of rewards per episode' })).toBeVisible();
});
