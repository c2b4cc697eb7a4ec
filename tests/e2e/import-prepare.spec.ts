import { expect, test, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import { status } from './playground-page';

/** Each protocol's runner module is its own chunk of the build, named after its file (`runner-<hash>.js`). */
const RUNNER_CHUNK = /\/assets\/runner-[^/]*\.js$/;
const ROUND_END_CHUNK = /\/assets\/round-end-reading-[^/]*\.js$/;

/** The build's chunks the page and its workers fetched, from now on. */
function fetchedChunks(page: Page): Set<string> {
  const urls = new Set<string>();
  page.context().on('request', (request) => urls.add(request.url()));
  return urls;
}

async function startedPage(page: Page): Promise<Set<string>> {
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 60_000 });
  // The page's own start-up (its editor, the policy worker it boots ahead of a run) is over.
  await expect(page.getByRole('textbox', { name: 'Policy code' })).toBeAttached({ timeout: 60_000 });
  return fetchedChunks(page);
}

const count = (urls: Set<string>, chunk: RegExp) => [...urls].filter((url) => chunk.test(url)).length;

/**
 * What reading a file of the protocol on show needs loads while the user picks it: opening the Import
 * dialog has the session worker fetch RDDLSim's runner and round-end reading before any file is handed
 * over (and no other protocol's), and a file picked at once is still read (its open waits for the loads
 * under way instead of doubling them).
 */
test('the Import dialog has the worker load the runner on show before a file is picked, and a file picked at once opens', async ({
  page,
}) => {
  const fetched = await startedPage(page);
  expect(count(fetched, RUNNER_CHUNK)).toBe(0);
  await page.getByRole('button', { name: 'Import…' }).click();
  await expect.poll(() => count(fetched, ROUND_END_CHUNK), { timeout: 30_000 }).toBe(1);
  await expect.poll(() => count(fetched, RUNNER_CHUNK), { timeout: 30_000 }).toBe(1);

  // A second page, whose file is handed over right as the dialog opens.
  const other = await page.context().newPage();
  await startedPage(other);
  await other.getByRole('button', { name: 'Import…' }).click();
  await other
    .getByLabel('Open a file')
    .setInputFiles(resolve(process.cwd(), '../shared/conformance/rddlsim/sysadmin_inst_mdp__1.transcript'));
  await expect(status(other)).toContainText('showing an imported transcript', { timeout: 30_000 });
  await expect(other.getByRole('region', { name: 'Import summary' })).toContainText('0 violations');
});

/** Files dragged over the page (a drop may come) start the same loads. */
test('files dragged over the page have the worker load the runner on show before they are dropped', async ({
  page,
}) => {
  const fetched = await startedPage(page);
  expect(count(fetched, RUNNER_CHUNK)).toBe(0);
  const transfer = await page.evaluateHandle(() => {
    const data = new DataTransfer();
    data.items.add(new File(['<session-request/>'], 'session.log'));
    return data;
  });
  await page.locator('body').dispatchEvent('dragenter', { dataTransfer: transfer });
  await expect(page.getByText('Drop the files to import them')).toBeVisible();
  await expect.poll(() => count(fetched, RUNNER_CHUNK), { timeout: 30_000 }).toBe(1);
  await expect.poll(() => count(fetched, ROUND_END_CHUNK), { timeout: 30_000 }).toBe(1);
  await page.locator('body').dispatchEvent('dragleave', { dataTransfer: transfer });
  await expect(page.getByText('Drop the files to import them')).toBeHidden();
});
