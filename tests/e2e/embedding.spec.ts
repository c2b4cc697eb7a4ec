import { expect, test, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compressToBase64Url } from '../../src/state/share';

const TEACHER_CODE = `// the teacher's grid walk policy
export function act(observation: Observation, context: PolicyContext): Actions {
  return null;
}
`;

/**
 * A teacher's course page embeds the playground in an iframe, configured by the link's fragment
 * (docs/embedding.md): the frame opens on the linked domain, seed and rounds, and plays there.
 */

let course: Server;
test.beforeAll(async ({ baseURL }) => {
  // The course site: another origin than the playground (another port), serving one page with the iframe.
  course = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    if (request.url?.startsWith('/week5'))
      // Two exercises from links with code (no exercise name), and a narrow frame.
      response.end(`<!doctype html><title>Week 5</title>
        <iframe src="${baseURL}#e=cell_life&seed=3&rounds=10" width="1000" height="700" title="Cells"></iframe>
        <iframe src="${baseURL}#e=grid_walk&seed=2&rounds=4&lang=ts&code=${compressToBase64Url(TEACHER_CODE)}"
          width="320" height="700" title="Grid"></iframe>`);
    else
      response.end(`<!doctype html><title>Week 3</title><h1>Week 3: stochastic grids</h1>
        <iframe src="${baseURL}#e=grid_walk&seed=7&rounds=2" width="1200" height="800"
          title="Protoplay: grid walk"></iframe>`);
  });
  await new Promise<void>((resolve) => course.listen(0, '127.0.0.1', resolve));
});
test.afterAll(() => new Promise<void>((resolve) => course.close(() => resolve())));

test('an iframe on a course page opens the linked configuration and runs it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`http://127.0.0.1:${(course.address() as AddressInfo).port}/week3.html`);
  const frame = page.frameLocator('iframe[title="Protoplay: grid walk"]');
  await expect(frame.getByLabel('Domain').locator('option:checked')).toHaveText(/Grid walk/i);
  await expect(frame.getByLabel('Seed')).toHaveValue('7');
  await expect(frame.getByLabel('Rounds')).toHaveValue('2');
  await frame.getByLabel('Speed').selectOption('fast');
  await frame.getByRole('button', { name: 'Run' }).click();
  await expect(frame.getByRole('status').filter({ hasText: /Finished|Stopped|Running/ })).toContainText(
    'Finished',
    { timeout: 60_000 },
  );
  await expect(frame.getByRole('group', { name: 'Total reward per round' }).getByRole('button')).toHaveCount(
    2,
  );
});

test('embedded links keep each visitor’s edits across reloads, and open with a policy that fits the domain', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`http://127.0.0.1:${(course.address() as AddressInfo).port}/week5.html`);
  const cells = page.frameLocator('iframe[title="Cells"]');
  const grid = page.frameLocator('iframe[title="Grid"]');

  // cell_life has no sample of its own: a starting policy generated from its action fluents, no other
  // domain's heuristic.
  const cellsCode = cells.getByRole('code');
  await expect(cellsCode.getByText('Starting policy for the RDDL domain')).toBeVisible({ timeout: 30_000 });
  await expect(cellsCode.getByText('reboot')).toHaveCount(0);

  // The student edits the linked code in the narrow frame.
  await expect(grid.getByRole('code').getByText("the teacher's grid walk policy")).toBeVisible({
    timeout: 30_000,
  });
  const box = grid.getByRole('textbox', { name: 'Policy code' });
  await box.focus();
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.type('// my own attempt\n');
  await expect(grid.getByRole('code').getByText('my own attempt')).toBeVisible();
  // The page fits the 320 px frame: nothing wider than the frame.
  const overflow = await page
    .frame({ url: /code=/ })!
    .evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // Stored a moment after the edit: the frame says when.
  await expect(grid.locator('[data-stored="true"]')).toBeAttached();

  await page.reload();
  await expect(grid.getByRole('code').getByText('my own attempt')).toBeVisible({ timeout: 30_000 });
  await expect(cells.getByRole('code').getByText('my own attempt')).toHaveCount(0);

  // Share inside the frame: the clipboard is refused there, the whole link is in a selectable field.
  await grid.getByRole('button', { name: 'Share' }).click();
  const field = grid.getByRole('textbox', { name: 'Link to share' });
  await expect(field).toBeVisible();
  const link = await field.inputValue();
  expect(link).toMatch(/#.*code=/);
  await expect(grid.getByRole('dialog', { name: 'Share link' })).toContainText(`${link.length} characters`);

  // Reset to the original brings the teacher's code back.
  await grid.getByRole('button', { name: 'Reset to the original' }).click();
  await expect(grid.getByRole('code').getByText("the teacher's grid walk policy")).toBeVisible({
    timeout: 30_000,
  });
  await expect(grid.getByRole('code').getByText('my own attempt')).toHaveCount(0);
});

/** The panes shown in the workbench, and how much of its area they fill (the rest is gaps and margins). */
async function shownPanes(page: Page) {
  return page.evaluate(() => {
    const main = document.querySelector('main')!;
    const panes = [...main.querySelectorAll(':scope > section')].filter(
      (s) => getComputedStyle(s).display !== 'none',
    );
    const boxes = panes.map((p) => p.getBoundingClientRect());
    const area = boxes.reduce((sum, b) => sum + b.width * b.height, 0);
    const overlaps = boxes.some((a, i) =>
      boxes.some(
        (b, j) =>
          j > i &&
          a.left < b.right - 1 &&
          b.left < a.right - 1 &&
          a.top < b.bottom - 1 &&
          b.top < a.bottom - 1,
      ),
    );
    return {
      labels: panes.map((p) => p.getAttribute('aria-label')),
      filled: area / (main.scrollWidth * main.scrollHeight),
      overlaps,
      overflowX: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  });
}

test('panels= shows only the panes asked for, and they share the space with no empty places', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const cases = [
    { protocol: 'rddlsim', panels: 'chart,state', labels: ['Rewards', 'State'] },
    { protocol: 'rddlsim', panels: 'editor,log', labels: ['Editor', 'Messages'] },
    { protocol: 'rddlsim', panels: 'log', labels: ['Messages'] },
    { protocol: 'massim', panels: 'world,chart,log', labels: ['World', 'Scores', 'Messages and notes'] },
    { protocol: 'massim', panels: 'editor,state', labels: ['Policy', 'Point of view'] },
  ];
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    for (const { protocol, panels, labels } of cases) {
      // A fresh load each time: the options are read when the page opens.
      await page.goto('about:blank');
      await page.goto(`./#p=${protocol}&panels=${panels}&exercise=panes-${protocol}`);
      await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
      const shown = await shownPanes(page);
      const where = `${protocol} panels=${panels} at ${viewport.width} px`;
      expect(shown.labels, where).toEqual(labels);
      expect(shown.overlaps, where).toBe(false);
      expect(shown.overflowX, where).toBeLessThanOrEqual(0);
      // Before, the designed grid kept the hidden panes' places: as little as a quarter was filled.
      expect(shown.filled, where).toBeGreaterThan(0.88);
    }
  }
});

test('readonly, autoplay and theme in the link take effect: the frame plays by itself, dark, and keeps the code', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/#e=grid_walk&seed=2&rounds=2&readonly&autoplay&theme=dark`);
  // autoplay: the session runs to its end with nobody pressing Run.
  await expect(page.getByRole('status').filter({ hasText: /Finished|Stopped|Running/ })).toContainText(
    'Finished',
    { timeout: 60_000 },
  );
  await expect(page.getByRole('group', { name: 'Total reward per round' }).getByRole('button')).toHaveCount(
    2,
  );
  // theme=dark: the page is dark whatever the system prefers.
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r, g, b] = background.match(/\d+/g)!.map(Number);
  expect(r! + g! + b!, background).toBeLessThan(3 * 100);
  // readonly: the editor is read only; typing in it changes nothing.
  const editor = page.getByRole('textbox', { name: 'Policy code (read only)' });
  await expect(editor).toBeAttached({ timeout: 60_000 });
  const before = await page.locator('.monaco-editor .view-lines').innerText();
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.type('this must not appear');
  await expect(page.locator('.monaco-editor .view-lines')).not.toContainText('this must not appear');
  expect(await page.locator('.monaco-editor .view-lines').innerText()).toBe(before);
});
