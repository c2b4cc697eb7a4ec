import { expect, test, type Page } from '@playwright/test';
import {
  defaultMassimWorkspace,
  encodeMassimWorkspace,
  massimLinkParameter,
} from '../../src/core/protocols/massim/playground/workspace-data';

/**
 * The MASSim mistakes the playground must make visible: an agent the server stops reading (an action
 * without "p", sent at the wire level), and a team policy that never returns.
 */

/** Opens the playground on MASSim with team A's code (fast, short matches). */
async function openWithTeamA(page: Page, code: string, level: 'policy' | 'wire', steps: number) {
  const data = defaultMassimWorkspace();
  data.teamA = { code, language: 'ts', level };
  data.settings = { ...data.settings, speed: 'fast', steps };
  await page.goto(`./#${massimLinkParameter}=${encodeMassimWorkspace(data)}`);
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
}

const status = (page: Page) =>
  page.getByRole('status').filter({ hasText: /Ready|Running|Paused|Finished|Stopped/ });

const FORGETS_P = `export function onConnect(agent: WireAgent): WireReply {
  return JSON.stringify({ type: 'auth-request', content: { user: agent.name, pw: agent.password } });
}

export function onMessage(message: string, agent: WireAgent): WireReply {
  const { type, content } = JSON.parse(message);
  if (type !== 'request-action') return null;
  if (agent.name === 'agentA1' && content.step === 2)
    return JSON.stringify({ type: 'action', content: { id: content.id, type: 'skip' } });
  return JSON.stringify({ type: 'action', content: { id: content.id, type: 'skip', p: [] } });
}
`;

test('an action without "p" at the wire level: the agent is no longer read, and the page says so', async ({
  page,
}) => {
  await openWithTeamA(page, FORGETS_P, 'wire', 8);
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
  const banner = page.getByRole('alert').filter({ hasText: 'agentA1 is no longer read by the server' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('since step 2');
  await expect(banner).toContainText('"p"');
  // The banner leads to the frame in the log, marked, with the verdict beside it.
  await banner.getByRole('button', { name: 'Show the frame' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Message text' })).toContainText('"type": "skip"');
  await expect(page.getByRole('list', { name: 'Notes on this message' })).toContainText('no "p" array');
  // The agent's point of view says it too, and its later steps were no_action.
  const panel = page.getByRole('region', { name: 'Point of view' });
  await expect(panel.getByRole('alert')).toContainText('The server no longer reads agentA1');
  await page.getByRole('tab', { name: 'Outcomes' }).click();
  await expect(page.getByRole('table', { name: 'Action outcomes per agent' })).toContainText('no_action');
  // Before step 2 there was nothing to say.
  await page.getByRole('slider', { name: 'Step shown' }).fill('1');
  await expect(banner).toHaveCount(0);
});

test('a team policy stuck in while(true) is stopped after its budget; the page stays responsive', async ({
  page,
}) => {
  await openWithTeamA(page, 'export function act(): Action {\n  while (true) {}\n}\n', 'policy', 20);
  await page.getByRole('button', { name: 'Run' }).click();
  // While the policy spins, the page still answers.
  await page.getByText('Match settings').click();
  await expect(page.getByRole('group', { name: 'Match settings' })).toBeVisible();
  await page.getByText('Match settings').click();
  await expect(page.getByRole('alert').filter({ hasText: 'policy exceeded' })).toHaveText(
    'team A: policy exceeded 1000 ms on step 0',
    { timeout: 15_000 },
  );
  await expect(status(page)).toContainText('Stopped by an error');
  // The restarted policy worker serves the next run.
  await page.getByRole('tab', { name: 'Team A' }).click();
  await page.getByRole('group', { name: 'Sample policies' }).getByRole('button', { name: 'Skip' }).click();
  await expect(page.getByText("return { type: 'skip', p: [] };").first()).toBeVisible();
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 30_000 });
});
