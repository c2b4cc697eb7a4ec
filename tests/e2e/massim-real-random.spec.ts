import { expect, test, type Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MASSIM_SAMPLES } from '../../src/core/protocols/massim/samples';
import {
  defaultMassimWorkspace,
  encodeMassimWorkspace,
  massimLinkParameter,
} from '../../src/core/protocols/massim/playground/workspace-data';

/**
 * The playground's "Real server's random numbers" switch, in real Chromium against the production build:
 * with a configuration recorded from the real MASSim 2022 server (tests/data/massim-worlds/cave20.json) and
 * its seed, a match of agents that only skip ends in the real server's world: agentA1 still on its start
 * cell and the tasks the real server made, with their deadlines, rewards and shapes. Without the switch
 * the same seed gives Protoplay's world.
 */

interface Recording {
  config: { match: { randomSeed: number }[] };
  steps: { entities: [string, number, number][]; tasks: { name: string; deadline: number }[] }[];
}

const recording = JSON.parse(
  readFileSync(resolve(process.cwd(), 'tests/data/massim-worlds/cave20.json'), 'utf8'),
) as Recording;
const last = recording.steps.at(-1)!;
const [, startX, startY] = recording.steps[0]!.entities.find(([name]) => name === 'agentA1')!;
const skip = MASSIM_SAMPLES.find((sample) => sample.id === 'skip')!;

const status = (page: Page) =>
  page.getByRole('status').filter({ hasText: /Ready|Running|Paused|Finished|Stopped/ });

/** Plays the recorded configuration with both teams skipping; returns agentA1's panel at the end. */
async function playRecorded(page: Page, realRandom: boolean) {
  const data = defaultMassimWorkspace();
  data.teamA = { code: skip.code, language: skip.language, level: skip.level };
  data.teamB = {
    kind: 'sample',
    sample: 'skip',
    code: skip.code,
    language: skip.language,
    level: skip.level,
  };
  // The playground's seed is the session's: simulation 0 uses it as it is.
  data.settings = { ...data.settings, speed: 'fast', seed: recording.config.match[0]!.randomSeed };
  await page.goto(`./#${massimLinkParameter}=${encodeMassimWorkspace(data)}`);
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
  await expect(page.locator('[data-restored="true"]')).toBeAttached();
  await page.getByText('Match settings').click();
  const config = test.info().outputPath('cave20-config.json');
  writeFileSync(config, JSON.stringify(recording.config));
  await page.getByLabel('Server configuration file…').setInputFiles(config);
  const box = page.getByRole('checkbox', { name: /Real server's random numbers/ });
  await expect(box).not.toBeChecked();
  if (realRandom) {
    await box.press('Space');
    await expect(box).toBeChecked();
  }
  await page.getByText('Match settings').click();
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(status(page)).toContainText('Finished', { timeout: 60_000 });
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('agentA1');
  const panel = page.getByRole('region', { name: 'Point of view' });
  await expect(panel.getByRole('img', { name: /What the agent perceived/ })).toBeVisible();
  return panel;
}

test("the real server's random numbers give the real server's world for the seed", async ({ page }) => {
  const panel = await playRecorded(page, true);
  await expect(panel.getByText(/^\(\d+, \d+\)$/)).toHaveText(`(${startX}, ${startY})`);
  await expect(panel.getByText(`${last.tasks.length} tasks`)).toBeVisible();
  for (const task of last.tasks) {
    await expect(panel).toContainText(`${task.name}: `);
    await expect(panel).toContainText(`until step ${task.deadline}`);
  }
  // The switch is kept with the workspace.
  await expect(page.locator('[data-stored="true"]')).toBeAttached();
  await page.reload();
  await page.getByText('Match settings').click();
  await expect(page.getByRole('checkbox', { name: /Real server's random numbers/ })).toBeChecked();
});

test("without the switch the same seed gives Protoplay's world", async ({ page }) => {
  const panel = await playRecorded(page, false);
  const deadlines = last.tasks.map((task) => `until step ${task.deadline}`);
  const text = (await panel.textContent()) ?? '';
  const position = `(${startX}, ${startY})`;
  expect(deadlines.every((line) => text.includes(line)) && text.includes(position)).toBe(false);
});
