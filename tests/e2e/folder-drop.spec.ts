import { expect, test, type CDPSession, type Page } from '@playwright/test';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Files and folders dragged onto the page from the desktop. Chromium's DevTools protocol drags real paths
 * the way the operating system does, so the page meets real folder entries (`webkitGetAsEntry`) and walks
 * them, as it does for a user's drop: every file under the folder is imported together.
 *
 * This file runs in a Playwright project of its own, after every other test (playwright.config.ts): a drag
 * is the one input a loaded machine could still disturb, so it runs with one browser only. Every step
 * waits for the page to have taken the previous one.
 */
const conformance = resolve(process.cwd(), '../shared/conformance');
const replays = join(conformance, 'massim/basic/server-run/replays');
const rddlsimPair = ['c2s', 's2c'].map((half) =>
  join(conformance, `rddlsim/sysadmin_inst_mdp__1.${half}.raw`),
);
const overlay = 'Drop the files to import them';

/** A drag of real files and folders (paths on this machine) over the page, step by step. */
async function dragOf(page: Page, paths: string[]) {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const data = { items: [], files: paths, dragOperationsMask: 1 };
  const send = (type: 'dragEnter' | 'dragOver' | 'drop', x: number, y: number) =>
    cdp.send('Input.dispatchDragEvent', { type, x, y, data });
  return {
    /** Enters the page at (x, y); resolves once the page says what a drop does. */
    async enter(x: number, y: number) {
      await send('dragEnter', x, y);
      await expect(page.getByText(overlay)).toBeVisible();
    },
    over: (x: number, y: number) => send('dragOver', x, y),
    async drop(x: number, y: number) {
      await send('drop', x, y);
      await cdp.detach();
    },
  };
}

/** Where the page says what it opened (or why it could not). */
const notice = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

test.beforeEach(async ({ page }) => {
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 60_000 });
});

test("the MASSim server's replay folder dropped on the page opens as the match it recorded", async ({
  page,
}) => {
  const drag = await dragOf(page, [join(replays, readdirSync(replays)[0]!)]);
  await drag.enter(300, 300);
  // A real drag goes on sending dragover while it waits over the page (now over its drop overlay).
  await drag.over(310, 310);
  await drag.drop(310, 310);
  await expect(page.getByText(overlay)).toHaveCount(0);
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
  for (const path of rddlsimPair) copyFileSync(path, join(inner, path.split('/').pop()!));
  const drag = await dragOf(page, [outer]);
  await drag.enter(300, 300);
  // Dropped at once: the drop's own dragover is the first one over the overlay, a dragenter alone.
  await drag.drop(300, 300);
  await expect(notice(page, 'Opened 2 files')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('rddlsim');
  const summary = page.getByRole('region', { name: 'Import summary' });
  await expect(summary).toContainText('1 connection');
  await expect(summary).toContainText('1 session');
  await expect(summary).toContainText('0 unreadable parts');
});

test('files dropped over a part of the page that is drawn again during the drag (the editor colouring its text, a live log) are taken', async ({
  page,
}) => {
  const brand = page.getByRole('heading', { name: 'Protoplay', level: 1 });
  const box = (await brand.boundingBox())!;
  const [x, y] = [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)];
  // After every drag event the heading under the pointer is replaced by a copy of itself, as a view
  // drawing itself again would: Chromium drops on the element of the last dragover, gone by then.
  await page.evaluate(() => {
    const redraw = () =>
      setTimeout(() => {
        const heading = document.querySelector('header h1');
        heading?.replaceWith(heading.cloneNode(true));
      }, 0);
    for (const type of ['dragenter', 'dragover']) window.addEventListener(type, redraw, true);
  });
  const drag = await dragOf(page, rddlsimPair);
  await drag.enter(x, y);
  await drag.over(x, y);
  await drag.drop(x, y);
  await expect(notice(page, 'Opened 2 files')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(overlay)).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Import summary' })).toContainText('1 connection');
});
