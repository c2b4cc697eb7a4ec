import { expect, test } from '@playwright/test';
import { configure, editor, messageRows, setPolicyCode, status } from './playground-page';

/**
 * A learner's first use, end to end: settings that make no sense are refused with a message, the keyboard
 * gets in and out of every pane (the editor included), a stop is reported as a stop, and a phone shows the
 * whole page.
 */
test('a learner: invalid settings, the keyboard, a stop and a phone', async ({ page }) => {
  await page.goto('./');
  // Skip links come first in the Tab order and lead past the header and the editor.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the run controls' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.getByRole('link', { name: 'Skip to the messages' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Messages' })).toBeFocused();

  await editor(page);

  // Rounds 0 or -3: refused, said beside the box, and nothing runs until fixed.
  const rounds = page.getByLabel('Rounds');
  const run = page.getByRole('button', { name: 'Run' });
  await rounds.fill('0');
  await expect(page.getByRole('alert').filter({ hasText: 'Rounds: 0 is out of range' })).toBeVisible();
  await expect(rounds).toHaveAttribute('aria-invalid', 'true');
  await expect(run).toBeDisabled();
  await rounds.fill('-3');
  await expect(page.getByRole('alert').filter({ hasText: 'Rounds: -3 is out of range' })).toBeVisible();
  await rounds.fill('2');
  await expect(page.getByRole('alert').filter({ hasText: 'Rounds' })).toHaveCount(0);
  await expect(run).toBeEnabled();

  // In the editor, Tab indents; Esc then Tab leaves it, and the way out is written under it.
  await expect(page.getByText('Esc then Tab leaves the editor')).toBeVisible();
  const code = await editor(page);
  await code.focus();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(code).not.toBeFocused();
  expect(await page.evaluate(() => document.activeElement?.closest('.monaco') === null)).toBe(true);
  // Or Tab moves on for good, when the learner says so.
  await page.getByRole('button', { name: 'Tab moves focus' }).click();
  await expect(page.getByRole('button', { name: 'Tab moves focus' })).toHaveAttribute('aria-pressed', 'true');
  await code.focus();
  await page.keyboard.press('Tab');
  await expect(code).not.toBeFocused();
  await page.getByRole('button', { name: 'Tab moves focus' }).click();

  // A slow policy stopped mid-session: "Stopped", no policy fault, no broken rule blamed on our client.
  await setPolicyCode(
    page,
    [
      'export function act(observation: Observation, context: PolicyContext): Actions {',
      '  const until = Date.now() + 150;',
      '  while (Date.now() < until);',
      '  return null;',
      '}',
    ].join('\n'),
  );
  await configure(page, { rounds: 5, fast: true });
  await run.click();
  await expect(messageRows(page).filter({ hasText: 'actions' }).first()).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(status(page)).toContainText('Stopped');
  // Longer than the policy's budget (1 s): a call cut short by the stop must not come back as an overrun.
  await page.waitForTimeout(1500);
  await expect(status(page)).not.toContainText('error');
  await expect(page.getByText(/policy exceeded/)).toHaveCount(0);
  await page.getByRole('tab', { name: /Console/ }).click();
  const entries = page.getByRole('listbox', { name: 'Console entries' }).getByRole('option');
  await expect(entries.filter({ hasText: 'stopped by the user' })).toHaveCount(1);
  await expect(entries.filter({ hasText: /violation/i })).toHaveCount(0);

  // A phone: the header wraps within the screen, the page scrolls, and every pane can be reached.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  for (const name of ['Import…', 'Share']) {
    const box = (await page.getByRole('button', { name }).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  const messages = page.getByRole('region', { name: 'Messages' });
  await messages.scrollIntoViewIfNeeded();
  await expect(messages).toBeInViewport();
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(844);
});

/** A domain whose round never ends: its terminate-when condition can never come true. */
const ENDLESS_RDDL = `domain endless_walk {
  requirements = { integer-valued };
  pvariables {
    x : { state-fluent, int, default = 0 };
    go : { action-fluent, bool, default = false };
  };
  cpfs {
    x' = if (go) then x + 1 else x;
  };
  reward = -1;
}

instance endless_inst {
  domain = endless_walk;
  max-nondef-actions = 1;
  horizon = terminate-when (x < 0);
  discount = 1.0;
}
`;

test('a learner: a round that never ends keeps the page usable, is named, and stops as a stop', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('group', { name: 'Sample policies' }).getByRole('button', { name: 'Noop' }).click();
  await page
    .getByLabel('Open RDDL file(s)…')
    .setInputFiles({ name: 'endless.rddl', mimeType: 'text/plain', buffer: Buffer.from(ENDLESS_RDDL) });
  await configure(page, { rounds: 1, fast: true });
  await page.getByRole('button', { name: 'Run' }).click();

  // Past 10,000 turns the page says the round may never end.
  const warning = page.getByRole('status').filter({ hasText: 'its end condition may never come true' });
  await expect(warning).toBeVisible({ timeout: 120_000 });
  const turnNow = async () =>
    Number(
      /turn (\d+)/.exec((await page.getByText(/^Running · round 1, turn \d+/).textContent()) ?? '')?.[1],
    );
  const nodes = () => page.evaluate(() => document.getElementsByTagName('*').length);
  const firstTurn = await turnNow();
  const firstNodes = await nodes();
  // Another 10,000 turns: the page's views do not grow with the round (it drew two elements per step).
  await expect.poll(turnNow, { timeout: 120_000 }).toBeGreaterThan(firstTurn + 10_000);
  expect(await nodes()).toBeLessThan(firstNodes + 500);
  const chart = page.getByRole('group', { name: 'Per-step rewards of round 1' });
  await expect(chart).toContainText(/mean of \d+ steps per bar/);
  const width = (await chart.boundingBox())!.width;
  expect(await chart.locator('rect').count()).toBeLessThanOrEqual(Math.ceil(width / 3));
  // The log still answers the keyboard while the round runs.
  await page.getByRole('listbox', { name: 'Messages' }).focus();
  await page.keyboard.press('Home');
  const first = page.getByRole('listbox', { name: 'Messages' }).locator('[aria-posinset="1"]');
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(first).toBeInViewport();

  // Stop ends it as a stop: no policy fault, no broken rule.
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(status(page)).toContainText('Stopped');
  await expect(warning).toHaveCount(0);
  await expect(page.getByText(/policy exceeded/)).toHaveCount(0);
  await page.getByRole('tab', { name: /Console/ }).click();
  const entries = page.getByRole('listbox', { name: 'Console entries' }).getByRole('option');
  await expect(entries.filter({ hasText: 'stopped by the user' })).toHaveCount(1);
  await expect(entries.filter({ hasText: /violation/i })).toHaveCount(0);
});
