import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bridgeFragment, freePort, startProtoplay, type Started } from './bridge-processes';
import { configure, exportAs, messageRows, setPolicyCode, status } from './playground-page';

/**
 * The Connect panel against real processes: `protoplay serve rddlsim` behind `protoplay bridge`, both on
 * free loopback ports; the page connects with the link the bridge prints and plays the real server.
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
test.afterEach(async () => {
  await Promise.all(running.splice(0).map((process) => process.stop()));
});

async function startServer(): Promise<number> {
  const port = await freePort();
  running.push(
    await startProtoplay(
      ['serve', 'rddlsim', '--rddl-dir', ippc2011, '--port', String(port), '--rounds', '2', '--seed', '3'],
      /server listening on/,
    ),
  );
  return port;
}

async function startBridge(args: string[]): Promise<string> {
  const port = await freePort();
  const bridge = await startProtoplay(
    ['bridge', '--port', String(port), '--origin', PAGE_ORIGIN, ...args],
    /#bridge=\S+/,
  );
  running.push(bridge);
  return bridgeFragment(bridge.output());
}

const panel = (page: Page) => page.getByRole('region', { name: 'Connect through protoplay bridge' });
const bridgeState = (page: Page) => panel(page).locator('p[data-state]');

test('plays 2 rounds against a real server through the bridge, recorded like any session', async ({
  page,
}) => {
  const serverPort = await startServer();
  const fragment = await startBridge(['--target', `rddlsim=tcp://127.0.0.1:${serverPort}`]);
  await page.goto(`./${fragment}`);
  await setPolicyCode(page, POLICY);
  await page.getByLabel('Open RDDL file(s)…').setInputFiles([DOMAIN, INSTANCE]);
  await configure(page, { rounds: 2, fast: true });

  await expect(panel(page)).toBeVisible();
  await panel(page).getByRole('button', { name: 'Connect' }).click();
  await expect(bridgeState(page)).toHaveAttribute('data-state', 'connected');
  await expect(bridgeState(page)).toContainText('1 target');
  await panel(page)
    .getByLabel(/against a real server/)
    .check();
  await page.getByRole('button', { name: 'Connect' }).first().click(); // closes the panel

  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
  expect(await messageRows(page).count()).toBeGreaterThan(10);
  const chart = page.getByRole('group', { name: 'Total reward per round' });
  await expect(chart.getByRole('button', { name: /^Round \d+: total reward/ })).toHaveCount(2);

  const [download] = await Promise.all([page.waitForEvent('download'), exportAs(page, 'Protoplay JSON')]);
  const transcript = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    meta: Record<string, unknown>;
    messages: { dir: string; kind: string; text?: string }[];
  };
  expect(transcript.meta.source).toBe('bridge');
  const texts = transcript.messages.filter((m) => m.kind === 'data').map((m) => m.text ?? '');
  expect(texts.filter((text) => text.includes('<round-end>'))).toHaveLength(2);
  expect(texts.some((text) => text.includes('<session-end>'))).toBe(true);
  expect(texts.some((text) => text.includes('<action-name>reboot</action-name>'))).toBe(true);
  // The server's answers are its own: its round rewards are in the transcript as it sent them.
  expect(texts.filter((text) => /<round-reward>-?[\d.]+<\/round-reward>/.test(text))).toHaveLength(2);
});

test('a wrong token shows the bridge refusing it, with what to do', async ({ page }) => {
  const fragment = await startBridge(['--target', 'rddlsim=tcp://127.0.0.1:9']);
  await page.goto(`./${fragment.replace(/token=[^&]+/, 'token=wrong')}`);
  await panel(page).getByRole('button', { name: 'Connect' }).click();
  await expect(bridgeState(page)).toHaveAttribute('data-state', 'closed');
  await expect(bridgeState(page)).toContainText('refused the token');
  await expect(bridgeState(page)).toContainText('open the link protoplay bridge printed');
});
