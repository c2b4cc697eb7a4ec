import { expect, test, type Locator } from '@playwright/test';
import { configure, messageRows, setPolicyCode, status } from './playground-page';

/**
 * Status texts, policy errors and the chart's hint are said in full, on a desktop and on a phone: no
 * ellipsis, nothing clipped by the element itself or by a box around it that hides overflow, nothing past
 * the screen's right edge.
 */

/** Why a text is not shown whole, or null when it is. */
function clipping(locator: Locator): Promise<string | null> {
  return locator.evaluate((element) => {
    const style = getComputedStyle(element);
    if (style.textOverflow === 'ellipsis' && style.whiteSpace === 'nowrap' && style.overflow !== 'visible')
      return 'cut with an ellipsis';
    if (element.scrollWidth > element.clientWidth + 1)
      return `${element.scrollWidth - element.clientWidth} px cut`;
    const box = element.getBoundingClientRect();
    if (box.right > document.documentElement.clientWidth + 1) return 'runs off the screen';
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      const { overflowX, overflowY } = getComputedStyle(parent);
      if (overflowX === 'visible' && overflowY === 'visible') continue;
      const outer = parent.getBoundingClientRect();
      const scrolls = (value: string) => value === 'auto' || value === 'scroll';
      // A scrolling box shows the rest when scrolled; a hiding one loses it.
      if (!scrolls(overflowX) && (box.left < outer.left - 1 || box.right > outer.right + 1))
        return `cut by ${parent.tagName.toLowerCase()}.${parent.className}`;
      if (!scrolls(overflowY) && (box.top < outer.top - 1 || box.bottom > outer.bottom + 1))
        return `cut by ${parent.tagName.toLowerCase()}.${parent.className}`;
    }
    return null;
  });
}

const LONG_REASON =
  'the cargo manifest for this round lists more containers than the ship can carry, so this policy refuses ' +
  'to choose an action until the manifest is corrected by the harbour master on duty';

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`long texts are shown in full (${viewport.name})`, async ({ page }) => {
    const view = () => page.setViewportSize({ width: viewport.width, height: viewport.height });
    await view();
    await page.goto('./');
    await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });

    // Two rounds played: the chart offers its hint.
    await configure(page, { rounds: 2, fast: true });
    await page.getByRole('button', { name: 'Run' }).click();
    await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
    const hint = page.getByText('select a point to see its steps');
    await hint.scrollIntoViewIfNeeded();
    await expect(hint).toBeVisible();
    expect(await clipping(hint)).toBeNull();

    // A policy error with a long reason: the status line says all of it. (The code is pasted on a wide
    // screen, where the helper can see the editor's first line.)
    await page.setViewportSize({ width: 1280, height: 800 });
    await setPolicyCode(
      page,
      [
        'export function act(observation: Observation, context: PolicyContext): Actions {',
        `  throw new Error(${JSON.stringify(LONG_REASON)});`,
        '}',
      ].join('\n'),
    );
    await configure(page, { rounds: 1, fast: true });
    await page.getByRole('button', { name: 'Run' }).click();
    await expect(messageRows(page).first()).toBeVisible({ timeout: 30_000 });
    const fault = page.locator('footer.status .fault');
    await expect(fault).toContainText('harbour master on duty', { timeout: 30_000 });
    await view();
    await fault.scrollIntoViewIfNeeded();
    expect(await clipping(fault)).toBeNull();
    // The page itself stays within the screen's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
  });
}
