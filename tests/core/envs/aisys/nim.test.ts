/**
 * Nim as the course's public example plays it: the rules, the two opponents, the random start, and the
 * example's messages for every action it refuses.
 */
import { describe, expect, it } from 'vitest';
import { EnvironmentCrash, type EnvRandom, type RunView } from '../../../../src/core/envs/aisys/api';
import { createNim, NIM_CLASS, type NimState } from '../../../../src/core/envs/aisys/nim';
import { Rng } from '../../../../src/core/random';

/** A random source that answers with the given draws and fails on any other. */
function draws(...values: number[]): EnvRandom & { left: number[] } {
  const left = [...values];
  return {
    left,
    nextInt(n) {
      const value = left.shift();
      if (value === undefined || value >= n) throw new Error(`unexpected draw from [0, ${n})`);
      return value;
    },
  };
}

const run = (remaining: number, initial = 10): RunView<NimState> => ({
  runId: 1,
  agent: 'a',
  state: { remaining, initial },
  history: [],
});

const weak = createNim({ strong: false, random_start: true });
const strong = createNim({ strong: true, random_start: false });

describe('Nim', () => {
  it('has the example settings: 10 runs to be fully evaluated, abandoning allowed (a loss)', () => {
    expect(weak.settings).toMatchObject({
      minRunsForFullyEvaluated: 10,
      canAbandonRuns: true,
      actionRequestsPerResponse: 5,
      ratingObjective: 'max',
      initialRating: 0,
    });
    expect(weak.abandonOutcome!(run(5))).toBe(0);
  });

  it('starts with 10 objects, or 9 to 11 with random_start, and shows the bare number', () => {
    expect(strong.newRun(draws())).toEqual({ remaining: 10, initial: 10 });
    expect(weak.newRun(draws(0))).toEqual({ remaining: 9, initial: 9 });
    expect(weak.newRun(draws(2))).toEqual({ remaining: 11, initial: 11 });
    expect(weak.percept(run(7))).toBe(7);
  });

  it('lets the random opponent take 1 to 3, never more than are left', () => {
    const random = draws(2, 0);
    expect(weak.act(2, run(10), random)).toEqual({
      ok: true,
      state: { remaining: 5, initial: 10 },
      message: 'Opponent removed 3',
      extra: 3,
    });
    // 2 left after the move: the opponent draws from two choices and takes the last one.
    const last = weak.act(1, run(3), draws(1));
    expect(last).toEqual({
      ok: true,
      state: { remaining: 0, initial: 10 },
      message: 'Opponent removed 2 \u2013 you lost.',
      extra: 2,
      outcome: 0,
    });
  });

  it('lets the strong opponent leave a multiple of 4, and draw only when it cannot', () => {
    expect(strong.act(1, run(10), draws())).toMatchObject({
      state: { remaining: 8 },
      message: 'Opponent removed 1',
    });
    expect(strong.act(2, run(10), draws(2))).toMatchObject({
      state: { remaining: 5 },
      message: 'Opponent removed 3',
    });
  });

  it('ends the run with outcome 1 when the agent takes the last object', () => {
    expect(strong.act(3, run(3), draws())).toEqual({
      ok: true,
      state: { remaining: 0, initial: 10 },
      message: 'Congratulations, you won!',
      outcome: 1,
    });
  });

  it("reads actions with Python's int()", () => {
    // 9 - 2 leaves 7, and the strong opponent takes 3.
    expect(strong.act('2', run(9), draws())).toMatchObject({ ok: true, state: { remaining: 4 } });
    expect(strong.act(' 2 ', run(9), draws())).toMatchObject({ ok: true, state: { remaining: 4 } });
    expect(strong.act(2.9, run(9), draws())).toMatchObject({ ok: true, state: { remaining: 4 } });
    expect(strong.act(true, run(10), draws())).toMatchObject({ ok: true, state: { remaining: 8 } });
  });

  it("refuses other actions with the example's messages", () => {
    const refused = (action: unknown, remaining = 10) => strong.act(action as never, run(remaining), draws());
    expect(refused('x')).toEqual({ ok: false, message: "Invalid action: 'x'" });
    expect(refused('2.5')).toEqual({ ok: false, message: "Invalid action: '2.5'" });
    expect(refused(null)).toEqual({ ok: false, message: 'Invalid action (expected a string, got None)' });
    expect(refused([1])).toEqual({ ok: false, message: 'Invalid action (expected a string, got [1])' });
    expect(refused(4)).toEqual({ ok: false, message: 'You have to remove 1, 2, or 3 objects' });
    expect(refused(0)).toEqual({ ok: false, message: 'You have to remove 1, 2, or 3 objects' });
    expect(refused(3, 2)).toEqual({
      ok: false,
      message: 'You tried to take 3 objects, but only 2 are remaining',
    });
  });

  it('crashes like the Python plugin when its config lacks a key', () => {
    const broken = NIM_CLASS.create({ strong: true });
    expect(() => broken.newRun(draws())).toThrow(EnvironmentCrash);
    expect(() => broken.newRun(draws())).toThrow("'random_start'");
    expect(() => NIM_CLASS.create([]).act(1, run(10), draws())).toThrow(EnvironmentCrash);
  });

  it('plays the same way for the same seed', () => {
    const play = (seed: number) => {
      const random = new Rng(seed);
      const runs = [];
      for (let i = 0; i < 20; i++) {
        let state = weak.newRun(random);
        const moves = [];
        for (;;) {
          const result = weak.act(1, { runId: i, agent: 'a', state, history: [] }, random);
          if (!result.ok) throw new Error('refused');
          moves.push(result.extra);
          state = result.state;
          if (result.outcome !== undefined) break;
        }
        runs.push(moves);
      }
      return runs;
    };
    expect(play(7)).toEqual(play(7));
    expect(play(7)).not.toEqual(play(8));
  });
});
