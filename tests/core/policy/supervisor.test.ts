import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { PolicySupervisor } from '../../../src/core/policy/supervisor';
import type { PolicySource } from '../../../src/core/policy/types';
import { spawnPolicyThread } from './fixtures/spawn-policy-thread';

const live = new Set<Worker>();
const supervisors: PolicySupervisor[] = [];

function supervise(budgetMs: number): PolicySupervisor {
  const supervisor = new PolicySupervisor({
    spawn: () => spawnPolicyThread(live),
    budgetMs,
    loadBudgetMs: 10_000,
  });
  supervisors.push(supervisor);
  return supervisor;
}

function source(code: string): PolicySource {
  return { code, language: 'js', fileName: 'policy.js', level: 'policy', seed: 3 };
}

afterEach(async () => {
  supervisors.splice(0).forEach((s) => s.dispose());
  // Terminated threads exit asynchronously; wait so no thread outlives its test.
  for (let i = 0; i < 100 && live.size; i++) await new Promise((r) => setTimeout(r, 20));
});

describe('PolicySupervisor with real worker threads', () => {
  it('runs calls within the budget in the thread', async () => {
    const supervisor = supervise(2_000);
    expect(await supervisor.load(source('export function act(o) { return o.n * 2; }'))).toMatchObject({
      ok: true,
    });
    expect(await supervisor.call('act', [{ n: 21 }], {}, { round: 1, turn: 1 })).toMatchObject({
      ok: true,
      value: 42,
    });
    expect(supervisor.restarts).toBe(0);
  });

  it('stops a while(true) policy after the budget, restarts the thread and keeps serving', async () => {
    const supervisor = supervise(300);
    const code =
      'let calls = 0;\nexport function act(o) { calls++; if (o.loop) { while (true) {} } return calls; }';
    await supervisor.load(source(code));
    expect(await supervisor.call('act', [{}], {}, { round: 1, turn: 1 })).toMatchObject({
      ok: true,
      value: 1,
    });
    const started = Date.now();
    const overrun = await supervisor.call('act', [{ loop: true }], {}, { round: 2, turn: 7 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(overrun).toMatchObject({
      ok: false,
      fault: { kind: 'timeout', message: 'policy exceeded 300 ms on round 2, turn 7', hook: 'act' },
    });
    expect(supervisor.restarts).toBe(1);
    // The fresh thread has the same code reloaded: its module state starts over.
    expect(await supervisor.call('act', [{}], {}, { round: 2, turn: 8 })).toMatchObject({
      ok: true,
      value: 1,
    });
  });

  it('names the hook when an optional hook overruns', async () => {
    const supervisor = supervise(200);
    await supervisor.load(source('export function act() {}\nexport function onRoundStart() { for (;;); }'));
    expect(await supervisor.call('onRoundStart', [], {}, { round: 3, turn: 0 })).toMatchObject({
      fault: { kind: 'timeout', message: 'policy exceeded 200 ms in onRoundStart on round 3' },
    });
  });

  it('stops a policy whose top-level code never finishes loading', async () => {
    const supervisor = new PolicySupervisor({
      spawn: () => spawnPolicyThread(live),
      budgetMs: 100,
      loadBudgetMs: 2_000,
    });
    supervisors.push(supervisor);
    const outcome = await supervisor.load(source('while (true) {}\nexport function act() {}'));
    expect(outcome).toMatchObject({
      ok: false,
      fault: { kind: 'timeout', message: 'policy exceeded 2000 ms while loading' },
    });
    // A good policy loads into the restarted thread.
    expect(await supervisor.load(source('export const act = () => 5;'))).toMatchObject({ ok: true });
    expect(await supervisor.call('act', [], {}, { round: 1, turn: 1 })).toMatchObject({ ok: true, value: 5 });
  });
});

describe('PolicySupervisor disposal', () => {
  it('terminates a thread stuck in a call at once and refuses later calls', async () => {
    const supervisor = supervise(60_000);
    await supervisor.load(source('export function act() { while (true) {} }'));
    const stuck = supervisor.call('act', [], {}, { round: 1, turn: 1 });
    await new Promise((r) => setTimeout(r, 100));
    supervisor.dispose();
    for (let i = 0; i < 100 && live.size; i++) await new Promise((r) => setTimeout(r, 20));
    expect(live.size).toBe(0);
    expect(await supervisor.call('act', [], {}, { round: 1, turn: 2 })).toMatchObject({
      ok: false,
      fault: { kind: 'crash', message: 'the policy was stopped' },
    });
    expect(supervisor.restarts).toBe(0);
    void stuck;
  });
});
