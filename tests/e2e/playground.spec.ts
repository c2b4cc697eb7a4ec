import { expect, test } from '@playwright/test';
import { configure, editor, exportAs, messageRows, setPolicyCode, status } from './playground-page';
import { readFileSync } from 'node:fs';

/**
 * The playground end to end, in real Chromium against the production build: the workers, Monaco, storage
 * and downloads are all the real ones.
 */

test('the page loads on RDDLSim with a domain and a sample policy, ready to run', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByRole('heading', { name: 'Protoplay' })).toBeVisible();
  await expect(page.getByLabel('Protocol')).toHaveValue('rddlsim');
  await expect(page.getByLabel('Domain')).not.toHaveValue('');
  await expect(page.getByRole('button', { name: 'Run' })).toBeEnabled();
  await expect(page.getByRole('group', { name: 'Sample policies' }).getByRole('button')).not.toHaveCount(0);
  await expect(await editor(page)).toBeAttached();
  await expect(page.getByText('export function act').first()).toBeVisible();
});

test('a 3-round session shows every message and a chart point per round', async ({ page }) => {
  await page.goto('./');
  await editor(page);
  await configure(page, { rounds: 3, fast: true });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  const chart = page.getByRole('group', { name: 'Total reward per round' });
  await expect(chart.getByRole('button', { name: /^Round \d+: total reward/ })).toHaveCount(3);
  await expect(page.getByText(/of \d+ messages/)).toBeVisible();
  // The log follows the newest message: the last rows are the session's end.
  await expect(messageRows(page).filter({ hasText: 'session-end' })).toHaveCount(1);
  await messageRows(page).filter({ hasText: 'session-end' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Message text' })).toContainText('<total-reward>');
  // Selecting a round shows its per-step rewards.
  await chart.getByRole('button', { name: /^Round 2:/ }).click();
  await expect(page.getByRole('group', { name: 'Per-step rewards of round 2' })).toBeVisible();
});

test('switching the policy to JavaScript strips its types, and the session plays the same', async ({
  page,
}) => {
  await page.goto('./');
  await editor(page);
  await configure(page, { rounds: 2, fast: true });
  const totalReward = async () => {
    await page.getByRole('button', { name: 'Run' }).click();
    await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
    await messageRows(page).filter({ hasText: 'session-end' }).click();
    const text = await page.getByRole('tabpanel', { name: 'Message text' }).innerText();
    return /<total-reward>([^<]+)</.exec(text)?.[1];
  };
  const typed = await totalReward();
  expect(typed).toMatch(/^-?\d/);
  await expect(page.getByRole('code')).toContainText('observation: Observation');
  await page.getByRole('combobox', { name: 'Language' }).selectOption('js');
  await expect(page.getByRole('code')).toContainText('export function act(observation, context) {');
  await expect(page.getByRole('code')).not.toContainText('Observation');
  expect(await totalReward()).toBe(typed);
});

test('editing the policy changes the actions sent', async ({ page }) => {
  await page.goto('./');
  await configure(page, { rounds: 1, fast: true });
  await page.getByRole('group', { name: 'Sample policies' }).getByRole('button', { name: 'Noop' }).click();
  await editor(page);
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  const actions = messageRows(page).filter({ hasText: 'actions' });
  await expect(actions.first()).toContainText('noop');
  await expect(actions.filter({ hasText: 'reboot' })).toHaveCount(0);

  await setPolicyCode(
    page,
    [
      'export function act(observation: Observation, context: PolicyContext): Actions {',
      '  const first = context.instance.actions[0]!;',
      '  const args = first.params.map((type) => context.instance.objects[type]![0]!);',
      '  return { name: first.name, args };',
      '}',
    ].join('\n'),
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  await messageRows(page).filter({ hasText: 'actions' }).first().click();
  await expect(page.getByRole('tabpanel', { name: 'Message text' })).toContainText('<action-name>');
});

test('a while(true) policy is stopped after the budget while the page stays responsive', async ({ page }) => {
  await page.goto('./');
  await configure(page, { rounds: 2, fast: true });
  await setPolicyCode(page, 'export function act() {\n  while (true) {}\n}\n');
  await page.getByRole('button', { name: 'Run' }).click();
  // While the policy spins, the page still answers: open and close the import dialog.
  await page.getByRole('button', { name: 'Import…' }).click();
  await expect(page.getByRole('dialog', { name: 'Import a transcript' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'policy exceeded' })).toHaveText(
    'policy exceeded 1000 ms on round 1, turn 1',
    { timeout: 15_000 },
  );
  await expect(status(page)).toContainText('Stopped by an error');
  // Nothing recorded before the overrun is lost: the session's opening messages are all there.
  for (const type of ['session-request', 'session-init', 'round-request', 'round-init', 'turn'])
    await expect(messageRows(page).filter({ hasText: type }).first()).toBeVisible();
  // The restarted policy worker serves the next run.
  await setPolicyCode(page, 'export function act() {\n  return null;\n}\n');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
});

test('a reload restores the editor content and the last transcript', async ({ page }) => {
  await page.goto('./');
  await configure(page, { rounds: 1, fast: true });
  const marker = `// kept across reloads ${Date.now()}`;
  await setPolicyCode(page, `${marker}\nexport function act() {\n  return null;\n}\n`);
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  const count = await page.getByText(/of \d+ messages/).textContent();
  // Storage writes are debounced: reload once the page says everything is stored.
  await expect(page.locator('[data-stored="true"]')).toBeAttached();
  await page.reload();
  await expect(page.getByText(marker).first()).toBeVisible();
  await expect(status(page)).toContainText('showing the last session');
  await expect(page.getByText(/of \d+ messages/)).toHaveText(count!);
  await expect(page.getByLabel('Rounds')).toHaveValue('1');
});

test('an exported transcript imports again, and the raw export is the wire bytes', async ({ page }) => {
  await page.goto('./');
  await configure(page, { rounds: 2, fast: true });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  const count = await page.getByText(/of \d+ messages/).textContent();

  const [json] = await Promise.all([page.waitForEvent('download'), exportAs(page, 'Protoplay JSON')]);
  const jsonPath = await json.path();
  const exported = JSON.parse(readFileSync(jsonPath, 'utf8')) as { format: string; messages: unknown[] };
  expect(exported.format).toBe('protoplay-transcript');

  const [raw] = await Promise.all([
    page.waitForEvent('download'),
    exportAs(page, 'Raw bytes, server → client'),
  ]);
  const bytes = readFileSync(await raw.path());
  expect(bytes.subarray(0, 38).toString('latin1')).toBe('<?xml version="1.0" encoding="UTF-8"?>');
  expect(bytes.includes(0)).toBe(true);

  await page.reload();
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(jsonPath);
  await expect(status(page)).toContainText('showing an imported transcript');
  await expect(page.getByText(/of \d+ messages/)).toHaveText(count!);
  await expect(page.getByRole('group', { name: 'Total reward per round' }).getByRole('button')).toHaveCount(
    2,
  );
});

test('a policy that throws is stopped with its message and line, marked in the editor', async ({ page }) => {
  await page.goto('./');
  await configure(page, { rounds: 1, fast: true });
  const line2 = '  if (observation.turn === 3) throw new Error("no plan for turn 3");';
  await setPolicyCode(
    page,
    ['export function act(observation: Observation): Actions {', line2, '  return null;', '}'].join('\n'),
  );
  await page.getByRole('button', { name: 'Run' }).click();
  // Located where the error was created, in the user's source (not the compiled code).
  await expect(page.getByRole('alert').filter({ hasText: 'no plan' })).toHaveText(
    `policy.ts:2:${line2.indexOf('new Error') + 1}: Error: no plan for turn 3`,
  );
  await expect(status(page)).toContainText('Stopped by an error');
  // Monaco marks the spot: "go to next problem" (F8) opens the marker with the message.
  await (await editor(page)).focus();
  await page.keyboard.press('F8');
  await expect(page.getByText('Error: no plan for turn 3', { exact: true })).toBeVisible();
  // The turns before the throw were played and kept.
  await expect(messageRows(page).filter({ hasText: 'r1 t2' }).first()).toBeVisible();
});

test('an action with an unknown name is held before sending, and can be sent anyway', async ({ page }) => {
  await page.goto('./');
  await configure(page, { rounds: 1, fast: true });
  await setPolicyCode(
    page,
    [
      'export function act(): Actions {',
      "  return { name: 'restart', args: ['server'] } as unknown as Action;",
      '}',
    ].join('\n'),
  );
  await page.getByRole('button', { name: 'Run' }).click();
  const decision = page.getByRole('alertdialog', { name: /Actions not sent \(round 1, turn 1\)/ });
  await expect(decision).toBeVisible();
  await expect(decision).toContainText('restart');
  await expect(status(page)).toContainText('Waiting for your decision');
  await decision.getByRole('button', { name: 'Send anyway' }).click();
  await expect(decision).toBeHidden();
  // The real server fails on an unknown action name and closes the connection; the emulator does the same
  // and says so.
  await expect(messageRows(page).filter({ hasText: 'restart(server)' })).toHaveCount(1);
  await expect(status(page)).toContainText(/Finished|Stopped/);
  // The tab counts the notes waiting in it.
  await expect(page.getByRole('tab', { name: /Console/ }).locator('span')).toHaveText(/^[1-9]\d*$/);
  await page.getByRole('tab', { name: /Console/ }).click();
  await expect(page.getByRole('listbox', { name: 'Console entries' })).toContainText('real server');
});

test('a wire-level policy speaks the protocol itself', async ({ page }) => {
  await page.goto('./');
  await configure(page, { rounds: 2, fast: true });
  await page
    .getByRole('group', { name: 'Sample policies' })
    .getByRole('button', { name: 'Wire level' })
    .click();
  await expect(page.getByLabel('Level')).toHaveValue('wire');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  await expect(page.getByRole('group', { name: 'Total reward per round' }).getByRole('button')).toHaveCount(
    2,
  );
  await expect(messageRows(page).filter({ hasText: 'session-end' })).toHaveCount(1);
});

test('a shared link opens its configuration over the stored one', async ({ page }) => {
  await page.goto('./');
  await setPolicyCode(page, '// shared by a teacher\nexport function act() {\n  return null;\n}\n');
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('#p=rddlsim');
  // The learner edits on; storage now holds other code.
  await setPolicyCode(page, '// edited later\nexport function act() {\n  return null;\n}\n');
  await expect(page.locator('[data-stored="true"]')).toBeAttached();
  // Opening the link (with another seed) applies its configuration over the stored one.
  const url = new URL(copied);
  url.hash = url.hash.replace(/seed=\d+/, 'seed=42');
  const opened = await page.context().newPage();
  await opened.goto(url.toString());
  await expect(opened.getByText('// shared by a teacher').first()).toBeVisible();
  await expect(opened.getByLabel('Seed')).toHaveValue('42');
});

test('step plays one turn at a time, then resume runs to the end', async ({ page }) => {
  await page.goto('./');
  await editor(page);
  await configure(page, { rounds: 1, fast: true });
  await page.getByRole('button', { name: 'Step' }).click();
  await expect(status(page)).toContainText('Paused');
  await expect(messageRows(page).filter({ hasText: 'r1 t1' })).toHaveCount(1);
  await expect(messageRows(page).filter({ hasText: 'actions' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Step' }).click();
  // The actions answer turn 1; the server's turn 2 follows, then the session waits again.
  await expect(messageRows(page).filter({ hasText: 'actions' })).toHaveCount(1);
  await expect(messageRows(page).filter({ hasText: 'r1 t1' })).toHaveCount(2);
  await expect(messageRows(page).filter({ hasText: 'r1 t2' })).toHaveCount(1);
  await expect(status(page)).toContainText('Paused');
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
});

test('a recorded real-server transcript imports and shows in every view', async ({ page }) => {
  const recording = new URL(
    '../../../shared/conformance/rddlsim/sysadmin_inst_pomdp__1.transcript',
    import.meta.url,
  );
  await page.goto('./');
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(recording.pathname);
  await expect(status(page)).toContainText('showing an imported transcript');
  // Two rounds were recorded: two chart points, and the log holds the session's end.
  await expect(page.getByRole('group', { name: 'Total reward per round' }).getByRole('button')).toHaveCount(
    2,
  );
  await expect(messageRows(page).filter({ hasText: 'session-end' })).toHaveCount(1);
  // The observations of the selected turn fill the state panel (a POMDP: observation fluents).
  await messageRows(page).filter({ hasText: 'turn' }).last().click();
  await expect(page.getByRole('table', { name: 'Observed fluents' })).toContainText('running-obs');
  // The session-init's base64 task decodes on demand (keyboard: Home, then one down).
  await page.getByRole('listbox', { name: 'Messages' }).focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await page.getByRole('tab', { name: 'Task (decoded)' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Message text' })).toContainText('domain sysadmin_pomdp');
});
