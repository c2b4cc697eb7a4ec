import { expect, type Page } from '@playwright/test';

/** Helpers for driving the RDDLSim playground page in end-to-end tests. */

/** Waits for Monaco to replace the read-only code view, so typing goes to the editor. */
export async function editor(page: Page) {
  const textbox = page.getByRole('textbox', { name: 'Policy code' });
  await expect(textbox).toBeAttached({ timeout: 30_000 });
  return textbox;
}

/**
 * Replaces the policy code through the editor, as a learner would: select all and paste (typed text would
 * get the editor's auto-closing brackets and indentation on top).
 */
export async function setPolicyCode(page: Page, code: string) {
  const textbox = await editor(page);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((text) => navigator.clipboard.writeText(text), code);
  await textbox.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');
  await expect(page.getByRole('code').getByText(code.split('\n')[0]!)).toBeVisible();
}

export async function configure(page: Page, { rounds, fast }: { rounds: number; fast: boolean }) {
  await page.getByLabel('Rounds').fill(String(rounds));
  await page.getByLabel('Speed').selectOption(fast ? 'fast' : 'animated');
}

export async function exportAs(page: Page, format: string) {
  await page.getByText('Export', { exact: true }).click();
  await page.getByRole('menuitem', { name: format }).click();
}

export const status = (page: Page) =>
  page.getByRole('status').filter({ hasText: /Ready|Running|Paused|Waiting|Finished|Stopped/ });
export const messageRows = (page: Page) =>
  page.getByRole('listbox', { name: 'Messages' }).getByRole('option');
