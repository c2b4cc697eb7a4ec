import { expect, test, type Page } from '@playwright/test';

/**
 * The code editor's colours follow the page's: the system's colour scheme, also when it changes while the
 * page is open, unless a link fixes the theme (`theme=dark`, docs/embedding.md).
 */

function policyEditor(page: Page) {
  return page.locator('.monaco-editor', { has: page.getByRole('textbox', { name: /^Policy code/ }) });
}

test('the policy editor turns dark and light with the system while the page is open', async ({ page }) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await page.locator('[data-restored="true"]').waitFor({ state: 'attached', timeout: 60_000 });
  const editor = policyEditor(page);
  await expect(editor).toBeAttached({ timeout: 60_000 });
  await expect(editor).toHaveClass(/(^|\s)vs(\s|$)/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(editor).toHaveClass(/(^|\s)vs-dark(\s|$)/, { timeout: 30_000 });
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(editor).toHaveClass(/(^|\s)vs(\s|$)/, { timeout: 30_000 });
});

test("a link's theme=dark keeps the editor dark whatever the system's scheme", async ({ page }) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/#e=grid_walk&theme=dark');
  await page.locator('[data-restored="true"]').waitFor({ state: 'attached', timeout: 60_000 });
  const editor = policyEditor(page);
  await expect(editor).toBeAttached({ timeout: 60_000 });
  await expect(editor).toHaveClass(/(^|\s)vs-dark(\s|$)/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.emulateMedia({ colorScheme: 'light' });
  // The system's changes reached the page (its own colours follow the link, not the system) ...
  await expect
    .poll(() => page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches))
    .toBe(false);
  // ... and the editor stayed dark.
  await expect(editor).toHaveClass(/(^|\s)vs-dark(\s|$)/);
});
