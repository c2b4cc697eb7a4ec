import { expect, test, type Page } from '@playwright/test';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Folders dragged onto the page from the desktop. Chromium's DevTools protocol drags real paths the way
 * the operating system does, so the page meets a real folder entry (`webkitGetAsEntry`) and walks it, as
 * it does for a user's drop: every file under the folder is imported together.
 */
const conformance = resolve(process.cwd(), '../shared/conformance');
const replays = join(conformance, 'massim/basic/server-run/replays');

async function dragAndDrop(page: Page, paths: string[], beforeDrop?: () => Promise<void>) {
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: paths, dragOperationsMask: 1 };
  await cdp.send('Input.dispatchDragEvent', { type: 'dragEnter', x: 300, y: 300, data });
  await cdp.send('Input.dispatchDragEvent', { type: 'dragOver', x: 300, y: 300, data });
  await beforeDrop?.();
  // A real drag goes on sending dragover while it waits over the page (now over its drop overlay).
  await cdp.send('Input.dispatchDragEvent', { type: 'dragOver', x: 310, y: 310, data });
  await cdp.send('Input.dispatchDragEvent', { type: 'drop', x: 310, y: 310, data });
  await cdp.detach();
}

test.beforeEach(async ({ page }) => {
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 60_000 });
});

test("the MASSim server's replay folder dropped on the page opens as the match it recorded", async ({
  page,
}) => {
  await dragAndDrop(page, [join(replays, readdirSync(replays)[0]!)], async () => {
    // While the folder is over the page, the page says what a drop does.
    await expect(page.getByText('Drop the files to import them')).toBeVisible();
  });
  await expect(page.getByText('Drop the files to import them')).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim', { timeout: 60_000 });
  await expect(page.getByRole('toolbar', { name: 'Timeline' })).toContainText('20/20');
  await expect(page.getByRole('img', { name: /^World after step/ })).toHaveAccessibleName(
    /World after step 19: 20 by 20 cells, 4 agents/,
  );
});

test('a dropped folder brings the files of its subfolders: the two captures of one rddlsim connection', async ({
  page,
}, testInfo) => {
  const outer = testInfo.outputPath('captures');
  const inner = join(outer, 'run-1');
  mkdirSync(inner, { recursive: true });
  for (const half of ['c2s', 's2c'])
    copyFileSync(
      join(conformance, `rddlsim/sysadmin_inst_mdp__1.${half}.raw`),
      join(inner, `sysadmin_inst_mdp__1.${half}.raw`),
    );
  await dragAndDrop(page, [outer]);
  await expect(page.getByRole('status').filter({ hasText: 'Opened 2 files' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('rddlsim');
  const summary = page.getByRole('region', { name: 'Import summary' });
  await expect(summary).toContainText('1 connection');
  await expect(summary).toContainText('1 session');
  await expect(summary).toContainText('0 unreadable parts');
});
