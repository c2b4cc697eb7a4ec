import { expect, test } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROTOCOLS } from '../../src/core/protocols/registry';
import { importRecording } from '../../src/core/transcript/import';
import { serialiseTranscript } from '../../src/core/transcript/json-format';
import { writeBigRddlsimStream } from '../../bench/inspect/big-recording';
import { loadRecording } from '../core/protocols/rddlsim/recordings';
import { messageRows, status } from './playground-page';

/**
 * A damaged real recording, imported: what can be read is shown, every broken rule appears in the console
 * with its rule id and leads to its message, and the unreadable part is named with its file and line.
 */
test('a damaged recording shows its broken rules and its unreadable part, located', async ({
  page,
}, testInfo) => {
  const original = readFileSync(
    resolve(process.cwd(), '../shared/conformance/rddlsim/sysadmin_inst_mdp__1.transcript'),
    'latin1',
  );
  // The client's first round request misspelt (same length, so the record's byte counts hold)...
  let damaged = original.replace('<round-request', '<round-requesX');
  expect(damaged).not.toBe(original);
  // ...and the last record's header garbled.
  const last = damaged.lastIndexOf('@@ ');
  const line = damaged.slice(0, last).split('\n').length;
  damaged = `${damaged.slice(0, last)}@@ oops\n${damaged.slice(last + 10)}`;
  const file = testInfo.outputPath('damaged.transcript');
  writeFileSync(file, damaged, 'latin1');

  await page.goto('./');
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(file);
  await expect(status(page)).toContainText('showing an imported transcript');

  const summary = page.getByRole('region', { name: 'Import summary' });
  await expect(summary).toContainText('1 session');
  await expect(summary).toContainText('3 rounds');
  await expect(summary).toContainText(/[1-9]\d* violations?/);
  await expect(summary).toContainText('1 unreadable part');
  await expect(summary.getByRole('list', { name: 'Unreadable parts' })).toContainText(
    `damaged.transcript:${line}: not a record header: '@@ oops'`,
  );

  // Each part of the summary leads to what it counts.
  await summary.getByRole('button', { name: /violations?$/ }).click();
  await expect(page.getByRole('tab', { name: /Console/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: 'Messages' })).toBeFocused();
  await expect(page.getByRole('tabpanel', { name: 'Message text' })).toContainText('<round-requesX');
  await summary.getByRole('button', { name: '3 rounds' }).click();
  await expect(page.getByRole('region', { name: 'Rewards' })).toBeFocused();
  await summary.getByRole('button', { name: '1 unreadable part' }).click();
  await expect(summary.getByRole('list', { name: 'Unreadable parts' })).toBeFocused();
  await summary.getByRole('button', { name: /^\d+ messages$/ }).click();
  await expect(page.getByRole('tab', { name: 'Messages' })).toHaveAttribute('aria-selected', 'true');
  await expect(messageRows(page).and(page.locator('[aria-selected="true"]'))).toContainText(
    'session-request',
  );

  // The broken rule in the console, with its id; choosing it selects its message.
  await page.getByRole('tab', { name: /Console/ }).click();
  const entries = page.getByRole('listbox', { name: 'Console entries' });
  const entry = entries.getByRole('option').filter({ hasText: 'rddlsim.round-request.expected' });
  await expect(entry).toContainText('<round-requesX>');
  // Its kind stands apart from its text.
  const kind = (await entry.getByText('violation', { exact: true }).boundingBox())!;
  const text = (await entry.getByText(/round-request\.expected/).boundingBox())!;
  const kindWidth = await entry
    .getByText('violation', { exact: true })
    .evaluate((e) => e.scrollWidth - e.clientWidth);
  expect(kindWidth).toBeLessThanOrEqual(0);
  expect(kind.x + kind.width).toBeLessThanOrEqual(text.x);
  await entry.click();
  await expect(page.getByRole('tabpanel', { name: 'Message text' })).toContainText('<round-requesX');
  // The log flags the message, and shows it selected.
  await page.getByRole('tab', { name: 'Messages' }).click();
  await expect(messageRows(page).and(page.locator('[aria-selected="true"]'))).toContainText('round-request');
});

/**
 * A Protoplay JSON transcript cut at two thirds (what a crashed run leaves, or a stopped download): the
 * messages written whole are shown, and the summary says where the file ends.
 */
test('a Protoplay JSON transcript cut short shows every complete message and where it ends', async ({
  page,
}, testInfo) => {
  const record = readFileSync(
    resolve(process.cwd(), '../shared/conformance/rddlsim/sysadmin_inst_mdp__1.transcript'),
  );
  const transcript = importRecording([{ name: 'r.transcript', bytes: record }], PROTOCOLS).transcripts[0]!;
  const text = serialiseTranscript(transcript);
  const cut = text.slice(0, Math.floor((text.length * 2) / 3));
  const lines = cut.split('\n');
  const complete = lines.filter((row) => /^ {4}\{"index":\d+.*\},?$/.test(row)).length;
  expect(complete).toBeGreaterThan(50);
  expect(complete).toBeLessThan(transcript.messages.length);
  const where = lines.at(-1)!.endsWith('}') ? `after message ${complete - 1}` : `inside message ${complete}`;
  const file = testInfo.outputPath('cut.json');
  writeFileSync(file, cut);

  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(file);
  await expect(status(page)).toContainText('showing an imported transcript');
  const summary = page.getByRole('region', { name: 'Import summary' });
  await expect(summary).toContainText(`${complete} messages`);
  await expect(summary).toContainText('1 unreadable part');
  await expect(summary.getByRole('list', { name: 'Unreadable parts' })).toContainText(
    `cut.json:${lines.length}: the file ends ${where}; kept the header, ${complete} complete messages`,
  );
  await summary.getByRole('button', { name: `${complete} messages` }).click();
  await expect(messageRows(page).first()).toContainText('session-request');
});

/**
 * A real rddlsim session whose round the server ended early (the client sent two non-default actions where
 * the instance allows one): the import says so in its summary, and the console says why at the round-end,
 * as read from the task's RDDL and the actions sent in the state observed.
 */
test('a round the real server ended early is counted in the summary and explained in the console', async ({
  page,
}) => {
  await page.goto('./');
  await page.getByRole('button', { name: 'Import…' }).click();
  await page
    .getByLabel('Open a file')
    .setInputFiles(
      resolve(process.cwd(), '../shared/conformance/rddlsim/edge-cases/too_many_actions.transcript'),
    );
  await expect(status(page)).toContainText('showing an imported transcript');
  const summary = page.getByRole('region', { name: 'Import summary' });
  await expect(summary).toContainText('2 rounds');
  await summary.getByRole('button', { name: '1 round ended early' }).click();
  await expect(page.getByRole('tab', { name: /Console/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Message text' })).toContainText('<round-end>');
  const entry = page
    .getByRole('listbox', { name: 'Console entries' })
    .getByRole('option')
    .filter({ hasText: 'round 1 ended early' });
  await expect(entry).toContainText(
    'the server ended the round before its horizon of 40 turns: 2 non-default actions, but max-nondef-actions is 1',
  );
  await expect(entry).toHaveAttribute('aria-selected', 'true');
});

/**
 * That round repeated 300 times (then the sound session's end): the summary counts every round, and its
 * button lands on the first round's note, selected and in view, though the console holds 300 entries and
 * shows the newest while nothing is selected.
 */
test('many rounds ended early: the summary leads to the first one, selected and scrolled to', async ({
  page,
}, testInfo) => {
  const probe = loadRecording('edge-cases/too_many_actions').messages;
  const sound = loadRecording('sysadmin_inst_mdp__1').messages;
  const recorded = [
    ...probe.slice(0, probe.findIndex((m) => m.text?.includes('<round-end>')) + 1),
    sound.find((m) => m.text?.includes('<session-end>'))!,
  ];
  const file = testInfo.outputPath('ended-early.log');
  const { rounds } = await writeBigRddlsimStream(recorded, file, 300 * 5446);
  expect(rounds).toBeGreaterThan(250);

  await page.goto('./');
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(file);
  await expect(status(page)).toContainText('showing an imported transcript');
  const summary = page.getByRole('region', { name: 'Import summary' });
  await summary.getByRole('button', { name: `${rounds} rounds ended early` }).click();
  const entries = page.getByRole('listbox', { name: 'Console entries' }).getByRole('option');
  const first = entries.filter({ hasText: /^r1 t3\s*note\s*round 1 ended early/ });
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(first).toBeInViewport();
  await expect(entries.filter({ hasText: `round ${rounds} ended early` })).toHaveCount(0);
  await expect(page.getByRole('tabpanel', { name: 'Message text' })).toContainText('<round-end>');
});
