import { expect, test } from '@playwright/test';
import { configure, editor, status } from './playground-page';

/**
 * The TypeScript language service of the policy editor (Monaco's TypeScript worker, about 7 MB of script
 * that compiles the standard library's declarations) starts when a learner reaches the code: the pointer
 * over the editor or the focus in it. A page that only plays the sample never loads it; once reached, it
 * marks errors and answers hovers as before.
 */

test('the TypeScript service loads when the learner reaches the code, then marks a type error', async ({
  page,
}) => {
  const serviceScripts: string[] = [];
  page.on('request', (request) => {
    if (/\/ts\.worker[^/]*\.js/.test(request.url())) serviceScripts.push(request.url());
  });
  await page.goto('./');
  const box = await editor(page);
  await expect(page.getByRole('code')).toContainText('export function act(');

  // A session played with the sample, the pointer and the focus elsewhere: the service is not loaded.
  await configure(page, { rounds: 2, fast: true });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  expect(serviceScripts).toEqual([]);

  // The learner moves into the code from the keyboard and types a mistake: the service starts and
  // marks it.
  await box.focus();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('\nconst wrong: number = "text";\n');
  // The mistake is the only mark: the sample's names (Observation, Actions, ...) come from the policy
  // types the service was given.
  await expect(page.locator('.squiggly-error')).toHaveCount(1, { timeout: 30_000 });
  expect(serviceScripts).toHaveLength(1);
});

test("a protocol's policy types reach the service once the learner reaches the code", async ({ page }) => {
  // aisysprojserver's types are the protocol's own (not computed from a document, as RDDLSim's are):
  // fetched by the page when the service is wanted, not at its load.
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption('aisys');
  const box = await editor(page);
  await expect(page.getByRole('code')).toContainText('export function act(percept: Percept, run: Run');

  await box.focus();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('\nconst wrong: number = "text";\n');
  // One mark, the mistake's; without the types, every name of the sample's signature (Percept, Run,
  // PolicyContext, Action) would be marked as well.
  await expect(page.locator('.squiggly-error')).toHaveCount(1, { timeout: 30_000 });
});
