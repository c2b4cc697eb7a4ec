/**
 * "Compare with the emulator" on a long recording: the page shows how many messages were played again of
 * how many, Cancel stops it (reachable from the keyboard: it takes the focus), and the bar fits a phone.
 */
import { expect, test, type Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { quickMassimConfig } from '../../src/core/envs/massim/index';
import { createTeamDecide } from '../../src/core/protocols/massim/client';
import { MassimMatchRunner } from '../../src/core/protocols/massim/runner';
import { serialiseTranscript } from '../../src/core/transcript/json-format';

const compare = (page: Page) => page.getByRole('group', { name: 'Compare with the emulator' });

test.beforeEach(async ({ page }) => {
  await page.goto('./');
  await expect(page.locator('[data-restored="true"]')).toBeAttached({ timeout: 60_000 });
});

test('a long replay shows its progress, is cancelled from the keyboard, and fits a phone', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  // A long match of the emulated MASSim server (one agent a team, 2,000 steps), as Protoplay records it.
  const base = quickMassimConfig({ agentsPerTeam: 1, steps: 2000, width: 20, height: 20 });
  const wander = createTeamDecide((_percept, agent) => ({
    type: 'move',
    p: [(['n', 'e', 's', 'w'] as const)[agent.step % 4]!],
  }));
  const runner = new MassimMatchRunner({
    config: { ...base, server: { ...base.server, waitBetweenSimulations: 500 } },
    teams: { A: wander, B: wander },
    seed: 9,
    startTime: Date.UTC(2026, 0, 1),
  });
  await runner.run();
  const frames = runner.transcript.messages.filter((m) => m.kind === 'data' && m.dir === 's2c').length;
  const total = frames.toLocaleString('en-US');
  const file = testInfo.outputPath('long-match.json');
  writeFileSync(file, serialiseTranscript(runner.transcript));

  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByLabel('Open a file').setInputFiles(file);
  await expect(page.getByRole('status').filter({ hasText: 'Opened long-match.json' })).toBeVisible({
    timeout: 120_000,
  });

  // Everything the group shows while a replay runs is noted as it changes, so what is checked does not
  // depend on how fast the replay goes.
  await compare(page).evaluate((group) => {
    const seen: { max: string | null; text: string }[] = [];
    (window as unknown as { progressSeen: typeof seen }).progressSeen = seen;
    const note = () => {
      const bar = group.querySelector('progress');
      if (bar)
        seen.push({ max: bar.getAttribute('max'), text: group.querySelector('.running')?.textContent ?? '' });
    };
    new MutationObserver(note).observe(group, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });
  const seenProgress = () =>
    page.evaluate(
      () => (window as unknown as { progressSeen: { max: string | null; text: string }[] }).progressSeen,
    );

  // Started from the keyboard: Cancel has the focus at once, and Enter stops the replay.
  const start = compare(page).getByRole('button', { name: 'Compare with the emulator' });
  await start.focus();
  await page.keyboard.press('Enter');
  const bar = compare(page).getByRole('progressbar', { name: 'Comparison progress' });
  const cancel = compare(page).getByRole('button', { name: 'Cancel' });
  await expect(cancel).toBeFocused({ timeout: 60_000 });
  await page.keyboard.press('Enter');
  await expect(compare(page)).toContainText('Comparison cancelled.', { timeout: 60_000 });
  await expect(bar).toHaveCount(0);
  await expect(start).toBeFocused();

  // At phone width the running bar stays inside the page, and the replay runs to its end.
  await page.setViewportSize({ width: 390, height: 800 });
  await page.keyboard.press('Enter');
  await expect(bar).toBeVisible({ timeout: 60_000 });
  await expect
    .poll(async () => {
      const box = await compare(page).boundingBox();
      return box !== null && box.x + box.width <= 391;
    })
    .toBe(true);
  await expect
    .poll(() => compare(page).evaluate((group) => group.scrollWidth <= group.clientWidth + 1))
    .toBe(true);
  await expect(compare(page)).toContainText(`No difference in ${total} messages`, { timeout: 240_000 });
  await expect(bar).toHaveCount(0);

  // While it ran, the bar counted to every frame of the recording, and the words said how far of how many.
  const seen = await seenProgress();
  expect(seen.some((state) => state.max === String(frames))).toBe(true);
  const counted = seen.filter((state) => state.text.includes(`of ${total} messages played again`));
  expect(counted.length).toBeGreaterThan(0);
});
