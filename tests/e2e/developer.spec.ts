import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { configure, editor, exportAs, messageRows, status } from './playground-page';

/** Downloads one export of what is on show, to a file of the test's own. */
async function download(page: Page, format: string, path: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), exportAs(page, format)]);
  await file.saveAs(path);
  return file.suggestedFilename();
}

/** Drops files on the page as a file manager would. */
async function dropFiles(page: Page, files: { name: string; latin1: string }[]) {
  const transfer = await page.evaluateHandle((list) => {
    const data = new DataTransfer();
    for (const { name, latin1 } of list) {
      const bytes = Uint8Array.from(latin1, (c) => c.charCodeAt(0));
      data.items.add(new File([bytes], name));
    }
    return data;
  }, files);
  await page.dispatchEvent('body', 'dragenter', { dataTransfer: transfer });
  await page.dispatchEvent('body', 'drop', { dataTransfer: transfer });
}

/**
 * A developer's imports, end to end: the two captures of one connection picked together make one whole
 * session; one alone is imported with a warning that half the conversation is missing; files dropped on
 * the page are imported together; a summary follows every import; and a reload shows the import again.
 */
test('a developer: paired captures, a missing half, a drop and a reload', async ({ page }, testInfo) => {
  await page.goto('./');
  await editor(page);
  await configure(page, { rounds: 1, fast: true });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  const played = await page.getByText(/of \d+ messages/).innerText();
  const c2sPath = testInfo.outputPath('capture.c2s.raw');
  const s2cPath = testInfo.outputPath('capture.s2c.raw');
  expect(await download(page, 'Raw bytes, client → server', c2sPath)).toMatch(/\.c2s\.raw$/);
  expect(await download(page, 'Raw bytes, server → client', s2cPath)).toMatch(/\.s2c\.raw$/);

  const summary = page.getByRole('region', { name: 'Import summary' });
  const importFiles = async (paths: string[]) => {
    await page.getByRole('button', { name: 'Import…' }).click();
    await page.getByLabel('Open a file').setInputFiles(paths);
    await expect(status(page)).toContainText('showing an imported transcript');
  };

  // Both halves, picked together: one connection, one session, nothing broken.
  await importFiles([c2sPath, s2cPath]);
  await expect(summary).toContainText('1 connection');
  await expect(summary).toContainText('1 session');
  await expect(summary).toContainText('0 violations');
  await expect(summary).toContainText('0 unreadable parts');
  const total = page.getByText(/of \d+ messages/);
  const pair = await total.innerText();
  // Every message sent is there (the live session adds the two closes, which no byte stream holds).
  expect(Number(/of (\d+)/.exec(pair)![1])).toBe(Number(/of (\d+)/.exec(played)![1]) - 2);

  // One half alone: imported, with the missing half named.
  await importFiles([c2sPath]);
  await expect(summary.getByRole('list', { name: 'Unreadable parts' })).toContainText(
    'half of the conversation is missing: no capture.s2c.raw',
  );

  // Dropped on the page, both at once.
  await dropFiles(page, [
    { name: 'capture.c2s.raw', latin1: readFileSync(c2sPath, 'latin1') },
    { name: 'capture.s2c.raw', latin1: readFileSync(s2cPath, 'latin1') },
  ]);
  await expect(page.getByRole('status').filter({ hasText: 'Opened 2 files' })).toBeVisible();
  await expect(summary).toContainText('0 unreadable parts');
  await expect(total).toHaveText(pair);

  // A reload shows the import again, once it is kept (stored after "Opened", as the page says).
  await expect(page.locator('[data-stored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.reload();
  await expect(messageRows(page).first()).toBeVisible({ timeout: 30_000 });
  await expect(total).toHaveText(pair);
});
