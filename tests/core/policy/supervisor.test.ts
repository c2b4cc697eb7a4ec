import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeadlineTimer } from '../../../src/core/policy/deadline';
import { POLICY_LOAD_LIMIT_MS, PolicySupervisor } from '../../../src/core/policy/supervisor';
import type { PolicySource } from '../../../src/core/policy/types';
import { spawnPolicyThread } from './fixtures/spawn-policy-thread';

const live = new Set<Worker>();
const supervisors: PolicySupervisor[] = [];

/**
 * Deadlines that expire only when the test says: a call that must succeed does, however slow the machine,
 * and an overrun is an overrun because the test made the time run out, not because the machine was slow.
 */
class ManualTimer implements DeadlineTimer {
  readonly #pending = new Set<() => void>();
  #waiters: (() => void)[] = [];

  start(_ms: number, expire: () => void): () => void {
    this.#pending.add(expire);
    for (const wake of this.#waiters.splice(0)) wake();
    return () => this.#pending.delete(expire);
  }

  /** Resolves once a deadline is running. */
  async running(): Promise<void> {
    while (this.#pending.size === 0) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /** Waits for a deadline, then lets every running one expire. */
  async expire(): Promise<void> {
    await this.running();
    const expiring = [...this.#pending];
    this.#pending.clear();
    for (const expire of expiring) expire();
  }
}

function supervise(
  budgetMs: number,
  timer: DeadlineTimer = new ManualTimer(),
  loadBudgetMs?: number,
): PolicySupervisor {
  const supervisor = new PolicySupervisor({
    spawn: () => spawnPolicyThread(live),
    budgetMs,
    ...(loadBudgetMs !== undefined ? { loadBudgetMs } : {}),
    deadlineTimer: timer,
  });
  supervisors.push(supervisor);
  return supervisor;
}

/** Resolves when every policy thread has exited (terminated threads exit asynchronously). */
async function allThreadsExited(): Promise<void> {
  await vi.waitFor(() => expect(live.size).toBe(0), { timeout: 90_000, interval: 20 });
}

function source(code: string): PolicySource {
  return { code, language: 'js', fileName: 'policy.js', level: 'policy', seed: 3 };
}

afterEach(async () => {
  supervisors.splice(0).forEach((s) => s.dispose());
  // No thread outlives its test.
  await allThreadsExited();
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
    const timer = new ManualTimer();
    const supervisor = supervise(300, timer);
    const code =
      'let calls = 0;\nexport function act(o) { calls++; if (o.loop) { while (true) {} } return calls; }';
    await supervisor.load(source(code));
    expect(await supervisor.call('act', [{}], {}, { round: 1, turn: 1 })).toMatchObject({
      ok: true,
      value: 1,
    });
    const looping = supervisor.call('act', [{ loop: true }], {}, { round: 2, turn: 7 });
    await timer.expire();
    const overrun = await looping;
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
    const timer = new ManualTimer();
    const supervisor = supervise(200, timer);
    await supervisor.load(source('export function act() {}\nexport function onRoundStart() { for (;;); }'));
    const looping = supervisor.call('onRoundStart', [], {}, { round: 3, turn: 0 });
    await timer.expire();
    expect(await looping).toMatchObject({
      fault: { kind: 'timeout', message: 'policy exceeded 200 ms in onRoundStart on round 3' },
    });
  });

  it('stops a policy whose top-level code never finishes loading', async () => {
    const timer = new ManualTimer();
    const supervisor = supervise(100, timer, 2_000);
    const loading = supervisor.load(source('while (true) {}\nexport function act() {}'));
    await timer.expire();
    const outcome = await loading;
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
    const timer = new ManualTimer();
    const supervisor = supervise(60_000, timer);
    await supervisor.load(source('export function act() { while (true) {} }'));
    const stuck = supervisor.call('act', [], {}, { round: 1, turn: 1 });
    await timer.running();
    supervisor.dispose();
    await allThreadsExited();
    expect(await supervisor.call('act', [], {}, { round: 1, turn: 2 })).toMatchObject({
      ok: false,
      fault: { kind: 'crash', message: 'the policy was stopped' },
    });
    expect(supervisor.restarts).toBe(0);
    void stuck;
  });
});

describe('PolicySupervisor load limit', () => {
  it('gives every protocol the same generous time to load, whatever the call budget', async () => {
    const asked: number[] = [];
    const timer: DeadlineTimer = {
      start: (ms) => {
        asked.push(ms);
        return () => undefined;
      },
    };
    const supervisor = supervise(100, timer);
    await supervisor.load(source('export const act = () => 1;'));
    expect(asked).toEqual([POLICY_LOAD_LIMIT_MS]);
    expect(POLICY_LOAD_LIMIT_MS).toBeGreaterThanOrEqual(30_000);
  });
});
