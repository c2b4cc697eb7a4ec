import { expect, test } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { serialiseTranscript } from '../../src/core/transcript/json-format';
import { loadRecording } from '../core/protocols/rddlsim/recordings';
import { writeBigRddlsimStream } from '../../bench/inspect/big-recording';
import { status } from './playground-page';

/**
 * A recording too big to read at once before showing it (an rddlsim wire stream of about 8 MB, a real
 * session's rounds repeated, with one client message misspelt far into the file): the session is on
 * screen while the file is still being read, and once all of it is read and checked the summary counts
 * every message and round, the broken rules, and the unreadable message with where it is.
 */
test('a big recording is shown while it is read, then summed up whole with its broken rule', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const recorded = loadRecording('sysadmin_inst_mdp__1').messages;
  const file = testInfo.outputPath('big.log');
  const { rounds } = await writeBigRddlsimStream(recorded, file, 8e6);

  const text = readFileSync(file, 'latin1');
  // The client's round request of a round near the end misspelt (same length).
  const at = text.lastIndexOf('<round-request', text.length - 200_000);
  writeFileSync(file, `${text.slice(0, at)}<round-requesX${text.slice(at + 14)}`, 'latin1');
  const messages = text.split('\0').length - 1;

  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(file);
  // The first rounds are charted, and the page says how far it has read, before the import is done.
  await expect(page.getByRole('group', { name: 'Total reward per round' })).toBeVisible({ timeout: 120_000 });
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /^Opening big\.log: .* read and checked…|^Opened big\.log/ })
      .first(),
  ).toBeVisible();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /^Opened big\.log/ })
      .first(),
  ).toBeVisible({
    timeout: 240_000,
  });
  await expect(status(page)).toContainText('showing an imported transcript');
  const summary = page.getByRole('region', { name: 'Import summary' });
  // The misspelt message is no rddlsim message: skipped and located; the server's answer to the round
  // request it should have been then breaks the rules.
  const kept = messages - 1;
  await expect(summary).toContainText(`${kept.toLocaleString('en')} messages`);
  await expect(summary).toContainText(`${rounds.toLocaleString('en')} rounds`);
  await expect(summary).toContainText(/[1-9]\d* violations?/);
  await expect(summary).toContainText('1 unreadable part');
  await expect(summary).toContainText(/big\.log:\d+: not an rddlsim message, skipped: [^]*<round-requesX/);
  // Every message that was read reached the log.
  await expect(page.getByRole('region', { name: 'Message log' })).toContainText(
    `of ${kept.toLocaleString('en')} messages`,
  );
  // The status line counts them as they arrive ("N of M messages", busy, while the last slices come after
  // "Opened"), and ends on all of them.
  const count = page.locator('footer.status .count');
  await expect(count).toHaveText(`${kept.toLocaleString('en')} messages`);
  await expect(count).toHaveAttribute('aria-busy', 'false');
});

/**
 * A Protoplay JSON transcript bigger than the page reads whole (from 128 MiB, 134 MB: a real rddlsim session
 * written by Protoplay, its messages repeated, one message line near the end cut short): it is read in
 * chunks as it is shown, and the summary keeps every message before the damaged line and says where it is.
 */
test('a Protoplay JSON transcript of 140 MB is read in chunks and its damaged line located', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const one = serialiseTranscript(loadRecording('sysadmin_inst_mdp__1')).split('\n');
  // The writer's layout: the header lines, one line per message, then the end of the lists.
  const first = one.findIndex((line) => line.startsWith('    {"index":'));
  const last = one.findLastIndex((line) => line.startsWith('    {"index":'));
  const items = one.slice(first, last + 1).map((line) => line.replace(/,$/, ''));
  const lines: string[] = [];
  let size = 0;
  while (size < 140e6) {
    for (const item of items) {
      const line = item.replace(/^ {4}\{"index":\d+,/, `    {"index":${lines.length},`);
      lines.push(line);
      size += line.length + 2;
    }
  }
  // A message line near the end cut short: what follows it is not read.
  const damaged = lines.length - 500;
  lines[damaged] = lines[damaged]!.slice(0, 60);
  const header = one.slice(0, first);
  const file = testInfo.outputPath('big.json');
  writeFileSync(file, [...header, lines.join(',\n'), ...one.slice(last + 1)].join('\n'));

  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(file);
  // Read in chunks: the page says how far it has read and checked while it is shown.
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /^Opening big\.json: .* read and checked…/ })
      .first(),
  ).toBeVisible({ timeout: 120_000 });
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /^Opened big\.json/ })
      .first(),
  ).toBeVisible({ timeout: 240_000 });
  await expect(page.getByRole('group', { name: 'Total reward per round' })).toBeVisible({ timeout: 120_000 });
  const summary = page.getByRole('region', { name: 'Import summary' });
  await expect(summary).toContainText(`${damaged.toLocaleString('en')} messages`);
  await expect(summary).toContainText('1 unreadable part');
  await expect(summary).toContainText(new RegExp(`big\\.json:${header.length + damaged + 1}: `));
  const count = page.locator('footer.status .count');
  await expect(count).toHaveText(`${damaged.toLocaleString('en')} messages`, { timeout: 120_000 });
});
