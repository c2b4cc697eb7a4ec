import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { configure, editor, exportAs, status } from './playground-page';

/**
 * The browser's storage refusing to keep a transcript: once the page has played, IndexedDB writes in the
 * page fail as they do over the origin's quota (a QuotaExceededError from the real IndexedDB API, thrown by
 * a wrapper installed before the page's scripts), a transcript is imported, and the page must say that a
 * reload will not show it again, why (the quota), and that exporting keeps it; the export must still work.
 */
async function download(page: Page, format: string, path: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), exportAs(page, format)]);
  await file.saveAs(path);
  return file.suggestedFilename();
}

test('IndexedDB over its quota: the page says the import is not kept and offers the export', async ({
  page,
}, testInfo) => {
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
      if ((window as { quotaFull?: boolean }).quotaFull)
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
  });
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await editor(page);
  await configure(page, { rounds: 1, fast: true });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  const saved = testInfo.outputPath('played.json');
  expect(await download(page, 'Protoplay JSON', saved)).toMatch(/\.json$/);

  // From now on the page's storage is full.
  await page.evaluate(() => ((window as { quotaFull?: boolean }).quotaFull = true));

  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles([saved]);
  const notice = page.getByRole('status').filter({ hasText: 'A reload will not show it again' });
  await expect(notice).toContainText('storage quota exceeded', { timeout: 30_000 });
  await expect(notice).toContainText('Export it to keep it');

  // What is on show is still whole and can be exported.
  const again = testInfo.outputPath('exported.json');
  expect(await download(page, 'Protoplay JSON', again)).toMatch(/\.json$/);
  const before = JSON.parse(readFileSync(saved, 'utf8')) as { messages: unknown[] };
  const after = JSON.parse(readFileSync(again, 'utf8')) as { messages: unknown[] };
  expect(after.messages.length).toBe(before.messages.length);
});

test('two tabs on the same exercise: the other tab hears that its exercise was stored elsewhere', async ({
  page,
  context,
}) => {
  await page.goto('./#exercise=two-tabs');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  const other = await context.newPage();
  await other.goto('./#exercise=two-tabs');
  await expect(other.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  const warning = (tab: Page) => tab.getByRole('status').filter({ hasText: 'also open in another tab' });
  // Whatever the start-up stored, the first tab now changes its settings and stores them.
  await page.getByLabel('Rounds').fill('7');
  await expect(warning(other)).toBeVisible({ timeout: 30_000 });
  await expect(warning(other)).toContainText('export here to keep this tab’s');
  // A tab in another exercise hears nothing.
  const elsewhere = await context.newPage();
  await elsewhere.goto('./#exercise=another-one');
  await expect(elsewhere.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByLabel('Rounds').fill('8');
  await expect(warning(other)).toBeVisible();
  await expect(warning(elsewhere)).toHaveCount(0);
});
