import { expect, test, type Page } from '@playwright/test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeBigRddlsimStream } from '../../bench/inspect/big-recording';
import { loadRecording } from '../core/protocols/rddlsim/recordings';
import { configure, editor, messageRows, status } from './playground-page';

/**
 * The sequence chart of an imported transcript: one lane per connection, a click on a mark or the arrow
 * keys select the message in the log, and a 100,000-message transcript stays usable.
 */

const conformance = (...parts: string[]) => resolve(process.cwd(), '../shared/conformance', ...parts);

async function importFiles(page: Page, files: string[]) {
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(files);
  await expect(page.getByRole('status').filter({ hasText: 'Opened' })).toBeVisible({ timeout: 60_000 });
}

const chart = (page: Page) => page.getByRole('region', { name: 'Sequence chart' });
const plot = (page: Page) => chart(page).getByRole('application');
/** The transcript index of the message the chart shows selected. */
async function selectedIndex(page: Page): Promise<number> {
  const text = await chart(page).locator('#sequence-selected').textContent();
  return Number(/#(\d+)/.exec(text ?? '')![1]);
}

test('an imported rddlsim recording: one lane, a clicked mark is the log’s selection, arrows move it', async ({
  page,
}) => {
  await importFiles(page, [conformance('rddlsim', 'sysadmin_inst_mdp__1.transcript')]);
  await expect(status(page)).toContainText('showing an imported transcript');
  const total = Number(
    /(\d+) messages/.exec((await page.getByRole('region', { name: 'Import summary' }).textContent())!)![1],
  );
  await page.getByRole('tab', { name: 'Sequence' }).click();
  await expect(chart(page)).toHaveAttribute('data-lanes', '1');
  await expect(chart(page).getByRole('list', { name: 'Lanes' }).getByRole('listitem')).toHaveCount(1);
  await expect(chart(page)).toContainText(`of ${total}`);

  // A click in the middle of the lane selects the mark under it.
  const box = (await plot(page).boundingBox())!;
  await plot(page).click({ position: { x: box.width / 2, y: 22 + 15 } });
  await expect(chart(page).locator('#sequence-selected')).toContainText(/#\d+/);
  const clicked = await selectedIndex(page);
  expect(clicked).toBeGreaterThan(0);
  expect(clicked).toBeLessThan(total - 1);
  // The message detail beside the chart shows it, and so does the log.
  await page.getByRole('tab', { name: 'Messages' }).click();
  await expect(messageRows(page).and(page.locator('[aria-selected="true"]'))).toHaveAttribute(
    'id',
    `message-${clicked}`,
  );

  // Selected in the log, shown in the chart; the keyboard moves from there.
  const row = messageRows(page).nth(2);
  const rowIndex = Number((await row.getAttribute('id'))!.slice('message-'.length));
  expect(rowIndex).not.toBe(clicked);
  await row.click();
  await page.getByRole('tab', { name: 'Sequence' }).click();
  await expect(chart(page).locator('#sequence-selected')).toContainText(`#${rowIndex} `);
  await plot(page).focus();
  await page.keyboard.press('Home');
  await expect(chart(page).locator('#sequence-selected')).toContainText('#0 ');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(chart(page).locator('#sequence-selected')).toContainText('#2 ');
  await page.keyboard.press('ArrowLeft');
  await expect(chart(page).locator('#sequence-selected')).toContainText('#1 ');
  await page.keyboard.press('End');
  await expect(chart(page).locator('#sequence-selected')).toContainText(`#${total - 1}`);
  // One lane: nowhere to go up or down.
  await page.keyboard.press('ArrowDown');
  await expect(chart(page).locator('#sequence-selected')).toContainText(`#${total - 1}`);
  await page.keyboard.press('Home');
  await expect(chart(page).locator('#sequence-selected')).toContainText('#0');
  await page.getByRole('tab', { name: 'Messages' }).click();
  await expect(messageRows(page).and(page.locator('[aria-selected="true"]'))).toHaveAttribute(
    'id',
    'message-0',
  );
});

test('a MASSim recording gets one lane per connection, and Down moves to the next agent’s lane', async ({
  page,
}) => {
  const folder = conformance('massim', 'basic', 'connections');
  const names = readdirSync(folder);
  const connections = new Set(names.filter((n) => n.endsWith('.c2s.bin')).map((n) => n.slice(0, -8)));
  await importFiles(
    page,
    names.map((name) => join(folder, name)),
  );
  await page.getByRole('tab', { name: 'Sequence' }).click();
  await expect(chart(page)).toHaveAttribute('data-lanes', String(connections.size));
  const labels = chart(page).getByRole('list', { name: 'Lanes' }).getByRole('listitem');
  await expect(labels).toHaveCount(connections.size);
  const laneNames = await labels.allTextContents();
  expect(new Set(laneNames.map((l) => l.trim())).size).toBe(connections.size);

  await plot(page).focus();
  await page.keyboard.press('Home');
  await expect(chart(page).locator('#sequence-selected')).toContainText('#0');
  const firstLane = (await chart(page).locator('#sequence-selected').textContent())!;
  const firstConn = laneNames.find((name) => firstLane.includes(name.trim()))!;
  expect(firstConn).toBeTruthy();
  await page.keyboard.press('ArrowDown');
  await expect(chart(page).locator('#sequence-selected')).not.toContainText(firstConn.trim());
  const secondLane = laneNames[laneNames.indexOf(firstConn) + 1]!.trim();
  await expect(chart(page).locator('#sequence-selected')).toContainText(secondLane);
  await page.keyboard.press('ArrowUp');
  await expect(chart(page).locator('#sequence-selected')).toContainText(firstConn.trim());
});

test('a 100,000-message transcript is charted binned, zooms to single marks, and answers clicks and keys', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const file = testInfo.outputPath('big.log');
  // The recorded session's rounds repeated until the stream holds 100,000 messages and more.
  const recorded = loadRecording('sysadmin_inst_mdp__1').messages;
  const perByte = recorded.length / recorded.reduce((sum, m) => sum + (m.text?.length ?? 0) + 1, 0);
  await writeBigRddlsimStream(recorded, file, Math.ceil(105_000 / perByte));
  const messages = readFileSync(file).reduce((n, byte) => (byte === 0 ? n + 1 : n), 0);
  expect(messages).toBeGreaterThanOrEqual(100_000);

  await importFiles(page, [file]);
  await page.getByRole('tab', { name: 'Sequence' }).click();
  await expect(chart(page)).toContainText(`of ${messages.toLocaleString('en')}`, { timeout: 60_000 });
  await expect(chart(page)).toHaveAttribute('data-binned', 'true');
  // Drawn: the canvas holds painted pixels in the lane.
  await expect
    .poll(() =>
      plot(page)
        .locator('canvas')
        .evaluate((canvas: HTMLCanvasElement) => {
          const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
          let painted = 0;
          for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) painted++;
          return painted;
        }),
    )
    .toBeGreaterThan(1000);
  // The page holds a handful of elements for the chart, however long the transcript.
  expect(await chart(page).locator('*').count()).toBeLessThan(60);

  await plot(page).focus();
  await page.keyboard.press('End');
  await expect(chart(page).locator('#sequence-selected')).toContainText(`#${messages - 1}`);
  // Zoomed in until every message is a mark of its own, around the selection.
  for (let i = 0; i < 20 && (await chart(page).getAttribute('data-binned')) === 'true'; i++)
    await page.keyboard.press('+');
  await expect(chart(page)).toHaveAttribute('data-binned', 'false');
  await expect(chart(page)).toContainText(`–${(messages - 1).toLocaleString('en')} of`);
  await page.keyboard.press('ArrowLeft');
  await expect(chart(page).locator('#sequence-selected')).toContainText(`#${messages - 2}`);
  // A click on a mark selects it in the log.
  const box = (await plot(page).boundingBox())!;
  await plot(page).click({ position: { x: box.width / 3, y: 22 + 15 } });
  await expect.poll(() => selectedIndex(page)).toBeLessThan(messages - 2);
  const clicked = await selectedIndex(page);
  expect(clicked).toBeGreaterThan(messages - 1000);
  await page.getByRole('tab', { name: 'Messages' }).click();
  await expect(messageRows(page).and(page.locator('[aria-selected="true"]'))).toHaveAttribute(
    'id',
    `message-${clicked}`,
  );
  // Zoomed back out to everything with one key.
  await page.getByRole('tab', { name: 'Sequence' }).click();
  await plot(page).focus();
  await page.keyboard.press('0');
  await expect(chart(page)).toHaveAttribute('data-binned', 'true');
  await expect(chart(page)).toContainText(`0–${(messages - 1).toLocaleString('en')} of`);
});

test('at phone width the chart fits the screen and still selects by keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await importFiles(page, [conformance('rddlsim', 'sysadmin_inst_mdp__1.transcript')]);
  await page.getByRole('tab', { name: 'Sequence' }).click();
  await expect(chart(page)).toHaveAttribute('data-lanes', '1');
  const box = (await chart(page).boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(overflow).toBeLessThanOrEqual(390);
  await plot(page).focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await expect(chart(page).locator('#sequence-selected')).toContainText('#1');
});

test('an imported recording is scrubbed turn by turn: the state panel, its changes and the log follow', async ({
  page,
}) => {
  await importFiles(page, [conformance('rddlsim', 'sysadmin_inst_mdp__1.transcript')]);
  const turns = page.getByRole('group', { name: 'Turns' });
  const slider = turns.getByRole('slider', { name: 'Turn shown' });
  const state = page.getByRole('region', { name: 'State panel' });
  const total = Number(await slider.getAttribute('max')) + 1;
  expect(total).toBeGreaterThan(10);

  await turns.getByRole('button', { name: 'First turn' }).click();
  await expect(state).toContainText('Round 1, turn 1');
  await expect(slider).toHaveAttribute('aria-valuetext', 'round 1, turn 1');
  await turns.getByRole('button', { name: 'Next turn' }).click();
  await expect(state).toContainText('Round 1, turn 2');
  // The log selects the message that carried the turn.
  await expect(messageRows(page).and(page.locator('[aria-selected="true"]'))).toContainText('r1 t2');

  // The slider moves by keyboard: End is the last turn of the last round.
  await slider.focus();
  await page.keyboard.press('End');
  await expect(slider).toHaveAttribute('aria-valuetext', /round 3, turn \d+/);
  const lastText = (await slider.getAttribute('aria-valuetext'))!;
  await expect(state).toContainText(lastText.replace('round', 'Round'));
  // Somewhere in a round, a fluent that changed since the turn before is marked.
  let marked = false;
  for (let i = 0; i < 12 && !marked; i++) {
    await page.keyboard.press('ArrowLeft');
    marked = (await state.getByText('(changed)').count()) > 0;
  }
  expect(marked).toBe(true);

  // Replay steps through the turns by itself until paused.
  await turns.getByRole('button', { name: 'First turn' }).click();
  await expect(slider).toHaveAttribute('aria-valuetext', 'round 1, turn 1');
  await turns.getByRole('button', { name: 'Replay' }).click();
  // It moves on by itself (at least two turns; how far by the time it is looked at depends on the machine).
  await expect
    .poll(async () => Number(await slider.inputValue()), { timeout: 15_000 })
    .toBeGreaterThanOrEqual(2);
  await turns.getByRole('button', { name: 'Pause' }).click();
  await expect(turns.getByRole('button', { name: 'Replay' })).toBeVisible();
});

test('a live session is charted as it plays, following the newest message, round ends marked', async ({
  page,
}) => {
  await page.goto('./');
  await editor(page);
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await configure(page, { rounds: 3, fast: true });
  await page.getByRole('tab', { name: 'Sequence' }).click();
  await expect(chart(page)).toContainText('No messages yet');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  const counted = await page.getByText(/^[\d,]+ messages$/).textContent();
  const total = Number(counted!.replace(/\D/g, ''));
  await expect(chart(page)).toContainText(`of ${total}`);
  await expect(chart(page)).toHaveAttribute('data-lanes', '1');
  // Following the newest: the selection is the last message, the connection's close.
  await expect(chart(page).locator('#sequence-selected')).toContainText(`#${total - 1} `);
  await expect(chart(page).locator('#sequence-selected')).toContainText('close');
  // A few steps back (past both sides' close) is the session's end, sent by the server.
  await plot(page).focus();
  const selected = chart(page).locator('#sequence-selected');
  for (let back = 1; back <= 3 && !/session-end/.test((await selected.textContent())!); back++) {
    await page.keyboard.press('ArrowLeft');
    await expect(selected).toContainText(`#${total - 1 - back} `);
  }
  await expect(selected).toContainText(/S→C\s+session-end/);
  // Each round's end is marked: three markers, each naming its round.
  await expect(chart(page)).toHaveAttribute('data-markers', '3');
});

test('a drag pans away from the selected message, and the chart stays where it was dragged', async ({
  page,
}) => {
  await importFiles(page, [conformance('rddlsim', 'sysadmin_inst_mdp__1.transcript')]);
  await page.getByRole('tab', { name: 'Sequence' }).click();
  await plot(page).focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 3; i++) await page.keyboard.press('+');
  await expect(chart(page)).toContainText(/showing 0–\d+ of/);
  const before = (await chart(page)
    .getByText(/showing/)
    .textContent())!;
  const box = (await plot(page).boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.8, box.y + 40);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.2, box.y + 40, { steps: 8 });
  await page.mouse.up();
  // Later messages in view, the first one (still selected) out of it.
  await expect(chart(page)).not.toContainText(/showing 0–/);
  await expect(chart(page).locator('#sequence-selected')).toContainText('#0 ');
  expect(
    (await chart(page)
      .getByText(/showing/)
      .textContent())!,
  ).not.toBe(before);
});

test('an imported rddlsim recording is compared with the emulator, and a changed one shows where they part', async ({
  page,
}, testInfo) => {
  const original = readFileSync(conformance('rddlsim', 'sysadmin_inst_mdp__1.transcript'), 'latin1');
  await importFiles(page, [conformance('rddlsim', 'sysadmin_inst_mdp__1.transcript')]);
  const compare = page.getByRole('group', { name: 'Compare with the emulator' });
  await compare.getByRole('button', { name: 'Compare with the emulator' }).click();
  await expect(compare).toContainText(/No difference in \d+ messages/, {
    timeout: 60_000,
  });

  // One reward deep in the session changed (one digit, so the record's byte count holds).
  let at = -1;
  for (let i = 0; i < 60; i++) at = original.indexOf('<immediate-reward>', at + 1);
  const digit = at + '<immediate-reward>'.length;
  const changed = original[digit] === '9' ? '8' : String(Number(original[digit]) + 1);
  const damaged = `${original.slice(0, digit)}${changed}${original.slice(digit + 1)}`;
  const file = testInfo.outputPath('changed.transcript');
  writeFileSync(file, damaged, 'latin1');
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(file);
  await expect(page.getByRole('status').filter({ hasText: 'Opened changed.transcript' })).toBeVisible();
  await compare.getByRole('button', { name: 'Compare with the emulator' }).click();
  await expect(compare).toContainText('First difference', { timeout: 60_000 });
  const show = compare.getByRole('button', { name: /^Show #\d+$/ });
  const index = Number((await show.textContent())!.replace(/\D/g, ''));
  await compare.getByText('Both texts').click();
  await expect(compare.getByRole('region', { name: 'Recorded text' })).toContainText(
    `<immediate-reward>${changed}`,
  );
  await expect(compare.getByRole('region', { name: 'Emulated text' })).toContainText('<immediate-reward>');
  // Shown: selected in the log and in the sequence chart.
  await show.click();
  await expect(messageRows(page).and(page.locator('[aria-selected="true"]'))).toHaveAttribute(
    'id',
    `message-${index}`,
  );
  await page.getByRole('tab', { name: 'Sequence' }).click();
  await expect(chart(page).locator('#sequence-selected')).toContainText(`#${index} `);
});
