import { expect, test, type Page } from '@playwright/test';
import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { quickMassimConfig } from '../../src/core/envs/massim';
import { MassimMatchRunner, createTeamDecide } from '../../src/core/protocols/massim';
import { transcriptJson } from '../../src/core/transcript/store';
import {
  defaultMassimWorkspace,
  encodeMassimWorkspace,
  massimLinkParameter,
  type MassimWorkspaceData,
} from '../../src/core/protocols/massim/playground/workspace-data';

/**
 * The MASSim playground end to end, in real Chromium against the production build: matches in the session
 * worker with each team's policy in a policy worker of its own, the world canvas, the timeline, the log.
 */

/** Opens the playground on a MASSim workspace (as a shared link does): fast, short matches by default. */
async function openMassim(page: Page, change: (data: MassimWorkspaceData) => void = () => undefined) {
  const data = defaultMassimWorkspace();
  data.settings = { ...data.settings, speed: 'fast', steps: 30 };
  change(data);
  await page.goto(`./#${massimLinkParameter}=${encodeMassimWorkspace(data)}`);
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
}

const status = (page: Page) =>
  page.getByRole('status').filter({ hasText: /Ready|Running|Paused|Finished|Stopped/ });
const world = (page: Page) => page.getByRole('img', { name: /^World after step/ });

/** The pixel position of a cell's centre on the world canvas, from the view's transform. */
async function cellCentre(page: Page, x: number, y: number) {
  const canvas = world(page).locator('canvas');
  const [scale, ox, oy] = await Promise.all(
    ['data-scale', 'data-offset-x', 'data-offset-y'].map(async (name) =>
      Number(await canvas.getAttribute(name)),
    ),
  );
  return { canvas, position: { x: ox! + (x + 0.5) * scale!, y: oy! + (y + 0.5) * scale! } };
}

test('MASSim plays a short match: the world, an agent picked on the canvas, scores and the log', async ({
  page,
}) => {
  await page.goto('./');
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption('massim');
  // The settings are the learner's: 30 steps, as fast as possible.
  await page.getByText('Match settings').click();
  const steps = page.getByRole('spinbutton', { name: 'Steps', exact: true });
  await steps.fill('30');
  await steps.press('Tab');
  await page.getByText('Match settings').click();
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('fast');
  await expect(page.getByText('200 steps')).toHaveCount(0);
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  await expect(world(page)).toHaveAccessibleName(/World after step 29: 40 by 40 cells, 10 agents/);
  await expect(page.getByRole('toolbar', { name: 'Timeline' })).toContainText('Step 29');

  // Find agentB3 from its point of view, then pick it on the canvas.
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('agentB3');
  const panel = page.getByRole('region', { name: 'Point of view' });
  await expect(panel.getByRole('img', { name: /What the agent perceived/ })).toBeVisible();
  const position = (await panel.getByText(/^\(\d+, \d+\)$/).textContent())!.match(/\d+/g)!.map(Number);
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('');
  const { canvas, position: pixel } = await cellCentre(page, position[0]!, position[1]!);
  await canvas.hover({ position: pixel });
  await expect(page.getByRole('tooltip')).toContainText('agentB3');
  await canvas.click({ position: pixel });
  const picked = await page.getByRole('combobox', { name: 'Agent' }).inputValue();
  expect(picked).toMatch(/^agent[AB]\d$/);
  await expect(page.getByRole('tooltip')).toContainText(picked);
  await expect(panel).toContainText('Executed');

  // Scores per step for both teams, and the log of the picked agent's connection only.
  await expect(page.getByRole('group', { name: 'Scores per step' })).toContainText('team A');
  await expect(page.getByRole('group', { name: 'Scores per step' })).toContainText('team B');
  const rows = page.getByRole('listbox', { name: 'Messages' }).getByRole('option');
  await expect(rows.filter({ hasText: 'request-action' }).first()).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Connection' })).toHaveValue(`agent:${picked}`);
  await page.getByRole('listbox', { name: 'Messages' }).press('Home');
  await expect(rows.filter({ hasText: 'auth-request' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'auth-request' })).toContainText(picked);

  // Message times say when a message was sent: the last steps' requests came after the first ones' time,
  // although an as-fast-as-possible match spends no time on its virtual clock.
  await page.getByRole('listbox', { name: 'Messages' }).press('End');
  const lastRequest = rows.filter({ hasText: 'request-action' }).last();
  await expect(lastRequest).toBeVisible();
  await expect(lastRequest.locator('.time')).not.toHaveText('0 ms');
  await page.getByRole('listbox', { name: 'Messages' }).press('Home');
  await rows.filter({ hasText: 'sim-start' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Message text' })).toContainText('"teamSize": 5');
  await page.getByRole('tab', { name: 'Raw' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Message text' })).toContainText('{"type":"sim-start"');
  await page.getByRole('tab', { name: 'Outcomes' }).click();
  await expect(page.getByRole('table', { name: 'Action outcomes per agent' })).toContainText('success');
});

test('scrubbing back shows an earlier step: the world and the timeline follow', async ({ page }) => {
  await openMassim(page);
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  const last = await world(page).screenshot();
  await page.getByRole('slider', { name: 'Step shown' }).fill('3');
  await expect(world(page)).toHaveAccessibleName(/World after step 3:/);
  await expect(page.getByRole('toolbar', { name: 'Timeline' })).toContainText('Step 3');
  // The canvas shows another world: the agents moved since.
  await expect.poll(async () => Buffer.compare(await world(page).screenshot(), last)).not.toBe(0);
  await page.getByRole('button', { name: 'Step forward' }).click();
  await expect(world(page)).toHaveAccessibleName(/World after step 4:/);
  await page.getByRole('button', { name: 'Step back' }).click();
  await page.getByRole('button', { name: 'Step back' }).click();
  await expect(world(page)).toHaveAccessibleName(/World after step 2:/);
});

test('the block fetcher scores on the default map', async ({ page }) => {
  await openMassim(page, (data) => {
    data.settings = { ...data.settings, steps: 90 };
  });
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 45_000 });
  const chart = page.getByRole('group', { name: 'Scores per step' });
  const teamA = Number((await chart.getByText(/^team A: \d+$/).textContent())!.match(/\d+/)![0]);
  expect(teamA).toBeGreaterThan(0);
  await page.getByRole('tab', { name: /Console/ }).click();
  await expect(page.getByRole('listbox', { name: 'Console entries' })).toContainText('submitted');
});

test('a recording of the real server opens in the views', async ({ page }) => {
  await openMassim(page);
  const folder = resolve(process.cwd(), '../shared/conformance/massim/probes/connections');
  const files = readdirSync(folder).map((name) => join(folder, name));
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(files);
  await expect(page.getByRole('status').filter({ hasText: 'Opened' })).toBeVisible();
  await expect(status(page)).toContainText('showing an imported transcript');
  await expect(page.getByRole('toolbar', { name: 'Timeline' })).toContainText('16/16');
  await expect(page.getByText('This transcript holds no world states')).toBeVisible();
  // agentA2 forgot "p" at step 7: the banner says so while the step shown is in its silent stretch.
  await page.getByRole('slider', { name: 'Step shown' }).fill('8');
  await expect(
    page.getByRole('alert').filter({ hasText: 'agentA2 is no longer read by the server' }),
  ).toBeVisible();
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('agentA2');
  const panel = page.getByRole('region', { name: 'Point of view' });
  await expect(panel.getByRole('img', { name: /What the agent perceived/ })).toBeVisible();
  await expect(panel).toContainText('no_action');
});

test('a real server configuration file plays, and a reload brings back the workspace and the match', async ({
  page,
}) => {
  await openMassim(page, (data) => {
    data.teamA = { ...data.teamA, code: `// kept across reloads\n${data.teamA.code}` };
  });
  await page.getByText('Match settings').click();
  const config = resolve(process.cwd(), '../shared/conformance/massim/conf/acceptance.json');
  await page.getByLabel('Server configuration file…').setInputFiles(config);
  await expect(page.getByRole('group', { name: 'Match settings' })).toContainText(
    'A vs B: 2 agents per team on 20 x 20, 20 steps',
  );
  await page.getByText('Match settings').click();
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  await expect(world(page)).toHaveAccessibleName(/World after step 19: 20 by 20 cells, 4 agents/);
  // Storage writes are debounced: reload once the page says everything is stored.
  await expect(page.locator('[data-stored="true"]')).toBeAttached();
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
  await expect(status(page)).toContainText('showing the last session');
  await expect(world(page)).toHaveAccessibleName(/World after step 19: 20 by 20 cells, 4 agents/);
  await expect(page.getByText('// kept across reloads').first()).toBeVisible();
  await expect(page.getByRole('toolbar', { name: 'Session controls' })).toContainText('acceptance.json');
});

test('a MASSim transcript imported from the page header opens in the MASSim views', async ({
  page,
}, testInfo) => {
  const skip = createTeamDecide(() => ({ type: 'skip', p: [] }));
  const runner = new MassimMatchRunner({
    config: quickMassimConfig({ agentsPerTeam: 2, steps: 6 }),
    teams: { A: skip, B: skip },
    seed: 3,
  });
  await runner.run();
  const file = testInfo.outputPath('massim-match.json');
  writeFileSync(file, transcriptJson(runner.host.store));
  await page.goto('./');
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(file);
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
  await expect(status(page)).toContainText('showing an imported transcript');
  await expect(world(page)).toHaveAccessibleName(/World after step 5: 40 by 40 cells, 4 agents/);
});

/** Hovers a word of the visible policy editor and returns its hover box (the language service's answer). */
async function hoverWord(page: Page, word: string) {
  const token = page.locator('.view-line span span:visible', { hasText: new RegExp(`^${word}$`) }).first();
  await token.hover();
  return page.locator('.monaco-hover-content:visible').first();
}

test('switching from RDDLSim to MASSim checks the team code, not what the RDDLSim editor held', async ({
  page,
}) => {
  // The RDDLSim policy, unedited, known to the language service.
  await page.goto('./');
  await expect(page.getByRole('textbox', { name: 'Policy code' })).toBeAttached({ timeout: 30_000 });
  await expect(await hoverWord(page, 'Observation')).toContainText('interface Observation', {
    timeout: 15_000,
  });
  await page.mouse.move(1, 1);
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption('massim');
  await expect(page.getByRole('textbox', { name: 'Policy code' })).toBeAttached({ timeout: 30_000 });
  await expect(page.getByRole('code')).toContainText('export function act(');
  // The service answers about the team's code (a model that reused the RDDLSim one's name got the old
  // text's answers: nothing here, and its "Cannot find name" errors marked on the team's sample).
  await expect(await hoverWord(page, 'Percept')).toContainText('type Percept', { timeout: 15_000 });
  await expect(page.locator('.squiggly-error:visible')).toHaveCount(0);
});

test('MASSim controls wait for the stored state: a match started at once is not replaced by the restore', async ({
  page,
}) => {
  await openMassim(page);
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  await expect(page.locator('[data-stored="true"]')).toBeAttached();
  // Storage answers slowly now (a loaded machine): every IndexedDB request succeeds a second late.
  await page.addInitScript(() => {
    const onsuccess = Object.getOwnPropertyDescriptor(IDBRequest.prototype, 'onsuccess')!;
    Object.defineProperty(IDBRequest.prototype, 'onsuccess', {
      configurable: true,
      get() {
        return onsuccess.get!.call(this);
      },
      set(handler: ((event: Event) => void) | null) {
        onsuccess.set!.call(
          this,
          handler && ((event: Event) => setTimeout(() => handler.call(this, event), 1000)),
        );
      },
    });
  });
  await page.reload();
  // Pressed as soon as it can be: the match played is the new one, not the session stored before.
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 60_000 });
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  await expect(status(page)).not.toContainText('last session');
});

test('MASSim match settings refuse values they cannot use, with a message, and no match starts until fixed', async ({
  page,
}) => {
  await openMassim(page);
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 30_000 });
  const run = page.getByRole('button', { name: 'Run' });
  await page.getByText('Match settings', { exact: true }).click();
  const steps = page.getByRole('spinbutton', { name: 'Steps', exact: true });
  await steps.fill('0');
  await expect(
    page.getByRole('alert').filter({ hasText: 'Steps: 0 is out of range (from 1 to 2,000)' }),
  ).toBeVisible();
  await expect(steps).toHaveAttribute('aria-invalid', 'true');
  await expect(run).toBeDisabled();
  await steps.fill('2.5');
  await expect(
    page.getByRole('alert').filter({ hasText: "Steps: '2.5' is not a whole number" }),
  ).toBeVisible();
  const width = page.getByRole('spinbutton', { name: 'Grid width' });
  await width.fill('3');
  await expect(
    page.getByRole('alert').filter({ hasText: 'Grid width: 3 is out of range (from 5 to 200)' }),
  ).toBeVisible();
  // Closed, the settings still say what to fix beside Run.
  await page.getByText('Match settings', { exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Match settings to fix' })).toContainText(
    'Grid width',
  );
  await page.getByText('Match settings', { exact: true }).click();
  await steps.fill('12');
  await width.fill('20');
  await expect(page.getByRole('alert').filter({ hasText: /out of range|not a whole number/ })).toHaveCount(0);
  await expect(run).toBeEnabled();
  await expect(page.getByRole('toolbar', { name: 'Session controls' })).toContainText('20 × 40 · 12 steps');
  await page.getByText('Match settings', { exact: true }).click();
  await run.click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  await expect(page.getByRole('toolbar', { name: 'Timeline' })).toContainText('Step 11');
});

test('MASSim views agree on the step shown: message detail, log, tooltip and toolbar', async ({ page }) => {
  await openMassim(page);
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  const log = page.getByRole('listbox', { name: 'Messages' });
  const selectedRow = log.locator('[aria-selected="true"]');

  // The timeline leads the log: the step shown selects its first message, placed by its step.
  await page.getByRole('slider', { name: 'Step shown' }).fill('8');
  await expect(selectedRow).toContainText('s8');
  await expect(selectedRow).toContainText('request-action');
  const detail = page.getByRole('region', { name: 'Message detail' });
  await expect(detail).toContainText(' · step 8 · ');
  await expect(detail).not.toContainText('round 1');

  // A tooltip under a still pointer follows the step shown.
  const agent = page.getByRole('combobox', { name: 'Agent' });
  const panel = page.getByRole('region', { name: 'Point of view' });
  const positionNow = async () =>
    (await panel.getByText(/^\(\d+, \d+\)$/).textContent())!.match(/\d+/g)!.map(Number);
  await page.getByRole('slider', { name: 'Step shown' }).fill('29');
  await agent.selectOption('agentA1');
  const late = await positionNow();
  await page.getByRole('slider', { name: 'Step shown' }).fill('0');
  // The point of view follows the step in a later frame: wait for it to show another place.
  await expect.poll(positionNow).not.toEqual(late);
  await page.getByRole('slider', { name: 'Step shown' }).fill('29');
  await agent.selectOption('');
  const { canvas, position } = await cellCentre(page, late[0]!, late[1]!);
  await canvas.hover({ position });
  await expect(page.getByRole('tooltip')).toContainText('agentA1');
  // The step changes by keyboard; the pointer does not move.
  await page.getByRole('slider', { name: 'Step shown' }).fill('0');
  await expect(world(page)).toHaveAccessibleName(/World after step 0:/);
  await expect(page.getByRole('tooltip')).not.toContainText('agentA1');

  // Once stored and reloaded, the toolbar says what is on show, not the settings of the next match.
  await expect(page.locator('[data-stored="true"]')).toBeAttached();
  await page.reload();
  await expect(status(page)).toContainText('showing the last session', { timeout: 30_000 });
  await expect(page.getByRole('toolbar', { name: 'Session controls' })).toContainText(
    'Showing the last session: 10 agents · 30 steps',
  );
});
