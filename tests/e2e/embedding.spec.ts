import { expect, test } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A teacher's course page embeds the playground in an iframe, configured by the link's fragment
 * (docs/embedding.md): the frame opens on the linked domain, seed and rounds, and plays there.
 */

let course: Server;
test.beforeAll(async ({ baseURL }) => {
  // The course site: another origin than the playground (another port), serving one page with the iframe.
  course = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
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
