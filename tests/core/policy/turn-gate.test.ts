import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TurnGate, type GateState } from '../../../src/core/policy/turn-gate';

/** Runs `pass` and reports whether it settled after letting pending timers and microtasks run. */
async function settles(promise: Promise<boolean>, advanceMs = 0): Promise<boolean | 'pending'> {
  let result: boolean | 'pending' = 'pending';
  void promise.then((value) => (result = value));
  await vi.advanceTimersByTimeAsync(advanceMs);
  return result;
}

describe('TurnGate', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('lets decisions through at once when open and without delay', async () => {
    const gate = new TurnGate({ delayMs: 0, startPaused: false });
    expect(await settles(gate.pass())).toBe(true);
    expect(await settles(gate.pass())).toBe(true);
  });

  it('spaces decisions by the delay, except the first', async () => {
    const gate = new TurnGate({ delayMs: 100, startPaused: false });
    expect(await settles(gate.pass(true))).toBe(true);
    const next = gate.pass();
    expect(await settles(next, 99)).toBe('pending');
    expect(await settles(next, 1)).toBe(true);
  });

  it('holds while paused and lets exactly one decision through per step', async () => {
    const states: GateState[] = [];
    const gate = new TurnGate({ delayMs: 0, startPaused: true, onStateChange: (s) => states.push(s) });
    const first = gate.pass(true);
    expect(await settles(first, 1000)).toBe('pending');
    gate.step();
    expect(await settles(first)).toBe(true);
    const second = gate.pass();
    expect(await settles(second, 1000)).toBe('pending');
    gate.resume();
    expect(await settles(second)).toBe(true);
    expect(await settles(gate.pass())).toBe(true);
    gate.pause();
    expect(await settles(gate.pass(), 1000)).toBe('pending');
    expect(states).toEqual(['open', 'paused']);
  });

  it('turns waiting and later decisions away once stopped, even during a delay', async () => {
    const gate = new TurnGate({ delayMs: 10_000, startPaused: false });
    const waiting = gate.pass();
    gate.stop();
    expect(await settles(waiting)).toBe(false);
    gate.resume();
    gate.step();
    expect(await settles(gate.pass())).toBe(false);
    expect(gate.state).toBe('stopped');
  });

  it('cuts a long delay short when switched to as fast as possible', async () => {
    const gate = new TurnGate({ delayMs: 10_000, startPaused: false });
    const waiting = gate.pass();
    expect(await settles(waiting, 50)).toBe('pending');
    gate.setDelay(0);
    expect(await settles(waiting)).toBe(true);
  });
});
