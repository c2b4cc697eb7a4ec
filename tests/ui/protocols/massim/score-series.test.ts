import { describe, expect, it } from 'vitest';
import type { MassimFrame } from '../../../../src/core/protocols/massim/reading';
import { IncrementalScores, scoreSeries } from '../../../../src/ui/protocols/massim/score-series';

/** A frame as the reader makes it (a new object for every version of a step). */
function frame(simulation: number, step: number, scores: Record<string, number>): MassimFrame {
  return { simulation, step, index: simulation * 1000 + step, scores, world: false };
}

/** `list` up to `from`, then `added`, as a new array: how the page's MASSim reading applies news. */
function following<T>(list: readonly T[], from: number, added: readonly T[]): readonly T[] {
  return [...list.slice(0, from), ...added];
}

/** A pseudo-random match: some steps without a team's score, some simulations ending early. */
function match(seed: number, simulations: number, steps: number): MassimFrame[] {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const frames: MassimFrame[] = [];
  for (let s = 0; s < simulations; s++) {
    const length = Math.max(1, Math.floor(steps * (0.5 + random() / 2)));
    let a = 0;
    let b = 0;
    for (let step = 0; step < length; step++) {
      if (random() < 0.3) a += Math.floor(random() * 40);
      if (random() < 0.3) b += Math.floor(random() * 40);
      const scores: Record<string, number> = {};
      if (random() < 0.8) scores.A = a;
      if (random() < 0.8) scores.B = b;
      frames.push(frame(s, step, scores));
    }
  }
  return frames;
}

describe('MASSim score series reckoned as frames arrive', () => {
  it('equals the series computed from the first frame after every refresh, reckoning only what is new', () => {
    for (const seed of [1, 7, 42]) {
      const all = match(seed, 3, 400);
      const teams = ['A', 'B'];
      const incremental = new IncrementalScores();
      let frames: readonly MassimFrame[] = [];
      let at = 0;
      let refreshes = 0;
      while (at < all.length) {
        // Each batch re-sends the newest frame known (its scores came with the next percept) and adds more.
        const from = Math.max(0, at - 1);
        const until = Math.min(all.length, at + 1 + ((at * 7 + seed) % 90));
        const resent = all.slice(from, until).map((f) => ({ ...f, scores: { ...f.scores } }));
        frames = following(frames, from, resent);
        at = until;
        const got = incremental.update(frames, teams);
        expect(got).toEqual(scoreSeries(frames, teams));
        // Only the frames re-sent or new were reckoned.
        expect(incremental.computedFrom).toBe(refreshes === 0 ? 0 : from);
        refreshes++;
      }
      expect(refreshes).toBeGreaterThan(10);
      // Some simulation boundaries and carried scores were exercised.
      expect(scoreSeries(frames, teams).boundaries.length).toBe(2);
    }
  });

  it('reckons again from the first frame replaced, when news rewrites earlier steps or the teams change', () => {
    const all = match(3, 2, 300);
    const incremental = new IncrementalScores();
    let frames: readonly MassimFrame[] = all.slice(0, 400);
    expect(incremental.update(frames, ['A', 'B'])).toEqual(scoreSeries(frames, ['A', 'B']));
    // Steps from 120 on replaced by other figures.
    const rewritten = all.slice(120, 350).map((f) => ({ ...f, scores: { A: f.step * 2 } }));
    frames = following(frames, 120, rewritten);
    expect(incremental.update(frames, ['A', 'B'])).toEqual(scoreSeries(frames, ['A', 'B']));
    expect(incremental.computedFrom).toBe(120);
    // Fewer frames than before (another transcript's start).
    frames = frames.slice(0, 50);
    expect(incremental.update(frames, ['A', 'B'])).toEqual(scoreSeries(frames, ['A', 'B']));
    // A third team, then the teams in another order: everything reckoned again.
    for (const teams of [
      ['A', 'B', 'C'],
      ['B', 'A'],
    ]) {
      expect(incremental.update(frames, teams)).toEqual(scoreSeries(frames, teams));
      expect(incremental.computedFrom).toBe(0);
    }
    expect(incremental.update([], ['B', 'A'])).toEqual({
      series: [
        { team: 'B', scores: [] },
        { team: 'A', scores: [] },
      ],
      max: undefined,
      boundaries: [],
    });
  });

  it('carries a missing score from the step before and starts every simulation from 0', () => {
    const frames = [
      frame(0, 0, { A: 5 }),
      frame(0, 1, { B: 3 }),
      frame(0, 2, {}),
      frame(1, 0, { B: 1 }),
      frame(1, 1, { A: 2 }),
    ];
    const got = new IncrementalScores().update(frames, ['A', 'B']);
    expect(got.series).toEqual([
      { team: 'A', scores: [5, 5, 5, 0, 2] },
      { team: 'B', scores: [0, 3, 3, 1, 1] },
    ]);
    expect(got.max).toBe(5);
    expect(got.boundaries).toEqual([3]);
  });
});
