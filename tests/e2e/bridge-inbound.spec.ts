import { expect, test, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BIN, bridgeFragment, freePort, startProtoplay, type Started } from './bridge-processes';
import { configure, exportAs, messageRows, status } from './playground-page';

/**
 * The inbound direction: `protoplay bridge --listen` accepts real clients (the command line's
 * `protoplay connect`, as child processes) and hands them to the page, whose emulated server answers them
 * while the page shows and records everything.
 */

const ippc2011 = resolve(process.cwd(), '../shared/rddl/ippc2011');
const DOMAIN = resolve(ippc2011, 'sysadmin_mdp.rddl');
const INSTANCE = resolve(ippc2011, 'sysadmin_inst_mdp__1.rddl');
const PAGE_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4179)}`;

const running: Started[] = [];
test.afterEach(async () => {
  await Promise.all(running.splice(0).map((process) => process.stop()));
});

async function startBridge(args: string[]): Promise<string> {
  const port = await freePort();
  const bridge = await startProtoplay(
    ['bridge', '--port', String(port), '--origin', PAGE_ORIGIN, ...args],
    /#bridge=\S+/,
  );
  running.push(bridge);
  return bridgeFragment(bridge.output());
}

/** Runs `protoplay ARGS` to its end: its exit code and everything it printed. */
function runProtoplay(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((done) => child.once('exit', (code) => done({ code, output })));
}

const panel = (page: Page) => page.getByRole('region', { name: 'Connect through protoplay bridge' });
const bridgeState = (page: Page) => panel(page).locator('p[data-state]');

/** Connects the page to the bridge and picks the listen port for runs. */
async function answerListenPort(page: Page, port: number): Promise<void> {
  await expect(panel(page)).toBeVisible();
  await panel(page).getByRole('button', { name: 'Connect' }).click();
  await expect(bridgeState(page)).toHaveAttribute('data-state', 'connected');
  await expect(bridgeState(page)).toContainText('1 listen port');
  await panel(page)
    .getByLabel(/for real clients on listen port/)
    .check();
  // The panel says where the agent connects.
  await expect(panel(page).getByText(/start your agent against/)).toContainText(`127.0.0.1:${port}`);
  await page.getByRole('button', { name: 'Connect' }).first().click(); // closes the panel
}

test('two real rddlsim clients play the emulated server through the bridge, one after the other', async ({
  page,
}) => {
  const listenPort = await freePort();
  const fragment = await startBridge(['--listen', `rddlsim=${listenPort}`]);
  await page.goto(`./${fragment}`);
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByLabel('Open RDDL file(s)…').setInputFiles([DOMAIN, INSTANCE]);
  await configure(page, { rounds: 2, fast: true });
  await answerListenPort(page, listenPort);

  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Running');
  const client = (name: string) =>
    runProtoplay([
      'connect',
      'rddlsim',
      '--port',
      String(listenPort),
      '--instance',
      'sysadmin_inst_mdp__1',
      '--policy',
      'random',
      '--client-name',
      name,
      '--timeout',
      '60',
    ]);
  // Both connect at once: the page serves the second when the first is done.
  const [first, second] = await Promise.all([client('first'), client('second')]);
  expect(first.output).toContain('total reward');
  expect(first.code, first.output).toBe(0);
  expect(second.code, second.output).toBe(0);

  // Both sessions' rounds, in the order they were played.
  const chart = page.getByRole('group', { name: 'Total reward per round' });
  await expect(chart.getByRole('button', { name: /^Round \d+: total reward/ })).toHaveCount(4, {
    timeout: 30_000,
  });
  // The log follows the last messages: the second session's end, its rounds counted after the first's.
  await expect(messageRows(page).filter({ hasText: /session-end\s*total reward/ })).toHaveCount(1);
  await expect(messageRows(page).filter({ hasText: /round-end\s*r4/ })).toHaveCount(1);
  await expect(status(page)).toContainText('Running');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(status(page)).toContainText('Stopped');

  const [download] = await Promise.all([page.waitForEvent('download'), exportAs(page, 'Protoplay JSON')]);
  const transcript = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    meta: Record<string, unknown>;
    connections: { id: string }[];
    messages: { conn: string; dir: string; kind: string; text?: string }[];
  };
  expect(transcript.meta.source).toBe('bridge');
  expect(transcript.meta.listen).toBe('rddlsim');
  expect(transcript.connections.map((connection) => connection.id)).toEqual(['session-1', 'session-2']);
  const data = transcript.messages.filter((m) => m.kind === 'data');
  const names: string[] = [];
  for (const conn of ['session-1', 'session-2']) {
    const texts = data.filter((m) => m.conn === conn).map((m) => m.text ?? '');
    const request = texts.find((text) => text.includes('<session-request>')) ?? '';
    names.push(/<client-name>(\w+)<\/client-name>/.exec(request)?.[1] ?? '');
    expect(texts.filter((text) => text.includes('<round-end>'))).toHaveLength(2);
    expect(texts.filter((text) => text.includes('<session-end>'))).toHaveLength(1);
  }
  // Each client had its own session (they raced to connect: either may be first).
  expect(names.sort()).toEqual(['first', 'second']);
  // One session after the other: nothing of the second before the first one's session-end.
  const firstEnd = data.findIndex((m) => m.conn === 'session-1' && m.text?.includes('<session-end>'));
  const secondStart = data.findIndex((m) => m.conn === 'session-2');
  expect(secondStart).toBeGreaterThan(firstEnd);
});

test('a client asking for another instance is refused as the real server refuses it', async ({ page }) => {
  const listenPort = await freePort();
  const fragment = await startBridge(['--listen', `rddlsim=${listenPort}`]);
  await page.goto(`./${fragment}`);
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByLabel('Open RDDL file(s)…').setInputFiles([DOMAIN, INSTANCE]);
  await configure(page, { rounds: 1, fast: true });
  await answerListenPort(page, listenPort);
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Running');

  const refused = await runProtoplay([
    'connect',
    'rddlsim',
    '--port',
    String(listenPort),
    '--instance',
    'no_such_instance',
    '--timeout',
    '60',
  ]);
  expect(refused.code).not.toBe(0);
  await expect(messageRows(page).filter({ hasText: 'no_such_instance' })).toHaveCount(1);
});

test('a GAMA side dials the bridge and the policy in the page answers it, world and episodes shown', async ({
  page,
}) => {
  const listenPort = await freePort();
  const fragment = await startBridge(['--listen', `gama=${listenPort}`]);
  await page.goto(`./${fragment}`);
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption('gama');
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toBeVisible();
  await page.getByRole('button', { name: 'Greedy' }).click();
  await page.getByLabel('Speed').selectOption('fast');
  await answerListenPort(page, listenPort);
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Running');

  const gama = await runProtoplay([
    'connect',
    'gama',
    '--url',
    `ws://127.0.0.1:${listenPort}/`,
    '--scenario',
    'C',
    '--cycles',
    '30',
    '--episodes',
    '2',
    '--timeout',
    '60',
  ]);
  expect(gama.code, gama.output).toBe(0);

  // The answers are the greedy sample's, scavenger by scavenger on the one connection.
  await expect(messageRows(page).filter({ hasText: 'Scav. 12' }).first()).toBeVisible();
  // The world, rebuilt from the recorded answers, and the rewards of both episodes.
  await expect(
    page.getByRole('img', { name: /^World after cycle 30 of episode 2: 55 by 21 cells/ }),
  ).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: /^Round 1: total reward \d+/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Round 2: total reward \d+/ })).toBeVisible();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(status(page)).toContainText('Stopped');

  const [download] = await Promise.all([page.waitForEvent('download'), exportAs(page, 'Protoplay JSON')]);
  const transcript = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    meta: Record<string, unknown>;
    connections: { id: string }[];
    messages: { conn: string; dir: string; kind: string; text?: string; channel?: string }[];
  };
  expect(transcript.meta.source).toBe('bridge');
  expect(transcript.connections.map((connection) => connection.id)).toEqual(['episode 1', 'episode 2']);
  const replies = transcript.messages.filter((m) => m.dir === 's2c' && m.kind === 'data');
  // 12 scavengers, 30 cycles, 2 episodes: one reply per request (those in time-out are not asked).
  expect(replies.length).toBeGreaterThan(300);
  expect(
    replies.every((m) => /^Scav\. \d+;\w+$/.test(m.text ?? '') && m.channel === m.text!.split(';')[0]),
  ).toBe(true);
});

test('two MASSim teams of real agents connect through the bridge and play the page’s match', async ({
  page,
}) => {
  const listenPort = await freePort();
  const fragment = await startBridge(['--listen', `massim=${listenPort}`]);
  await page.goto(`./${fragment}`);
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption('massim');
  await page.getByText('Match settings', { exact: true }).click();
  for (const [name, value] of [
    ['Steps', '20'],
    ['Agents per team', '2'],
  ] as const) {
    const field = page.getByRole('spinbutton', { name, exact: true });
    await field.fill(value);
    await field.press('Tab');
  }
  await page.getByText('Match settings', { exact: true }).click();
  await answerListenPort(page, listenPort);
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Running');

  const team = (name: string) =>
    runProtoplay([
      'connect',
      'massim',
      '--port',
      String(listenPort),
      '--team',
      name,
      '--agents',
      '2',
      '--policy',
      'random',
      '--quiet',
      '--timeout',
      '60',
    ]);
  const [a, b] = await Promise.all([team('A'), team('B')]);
  expect(a.code, a.output).toBe(0);
  expect(b.code, b.output).toBe(0);

  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  await expect(
    page.getByRole('img', { name: /^World after step 19: 40 by 40 cells, 4 agents/ }),
  ).toBeVisible();
  await expect(page.getByRole('group', { name: 'Scores per step' })).toContainText('team B');
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('agentB2');
  await expect(messageRows(page).filter({ hasText: 'request-action' }).first()).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent('download'), exportAs(page, 'Protoplay JSON')]);
  const transcript = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    meta: Record<string, unknown>;
    connections: { id: string }[];
    messages: { conn: string; dir: string; kind: string; text?: string }[];
  };
  expect(transcript.meta.source).toBe('bridge');
  const agents = new Set(transcript.connections.map((c) => c.id.replace(/\.conn\d+$/, '')));
  expect([...agents].sort()).toEqual(['agentA1', 'agentA2', 'agentB1', 'agentB2']);
  const actions = transcript.messages.filter((m) => m.dir === 'c2s' && m.text?.includes('"action"'));
  expect(actions.length).toBeGreaterThanOrEqual(4 * 19);
});

test('a course client plays the page’s emulated aisys server through the bridge', async ({ page }) => {
  const listenPort = await freePort();
  const fragment = await startBridge(['--listen', `aisys=${listenPort}`]);
  await page.goto(`./${fragment}`);
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption('aisys');
  await expect(page.getByRole('combobox', { name: 'Environment' })).toBeVisible();
  await answerListenPort(page, listenPort);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status(page)).toContainText('Running');

  // The page says which agent config the client needs (the password is the emulated server's).
  const note = page.getByText(/their agent config: \{.*\}/).first();
  await expect(note).toBeAttached();
  const config = JSON.parse(/their agent config: (\{.*\})/.exec((await note.textContent())!)![1]!) as {
    agent: string;
    env: string;
    pwd: string;
    url: string;
  };
  expect(config.url).toBe(`http://127.0.0.1:${listenPort}/`);
  const client = await runProtoplay([
    'connect',
    'aisys',
    '--url',
    config.url,
    '--env',
    config.env,
    '--agent',
    config.agent,
    '--pwd',
    config.pwd,
    '--runs',
    '6',
    '--timeout',
    '60',
  ]);
  expect(client.code, client.output).toBe(0);

  const views = page.getByRole('region', { name: 'Runs and rating' });
  const table = views.getByRole('table', { name: 'Runs' });
  await expect(
    table
      .getByRole('row')
      .filter({ hasText: /finished/ })
      .first(),
  ).toBeVisible({ timeout: 30_000 });
  // The views take the rest in at their next refreshes: every run the client played comes to be finished.
  await expect
    .poll(
      () =>
        table
          .getByRole('row')
          .filter({ hasText: /finished/ })
          .count(),
      { timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(6);
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(status(page)).toContainText('Stopped');

  const [download] = await Promise.all([page.waitForEvent('download'), exportAs(page, 'Protoplay JSON')]);
  const transcript = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    meta: Record<string, unknown>;
    messages: { dir: string; http?: { method?: string; path?: string; status?: number }; channel?: string }[];
  };
  expect(transcript.meta.source).toBe('bridge');
  const all = transcript.messages.filter((m) => m.dir === 'c2s' && m.http);
  const responses = transcript.messages.filter((m) => m.dir === 's2c' && m.http);
  expect(responses).toHaveLength(all.length);
  expect(responses.every((m) => m.http!.status === 200)).toBe(true);
  // Once its runs are played, the client asks the server's public results for its rating: the last request.
  const last = all.at(-1)!;
  expect(last.http).toMatchObject({ method: 'GET' });
  expect(last.http!.path).toMatch(new RegExp(`/results/${config.env}$`));
  const requests = all.slice(0, -1);
  expect(requests.length).toBeGreaterThan(1);
  expect(
    requests.every((m) => m.http!.method === 'PUT' && m.http!.path!.endsWith(`/act/${config.env}`)),
  ).toBe(true);
  expect(requests.every((m) => m.channel === `${config.env}/${config.agent}`)).toBe(true);
});
