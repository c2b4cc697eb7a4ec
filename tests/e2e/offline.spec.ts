import { expect, test } from '@playwright/test';
import { configure, editor, status } from './playground-page';

/**
 * Offline after the first visit: the build's service worker precaches every file (Monaco and the workers
 * included), so a classroom whose network drops can reload the page and still play.
 */
// The service worker is what is tested here (the other tests block it, see playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

test('after one visit the page reloads and plays a session with the network cut', async ({
  page,
  context,
}) => {
  await page.goto('./');
  await editor(page);
  // The service worker is installed and controls the page once it has precached the build.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((done) =>
        navigator.serviceWorker.addEventListener('controllerchange', done, { once: true }),
      );
  });
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Protoplay' })).toBeVisible();
  await editor(page);
  await configure(page, { rounds: 2, fast: true });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
  const chart = page.getByRole('group', { name: 'Total reward per round' });
  await expect(chart.getByRole('button', { name: /^Round \d+: total reward/ })).toHaveCount(2);
  await context.setOffline(false);
});
