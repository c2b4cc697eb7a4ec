import { expect, test, type Page } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';

/** The replay folder the real MASSim server wrote for the recorded basic run (20 steps, 4 agents). */
const replays = resolve(process.cwd(), '../shared/conformance/massim/basic/server-run/replays');
const replayFolder = resolve(replays, readdirSync(replays)[0]!);

const status = (page: Page) =>
  page.getByRole('status').filter({ hasText: /showing an imported transcript|Opened|Could not/ });

test("the MASSim server's replay folder, opened as a folder, shows its world step by step", async ({
  page,
}) => {
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel(/or a folder/).setInputFiles(replayFolder);
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim', { timeout: 60_000 });
  await expect(status(page).first()).toBeVisible();
  await expect(page.getByRole('toolbar', { name: 'Timeline' })).toContainText('20/20');
  const world = page.getByRole('img', { name: /^World after step/ });
  await expect(world).toHaveAccessibleName(/World after step 19: 20 by 20 cells, 4 agents/);
  await page.getByRole('slider', { name: 'Step shown' }).fill('3');
  await expect(world).toHaveAccessibleName(/World after step 3: 20 by 20 cells/);
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('agentA1');
  const panel = page.getByRole('region', { name: 'Point of view' });
  await expect(panel.getByRole('img', { name: /What the agent perceived/ })).toBeVisible();
});
