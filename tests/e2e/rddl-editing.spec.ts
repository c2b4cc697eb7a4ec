import { expect, test, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import { NETWORK_ADMIN } from '../../src/core/envs/rddl/examples/network-admin';

/**
 * Editing RDDL in the playground, in real Chromium against the production build: the RDDL tabs beside
 * the policy, diagnostics from the language worker, runs that play the edited texts, files opened from
 * disk, and the quirks switch reaching the simulator.
 */

const ippc2011 = resolve(process.cwd(), '../shared/rddl/ippc2011');
const DOMAIN_FILE = `${NETWORK_ADMIN.id}.rddl`;

const status = (page: Page) =>
  page.getByRole('status').filter({ hasText: /Ready|Running|Paused|Waiting|Finished|Stopped/ });
const messageRows = (page: Page) => page.getByRole('listbox', { name: 'Messages' }).getByRole('option');
const problems = (page: Page) => page.getByRole('region', { name: 'RDDL problems' });
/** The status line's error (Monaco has alert regions of its own). */
const statusError = (page: Page) => page.getByRole('contentinfo').getByRole('alert');

/**
 * Selects the message at a transcript index with the keyboard, as the log only renders the rows in view:
 * in a session, 0 is the session-request, 4 the first turn, 6 the second turn of round 1.
 */
async function selectMessage(page: Page, index: number) {
  await page.getByRole('listbox', { name: 'Messages' }).focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
}

/** Shows the domain's tab and waits for Monaco to take over the read-only view. */
async function openDomainTab(page: Page) {
  await page.getByRole('tab', { name: new RegExp(`^${DOMAIN_FILE.replace('.', '\\.')}`) }).click();
  const textbox = page.getByRole('textbox', { name: 'RDDL code' });
  await expect(textbox).toBeAttached({ timeout: 30_000 });
  return textbox;
}

/** Replaces the text of the RDDL tab shown, as a learner pasting would; the cursor ends after it. */
async function pasteRddl(page: Page, text: string) {
  const textbox = page.getByRole('textbox', { name: 'RDDL code' });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await textbox.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');
}

async function runOneFastRound(page: Page) {
  await page.getByLabel('Rounds').fill('1');
  await page.getByLabel('Speed').selectOption('fast');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
}

test('a syntax error in the domain is marked and located, and Run is refused until it is fixed', async ({
  page,
}) => {
  await page.goto('./');
  const textbox = await openDomainTab(page);
  await expect(problems(page)).toContainText('No problems');
  await textbox.focus();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' oops');

  const lastLine = NETWORK_ADMIN.domain.split('\n').length;
  const located = new RegExp(`${DOMAIN_FILE.replace('.', '\\.')}:${lastLine}:\\d+: .*'oops'`);
  await expect(problems(page).getByRole('listitem')).toHaveText(located);
  await expect(statusError(page)).toHaveText(located);
  await expect(page.getByRole('tab', { name: /1 problems/ })).toBeVisible();

  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Run refused' })).toHaveText(located);
  await expect(status(page)).toContainText('Ready');
  await expect(messageRows(page)).toHaveCount(0);

  // Choosing the problem shows its place: the marker is drawn there.
  await problems(page).getByRole('button').click();
  await expect(page.locator('.squiggly-error')).toBeVisible();

  await textbox.focus();
  await page.keyboard.press('ControlOrMeta+Z');
  await expect(problems(page)).toContainText('No problems');
  await expect(page.locator('.squiggly-error')).toHaveCount(0);
});

test('a run plays the edited domain, and the edit survives a reload and a shared link', async ({
  page,
  browser,
}) => {
  await page.goto('./');
  await openDomainTab(page);
  const bonus = 1000;
  const edited = NETWORK_ADMIN.domain.replace('reward = [sum_', `reward = ${bonus} + [sum_`);
  expect(edited).not.toBe(NETWORK_ADMIN.domain);
  await pasteRddl(page, edited);
  await expect(problems(page)).toContainText('No problems');
  await runOneFastRound(page);

  // Every step earns the bonus on top of at most one point per computer.
  const horizon = Number(/horizon\s*=\s*(\d+)/.exec(NETWORK_ADMIN.instance)![1]);
  const point = page.getByRole('group', { name: 'Total reward per round' }).getByRole('button');
  const total = Number(/total reward ([\d.]+)/.exec((await point.getAttribute('aria-label')) ?? '')?.[1]);
  expect(total).toBeGreaterThan((bonus - 1) * horizon);
  expect(total).toBeLessThan((bonus + 10) * horizon);

  const domainPicker = page.getByLabel('Domain');
  await expect(domainPicker.locator('option:checked')).toHaveText(/\(edited\)/);
  // The URL fragment carries the edit (written shortly after each change).
  await expect.poll(() => page.url(), { timeout: 5_000 }).toContain('rddl=');
  const link = page.url();

  await page.reload();
  await expect(domainPicker.locator('option:checked')).toHaveText(/\(edited\)/);

  const fresh = await browser.newContext();
  const opened = await fresh.newPage();
  await opened.goto(link);
  await expect(opened.getByLabel('Domain').locator('option:checked')).toHaveText(/\(edited\)/);
  await fresh.close();
});

test('completion in the domain offers its fluent names', async ({ page }) => {
  await page.goto('./');
  await openDomainTab(page);
  await pasteRddl(page, NETWORK_ADMIN.domain.replace('running(?c)] - [sum_', 'runn(?c)] - [sum_'));
  // Find the half-typed name, then complete it.
  await page.keyboard.press('ControlOrMeta+F');
  await page.keyboard.type('runn(');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ControlOrMeta+Space');
  const suggestions = page.getByRole('listbox', { name: 'Suggest' });
  await expect(suggestions.getByRole('option', { name: /^running\b/ }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(problems(page)).toContainText('No problems');
});

test('IPPC files opened from disk run a session, with a choice of instance', async ({ page }) => {
  await page.goto('./');
  await page.getByRole('group', { name: 'Sample policies' }).getByRole('button', { name: 'Noop' }).click();
  await page
    .getByLabel('Open RDDL file(s)…')
    .setInputFiles(
      ['sysadmin_mdp.rddl', 'sysadmin_inst_mdp__1.rddl', 'sysadmin_inst_mdp__10.rddl'].map((f) =>
        resolve(ippc2011, f),
      ),
    );
  await expect(page.getByLabel('Domain').locator('option:checked')).toHaveText(/sysadmin_mdp\.rddl/);
  await expect(page.getByRole('tab', { name: 'sysadmin_inst_mdp__10.rddl' })).toBeVisible();
  const instance = page.getByLabel('Instance');
  await expect(instance).toHaveValue('sysadmin_inst_mdp__1');
  await instance.selectOption('sysadmin_inst_mdp__10');
  await expect(problems(page)).toContainText('No problems');
  await runOneFastRound(page);
  await selectMessage(page, 0);
  await expect(messageRows(page).filter({ hasText: 'sysadmin_inst_mdp__10 for' })).toHaveCount(1);
  await selectMessage(page, 6);
  await expect(messageRows(page).filter({ hasText: 'r1 t2' }).first()).toBeVisible();
  await expect(page.getByRole('table', { name: 'Observed fluents' })).toContainText('c50');
});

test('the quirks switch reaches the simulator', async ({ page }) => {
  await page.goto('./');
  await openDomainTab(page);
  // false * 3.5 is the real 0.0; rddlsim returns the zero operand unconverted: the boolean false.
  const withScore = NETWORK_ADMIN.domain
    .replace(
      'running(computer) : { state-fluent, bool, default = true };',
      'running(computer) : { state-fluent, bool, default = true };\n    score : { state-fluent, real, default = 1.5 };',
    )
    .replace('  cpfs {\n', "  cpfs {\n    score' = (exists_{?c : computer} ~running(?c)) * 3.5;\n");
  expect(withScore).toContain("score' =");
  await pasteRddl(page, withScore);
  await expect(problems(page)).toContainText('No problems');

  const scoreAtTurn2 = async () => {
    await runOneFastRound(page);
    await selectMessage(page, 6);
    await expect(messageRows(page).filter({ hasText: 'r1 t2' }).first()).toBeVisible();
    return page.getByRole('table', { name: 'Observed fluents' }).getByRole('row', { name: /^score/ });
  };
  await page.getByRole('switch', { name: 'rddlsim-compatible quirks' }).check();
  await expect(await scoreAtTurn2()).toContainText('false');
  await page.getByRole('switch', { name: 'rddlsim-compatible quirks' }).uncheck();
  await expect(await scoreAtTurn2()).toContainText('0.0');

  await page.getByRole('button', { name: 'Protocol notes' }).click();
  const notes = page.getByRole('dialog', { name: 'Notes on the rddlsim server and simulator' });
  await expect(notes).toContainText('* returns a zero operand unconverted');
  await expect(notes).toContainText('The server process exits');
});

test("the problem list follows the quirks switch: rddlsim's semantics turns what rddlsim runs into warnings", async ({
  page,
}) => {
  await page.goto('./');
  await openDomainTab(page);
  // An int fluent given a real: an error in the default semantics, run by rddlsim (the real kept).
  const faulty = NETWORK_ADMIN.domain
    .replace(
      'running(computer) : { state-fluent, bool, default = true };',
      'running(computer) : { state-fluent, bool, default = true };\n    count : { state-fluent, int, default = 0 };',
    )
    .replace('  cpfs {\n', "  cpfs {\n    count' = 1.5;\n");
  expect(faulty).toContain("count' =");
  await pasteRddl(page, faulty);
  const item = problems(page).getByRole('listitem');
  await expect(item).toHaveCount(1, { timeout: 30_000 });
  await expect(item).toContainText(/error.*'count' is int, but its cpf gives real/);
  const quirks = page.getByRole('switch', { name: 'rddlsim-compatible quirks' });
  await quirks.check();
  await expect(item).toContainText(/warning.*simulated as real/, { timeout: 30_000 });
  await expect(problems(page)).toContainText('No errors, 1 warning');
  await quirks.uncheck();
  await expect(item).toContainText(/error.*'count' is int/, { timeout: 30_000 });
});
