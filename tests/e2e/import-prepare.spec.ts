import { expect, test, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import { status } from './playground-page';

/** Each protocol's runner module is its own chunk of the build, named after its file (`runner-<hash>.js`). */
const RUNNER_CHUNK = /\/assets\/runner-[^/]*\.js$/;
const ROUND_END_CHUNK = /\/assets\/round-end-reading-[^/]*\.js$/;

/** The build's chunks the page and its workers fetched, from now on, and when the last one was asked for. */
function fetchedChunks(page: Page): { urls: Set<string>; last: () => number } {
  const urls = new Set<string>();
  let last = Date.now();
  page.on('request', (request) => {
    urls.add(request.url());
    last = Date.now();
  });
  return { urls, last: () => last };
}

/**
 * The page started and quiet: its editor and the policy worker it boots ahead of a run have fetched their
 * modules (nothing asked for during a second and a half). Resolves to the chunks fetched from then on.
 */
async function startedPage(page: Page): Promise<Set<string>> {
  const loading = fetchedChunks(page);
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 60_000 });
  await expect(page.getByRole('textbox', { name: 'Policy code' })).toBeAttached({ timeout: 60_000 });
  await expect.poll(() => Date.now() - loading.last(), { timeout: 30_000 }).toBeGreaterThan(1500);
  return fetchedChunks(page).urls;
}

const matching = (urls: Set<string>, chunk: RegExp) => [...urls].filter((url) => chunk.test(url));

/**
 * What reading a file of the protocol on show needs loads while the user picks it: opening the Import
 * dialog has the session worker fetch RDDLSim's runner and round-end reading before any file is handed
 * over (and no other protocol's); a file picked the moment the dialog opens is read as ever (those loads
 * wait a quarter of a second for it, then leave it to the open).
 */
test('the Import dialog has the worker load the runner on show before a file is picked, and a file picked at once opens', async ({
  page,
}) => {
  const fetched = await startedPage(page);
  expect(matching(fetched, RUNNER_CHUNK)).toEqual([]);
  await page.getByRole('button', { name: 'Import…' }).click();
  await expect.poll(() => matching(fetched, ROUND_END_CHUNK), { timeout: 30_000 }).toHaveLength(1);
  await expect.poll(() => matching(fetched, RUNNER_CHUNK), { timeout: 30_000 }).toHaveLength(1);

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
  expect(matching(fetched, RUNNER_CHUNK)).toEqual([]);
  const transfer = await page.evaluateHandle(() => {
    const data = new DataTransfer();
    data.items.add(new File(['<session-request/>'], 'session.log'));
    return data;
  });
  await page.locator('body').dispatchEvent('dragenter', { dataTransfer: transfer });
  await expect(page.getByText('Drop the files to import them')).toBeVisible();
  await expect.poll(() => matching(fetched, RUNNER_CHUNK), { timeout: 30_000 }).toHaveLength(1);
  await expect.poll(() => matching(fetched, ROUND_END_CHUNK), { timeout: 30_000 }).toHaveLength(1);
  await page.locator('body').dispatchEvent('dragleave', { dataTransfer: transfer });
  await expect(page.getByText('Drop the files to import them')).toBeHidden();
});
