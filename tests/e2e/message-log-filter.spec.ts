import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { messageRows } from './playground-page';

/**
 * The message log's type filter, by keyboard alone: a type unticked leaves the log and the count, the
 * summary says how many types are hidden, and ticking it again brings every message back.
 */
const recording = resolve(process.cwd(), '../shared/conformance/rddlsim/sysadmin_inst_mdp__1.transcript');

test('the message log hides and shows message types from the keyboard', async ({ page }) => {
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(recording);
  await expect(page.getByRole('status').filter({ hasText: 'Opened' })).toBeVisible({ timeout: 60_000 });

  const log = page.getByRole('region', { name: 'Message log' });
  const count = log.getByText(/^[\d,]+ of [\d,]+ messages$/);
  // "Opened" is said before the last of a file's messages reach the log: its count is awaited, read from
  // the recording itself (one header line per message).
  const total = readFileSync(recording, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('@@ ')).length;
  const all = `${total.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} messages`;
  await expect(count).toHaveText(all);
  const turns = messageRows(page).filter({ hasText: 'S→C turn' });
  await expect(turns.first()).toBeVisible();

  await log.locator('summary').filter({ hasText: 'Filter' }).focus();
  await page.keyboard.press('Enter');
  const turn = log.getByRole('checkbox', { name: 'turn', exact: true });
  await expect(turn).toBeChecked();
  await turn.focus();
  await page.keyboard.press('Space');
  await expect(turn).not.toBeChecked();
  await expect(log.getByText('· 1 hidden')).toBeVisible();
  await expect
    .poll(async () => Number((await count.textContent())!.match(/[\d,]+/)![0]!.replace(/,/g, '')))
    .toBeLessThan(total);
  await expect(turns).toHaveCount(0);

  await page.keyboard.press('Space');
  await expect(turn).toBeChecked();
  await expect(log.getByText('· 1 hidden')).toHaveCount(0);
  await expect(turns.first()).toBeVisible();
  await expect(count).toHaveText(all);
});
