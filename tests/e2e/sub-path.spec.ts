import { expect, test } from '@playwright/test';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { StaticSite } from '../../cli/open/static-site';
import { configure, editor, status } from './playground-page';

/**
 * The build hosted as a course would host it: the `dist/` folder copied under a sub-path of another site
 * (here /course/protoplay/ of a plain static file server, the one `protoplay open` uses), with nothing
 * configured for it. Every file, the workers and Monaco's included, must come from under that path.
 */
// The service worker is what is tested here (the other tests block it, see playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const SUB_PATH = '/course/protoplay/';
let folder: string;
let site: StaticSite;
let base: string;

test.beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'protoplay-hosted-'));
  await mkdir(join(folder, 'course'));
  await symlink(resolve(import.meta.dirname, '../../dist'), join(folder, 'course/protoplay'), 'dir');
  site = await StaticSite.start({ root: folder, host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${site.port}${SUB_PATH}`;
});

test.afterAll(async () => {
  await site?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

test('under a sub-path the page runs an RDDLSim session with its workers and Monaco', async ({ page }) => {
  const outside: string[] = [];
  const failures: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('http') && !url.startsWith(base)) outside.push(url);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => failures.push(`failed ${request.url()}`));

  await page.goto(base);
  await expect(page.getByRole('heading', { name: 'Protoplay' })).toBeVisible();
  await editor(page);
  await configure(page, { rounds: 2, fast: true });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
  const chart = page.getByRole('group', { name: 'Total reward per round' });
  await expect(chart.getByRole('button', { name: /^Round \d+: total reward/ })).toHaveCount(2);

  // The session and policy workers were loaded from the build's assets under the sub-path.
  const workers = page.workers().map((worker) => worker.url());
  expect(workers.filter((url) => url.startsWith(`${base}assets/`)).length).toBeGreaterThan(0);
  // The service worker is the build's, and controls only the sub-path.
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(base);
  expect(outside).toEqual([]);
  expect(failures).toEqual([]);
});

test('the sample course page finds the playground beside it under the sub-path', async ({ page }) => {
  const failures: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(`${base}examples/course.html`);
  const frames = page.locator('iframe');
  await expect(frames).toHaveCount(2);
  for (const index of [0, 1]) {
    await expect(frames.nth(index).contentFrame().getByRole('button', { name: 'Run' })).toBeVisible({
      timeout: 30_000,
    });
  }
  expect(
    page
      .frames()
      .slice(1)
      .every((frame) => frame.url().startsWith(base)),
  ).toBe(true);
  expect(failures).toEqual([]);
});
