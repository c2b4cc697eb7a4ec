import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import {
  defaultMassimWorkspace,
  encodeMassimWorkspace,
  massimLinkParameter,
} from '../../src/core/protocols/massim/playground/workspace-data';
import { RDDLSIM_SAMPLES } from '../../src/core/protocols/rddlsim/samples';
import { compressToBase64Url } from '../../src/state/share';
import { exportAs, status } from './playground-page';

/**
 * Share links reproduce a run exactly: the link Share shows (with its length) opens, in a browser that
 * has never seen the playground, the same configuration, and playing it gives the same transcript apart
 * from the clock (timestamps, and the time the server says is left). Links of 100 KB open in Chromium.
 */

interface Exported {
  messages: { t?: number; text?: string; conn: string; dir: string; kind: string }[];
}

/**
 * A transcript without what the clock decides: timestamps, the time left or the deadline a server states,
 * and how the connections of several agents interleave (each agent's policy runs in a worker of its own;
 * every connection's own conversation must be the same).
 */
function withoutClock(transcript: Exported) {
  const byConnection: Record<string, string[]> = {};
  for (const message of transcript.messages) {
    const text = message.text
      ?.replace(/<time-left>[^<]*<\/time-left>/g, '<time-left/>')
      .replace(/"(time|deadline|timestamp)":\d+/g, '"$1":0');
    (byConnection[message.conn] ??= []).push(`${message.dir} ${message.kind} ${text ?? ''}`);
  }
  return byConnection;
}

async function playAndExport(page: Page): Promise<Exported> {
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 90_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), exportAs(page, 'Protoplay JSON')]);
  return JSON.parse(readFileSync((await download.path())!, 'utf8')) as Exported;
}

async function sharedLink(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Share' }).click();
  const field = page.getByRole('textbox', { name: 'Link to share' });
  const link = await field.inputValue();
  await expect(page.getByRole('dialog', { name: 'Share link' })).toContainText(
    `${link.length.toLocaleString('en')} characters`,
  );
  await page.keyboard.press('Escape');
  return link;
}

/** Opens a link in a fresh browser context (no storage of an earlier visit). */
async function openFresh(browser: Browser, link: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  return page;
}

/** Text that deflate cannot shrink much (a seeded sequence of hex digits), to make a long link. */
function noise(length: number): string {
  let state = 12345;
  let text = '';
  while (text.length < length) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    text += (state >>> 8).toString(16);
  }
  return text.slice(0, length);
}

test('an RDDLSim Share link of 100 KB reopens elsewhere and replays the same transcript', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const heuristic = RDDLSIM_SAMPLES.find((s) => s.id === 'network-heuristic')!.code;
  const code = `${heuristic}\n/* ${noise(150_000)} */\n`;
  await page.goto(`./#e=network_admin&seed=5&rounds=3&lang=ts&code=${compressToBase64Url(code)}`);
  await page.getByLabel('Speed').selectOption('fast');
  const first = await playAndExport(page);
  const link = await sharedLink(page);
  expect(link.length).toBeGreaterThan(100_000);

  const other = await openFresh(browser, link);
  await expect(other.getByLabel('Seed')).toHaveValue('5');
  await expect(other.getByLabel('Rounds')).toHaveValue('3');
  await other.getByLabel('Speed').selectOption('fast');
  const second = await playAndExport(other);
  expect(first.messages.length).toBeGreaterThan(20);
  expect(withoutClock(second)).toEqual(withoutClock(first));
});

test('a MASSim Share link reopens elsewhere and replays the same match', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const data = defaultMassimWorkspace();
  data.settings = { ...data.settings, speed: 'fast', steps: 25, seed: 9 };
  await page.goto(`./#${massimLinkParameter}=${encodeMassimWorkspace(data)}`);
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
  const first = await playAndExport(page);
  const link = await sharedLink(page);

  const other = await openFresh(browser, link);
  await expect(other.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
  const second = await playAndExport(other);
  expect(first.messages.length).toBeGreaterThan(100);
  expect(withoutClock(second)).toEqual(withoutClock(first));
});
