import { expect, test } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { configure, messageRows, status } from './playground-page';

/**
 * The protocol contract's proof in the page: the counter game exists only in the tests
 * (tests/support/counter-protocol) and gives only its definition, yet a build of the page made with it
 * (PROTOPLAY_EXTRA_PROTOCOLS, see vite.config.ts) offers it in the protocol picker and plays it with the
 * standard workbench: the session in the session worker, the learner's act() in the policy worker, the
 * messages in the log, the rewards in the chart, what the agent saw in the state panel, and an imported
 * recording's broken rule in the console. This file builds that page itself, so no other test pays for it.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const COUNTER = resolve(ROOT, 'tests/support/counter-protocol/protocol.ts');

let outDir: string;
let server: ChildProcess | undefined;
let baseURL: string;

/** Runs a command to its end; rejects with its output when it fails. */
function run(args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', failed);
    child.once('close', (code) =>
      code === 0 ? done() : failed(new Error(`${args.join(' ')} exited with ${code}:\n${output}`)),
    );
  });
}

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((done, failed) => {
    const probe = createServer();
    probe.once('error', failed);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

test.beforeAll(async () => {
  // A whole build of the page: minutes on a loaded machine.
  test.setTimeout(600_000);
  outDir = mkdtempSync(join(tmpdir(), 'protoplay-counter-page-'));
  const vite = resolve(ROOT, 'node_modules/vite/bin/vite.js');
  await run([vite, 'build', '--outDir', outDir, '--emptyOutDir'], { PROTOPLAY_EXTRA_PROTOCOLS: COUNTER });
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}/`;
  server = spawn(
    process.execPath,
    [vite, 'preview', '--outDir', outDir, '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { cwd: ROOT, stdio: 'ignore' },
  );
  await expect(async () => {
    const response = await fetch(baseURL);
    expect(response.ok).toBe(true);
  }).toPass({ timeout: 60_000 });
});

test.afterAll(() => {
  server?.kill();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

test('a protocol that gives only its definition plays in the page with log, chart and state', async ({
  page,
}) => {
  await page.goto(baseURL);
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  const picker = page.getByRole('combobox', { name: 'Protocol' });
  await expect(picker.getByRole('option', { name: 'Counter' })).toBeAttached();
  await picker.selectOption('counter');
  await expect(page.getByRole('combobox', { name: 'Environment' })).toHaveValue('to-ten');

  // The default sample adds 2 five times to reach 10: every step earns what it adds.
  await configure(page, { rounds: 2, fast: true });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
  // Two games of a start, five states, five adds and an end, with the connection's open and two closes.
  const log = page.getByRole('region', { name: 'Message log' });
  await expect(log).toContainText('27 of 27 messages');
  await expect(messageRows(page).filter({ hasText: '+2' }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Round 1: total reward 10' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Round 2: total reward 10' })).toBeVisible();
  // The state panel shows what the agent saw at the turn of the selected message.
  await messageRows(page).filter({ hasText: 'value 6' }).first().click();
  const state = page.getByRole('region', { name: 'State panel' });
  await expect(state).toContainText('Round 1, turn 4');
  await expect(state.getByRole('table', { name: 'Observed fluents' })).toContainText(/value\s*6/);

  // Another sample and environment: Hasty overshoots 5 and the last step earns nothing.
  await page.getByRole('combobox', { name: 'Environment' }).selectOption('to-five');
  await page.getByRole('button', { name: 'Hasty' }).click();
  await configure(page, { rounds: 1, fast: true });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Round 1: total reward 4' })).toBeVisible();
  await expect(log).toContainText('11 of 11 messages');
});

test('an imported counter log is detected and validated: the broken rule is in the console', async ({
  page,
}, testInfo) => {
  const file = testInfo.outputPath('game.log');
  writeFileSync(
    file,
    [
      '< {"type":"start","target":3}',
      '< {"type":"state","value":0,"reward":0}',
      '> {"type":"add","amount":2}',
      '< {"type":"state","value":2,"reward":2}',
      '> {"type":"subtract","amount":1}',
      '',
    ].join('\n'),
  );
  await page.goto(baseURL);
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(file);
  await expect(status(page)).toContainText('showing an imported transcript');
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('counter');
  await expect(page.getByRole('region', { name: 'Import summary' })).toContainText('1 violation');
  await page.getByRole('tab', { name: /Console/ }).click();
  const entry = page
    .getByRole('listbox', { name: 'Console entries' })
    .getByRole('option')
    .filter({ hasText: 'counter.add.expected' });
  await expect(entry).toContainText('subtract');
  await entry.click();
  await expect(page.getByRole('tabpanel', { name: 'Message text' })).toContainText('"subtract"');
});
