import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { bridgeFragment, freePort, startProtoplay, type Started } from './bridge-processes';
import { exportAs, messageRows } from './playground-page';

/**
 * The page's MASSim teams against a real `protoplay serve massim` through a real `protoplay bridge`, both
 * child processes on free loopback ports: a whole match, the server killed in the middle of a simulation
 * (the page says where; a reload shows the transcript again), connections cut between bridge and server
 * (the agents reconnect and the match goes on), and the bridge killed (the panel shows it reconnecting,
 * the session ends saying so).
 */

const PAGE_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4179)}`;
const AGENTS = 2;

const running: Started[] = [];
const servers: Server[] = [];
test.afterEach(async () => {
  await Promise.all(running.splice(0).map((process) => process.stop()));
  for (const server of servers.splice(0)) server.close();
});

async function startMassim(steps: number): Promise<{ port: number; server: Started }> {
  const port = await freePort();
  const server = await startProtoplay(
    [
      'serve',
      'massim',
      '--port',
      String(port),
      '--teams',
      '2',
      '--agents',
      String(AGENTS),
      '--steps',
      String(steps),
      '--seed',
      '4',
      '--quiet',
    ],
    /MASSim server listening on/,
  );
  running.push(server);
  return { port, server };
}

async function startBridge(targetPort: number): Promise<{ fragment: string; bridge: Started }> {
  const port = await freePort();
  const bridge = await startProtoplay(
    [
      'bridge',
      '--port',
      String(port),
      '--origin',
      PAGE_ORIGIN,
      '--target',
      `massim=tcp://127.0.0.1:${targetPort}`,
    ],
    /#bridge=\S+/,
  );
  running.push(bridge);
  return { fragment: bridgeFragment(bridge.output()), bridge };
}

/**
 * A TCP relay written for the test between the bridge and the server. It cuts every connection the first
 * time the server asks for an action at step `cutAtStep` or later, so the cut falls in the middle of the
 * simulation however fast the machine plays it; `cut` resolves with the number of connections cut.
 */
async function cuttingRelay(
  serverPort: number,
  cutAtStep: number,
): Promise<{ port: number; cut: Promise<number> }> {
  const pairs = new Set<[Socket, Socket]>();
  let cutDone: (count: number) => void = () => undefined;
  const cut = new Promise<number>((done) => (cutDone = done));
  let cutting = false;
  const cutAll = () => {
    const count = pairs.size;
    for (const [inbound, outbound] of [...pairs]) {
      inbound.resetAndDestroy();
      outbound.destroy();
    }
    pairs.clear();
    cutDone(count);
  };
  const relay = createServer((inbound) => {
    const outbound = createConnection({ host: '127.0.0.1', port: serverPort });
    const pair: [Socket, Socket] = [inbound, outbound];
    pairs.add(pair);
    inbound.pipe(outbound);
    outbound.on('data', (chunk: Buffer) => {
      if (cutting) return;
      for (const match of chunk
        .toString('latin1')
        .matchAll(/"type":"request-action","content":\{"step":(\d+)/g)) {
        if (Number(match[1]) < cutAtStep) continue;
        cutting = true;
        // After this chunk has gone on: the agents see the request, then lose their connections.
        setImmediate(cutAll);
        return;
      }
    });
    outbound.pipe(inbound);
    const drop = () => {
      pairs.delete(pair);
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', drop).on('close', drop);
    outbound.on('error', drop).on('close', drop);
  });
  servers.push(relay);
  await new Promise<void>((listening) => relay.listen(0, '127.0.0.1', listening));
  const address = relay.address();
  return { port: typeof address === 'object' && address ? address.port : 0, cut };
}

const panel = (page: Page) => page.getByRole('region', { name: 'Connect through protoplay bridge' });
const bridgeState = (page: Page) => panel(page).locator('p[data-state]');
const runStatus = (page: Page) =>
  page.getByRole('status').filter({ hasText: /Ready|Running|Paused|Finished|Stopped/ });
const FAILED = 'Stopped by an error';
const alert = (page: Page) => page.getByRole('alert').filter({ hasText: /\w/ });
/** The number of messages the status line counts. */
async function messageCount(page: Page): Promise<number> {
  const text = await page.getByText(/^[\d,.]+k? messages$/).textContent();
  const [, digits, thousands] = /^([\d,.]+)(k?)/.exec(text ?? '')!;
  return Number(digits!.replace(/,/g, '')) * (thousands ? 1000 : 1);
}
const timeline = (page: Page) => page.getByRole('toolbar', { name: 'Timeline' });

/** Opens the page from the bridge's link, picks MASSim with the server's teams, connects and picks the target. */
async function openThroughBridge(page: Page, fragment: string, steps: number): Promise<void> {
  await page.goto(`./${fragment}`);
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption('massim');
  await page.getByText('Match settings').click();
  for (const [name, value] of [
    ['Agents per team', AGENTS],
    ['Steps', steps],
  ] as const) {
    const field = page.getByRole('spinbutton', { name, exact: true });
    await field.fill(String(value));
    await field.press('Tab');
  }
  await page.getByText('Match settings').click();
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('fast');

  await expect(panel(page)).toBeVisible();
  await panel(page).getByRole('button', { name: 'Connect' }).click();
  await expect(bridgeState(page)).toHaveAttribute('data-state', 'connected');
  await panel(page)
    .getByLabel(/against a real server/)
    .check();
  await page.getByRole('button', { name: 'Connect' }).first().click(); // closes the panel
}

test('the page plays both teams of a real MASSim server, every agent on its own connection, recorded', async ({
  page,
}) => {
  const steps = 12;
  const { port } = await startMassim(steps);
  const { fragment } = await startBridge(port);
  await openThroughBridge(page, fragment, steps);

  await page.getByRole('button', { name: 'Run' }).click();
  await expect(runStatus(page)).toContainText('Finished', { timeout: 90_000 });
  await expect(timeline(page)).toContainText(`Step ${steps - 1}`);
  await expect(page.getByRole('group', { name: 'Scores per step' })).toContainText('team B');

  const [download] = await Promise.all([page.waitForEvent('download'), exportAs(page, 'Protoplay JSON')]);
  const transcript = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    meta: Record<string, unknown>;
    connections: { id: string }[];
    messages: { conn: string; dir: string; kind: string; text?: string }[];
  };
  expect(transcript.meta.source).toBe('bridge');
  expect(transcript.connections.map((c) => c.id).sort()).toEqual([
    'agentA1.conn1',
    'agentA2.conn1',
    'agentB1.conn1',
    'agentB2.conn1',
  ]);
  const data = transcript.messages.filter((m) => m.kind === 'data');
  // The server's own frames, as it sent them: a request-action per agent and step, then sim-end.
  const requests = data.filter((m) => m.dir === 's2c' && m.text?.startsWith('{"type":"request-action"'));
  expect(requests).toHaveLength(2 * AGENTS * steps);
  const actions = data.filter((m) => m.dir === 'c2s' && m.text?.startsWith('{"type":"action"'));
  expect(actions.length).toBeGreaterThanOrEqual(2 * AGENTS * (steps - 1));
  expect(data.filter((m) => m.text?.includes('"type":"sim-end"'))).toHaveLength(2 * AGENTS);
});

test('the server killed mid-simulation: the page says where, and a reload shows the transcript again', async ({
  page,
}) => {
  const steps = 400;
  const { port, server } = await startMassim(steps);
  const { fragment } = await startBridge(port);
  await openThroughBridge(page, fragment, steps);

  await page.getByRole('button', { name: 'Run' }).click();
  await expect(timeline(page)).toContainText(/Step ([5-9]|\d\d+)/, { timeout: 60_000 });
  server.child.kill('SIGKILL');
  await expect(runStatus(page)).toContainText(FAILED, { timeout: 60_000 });
  await expect(alert(page)).toContainText(
    /closed agent[AB]\d's connection in simulation 1 at step \d+, before sim-end/,
  );
  await expect(alert(page)).toContainText('tries to reconnect it failed');
  const recorded = await messageCount(page);
  // Logins and at least five steps of requests and actions for 4 agents.
  expect(recorded).toBeGreaterThan(4 * 2 * 5);

  // The transcript up to the failure is kept in the page's storage (read from IndexedDB itself), and the
  // page says so: nothing is left waiting to be stored. A reload shows it again.
  await expect.poll(() => storedRequests(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(4 * 5);
  await expect(page.locator('[data-stored="true"]')).toBeAttached({ timeout: 30_000 });
  await page.reload();
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await expect(messageRows(page).first()).toBeVisible({ timeout: 30_000 });
  await expect(timeline(page)).toContainText(/Step ([5-9]|\d\d+)/);
  expect(await messageCount(page)).toBe(recorded);
});

/** The number of request-actions in the transcript the page stored for a reload (read from its IndexedDB). */
function storedRequests(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((done) => {
        const open = indexedDB.open('keyval-store');
        open.onerror = () => done(0);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('keyval')) return done(0);
          const store = db.transaction('keyval', 'readonly').objectStore('keyval');
          const keys = store.getAllKeys();
          keys.onsuccess = () => {
            // A live match is stored in parts (`kept-session-part`), an imported file whole.
            const found = keys.result.filter((k) => /last-transcript|kept-session-part/.test(String(k)));
            if (found.length === 0) return done(0);
            const values = found.map((key) => store.get(key));
            values.at(-1)!.onsuccess = () => {
              const texts = values.map(({ result }) =>
                result instanceof Blob ? result.text() : String((result as { messages?: string }).messages),
              );
              void Promise.all(texts).then((all) => done(all.join('').split('request-action').length - 1));
            };
          };
        };
      }),
  );
}

test('the page reloaded in the middle of a match: the transcript stored while it ran is shown again', async ({
  page,
}) => {
  const steps = 400;
  const { port } = await startMassim(steps);
  const { fragment } = await startBridge(port);
  await openThroughBridge(page, fragment, steps);

  await page.getByRole('button', { name: 'Run' }).click();
  await expect(timeline(page)).toContainText(/Step ([5-9]|\d\d+)/, { timeout: 60_000 });
  // Stored while running (a match on a real server cannot pause for it).
  await expect.poll(() => storedRequests(page), { timeout: 60_000 }).toBeGreaterThan(4 * 5);
  await page.reload();
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
  await expect(timeline(page)).toContainText(/Step ([5-9]|\d\d+)/, { timeout: 30_000 });
  expect(await messageCount(page)).toBeGreaterThan(4 * 2 * 5);
});

test('connections cut between bridge and server: every agent reconnects and the match goes on to its end', async ({
  page,
}) => {
  const steps = 40;
  const { port } = await startMassim(steps);
  const relay = await cuttingRelay(port, 10);
  const { fragment } = await startBridge(relay.port);
  await openThroughBridge(page, fragment, steps);

  await page.getByRole('button', { name: 'Run' }).click();
  expect(await relay.cut).toBe(2 * AGENTS);
  await expect(runStatus(page)).toContainText('Finished', { timeout: 90_000 });
  await expect(timeline(page)).toContainText(`Step ${steps - 1}`);
  await page.getByRole('tab', { name: /Console & notes/ }).click();
  await expect(page.getByText(/agentA1 reconnected \(connection 2/).first()).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent('download'), exportAs(page, 'Protoplay JSON')]);
  const transcript = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    connections: { id: string }[];
  };
  expect(transcript.connections.map((c) => c.id)).toEqual(
    expect.arrayContaining(['agentA1.conn2', 'agentB2.conn2']),
  );
});

test('the bridge killed mid-match: the panel shows it reconnecting, the session ends saying why', async ({
  page,
}) => {
  const steps = 400;
  const { port } = await startMassim(steps);
  const { fragment, bridge } = await startBridge(port);
  await openThroughBridge(page, fragment, steps);

  await page.getByRole('button', { name: 'Run' }).click();
  await expect(timeline(page)).toContainText(/Step ([5-9]|\d\d+)/, { timeout: 60_000 });
  bridge.child.kill('SIGKILL');
  await page
    .getByRole('button', { name: /^Connect/ })
    .first()
    .click();
  await expect(bridgeState(page)).toHaveAttribute('data-state', 'reconnecting', { timeout: 30_000 });
  await expect(bridgeState(page)).toContainText(/attempt \d/);
  await expect(runStatus(page)).toContainText(FAILED, { timeout: 60_000 });
  await expect(alert(page)).toContainText('tries to reconnect it failed');
  await expect(alert(page)).toContainText('the bridge');
  expect(await messageCount(page)).toBeGreaterThan(4 * 2 * 5);
});
