import { expect, test, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import { configure, status } from './playground-page';

/**
 * Every protocol's page on a phone (320 and 390 px wide) and by keyboard alone: nothing runs past the
 * screen's edge, every control and tab can be reached, and an action never drops the focus to the page.
 */

const MASSIM_RECORDING = resolve(
  import.meta.dirname,
  '../../../shared/conformance/massim/events/all.timeline.jsonl',
);

/** What lies (partly) outside the screen's width and is not inside a box that scrolls it into view. */
function offScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>(
      'button, select, input, summary, textarea, [role="tab"], [role="menuitem"], .description, .shape',
    );
    for (const element of controls) {
      if (element.closest('.monaco-editor, .visually-hidden')) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || (style.opacity === '0' && element.tagName === 'INPUT')) continue;
      // Inside a box that scrolls sideways, the control is reached by scrolling it.
      let scrolled = false;
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const overflow = getComputedStyle(parent).overflowX;
        if ((overflow === 'auto' || overflow === 'scroll') && parent !== document.documentElement)
          scrolled = true;
      }
      if (scrolled) continue;
      if (box.left < -1 || box.right > width + 1) {
        const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 30) ?? '';
        found.push(
          `${element.tagName.toLowerCase()} "${name}" at ${Math.round(box.left)}..${Math.round(box.right)}`,
        );
      }
    }
    return found;
  });
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** Opens every folded part of the page but the Export menu (opened on its own), one by one. */
async function openDisclosures(page: Page) {
  const folded = page.locator('details:not([open]):not(.export) > summary:visible');
  for (let opened = 0; (await folded.count()) > 0; opened++) {
    expect(opened, 'a fold that does not open').toBeLessThan(10);
    await folded.first().click();
  }
}

test('on a phone every protocol fits the screen: settings, tabs, samples and the Export menu', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  for (const width of [320, 390]) {
    await page.setViewportSize({ width, height: 844 });
    for (const protocol of ['rddlsim', 'massim', 'aisys', 'gama']) {
      await page.getByRole('combobox', { name: 'Protocol' }).selectOption(protocol);
      await expect(page.getByRole('toolbar', { name: 'Session controls' })).toBeVisible({ timeout: 30_000 });
      await openDisclosures(page);
      // MASSim's match settings open in the page's flow on a phone, below the controls.
      if (protocol === 'massim')
        await expect(page.getByRole('group', { name: 'Match settings' })).toBeVisible();
      expect(await pageWidth(page), `${protocol} at ${width} px`).toBeLessThanOrEqual(width);
      expect(await offScreen(page), `${protocol} at ${width} px`).toEqual([]);

      // The Export menu opens on the screen, whichever side of it Export is on.
      await page.getByText('Export', { exact: true }).click();
      await expect(page.getByRole('menu', { name: 'Export the transcript' })).toBeVisible();
      expect(await offScreen(page), `${protocol}'s Export menu at ${width} px`).toEqual([]);
      // A tap elsewhere closes it.
      await page.locator('h1').click();
      await expect(page.getByRole('menu', { name: 'Export the transcript' })).toBeHidden();
    }
  }

  // A MASSim recording's name and shape beside the controls wrap instead of widening the page.
  await page.setViewportSize({ width: 320, height: 844 });
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(MASSIM_RECORDING);
  await expect(page.getByText(/^Showing all\.timeline\.jsonl/)).toBeVisible({ timeout: 30_000 });
  expect(await pageWidth(page)).toBeLessThanOrEqual(320);
  expect(await offScreen(page)).toEqual([]);
});

test('by keyboard alone: tabs follow the arrows, menus close with Escape, and the focus is never dropped', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

  // A pane's tabs: one Tab stop, the arrows (and Home, End) move the selection and the focus.
  const logTabs = page.getByRole('tablist', { name: 'Session output' });
  const first = logTabs.getByRole('tab').first();
  await first.click();
  await expect(first).toHaveAttribute('tabindex', '0');
  await expect(logTabs.getByRole('tab').nth(1)).toHaveAttribute('tabindex', '-1');
  await page.keyboard.press('ArrowRight');
  await expect(logTabs.getByRole('tab').nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(logTabs.getByRole('tab').nth(1)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(first).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(logTabs.getByRole('tab').last()).toBeFocused();
  await page.keyboard.press('Home');

  // Pause and Resume are one button: the focus stays on it. Stop hands it to Run.
  await configure(page, { rounds: 3, fast: false });
  await page.getByRole('button', { name: 'Run' }).focus();
  await page.keyboard.press('Enter');
  await expect(status(page)).toContainText('Running', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Pause' }).focus();
  await page.keyboard.press('Enter');
  await expect(status(page)).toContainText('Paused');
  await expect(page.getByRole('button', { name: 'Resume' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(status(page)).toContainText('Running');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeFocused();
  await page.getByRole('button', { name: 'Stop' }).focus();
  await page.keyboard.press('Enter');
  await expect(status(page)).toContainText('Stopped');
  await expect(page.getByRole('button', { name: 'Run' })).toBeFocused();

  // The Export menu: the arrows go through its items, Escape closes it where it was opened.
  const exportButton = page.getByText('Export', { exact: true });
  await exportButton.focus();
  await page.keyboard.press('ArrowDown');
  const menu = page.getByRole('menu', { name: 'Export the transcript' });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem').nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(menu.getByRole('menuitem').last()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  expect(await focused()).toBe('Export');
  // Chosen by keyboard, an export gives the focus back to Export too.
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Protoplay JSON' })).toBeFocused();
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toMatch(/\.json$/);
  expect(await focused()).toBe('Export');

  // Share's link box and Evaluate give the focus back to their button when closed.
  await page.getByRole('button', { name: 'Share' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('textbox', { name: 'Link to share' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Share' })).toBeFocused();
  await page.getByRole('button', { name: 'Evaluate' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Close Evaluate' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Evaluate' })).toBeFocused();
});
