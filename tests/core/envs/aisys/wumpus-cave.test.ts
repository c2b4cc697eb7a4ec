/**
 * The Wumpus cave: skills first, then moves with dice on bridges and against the wumpus, gold, pits,
 * walls, the exit on the stairs, and the step limit.
 */
import { describe, expect, it } from 'vitest';
import type { EnvRandom, JsonValue } from '../../../../src/core/envs/aisys/api';
import { createWumpusCave, type CaveState } from '../../../../src/core/envs/aisys/wumpus-cave';

/** Dice that roll the given faces (1 to 6). */
function dice(...faces: number[]): EnvRandom {
  return {
    nextInt(n) {
      const face = faces.shift();
      if (face === undefined || n !== 6) throw new Error('unexpected roll');
      return face - 1;
    },
  };
}

/** A small cave: stairs, gold east, a bridge south then a pit, the wumpus west of the gold... */
const MAP = ['XXXXXX', 'XSG.WX', 'XB.XGX', 'XPXXXX', 'XXXXXX'].join('\n');

function play(actions: JsonValue[], rolls: number[] = [], config: Record<string, JsonValue> = {}) {
  const cave = createWumpusCave({ map: MAP, ...config });
  const random = dice(...rolls);
  let state = cave.newRun(random);
  const results = [];
  for (const action of actions) {
    const result = cave.act(action, { runId: 1, agent: 'a', state, history: [] }, random);
    results.push(result);
    if (result.ok) state = result.state as CaveState;
  }
  return { cave, state, results, last: results.at(-1)! };
}

describe('the Wumpus cave', () => {
  it('shows the map, the skill points to spend and the history', () => {
    const cave = createWumpusCave({ map: MAP });
    const state = cave.newRun(dice());
    expect(cave.percept({ runId: 1, agent: 'a', state, history: [] })).toEqual({
      map: MAP,
      'skill-points': { agility: 0, fighting: 0 },
      'free-skill-points': 4,
      history: [],
    });
    expect(cave.settings).toMatchObject({ canAbandonRuns: true, minRunsForFullyEvaluated: 20 });
  });

  it('takes the skills first, whole points adding up to at most the free ones', () => {
    expect(play([{ agility: 3, fighting: 1 }]).last).toMatchObject({
      ok: true,
      message: 'Skills: agility 3, fighting 1',
    });
    const bad: JsonValue[] = [{ agility: 5 }, { agility: -1, fighting: 1 }, { agility: 1.5 }, 'NORTH', null];
    for (const action of bad)
      expect(play([action]).last).toMatchObject({
        ok: false,
        message: expect.stringMatching(/^Bad action: .*skill points/),
      });
  });

  it('moves, bumps into walls, collects gold and takes it off the map', () => {
    const { state, results, cave } = play([{ agility: 4 }, 'NORTH', 'EAST']);
    expect(results[1]).toMatchObject({ ok: true, message: 'You bumped into a wall', extra: 'bumped' });
    expect(results[2]).toMatchObject({ ok: true, message: 'You collected gold (1 now)' });
    expect(state.position).toEqual([2, 1]);
    const percept = cave.percept({ runId: 1, agent: 'a', state, history: [] }) as {
      map: string;
      history: unknown[];
    };
    expect(percept.map.split('\n')[1]).toBe('XS..WX');
    expect(percept.history.at(-1)).toEqual({
      action: 'EAST',
      outcome: { position: [2, 1], event: 'moved', 'collected-gold-at': [2, 1] },
    });
  });

  it('rolls for bridges: 7 crosses, 2 or less falls, in between the agent stays', () => {
    expect(play([{ agility: 4 }, 'SOUTH'], [3]).last).toMatchObject({
      message: 'You crossed the bridge (7)',
      extra: 'crossed',
    });
    expect(play([{ agility: 4 }, 'SOUTH'], [2]).last).toMatchObject({
      extra: 'hesitated',
      state: { position: [1, 1] },
    });
    expect(play([{ fighting: 4 }, 'SOUTH'], [2]).last).toMatchObject({ outcome: 0, extra: 'fell' });
  });

  it('ends in a pit with nothing', () => {
    expect(play([{ agility: 4 }, 'SOUTH', 'SOUTH'], [6]).last).toMatchObject({
      outcome: 0,
      message: 'You fell into a pit \u2013 game over',
    });
  });

  it('fights the wumpus: a win clears its cell, a loss wounds, a second loss kills', () => {
    const won = play([{ fighting: 4 }, 'EAST', 'EAST', 'EAST'], [3, 2]);
    expect(won.last).toMatchObject({
      message: 'You killed the wumpus (7 against 5)',
      state: { position: [3, 1] },
    });
    expect(won.state.cleared).toContain('4,1');
    const lost = play([{ agility: 4 }, 'EAST', 'EAST', 'EAST', 'EAST'], [1, 6, 1, 6]);
    expect(lost.results[3]).toMatchObject({
      ok: true,
      extra: 'wounded',
      message: 'The wumpus wounded you (1 against 9)',
    });
    expect(lost.last).toMatchObject({ outcome: 0, message: 'The wumpus killed you \u2013 game over' });
  });

  it('lets the agent out on the stairs only, with the gold it carries', () => {
    expect(play([{ agility: 4 }, 'EAST', 'EXIT']).last).toEqual({
      ok: false,
      message: 'You can only EXIT on the stairs (S)',
    });
    expect(play([{ agility: 4 }, 'EAST', 'WEST', 'EXIT']).last).toMatchObject({
      outcome: 1,
      message: 'You climbed out with 1 gold',
    });
    expect(play([{ agility: 4 }, 'JUMP']).last).toEqual({ ok: false, message: "Bad action: 'JUMP'" });
  });

  it('loses the agent in the dark after the last move', () => {
    expect(play([{ agility: 4 }, 'NORTH', 'NORTH'], [], { max_steps: 2 }).last).toMatchObject({
      outcome: 0,
      extra: 'lost',
    });
  });
});
