import { expect, test, type Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { findScavengerScenario } from '../../src/core/envs/scavenger';
import { playGamaEpisodes, writeGamaFrameLog } from '../../src/core/protocols/gama';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { configure, messageRows, status } from './playground-page';

/**
 * The GAMA scavengers in the playground, in real Chromium against the production build: the GAMA side in
 * the session worker, the learner's act() in the policy worker, the world canvas, the observation, the
 * rewards per episode and the social metrics; and a frame log recorded elsewhere, imported.
 */

async function openGama(page: Page) {
  await page.goto('./');
  // Picked once the page has restored what it stores, as a person would after it appears.
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption('gama');
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toBeVisible();
}

const world = (page: Page) => page.getByRole('img', { name: /^World after cycle/ });

test('GAMA plays scenario C with 12 scavengers and the greedy sample', async ({ page }) => {
  await openGama(page);
  await page.getByRole('combobox', { name: 'Scenario' }).selectOption('C_basic_single_entrance_region');
  const cycles = page.getByRole('spinbutton', { name: 'Cycles' });
  await cycles.fill('40');
  await cycles.press('Tab');
  await configure(page, { rounds: 2, fast: true });
  await page.getByRole('button', { name: 'Greedy' }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });

  // The log names each scavenger's channel on the one shared connection.
  await expect(messageRows(page).filter({ hasText: 'Scav. 12' }).first()).toBeVisible();
  // The world after the last cycle, and what the selected scavenger saw beside it.
  await expect(world(page)).toHaveAccessibleName(
    /World after cycle 40 of episode 2: 55 by 21 cells, 12 scavengers/,
  );
  await page.getByRole('combobox', { name: 'Scavenger' }).selectOption('Scav. 7');
  await expect(page.getByRole('img', { name: /^What Scav\. 7 saw in cycle \d+: 21 by 11$/ })).toBeVisible();
  // Rewards per episode.
  await expect(page.getByRole('button', { name: /^Round 1: total reward \d+/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Round 2: total reward \d+/ })).toBeVisible();
  // The social metrics of both episodes, and what each scavenger collected.
  await page.getByRole('tab', { name: /Episodes/ }).click();
  const metrics = page.getByRole('table', { name: 'Social metrics per episode' });
  await expect(metrics.getByRole('row')).toHaveCount(3);
  await expect(metrics.getByRole('row').nth(1)).toContainText(/^1\s*40\s*\d+/);
  await expect(page.getByRole('img', { name: /Resources collected per scavenger, episode 2/ })).toBeVisible();
});

test('GAMA steps a cycle at a time and stops without a policy error', async ({ page }) => {
  // Picked after another protocol: its sample gives way to GAMA's.
  await openGama(page);
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toHaveValue(
    'C_basic_single_entrance_region',
  );
  // A cycle is twelve policy calls in the policy worker: on a loaded machine that takes a while.
  await page.getByRole('button', { name: 'Step' }).click();
  await expect(status(page)).toContainText('Paused', { timeout: 30_000 });
  await expect(world(page)).toHaveAccessibleName(/cycle 1 of episode 1/, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Step' }).click();
  await expect(world(page)).toHaveAccessibleName(/cycle 2 of episode 1/, { timeout: 30_000 });
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(status(page)).toContainText('Stopped', { timeout: 30_000 });
  await page.getByRole('tab', { name: /Console/ }).click();
  await expect(page.getByRole('listbox', { name: 'Console entries' })).not.toContainText('policy');
});

test('GAMA plays batch episodes with a progress bar to the end', async ({ page }) => {
  await openGama(page);
  const cycles = page.getByRole('spinbutton', { name: 'Cycles' });
  await cycles.fill('250');
  await cycles.press('Tab');
  await configure(page, { rounds: 6, fast: true });
  await page.getByRole('switch', { name: 'Batch' }).check();
  await page.getByRole('button', { name: 'Random' }).click();
  // Every value the bar takes, as the page shows it.
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { progressSeen: number[] }).progressSeen = seen;
    const look = () => {
      const bar = document.querySelector('progress[aria-label="Batch progress"]');
      if (bar instanceof HTMLProgressElement && seen.at(-1) !== bar.value) seen.push(bar.value);
      requestAnimationFrame(look);
    };
    look();
  });
  await page.getByRole('button', { name: 'Run' }).click();
  const bar = page.getByRole('progressbar', { name: 'Batch progress' });
  await expect(bar).toBeVisible({ timeout: 30_000 });
  await expect(bar).toHaveAttribute('max', '1500');
  await expect(status(page)).toContainText('Finished', { timeout: 120_000 });
  await expect(bar).toHaveAttribute('value', '1500');
  await expect(page.getByText('all 6 episodes played')).toBeVisible();
  const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
  // The bar went up on the way, never down.
  expect(seen.some((value) => value > 0 && value < 1500)).toBe(true);
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
  // Batch mode keeps the results, not the frames.
  await expect(messageRows(page).filter({ hasText: 'Scav. 1' })).toHaveCount(0);
  await page.getByRole('tab', { name: /Episodes/ }).click();
  const metrics = page.getByRole('table', { name: 'Social metrics per episode' });
  await expect(metrics.getByRole('row')).toHaveCount(7);
  await expect(metrics.getByRole('row').nth(6)).toContainText(/^6\s*\d+/);
});

test('a GAMA frame log from another map says why it has no world, and shows what the wire tells', async ({
  page,
}, testInfo) => {
  const log = [
    '{ "scenario": "harvest_of_my_own" }',
    '{ "id": "Scav. 1", "connect": true }',
    '{ "id": "Scav. 2", "connect": true }',
    '{ "id": "Scav. 1", "request": { "state": [ [ 0, 1, 0 ], [ 0, 4, 0 ] ], "reward": 0 } }',
    'Scav. 1;move_ahead',
    '{ "id": "Scav. 2", "request": { "state": [ [ 1, 1, 0 ], [ 0, 4, 2 ] ], "reward": 0 } }',
    'Scav. 2;move_left',
    '{ "id": "Scav. 1", "request": { "state": [ [ 0, 0, 0 ], [ 0, 4, 0 ] ], "reward": 5 } }',
    'Scav. 1;idle',
  ].join('\n');
  const file = testInfo.outputPath('own-map.gamalog');
  writeFileSync(file, log);
  await openGama(page);
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(file);
  await expect(status(page)).toContainText('showing an imported transcript');
  await expect(
    page.getByText(/No world for cycle 2: 'harvest_of_my_own' is not one of Protoplay's scenarios/),
  ).toBeVisible();
  const wire = page.getByRole('table', { name: 'What the wire tells, episode 1, cycle 2' });
  await expect(wire.getByRole('row', { name: /Scav\. 1/ })).toContainText(/5\s*1\s*asked/);
  await expect(wire.getByRole('row', { name: /Scav\. 2/ })).toContainText('did not ask');
  await page.getByRole('slider', { name: 'Cycle shown' }).fill('1');
  await expect(page.getByRole('table', { name: 'What the wire tells, episode 1, cycle 1' })).toBeVisible();
});

test('GAMA run fast pauses on a whole cycle and stops with the episode closed from GAMA’s side', async ({
  page,
}) => {
  await openGama(page);
  const cycles = page.getByRole('spinbutton', { name: 'Cycles' });
  await cycles.fill('1000');
  await cycles.press('Tab');
  // Enough episodes that the run is still under way when it is paused, however fast the machine.
  await configure(page, { rounds: 50, fast: true });
  await page.getByRole('button', { name: 'Greedy' }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(world(page)).toHaveAccessibleName(/World after cycle [1-9]\d* of episode \d/, {
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(status(page)).toContainText('Paused', { timeout: 30_000 });
  // Paused at a cycle's start: the last frame is the next cycle's first request, without its reply.
  await expect(messageRows(page).last()).toContainText('Scav. 1 reward');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(status(page)).toContainText('Stopped', { timeout: 30_000 });
  await expect(messageRows(page).last()).toContainText('stopped by the learner');
  // The greedy sample may empty the map before the pause: however many episodes ended, the last is cut short.
  await page.getByRole('tab', { name: /Episodes/ }).click();
  await expect(
    page.getByRole('table', { name: 'Social metrics per episode' }).getByRole('row').nth(1),
  ).toBeVisible();
  await page.getByRole('tab', { name: /Console/ }).click();
  await expect(page.getByRole('listbox', { name: 'Console entries' })).toContainText('cut short');
  await expect(page.getByRole('listbox', { name: 'Console entries' })).not.toContainText('policy');
});

test('GAMA works at phone width from the keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openGama(page);
  await page.getByRole('spinbutton', { name: 'Cycles' }).fill('10');
  await page.getByRole('spinbutton', { name: 'Cycles' }).press('Tab');
  await page.getByLabel('Speed').selectOption('fast');
  await page.getByRole('combobox', { name: 'Scavenger' }).focus();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
  await expect(world(page)).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // The episodes from the keyboard.
  await page.getByRole('tab', { name: /Episodes/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('table', { name: 'Social metrics per episode' })).toBeVisible();
});

test('a GAMA frame log imports with its channels and its episodes read from the wire', async ({
  page,
}, testInfo) => {
  const recorder = new TranscriptRecorder({ protocol: 'gama', now: () => 0 });
  let turn = 0;
  await playGamaEpisodes({
    simulation: { scenario: findScavengerScenario('A')!, maxCycles: 12 },
    decide: () => (turn++ % 3 === 2 ? 'face_left' : 'move_ahead'),
    episodes: 1,
    recorder,
  });
  const file = testInfo.outputPath('scavengers.gamalog');
  writeFileSync(file, writeGamaFrameLog(recorder.transcript));

  await openGama(page);
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(file);
  await expect(status(page)).toContainText('showing an imported transcript');
  await expect(page.getByRole('region', { name: 'Import summary' })).toContainText(
    'a GAMA scavenger session, one WebSocket frame per line',
  );
  await expect(messageRows(page).filter({ hasText: 'Scav. 1' }).first()).toBeVisible();
  // The world is not on the wire, but replaying the recorded answers on scenario A gives every recorded
  // request back: the world is rebuilt, and the slider moves through its cycles.
  await expect(world(page)).toHaveAccessibleName(/World after cycle 12 of episode 1/);
  await expect(page.getByText(/World rebuilt by replaying the recorded answers on A_small/)).toBeVisible();
  const slider = page.getByRole('slider', { name: 'Cycle shown' });
  await slider.fill('3');
  await expect(world(page)).toHaveAccessibleName(/World after cycle 3 of episode 1/);
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await expect(world(page)).toHaveAccessibleName(/World after cycle 4 of episode 1/);
  await expect(page.getByRole('img', { name: /^What Scav\. 1 saw in cycle 4/ })).toBeVisible();
  await page.getByRole('tab', { name: /Episodes/ }).click();
  const metrics = page.getByRole('table', { name: 'Social metrics per episode' });
  await expect(metrics.getByRole('row')).toHaveCount(2);
  await expect(metrics.getByRole('row').nth(1)).toContainText(/^1\s*12\s*\d/);
  await expect(page.getByText('Read from the wire')).toBeVisible();
});
