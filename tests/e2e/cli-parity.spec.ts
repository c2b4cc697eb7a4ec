import { expect, test } from '@playwright/test';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { BIN } from './bridge-processes';
import { configure, exportAs, setPolicyCode, status } from './playground-page';

/**
 * Same seed, same policy, same instance: a session played in the browser (session and policy in their
 * Web Workers, exported as Protoplay JSON) and `protoplay run` on the command line record the same wire
 * messages in the same order. Only the clock may differ: message times, and the `<time-left>` the server
 * reports, which it computes from the time the client took.
 */

const ippc2011 = resolve(process.cwd(), '../shared/rddl/ippc2011');
const DOMAIN = resolve(ippc2011, 'sysadmin_mdp.rddl');
const INSTANCE = resolve(ippc2011, 'sysadmin_inst_mdp__1.rddl');
const SEED = 17;
const ROUNDS = 2;

/** Random reboots drawn from context.random(), so the actions depend on the seeded stream. */
const POLICY = [
  'export function act(observation: Observation, context: PolicyContext): Actions {',
  '  const computers = context.instance.objects.computer ?? [];',
  '  if (context.random() < 0.5) return null;',
  "  return { name: 'reboot', args: [computers[Math.floor(context.random() * computers.length)]!] };",
  '}',
].join('\n');

interface Exported {
  messages: { dir: string; kind: string; text?: string; base64?: string }[];
  annotations: { type: string; index: number; data: { kind?: string; reward?: number } }[];
}

/** The wire as a list of `dir text`, with the server's clock reading blanked out. */
function wire(transcript: Exported): string[] {
  return transcript.messages
    .filter((m) => m.kind === 'data')
    .map(
      (m) =>
        `${m.dir} ${(m.text ?? m.base64 ?? '').replace(/<time-left>[^<]*<\/time-left>/, '<time-left/>')}`,
    );
}

function roundRewards(transcript: Exported): number[] {
  return transcript.annotations
    .filter((a) => a.type === 'reward' && a.data.kind === 'round')
    .map((a) => a.data.reward!);
}

test('a session in the browser and `protoplay run` with the same seed record the same messages', async ({
  page,
}) => {
  const folder = mkdtempSync(join(tmpdir(), 'protoplay-parity-'));
  try {
    await page.goto('./');
    await setPolicyCode(page, POLICY);
    await page.getByLabel('Open RDDL file(s)…').setInputFiles([DOMAIN, INSTANCE]);
    await expect(page.getByLabel('Domain').locator('option:checked')).toHaveText(/sysadmin_mdp\.rddl/);
    await configure(page, { rounds: ROUNDS, fast: true });
    await page.getByLabel('Seed').fill(String(SEED));

    await page.getByRole('button', { name: 'Run' }).click();
    await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), exportAs(page, 'Protoplay JSON')]);
    const browser = JSON.parse(readFileSync(await download.path(), 'utf8')) as Exported;

    const policyFile = join(folder, 'policy.ts');
    writeFileSync(policyFile, POLICY);
    const out = join(folder, 'cli.json');
    await promisify(execFile)(
      process.execPath,
      [
        BIN,
        'run',
        'rddlsim',
        '--domain',
        DOMAIN,
        '--instance',
        INSTANCE,
        '--policy',
        policyFile,
        '--rounds',
        String(ROUNDS),
        '--seed',
        String(SEED),
        '--transcript',
        out,
      ],
      { timeout: 60_000 },
    );
    const cli = JSON.parse(readFileSync(out, 'utf8')) as Exported;

    const fromBrowser = wire(browser);
    const fromCli = wire(cli);
    // 1 session-request, session-init, and per round: round-request, round-init, 40 x (turn, actions), round-end.
    expect(fromBrowser.length).toBe(2 + ROUNDS * (3 + 2 * 40) + 1);
    expect(fromBrowser.some((m) => m.includes('<action-name>reboot</action-name>'))).toBe(true);
    expect(fromCli).toEqual(fromBrowser);
    expect(roundRewards(cli)).toEqual(roundRewards(browser));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
