import { describe, expect, it } from 'vitest';
import {
  ScavengerWorld,
  SCAVENGER_SCENARIOS,
  observe,
  observationWindow,
  parseScenarioMap,
} from '../../../../src/core/envs/scavenger';

// 7 x 6; the observer is Scav. 2 at (3,4); another scavenger at (1,1); resources at (3,2) and (5,4).
const MAP = ['#######', '#S....#', '#..*..#', '#.....#', '#..S.*#', '#######'];
const world = () =>
  new ScavengerWorld(
    parseScenarioMap(MAP.join('\n'), { name: 't', letter: 'T', label: 't', description: 't' }),
  );
const small = observationWindow({ ahead: 2, sides: 2 });

describe('legend observations', () => {
  it('show the scavenger in the bottom row centre, facing up (the protocol text example layout)', () => {
    expect(observe(world(), 1, small)).toEqual([
      [0, 0, 1, 0, 0],
      [0, 0, 0, 0, 0],
      [0, 0, 4, 0, 1],
    ]);
  });

  it('rotate the grid with the facing: east, south and west', () => {
    const w = world();
    w.scavengers[1]!.facing = 1; // east: ahead is +x, left is north
    expect(observe(w, 1, small)).toEqual([
      [0, 0, 1, 3, 3],
      [0, 0, 0, 3, 3],
      [1, 0, 4, 3, 3],
    ]);
    w.scavengers[1]!.facing = 2; // south: ahead is +y, left is east
    expect(observe(w, 1, small)).toEqual([
      [3, 3, 3, 3, 3],
      [3, 3, 3, 3, 3],
      [1, 0, 4, 0, 0],
    ]);
    w.scavengers[1]!.facing = 3; // west: ahead is -x, left is south
    expect(observe(w, 1, small)).toEqual([
      [3, 3, 0, 0, 0],
      [3, 3, 0, 0, 0],
      [3, 3, 4, 0, 1],
    ]);
  });

  it('fill cells outside the map with 3 (wall) and show other scavengers as 2', () => {
    const view = observe(world(), 1, observationWindow({ ahead: 5, sides: 3 })) as number[][];
    expect(view).toHaveLength(6);
    expect(view[0]).toEqual([3, 3, 3, 3, 3, 3, 3]); // 5 ahead is outside the map
    expect(view[2]).toEqual([3, 2, 0, 0, 0, 0, 3]);
  });

  it('default to 21 x 11, and show rows behind when asked', () => {
    const w = new ScavengerWorld(SCAVENGER_SCENARIOS[2]!);
    const view = observe(w, 0, observationWindow()) as number[][];
    expect([view.length, view[0]!.length, view[20]![5]]).toEqual([21, 11, 4]);
    const behind = observe(world(), 1, observationWindow({ ahead: 1, sides: 1, behind: 1 }));
    expect(behind).toEqual([
      [0, 0, 0],
      [0, 4, 0],
      [3, 3, 3],
    ]);
  });
});

describe('RGB observations', () => {
  it('are three planes of 21 x 21 by default, with the documented colours', () => {
    const w = new ScavengerWorld(SCAVENGER_SCENARIOS[0]!);
    const window = observationWindow({ kind: 'rgb' });
    const planes = observe(w, 0, window) as number[][][];
    expect([planes.length, planes[0]!.length, planes[0]![0]!.length]).toEqual([3, 21, 21]);
    expect(planes.map((plane) => plane[20]![10])).toEqual([0, 0, 255]); // self: blue
    expect(planes.map((plane) => plane[0]![0])).toEqual([128, 128, 128]); // outside: grey
    const colours = new Set<string>();
    for (let r = 0; r < 21; r++)
      for (let c = 0; c < 21; c++) colours.add(planes.map((p) => p[r]![c]).join(','));
    expect([...colours].sort()).toEqual(['0,0,0', '0,0,255', '128,128,128', '60,255,0']);
  });

  it('refuses a window that is not whole and not negative', () => {
    expect(() => observationWindow({ sides: -1 })).toThrow(/sides must be a whole number/);
    expect(() => observationWindow({ ahead: 1.5 })).toThrow(/ahead/);
  });
});
