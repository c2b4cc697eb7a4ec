import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { sharedPath } from '../cli/shared-folder';
import { bridgeFragment, freePort, startProtoplay, type Started } from './bridge-processes';
import { configure, exportAs, status } from './playground-page';

/**
 * aisysprojserver in the playground, in real Chromium against the production build: the emulated server
 * in the session worker, the course client with the learner's act() in the policy worker, the agent config
 * a course hands out, the runs, the rating, a run's board and the HTTP exchanges; a wrong password; and
 * a recording of the real server, imported.
 */

const CONFIG = { agent: 'ada', env: 'nim', pwd: 'first-password', url: 'https://aisys.example.org/' };

async function openAisys(page: Page) {
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption('aisys');
  await expect(page.getByRole('combobox', { name: 'Environment' })).toBeVisible();
}

/** Pastes an agent config and uses it, as a learner does with the file from the course. */
async function useConfig(page: Page, config: object) {
  const box = page.getByRole('textbox', { name: 'Agent config JSON' });
  if (!(await box.isVisible())) await page.getByText(/^Agent config:/).click();
  await box.fill(JSON.stringify(config, null, 2));
  await page.getByRole('button', { name: 'Use config' }).click();
}

const views = (page: Page) => page.getByRole('region', { name: 'Runs and rating' });

test('a learner pastes a config and plays 20 Nim runs, 5 in parallel, and sees outcomes and rating', async ({
  page,
}) => {
  await openAisys(page);
  await useConfig(page, CONFIG);
  await expect(page.getByText('Playing as ada on nim.')).toBeVisible();
  await configure(page, { rounds: 20, fast: true });
  await page.getByRole('button', { name: 'Perfect Nim' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });

  // The rating panel, as the server's agent page: perfect play wins every run.
  const rating = views(page).getByRole('region', { name: 'Rating' });
  await expect(rating).toContainText('Agent ada on nim');
  await expect(rating.getByTestId('current-rating')).toHaveText('1');
  await expect(rating).toContainText(/Fully evaluated\s*yes \(10 runs\)/);
  const finishedRuns = Number(await rating.locator('dt:text("Finished runs") + dd').textContent());
  expect(finishedRuns).toBeGreaterThanOrEqual(20);
  await expect(
    views(page).getByRole('img', { name: /^Rating after each of \d+ finished runs: current 1\.000/ }),
  ).toBeVisible();

  // The runs table: finished runs with their outcome.
  const table = views(page).getByRole('table', { name: 'Runs' });
  await expect(table.getByRole('row').filter({ hasText: /finished\s*\d+\s*1$/ })).toHaveCount(finishedRuns);
  // Outcome per run in the reward chart.
  await expect(page.getByRole('button', { name: /^Round \d+: total reward 1/ }).first()).toBeVisible();

  // A run's history, on Nim's board.
  await table.getByRole('button', { name: 'Run 1', exact: true }).click();
  await expect(
    views(page).getByRole('img', { name: /^Nim: \d+ objects? left; the agent takes [123]$/ }),
  ).toBeVisible();
  await expect(
    views(page).getByRole('list', { name: 'Steps of run 1' }).getByRole('listitem').first(),
  ).toBeVisible();

  // The HTTP exchanges: five action requests per answer, as the server gives with parallel runs.
  await views(page).getByRole('tab', { name: /HTTP/ }).click();
  const exchanges = views(page).getByRole('table', { name: 'HTTP exchanges' });
  await expect(exchanges.getByRole('row').nth(1)).toContainText(
    /PUT \/act\/nim\s*200\s*[\d.]+ ms\s*5 action requests/,
  );
  await exchanges.getByRole('button', { name: /exchange 1$/ }).click();
  await expect(views(page).getByLabel('Request body')).toContainText('"agent": "ada"');
  await expect(views(page).getByLabel('Response body')).toContainText('"action_requests"');
});

test("a wrong password gets the real server's 401 body, in the HTTP log and as a clear error", async ({
  page,
}) => {
  await openAisys(page);
  await useConfig(page, CONFIG);
  await expect(page.getByText('Playing as ada on nim.')).toBeVisible();
  // The emulated server made ada with the first password; the learner's file now says another.
  await useConfig(page, { ...CONFIG, pwd: 'typo-password' });
  await expect(page.getByText(/made ada on nim with another password/)).toBeVisible();
  await configure(page, { rounds: 5, fast: true });
  await page.getByRole('button', { name: 'Run', exact: true }).click();

  await expect(page.getByText('The server answered 401: Unauthorized: wrong password').first()).toBeVisible({
    timeout: 60_000,
  });
  await expect(views(page).getByRole('alert')).toContainText(
    '{"errorcode": 401, "errorname": "Unauthorized", "description": "wrong password"}',
  );
  await views(page).getByRole('tab', { name: /HTTP/ }).click();
  const exchanges = views(page).getByRole('table', { name: 'HTTP exchanges' });
  await expect(exchanges.getByRole('row').nth(1)).toContainText(/PUT \/act\/nim\s*401/);
  await exchanges.getByRole('button', { name: /exchange 1$/ }).click();
  await expect(views(page).getByLabel('Response body')).toContainText('"description": "wrong password"');

  // Giving the emulated account the file's password lets the same file in.
  await page.getByRole('button', { name: 'Give the emulated account this password' }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
});

test('a recording of the real server shows its runs, rating and exchanges', async ({ page }) => {
  await openAisys(page);
  await page.getByRole('button', { name: 'Import…' }).click();
  await page
    .getByLabel('Open a file')
    .setInputFiles(sharedPath('conformance/aisysprojserver/transcripts/02-simple-v1-parallel.jsonl'));
  const rating = views(page).getByRole('region', { name: 'Rating' });
  await expect(rating).toContainText('Agent alice on nim-weak');
  await expect(
    views(page).getByRole('table', { name: 'Runs' }).getByRole('row').filter({ hasText: 'finished' }).first(),
  ).toBeVisible();
  // An environment with no board of its own shows the percept as JSON.
  await views(page).getByRole('table', { name: 'Runs' }).getByRole('button').first().click();
  await expect(views(page).getByLabel('Percept')).toBeVisible();
});

test('on a phone, settings, runs and rating are reachable and usable with the keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await openAisys(page);
  // The settings fold into a disclosure, open at first.
  await expect(page.getByText('aisys settings')).toBeVisible();
  await useConfig(page, { ...CONFIG, agent: 'phone' });
  await configure(page, { rounds: 5, fast: true });
  await page.getByRole('button', { name: 'Run', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
  const table = views(page).getByRole('table', { name: 'Runs' });
  await table.scrollIntoViewIfNeeded();
  await expect(table).toBeVisible();
  const box = await table.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await table.getByRole('button').first().focus();
  await page.keyboard.press('Enter');
  await expect(views(page).getByRole('img', { name: /^Nim: / })).toBeVisible();
});

const running: Started[] = [];
test.afterEach(async () => {
  await Promise.all(running.splice(0).map((process) => process.stop()));
});

test('the same config plays a real server over HTTP through the bridge', async ({ page }) => {
  // A real HTTP server (`protoplay serve aisys`), which writes the agent config a course would hand out.
  const serverPort = await freePort();
  const configFile = test.info().outputPath('agent.json');
  running.push(
    await startProtoplay(
      ['serve', 'aisys', '--port', String(serverPort), '--env', 'nim', '--agent-config', configFile],
      /agent config written/,
    ),
  );
  const bridgePort = await freePort();
  const pageOrigin = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4179)}`;
  const bridge = await startProtoplay(
    [
      'bridge',
      '--port',
      String(bridgePort),
      '--origin',
      pageOrigin,
      '--target',
      `aisys=http://127.0.0.1:${serverPort}`,
    ],
    /#bridge=\S+/,
  );
  running.push(bridge);
  await page.goto(`./${bridgeFragment(bridge.output())}`);
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption('aisys');
  await useConfig(page, JSON.parse(readFileSync(configFile, 'utf8')) as object);
  await configure(page, { rounds: 10, fast: true });

  const panel = page.getByRole('region', { name: 'Connect through protoplay bridge' });
  await expect(panel).toBeVisible();
  await panel.getByRole('button', { name: 'Connect' }).click();
  await expect(panel.locator('p[data-state]')).toHaveAttribute('data-state', 'connected');
  await panel.getByLabel(/against a real server/).check();
  await page.getByRole('button', { name: 'Connect' }).first().click(); // closes the panel

  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
  const rating = views(page).getByRole('region', { name: 'Rating' });
  await expect(rating).toContainText('Agent agent on nim');
  await expect(rating.getByTestId('current-rating')).toHaveText('1');

  const [download] = await Promise.all([page.waitForEvent('download'), exportAs(page, 'Protoplay JSON')]);
  const transcript = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    meta: Record<string, unknown>;
    messages: { dir: string; http?: { status?: number } }[];
  };
  expect(transcript.meta.source).toBe('bridge');
  // The real server's answers, as it sent them.
  const answers = transcript.messages.filter((m) => m.dir === 's2c');
  expect(answers.length).toBeGreaterThan(5);
  expect(answers.every((m) => m.http?.status === 200)).toBe(true);
});

test('every environment of the protocol is offered, each run drawn on its own board', async ({ page }) => {
  await openAisys(page);
  const picker = page.getByRole('combobox', { name: 'Environment' });
  // The picker lists the protocol's environments, whatever they are.
  await expect(picker.getByRole('option', { name: 'Wumpus cave' })).toBeAttached();
  await expect(picker.getByRole('option', { name: /^Halma/ }).first()).toBeAttached();
  await picker.selectOption('halma');
  await page.getByRole('button', { name: 'Greedy Halma' }).click();
  await configure(page, { rounds: 1, fast: true });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
  await views(page).getByRole('table', { name: 'Runs' }).getByRole('button').first().click();
  await expect(views(page).getByRole('listbox', { name: /board, 2 players/ })).toBeVisible();
});
