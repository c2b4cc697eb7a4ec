import { expect, test, type Page } from '@playwright/test';
import {
  defaultMassimWorkspace,
  encodeMassimWorkspace,
  massimLinkParameter,
} from '../../src/core/protocols/massim/playground/workspace-data';

/**
 * Evaluate on MASSim in the built page: team A's code plays small matches against team B's code, on both
 * sides of each seed, in Web Workers; a team that never acts scores nothing; a team A that throws is
 * reported with its reason while the evaluation ends.
 */

const SKIP = "export function act() {\n  return { type: 'skip', p: [] };\n}\n";

async function openMassim(page: Page, teamA: string) {
  const data = defaultMassimWorkspace();
  data.settings = { ...data.settings, speed: 'fast', steps: 20, agentsPerTeam: 2, width: 15, height: 15 };
  data.teamA = { code: teamA, language: 'ts', level: 'policy' };
  await page.goto(`./#${massimLinkParameter}=${encodeMassimWorkspace(data)}`);
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
  await page.getByRole('button', { name: 'Evaluate', exact: true }).click();
  return page.getByRole('region', { name: 'Evaluate' });
}

const progressText = (panel: ReturnType<Page['getByRole']>) =>
  panel.getByRole('status').filter({ hasText: /episodes/ });

test('MASSim: Evaluate plays two small matches per seed, one on each side', async ({ page }) => {
  test.setTimeout(180_000);
  const panel = await openMassim(page, SKIP);
  // A seed is always a match on each side: no field to change it.
  await expect(panel.getByLabel('Matches per seed')).toHaveCount(0);
  await panel.getByLabel('First seed').fill('1');
  await panel.getByLabel('Last seed').fill('3');
  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(progressText(panel)).toContainText('3 / 3 episodes – done', { timeout: 120_000 });
  const row = panel
    .getByRole('table', { name: 'Evaluation results' })
    .getByRole('row', { name: /current code/ });
  // 3 seeds x 2 matches, and a team that skips every step scores 0.
  await expect(row.getByRole('cell').first()).toHaveText('6');
  await expect(row.getByRole('cell').nth(1)).toHaveText('0');
  await expect(panel.getByRole('img', { name: 'Histogram of rewards per match' })).toBeVisible();
  await expect(panel.getByRole('list', { name: 'Failures' })).toHaveCount(0);
});

test('MASSim: a team A that throws is reported with its reason', async ({ page }) => {
  test.setTimeout(180_000);
  const panel = await openMassim(
    page,
    "export function act(percept: Percept, agent: Agent): Action {\n  if (agent.step === 3) throw new Error('team A broke');\n  return { type: 'skip', p: [] };\n}\n",
  );
  await panel.getByLabel('Last seed').fill('2');
  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(panel.getByRole('list', { name: 'Failures' })).toContainText(
    /current code: fault on seed 1: team-a\.ts:2:\d+: Error: team A broke/,
    { timeout: 120_000 },
  );
  await expect(progressText(panel)).toContainText('– done', { timeout: 120_000 });
});
