import { expect, test } from '@playwright/test';
import { appendFileSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeBigRddlsimStream } from '../../bench/inspect/big-recording';
import { PROTOCOLS } from '../../src/core/protocols/registry';
import { importRecording } from '../../src/core/transcript/import';
import { loadRecording } from '../core/protocols/rddlsim/recordings';
import { messageRows, status } from './playground-page';

const recording = (name: string) => resolve(process.cwd(), '../shared/conformance/rddlsim', name);
const FIRST = 'sysadmin_inst_mdp__1.transcript';
const SECOND = 'elevators_inst_mdp__1.transcript';

/**
 * Two recorded sessions imported together, on a phone and by keyboard: the summary offers the session to
 * show, each named by its file and message count, and picking the second shows its messages and figures.
 */
test('an import of two sessions shows the one picked by keyboard, its figures and its messages', async ({
  page,
}) => {
  const counts = importRecording(
    [FIRST, SECOND].map((name) => ({ name, bytes: new Uint8Array(readFileSync(recording(name))) })),
    PROTOCOLS,
  ).transcripts.map((transcript) => transcript.messages.length.toLocaleString('en'));
  expect(counts[0]).not.toBe(counts[1]);

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles([recording(FIRST), recording(SECOND)]);
  await expect(status(page)).toContainText('showing an imported transcript');

  const summary = page.getByRole('region', { name: 'Import summary' });
  await expect(summary).toContainText('2 sessions');
  const picker = summary.getByRole('combobox', { name: 'Session shown' });
  await expect(picker).toHaveValue('1');
  await expect(picker.getByRole('option')).toHaveText([
    `Session 1 · ${FIRST} · ${counts[0]} messages`,
    `Session 2 · ${SECOND} · ${counts[1]} messages`,
  ]);
  await expect(summary.getByRole('button', { name: `${counts[0]} messages` })).toBeVisible();
  // The picker fits the phone's screen.
  const box = (await picker.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);

  await picker.focus();
  await page.keyboard.press('ArrowDown');
  await expect(summary.getByRole('button', { name: `${counts[1]} messages` })).toBeVisible();
  await expect(picker).toHaveValue('2');
  await expect(picker).toBeEnabled();
  await expect(picker).toBeFocused();
  await expect(picker.locator('option:checked')).toHaveText(`Session 2 · ${SECOND} · ${counts[1]} messages`);
  await expect(page.locator('footer.status .count')).toHaveText(`${counts[1]} messages`);
  // The log is the second session's: its session request names the elevators instance.
  await summary.getByRole('button', { name: `${counts[1]} messages` }).click();
  await expect(messageRows(page).and(page.locator('[aria-selected="true"]'))).toContainText(
    'session-request',
  );
  await expect(page.getByRole('tabpanel', { name: 'Message text' })).toContainText('elevators_inst_mdp__1');
  await expect(page.getByRole('tabpanel', { name: 'Message text' })).not.toContainText('sysadmin');

  // And back to the first.
  await picker.focus();
  await page.keyboard.press('ArrowUp');
  await expect(summary.getByRole('button', { name: `${counts[0]} messages` })).toBeVisible();
  await expect(picker).toHaveValue('1');
});

/**
 * One wire text of two runs, big enough to be read in chunks (a log of a server that served one client,
 * then another): the page shows the first run as it reads, counts both in the summary, and picking the
 * second reads the file again for it.
 */
test('a big wire text of two runs shows the first while it is read and offers the second', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const file = testInfo.outputPath('runs.log');
  await writeBigRddlsimStream(loadRecording('sysadmin_inst_mdp__1').messages, file, 5e6);
  const second = loadRecording('elevators_inst_mdp__1')
    .messages.filter((m) => m.kind === 'data')
    .map((m) => `${m.text}\0`);
  appendFileSync(file, second.join(''));
  const firstCount = readFileSync(file, 'latin1').split('\0').length - 1 - second.length;
  const [one, two] = [firstCount, second.length].map((n) => n.toLocaleString('en'));

  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(file);
  const summary = page.getByRole('region', { name: 'Import summary' });
  await expect(summary).toContainText('2 sessions', { timeout: 120_000 });
  const picker = summary.getByRole('combobox', { name: 'Session shown' });
  await expect(picker.getByRole('option')).toHaveText([
    `Session 1 · ${one} messages`,
    `Session 2 · ${two} messages`,
  ]);
  await expect(summary).toContainText('0 violations');
  await expect(page.locator('footer.status .count')).toHaveText(`${one} messages`, { timeout: 60_000 });

  await picker.selectOption('2');
  await expect(summary.getByRole('button', { name: `${two} messages` })).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('footer.status .count')).toHaveText(`${two} messages`);
  await summary.getByRole('button', { name: `${two} messages` }).click();
  await expect(page.getByRole('tabpanel', { name: 'Message text' })).toContainText('elevators_inst_mdp__1');
});
