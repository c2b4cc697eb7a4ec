import { expect, test, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  defaultMassimWorkspace,
  encodeMassimWorkspace,
  massimLinkParameter,
} from '../../src/core/protocols/massim/playground/workspace-data';

/**
 * The embedding API (docs/embedding.md) from a course page of another origin: two players on one page,
 * each driven through postMessage; a page whose origin the link does not allow gets no answer; a reload
 * of the course page keeps each exercise's edits, and "reset to the original" brings the teacher's back.
 */

let course: Server;
let courseOrigin: string;
let allowedPage = '';

test.beforeAll(async ({ baseURL }) => {
  course = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    const allow = request.url?.startsWith('/allowed') ? `&allow=${encodeURIComponent(courseOrigin)}` : '';
    const massim = defaultMassimWorkspace();
    massim.settings = { ...massim.settings, speed: 'fast', steps: 20 };
    const frames = request.url?.startsWith('/allowed-massim')
      ? `<iframe src="${baseURL}#${massimLinkParameter}=${encodeMassimWorkspace(massim)}&exercise=match${allow}" width="1200" height="800" title="Exercise one"></iframe>`
      : `<iframe src="${baseURL}#e=grid_walk&seed=7&rounds=2&exercise=one${allow}" width="1000" height="700" title="Exercise one"></iframe>
      <iframe src="${baseURL}#e=network_admin&seed=3&rounds=3&exercise=two${allow}" width="1000" height="700" title="Exercise two"></iframe>`;
    response.end(`<!doctype html><title>Week 4</title>
      <script>
        window.received = [];
        window.addEventListener('message', (event) => {
          if (event.data && event.data.protoplay) window.received.push({ frame: event.source === frames[0] ? 'one' : 'two', data: event.data });
        });
        let next = 0;
        window.ask = (frame, message, wait) => new Promise((resolve) => {
          const id = ++next;
          const listen = (event) => {
            if (event.data && event.data.type === 'reply' && event.data.id === id) {
              window.removeEventListener('message', listen);
              resolve(event.data);
            }
          };
          window.addEventListener('message', listen);
          // A player that answers does so in milliseconds on a quiet machine; a loaded one gets 30 s. Only
          // the checks that a player does not answer wait less (they pass the wait).
          setTimeout(() => resolve({ unanswered: true }), wait);
          frames[frame === 'one' ? 0 : 1].postMessage({ protoplay: 1, id, ...message }, '*');
        });
      </script>
      ${frames}`);
  });
  await new Promise<void>((resolve) => course.listen(0, '127.0.0.1', resolve));
  courseOrigin = `http://127.0.0.1:${(course.address() as AddressInfo).port}`;
  allowedPage = `${courseOrigin}/allowed.html`;
});
test.afterAll(() => new Promise<void>((resolve) => course.close(() => resolve())));

type Received = { frame: string; data: Record<string, unknown> }[];
const received = (page: Page) => page.evaluate(() => (window as unknown as { received: Received }).received);
const ask = (page: Page, frame: 'one' | 'two', message: Record<string, unknown>, waitMs = 30_000) =>
  page.evaluate(
    ([f, m, w]) =>
      (
        window as unknown as { ask: (f: string, m: unknown, w: number) => Promise<Record<string, unknown>> }
      ).ask(f as string, m, w as number),
    [frame, message, waitMs] as const,
  );

const EXERCISE_TWO_CODE = `// exercise two: reboot the server when it is down
export function act(observation: Observation): Actions {
  return observation.values['running(server)'] === false ? { name: 'reboot', args: ['server'] } : null;
}
`;

test('a course page of another origin drives two players through the API', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(allowedPage);
  await expect
    .poll(async () =>
      (await received(page))
        .filter((m) => m.data.type === 'ready')
        .map((m) => m.frame)
        .sort(),
    )
    .toEqual(['one', 'two']);
  const ready = (await received(page)).find((m) => m.data.type === 'ready')!.data;
  expect(ready).toMatchObject({ protoplay: 1, version: 1 });
  expect(ready.protocols).toEqual(expect.arrayContaining(['rddlsim', 'massim']));

  // Player one: a configuration loaded, then run as fast as possible.
  expect(await ask(page, 'one', { type: 'load', config: { seed: 11, rounds: 3 } })).toMatchObject({
    ok: true,
  });
  const one = page.frameLocator('iframe[title="Exercise one"]');
  await expect(one.getByLabel('Rounds')).toHaveValue('3');
  await one.getByLabel('Speed').selectOption('fast');
  // Player two: its own code.
  expect(await ask(page, 'two', { type: 'setCode', code: EXERCISE_TWO_CODE })).toMatchObject({ ok: true });
  const two = page.frameLocator('iframe[title="Exercise two"]');
  await two.getByLabel('Speed').selectOption('fast');

  expect(await ask(page, 'one', { type: 'run' })).toMatchObject({ ok: true });
  expect(await ask(page, 'two', { type: 'run' })).toMatchObject({ ok: true });
  for (const frame of ['one', 'two'])
    await expect
      .poll(
        async () => (await received(page)).some((m) => m.frame === frame && m.data.type === 'sessionEnd'),
        {
          timeout: 60_000,
        },
      )
      .toBe(true);

  for (const [frame, rounds] of [
    ['one', 3],
    ['two', 3],
  ] as const) {
    const events = (await received(page)).filter((m) => m.frame === frame).map((m) => m.data);
    expect(events.filter((e) => e.type === 'sessionStart')).toHaveLength(1);
    const roundEnds = events.filter((e) => e.type === 'roundEnd');
    expect(roundEnds.map((e) => e.round)).toEqual(Array.from({ length: rounds }, (_, i) => i + 1));
    const end = events.find((e) => e.type === 'sessionEnd')!;
    expect(end).toMatchObject({ status: 'finished', rounds });
    // The transcript agrees with the events: each round's total, and their sum.
    const reply = await ask(page, frame, { type: 'getTranscript' });
    expect(reply.ok).toBe(true);
    const transcript = reply.transcript as { messages: { text?: string }[] };
    const totals = transcript.messages
      .map((m) => /<round-reward>([^<]+)</.exec(m.text ?? '')?.[1])
      .filter((t): t is string => t !== undefined)
      .map(Number);
    expect(roundEnds.map((e) => e.reward)).toEqual(totals);
    expect(end.total).toBeCloseTo(
      totals.reduce((a, b) => a + b, 0),
      6,
    );
  }

  const state = await ask(page, 'two', { type: 'getState' });
  expect(state).toMatchObject({
    ok: true,
    state: { protocol: 'rddlsim', phase: 'finished', code: EXERCISE_TWO_CODE },
  });
  // Wrong requests get a reason.
  expect(await ask(page, 'one', { type: 'fly' })).toMatchObject({
    ok: false,
    error: expect.stringContaining('unknown request type'),
  });
  expect(await ask(page, 'one', { type: 'seek', index: -1 })).toMatchObject({ ok: false });

  // The student edits exercise two in the frame; a reload of the course page keeps each exercise's work.
  await expect
    .poll(async () => (await received(page)).some((m) => m.frame === 'two' && m.data.type === 'codeChanged'))
    .toBe(true);
  await page.reload();
  await expect.poll(async () => (await received(page)).filter((m) => m.data.type === 'ready').length).toBe(2);
  expect((await ask(page, 'two', { type: 'getState' })).state).toMatchObject({ code: EXERCISE_TWO_CODE });
  expect((await ask(page, 'one', { type: 'getState' })).state).toMatchObject({ rounds: 3, seed: 11 });
  await expect(two.getByRole('code').getByText('exercise two: reboot the server')).toBeVisible();

  // Reset to the original: the teacher's version of exercise two, exercise one untouched.
  await two.getByRole('button', { name: 'Reset to the original' }).click();
  // A reloading player does not answer: each try waits 3 s, and the tries go on for a minute.
  await expect
    .poll(
      async () => ((await ask(page, 'two', { type: 'getState' }, 3000)).state as { code?: string })?.code,
      { timeout: 60_000 },
    )
    .not.toBe(EXERCISE_TWO_CODE);
  expect((await ask(page, 'two', { type: 'getState' })).state).toMatchObject({ rounds: 3, seed: 3 });
  expect((await ask(page, 'one', { type: 'getState' })).state).toMatchObject({ rounds: 3, seed: 11 });
});

test('a course page whose origin the link does not allow gets no answer and no events', async ({ page }) => {
  await page.goto(`${courseOrigin}/not-allowed.html`);
  const one = page.frameLocator('iframe[title="Exercise one"]');
  await expect(one.getByLabel('Rounds')).toHaveValue(/\d/);
  expect(await ask(page, 'one', { type: 'getState' }, 3000)).toEqual({ unanswered: true });
  expect(await ask(page, 'two', { type: 'run' }, 3000)).toEqual({ unanswered: true });
  expect(await received(page)).toEqual([]);
});

test('the sample course page shows the scores its two exercises post', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1200, height: 900 });
  await page.goto('./examples/course.html');
  const network = page.frameLocator('iframe[title="Exercise 1: network admin"]');
  await expect(network.getByLabel('Rounds')).toHaveValue('5');
  await network.getByLabel('Speed').selectOption('fast');
  await network.getByRole('button', { name: 'Run' }).click();
  const scores = page.getByRole('table', { name: 'Exercise 1 scores' }).locator('tbody tr');
  await expect(scores).toHaveCount(6, { timeout: 60_000 });
  await expect(scores.last()).toContainText('total (finished)');

  const match = page.frameLocator('iframe[title="Exercise 2: MASSim match"]');
  await expect(match.getByRole('combobox', { name: 'Protocol' })).toHaveValue('massim');
  await match.getByRole('combobox', { name: 'Speed' }).selectOption('fast');
  await match.getByRole('button', { name: 'Run' }).click();
  const matchScores = page.getByRole('table', { name: 'Exercise 2 scores' }).locator('tbody tr');
  await expect(matchScores.last()).toContainText('total (finished)', { timeout: 120_000 });
  await expect(matchScores).toHaveCount(2);
});

test('seek moves a MASSim player’s views to the message’s step', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${courseOrigin}/allowed-massim.html`);
  await expect.poll(async () => (await received(page)).some((m) => m.data.type === 'ready')).toBe(true);
  const match = page.frameLocator('iframe[title="Exercise one"]');
  expect(await ask(page, 'one', { type: 'run' })).toMatchObject({ ok: true });
  await expect
    .poll(async () => (await received(page)).some((m) => m.data.type === 'sessionEnd'), { timeout: 60_000 })
    .toBe(true);
  const world = match.getByRole('img', { name: /^World after step/ });
  await expect(world).toHaveAccessibleName(/World after step 19:/);

  // The request-action of step 5, found in the transcript the player gives.
  const { transcript } = (await ask(page, 'one', { type: 'getTranscript' })) as {
    transcript: { messages: { index: number; text?: string }[] };
  };
  const target = transcript.messages.find(
    (m) => /"type":"request-action"/.test(m.text ?? '') && /"step":5\b/.test(m.text ?? ''),
  )!;
  expect(target).toBeDefined();
  expect(await ask(page, 'one', { type: 'seek', index: target.index })).toMatchObject({ ok: true });
  await expect(match.getByRole('toolbar', { name: 'Timeline' })).toContainText('Step 5');
  await expect(world).toHaveAccessibleName(/World after step 5:/);
  await expect(
    match.getByRole('listbox', { name: 'Messages' }).locator('[aria-selected="true"]'),
  ).toContainText(String(target.index));
  // An index past the transcript is refused with the reason.
  expect(await ask(page, 'one', { type: 'seek', index: 1_000_000 })).toMatchObject({
    ok: false,
    error: expect.stringContaining('there is no message 1000000'),
  });
});
