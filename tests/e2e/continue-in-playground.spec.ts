/**
 * "Continue in the playground" through the page: a recording imported, played again against the emulated
 * server in the session worker, and where the emulator and the recording differ shown. The recordings are
 * made here by the emulated servers themselves (so they must be reproduced), then one message changed.
 */
import { expect, test, type Page } from '@playwright/test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { quickMassimConfig } from '../../src/core/envs/massim/index';
import { findScavengerScenario } from '../../src/core/envs/scavenger';
import { AisysHost } from '../../src/core/protocols/aisys/host';
import { playGamaEpisodes } from '../../src/core/protocols/gama';
import { createTeamDecide } from '../../src/core/protocols/massim/client';
import type { MassimAct } from '../../src/core/protocols/massim/policy-api';
import { MassimMatchRunner } from '../../src/core/protocols/massim/runner';
import { serialiseTranscript } from '../../src/core/transcript/json-format';
import type { Transcript } from '../../src/core/transcript/model';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { exportAs } from './playground-page';

async function importFile(page: Page, file: string) {
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(file);
  const name = file.slice(file.lastIndexOf('/') + 1);
  await expect(page.getByRole('status').filter({ hasText: `Opened ${name}` })).toBeVisible({
    timeout: 60_000,
  });
}

const compare = (page: Page) => page.getByRole('group', { name: 'Compare with the emulator' });

/** A small match of the emulated MASSim server (2 x 2 agents, 6 steps), as Protoplay records it. */
async function massimRecording(): Promise<Transcript> {
  const base = quickMassimConfig({ agentsPerTeam: 2, steps: 6, width: 20, height: 20 });
  const config = { ...base, server: { ...base.server, waitBetweenSimulations: 500 } };
  const wander: MassimAct = (_percept, agent) => ({
    type: 'move',
    p: [(['n', 'e', 's', 'w'] as const)[agent.step % 4]!],
  });
  const runner = new MassimMatchRunner({
    config,
    teams: { A: createTeamDecide(wander), B: createTeamDecide(wander) },
    seed: 5,
    startTime: Date.UTC(2026, 0, 1),
  });
  await runner.run();
  return structuredClone(runner.transcript);
}

/** A few Nim exchanges with the emulated aisysprojserver, as the page records them. */
function aisysRecording(): Transcript {
  const host = new AisysHost({ seed: 3 });
  host.addEnvironment('nim', 'nim', { strong: false, random_start: true }, 'Nim');
  host.addAgent('nim', 'ada', 'secret');
  const recorder = new TranscriptRecorder({
    protocol: 'aisys',
    now: () => 0,
    meta: { source: 'emulated', env: 'nim', environment: 'nim', agent: 'ada', seed: 3, faithfulBugs: true },
  });
  recorder.addConnection('http', 'emulated server');
  let actions: { run: number; act_no: number; action: number }[] = [];
  for (let i = 0; i < 6; i++) {
    const body = JSON.stringify({
      protocol_version: 1,
      agent: 'ada',
      pwd: 'secret',
      actions,
      parallel_runs: true,
    });
    const meta = { method: 'PUT', path: '/act/nim', headers: { 'content-type': 'application/json' } };
    const request = recorder.httpRequest('http', { meta, body }, 'nim/ada');
    const response = host.handle({ meta, body });
    recorder.httpResponse('http', request.index, response, 'nim/ada');
    const requests = (JSON.parse(response.body) as { action_requests: { run: number; act_no: number }[] })
      .action_requests;
    actions = requests.map((r) => ({ run: r.run, act_no: r.act_no, action: 1 }));
  }
  return recorder.transcript;
}

/** The transcript with message `index` rewritten by `change`. */
function changed(transcript: Transcript, index: number, change: (text: string) => string): Transcript {
  return {
    ...transcript,
    messages: transcript.messages.map((m) => (m.index === index ? { ...m, text: change(m.text!) } : m)),
  };
}

test.beforeEach(async ({ page }) => {
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 60_000 });
});

test('a MASSim match the emulator recorded is reproduced; a changed percept is found and shown', async ({
  page,
}, testInfo) => {
  const recording = await massimRecording();
  const serverFrames = recording.messages.filter((m) => m.kind === 'data' && m.dir === 's2c');
  const same = testInfo.outputPath('massim-match.json');
  writeFileSync(same, serialiseTranscript(recording));
  await importFile(page, same);
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
  await compare(page).getByRole('button', { name: 'Compare with the emulator' }).click();
  await expect(compare(page)).toContainText(`No difference in ${serverFrames.length} messages`, {
    timeout: 60_000,
  });
  await expect(compare(page)).toContainText('as recorded');
  // The rewards export, made in the worker that keeps a MASSim transcript: a line per step of the match.
  const downloading = page.waitForEvent('download');
  await exportAs(page, 'Rewards (CSV)');
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^massim-.*\.rewards\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8')
    .trim()
    .split('\n');
  expect(csv[0]).toBe('round,step,reward,cumulative,round_total');
  expect(csv.slice(1).every((line) => line.startsWith('1,'))).toBe(true);
  expect(csv.length).toBeGreaterThanOrEqual(1 + 6);

  const target = serverFrames.find(
    (m) =>
      m.conn === 'agentB1.conn1' &&
      m.text!.includes('"type":"request-action"') &&
      m.text!.includes('"step":3'),
  )!;
  const energy = (JSON.parse(target.text!) as { content: { percept: { energy: number } } }).content.percept
    .energy;
  const other = testInfo.outputPath('massim-changed.json');
  writeFileSync(
    other,
    serialiseTranscript(
      changed(recording, target.index, (t) => t.replace(`"energy":${energy}`, `"energy":${energy - 3}`)),
    ),
  );
  await importFile(page, other);
  // The answer about the first recording is gone with it.
  await expect(compare(page).getByRole('status')).toHaveCount(0);
  await compare(page).getByRole('button', { name: 'Compare with the emulator' }).click();
  const result = compare(page).getByRole('status');
  await expect(result).toContainText(`First difference at message #${target.index}`, { timeout: 60_000 });
  await expect(result).toContainText('agentB1.conn1, $.content.percept.energy');
  await expect(result).toContainText(`recorded ${energy - 3}, emulator ${energy}`);
  await expect(result).toContainText(`1 of ${serverFrames.length} messages differ`);
  await result.getByText('Both texts').click();
  await expect(result.getByRole('region', { name: 'Recorded text' })).toContainText(`"energy":${energy - 3}`);
  await expect(result.getByRole('region', { name: 'Emulated text' })).toContainText(`"energy":${energy}`);
  await result.getByRole('button', { name: `Show #${target.index}` }).click();
  await expect(page.locator(`#message-${target.index}`)).toHaveAttribute('aria-selected', 'true');
});

test('an aisys recording: reproduced, a changed response located, and a recording without its environment asks for one', async ({
  page,
}, testInfo) => {
  const recording = aisysRecording();
  const responses = recording.messages.filter((m) => m.dir === 's2c');
  const same = testInfo.outputPath('aisys-session.json');
  writeFileSync(same, serialiseTranscript(recording));
  await importFile(page, same);
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('aisys');
  await compare(page).getByRole('button', { name: 'Compare with the emulator' }).click();
  await expect(compare(page)).toContainText(`No difference in ${responses.length} messages`, {
    timeout: 60_000,
  });

  const target = responses[3]!;
  const other = testInfo.outputPath('aisys-changed.json');
  writeFileSync(
    other,
    serialiseTranscript(
      changed(recording, target.index, (t) => t.replace(/"percept": ?\d+/, '"percept": 99')),
    ),
  );
  await importFile(page, other);
  await compare(page).getByRole('button', { name: 'Compare with the emulator' }).click();
  const result = compare(page).getByRole('status');
  await expect(result).toContainText(`First difference at message #${target.index}`, { timeout: 60_000 });
  await expect(result).toContainText('nim/ada, $.action_requests[0].percept');
  await expect(result).toContainText('recorded 99');
  await result.getByRole('button', { name: `Show #${target.index}` }).click();

  // A recording that does not say its environment or seed: the user chooses, and the answer says so.
  const { environment: _environment, seed: _seed, ...meta } = recording.meta;
  const bare = testInfo.outputPath('aisys-bare.json');
  writeFileSync(bare, serialiseTranscript({ ...recording, meta }));
  await importFile(page, bare);
  await compare(page).getByRole('button', { name: 'Compare with the emulator' }).click();
  await expect(compare(page)).toContainText('does not say which environment it played', { timeout: 60_000 });
  await compare(page).getByRole('combobox', { name: 'Environment' }).selectOption('nim');
  await compare(page).getByRole('textbox', { name: 'Seed' }).fill('3');
  await compare(page).getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(compare(page)).toContainText(`No difference in ${responses.length} messages`, {
    timeout: 60_000,
  });
  await expect(compare(page)).toContainText('(chosen), seed 3 (given)');

  // At phone width the bar wraps inside the page: nothing sticks out sideways.
  await page.setViewportSize({ width: 390, height: 800 });
  await expect.poll(() => compare(page).evaluate((bar) => bar.scrollWidth <= bar.clientWidth + 1)).toBe(true);
  const box = await compare(page).boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(391);
});

test("the real MASSim server's recording, given its configuration file, is reproduced frame for frame", async ({
  page,
}) => {
  const folder = resolve(process.cwd(), '../shared/conformance/massim/events/connections');
  const files = readdirSync(folder).map((name) => resolve(folder, name));
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(files);
  await expect(page.getByRole('status').filter({ hasText: 'Opened' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
  await compare(page).getByRole('button', { name: 'Compare with the emulator' }).click();
  await expect(compare(page)).toContainText('does not say which environment it played', { timeout: 60_000 });
  await compare(page)
    .getByLabel(/configuration file/)
    .setInputFiles(resolve(process.cwd(), '../shared/conformance/massim/conf/events.json'));
  await compare(page).getByRole('button', { name: 'Compare', exact: true }).click();
  await expect(compare(page)).toContainText('No difference in 24 messages', { timeout: 60_000 });
  await expect(compare(page)).toContainText("events.json, the real server's random numbers (chosen)");
});

test('a GAMA recording: the recorded replies fed to the emulated GAMA side give back every frame', async ({
  page,
}, testInfo) => {
  const recorder = new TranscriptRecorder({ protocol: 'gama', now: () => 0, meta: { seed: 2, cycles: 15 } });
  const moves = ['move_ahead', 'face_left', 'move_ahead', 'move_right'];
  let asked = 0;
  await playGamaEpisodes({
    simulation: { scenario: findScavengerScenario('C')!, seed: 2, maxCycles: 15 },
    decide: () => moves[asked++ % moves.length]!,
    episodes: 1,
    recorder,
  });
  const frames = recorder.transcript.messages.filter((m) => m.kind === 'data' && m.dir === 'c2s');
  const file = testInfo.outputPath('gama-episode.json');
  writeFileSync(file, serialiseTranscript(recorder.transcript));
  await importFile(page, file);
  await expect(page.getByRole('combobox', { name: 'Protocol' })).toHaveValue('gama');
  await compare(page).getByRole('button', { name: 'Compare with the emulator' }).click();
  await expect(compare(page)).toContainText(`No difference in ${frames.length} messages`, {
    timeout: 60_000,
  });
});
