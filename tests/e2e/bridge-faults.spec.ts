import { expect, test, type Page } from '@playwright/test';
import { createServer, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { bridgeFragment, freePort, startProtoplay, type Started } from './bridge-processes';
import { configure, messageRows, setPolicyCode } from './playground-page';

/**
 * RDDLSim through a real `protoplay bridge` when things go wrong: the real `protoplay serve rddlsim`
 * killed in the middle of a round, and a server (written here) that accepts the connection and never
 * answers. Each is reported in the page, with what was recorded kept.
 */

const ippc2011 = resolve(process.cwd(), '../shared/rddl/ippc2011');
const DOMAIN = resolve(ippc2011, 'sysadmin_mdp.rddl');
const INSTANCE = resolve(ippc2011, 'sysadmin_inst_mdp__1.rddl');
const PAGE_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4179)}`;

const POLICY = [
  'export function act(observation: Observation, context: PolicyContext): Actions {',
  '  const computers = context.instance.objects.computer ?? [];',
  "  return { name: 'reboot', args: [computers[observation.turn % computers.length]!] };",
  '}',
].join('\n');

const running: Started[] = [];
const servers: { server: Server; sockets: Set<Socket> }[] = [];
test.afterEach(async () => {
  await Promise.all(running.splice(0).map((process) => process.stop()));
  for (const { server, sockets } of servers.splice(0)) {
    for (const socket of sockets) socket.destroy();
    server.close();
  }
});

async function startBridge(targetPort: number, ...options: string[]): Promise<string> {
  const port = await freePort();
  const bridge = await startProtoplay(
    [
      'bridge',
      '--port',
      String(port),
      '--origin',
      PAGE_ORIGIN,
      '--target',
      `rddlsim=tcp://127.0.0.1:${targetPort}`,
      ...options,
    ],
    /#bridge=\S+/,
  );
  running.push(bridge);
  return bridgeFragment(bridge.output());
}

const panel = (page: Page) => page.getByRole('region', { name: 'Connect through protoplay bridge' });
const runStatus = (page: Page) =>
  page.getByRole('status').filter({ hasText: /Ready|Running|Paused|Waiting|Finished|Stopped/ });
const alert = (page: Page) => page.getByRole('alert').filter({ hasText: /\w/ });

/** Opens the page from the link, loads the sysadmin instance, connects and picks the real server. */
async function openThroughBridge(page: Page, fragment: string, options: { slow: boolean }): Promise<void> {
  await page.goto(`./${fragment}`);
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  await setPolicyCode(page, POLICY);
  await page.getByLabel('Open RDDL file(s)…').setInputFiles([DOMAIN, INSTANCE]);
  await configure(page, { rounds: 30, fast: !options.slow });
  await panel(page).getByRole('button', { name: 'Connect' }).click();
  await expect(panel(page).locator('p[data-state]')).toHaveAttribute('data-state', 'connected');
  await panel(page)
    .getByLabel(/against a real server/)
    .check();
  await page.getByRole('button', { name: 'Connect' }).first().click(); // closes the panel
}

test('the real server killed in the middle of a round: the page says where, the transcript is kept', async ({
  page,
}) => {
  const port = await freePort();
  const server = await startProtoplay(
    ['serve', 'rddlsim', '--rddl-dir', ippc2011, '--port', String(port), '--rounds', '30', '--seed', '3'],
    /server listening on/,
  );
  running.push(server);
  const fragment = await startBridge(port);
  // Animated: the session is still in its first rounds when the server is killed.
  await openThroughBridge(page, fragment, { slow: true });

  await page.getByRole('button', { name: 'Run' }).click();
  await expect(runStatus(page)).toContainText(/round \d+, turn [3-9]/, { timeout: 60_000 });
  server.child.kill('SIGKILL');
  await expect(runStatus(page)).toContainText('Stopped by an error', { timeout: 60_000 });
  await expect(alert(page)).toContainText(
    /the connection to the server ended before the session did in round \d+, after turn \d+/,
  );
  // Everything received before the kill is on show: the session-init and the turns played. The log follows
  // the newest message; Home goes back to the first (the log draws only the rows in view).
  await page.getByRole('listbox', { name: 'Messages' }).press('Home');
  await expect(messageRows(page).filter({ hasText: 'session-init' }).first()).toBeAttached();
  await expect(messageRows(page).filter({ hasText: 'turn' }).first()).toBeAttached();
});

test('a server that never answers: the session ends with a timeout message instead of waiting for ever', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  servers.push({ server: silent, sockets });
  await new Promise<void>((listening) => silent.listen(0, '127.0.0.1', listening));
  // The bridge's --response-timeout is how long the page waits for a server that owes an answer.
  const fragment = await startBridge((silent.address() as { port: number }).port, '--response-timeout', '3');
  await openThroughBridge(page, fragment, { slow: false });

  await page.getByRole('button', { name: 'Run' }).click();
  await expect(runStatus(page)).toContainText('Stopped by an error', { timeout: 90_000 });
  await expect(alert(page)).toContainText('the server sent nothing for 3 s: it does not answer');
  await expect(messageRows(page).filter({ hasText: 'session-request' }).first()).toBeAttached();
});
