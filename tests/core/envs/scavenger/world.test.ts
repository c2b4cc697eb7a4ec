import { describe, expect, it } from 'vitest';
import {
  Cell,
  SCAVENGER_SCENARIOS,
  ScavengerWorld,
  SCAVENGER_ACTIONS,
  parseScenarioMap,
  type ScavengerWorldOptions,
} from '../../../../src/core/envs/scavenger';
import { Rng } from '../../../../src/core/random';

function worldOf(rows: string[], options: ScavengerWorldOptions = {}): ScavengerWorld {
  const scenario = parseScenarioMap(rows.join('\n'), {
    name: 't',
    letter: 'T',
    label: 't',
    description: 't',
  });
  return new ScavengerWorld(scenario, options);
}

function position(world: ScavengerWorld, index = 0): [number, number, number] {
  const s = world.scavengers[index]!;
  return [s.x, s.y, s.facing];
}

describe('ScavengerWorld actions', () => {
  it('numbers scavengers in row-major order of their spawn cells, all facing north', () => {
    const world = worldOf(['#####', '#..S#', '#S..#', '#####']);
    expect(world.scavengers.map((s) => [s.id, s.x, s.y, s.facing])).toEqual([
      ['Scav. 1', 3, 1, 0],
      ['Scav. 2', 1, 2, 0],
    ]);
  });

  it('moves relative to the facing and turns without moving; move_back keeps the facing', () => {
    const world = worldOf(['#######', '#.....#', '#.....#', '#..S..#', '#.....#', '#######']);
    world.act(0, 'move_ahead');
    expect(position(world)).toEqual([3, 2, 0]);
    world.act(0, 'face_right');
    expect(position(world)).toEqual([3, 2, 1]);
    world.act(0, 'move_ahead');
    expect(position(world)).toEqual([4, 2, 1]);
    world.act(0, 'move_right'); // facing east, right is south
    expect(position(world)).toEqual([4, 3, 1]);
    world.act(0, 'move_left'); // left is north
    expect(position(world)).toEqual([4, 2, 1]);
    world.act(0, 'move_back'); // back is west
    expect(position(world)).toEqual([3, 2, 1]);
    world.act(0, 'face_left');
    world.act(0, 'face_left');
    expect(position(world)).toEqual([3, 2, 3]);
    expect(world.cells[2 * 7 + 3]).toBe(Cell.scavenger);
    expect(world.cells[3 * 7 + 3]).toBe(Cell.empty);
  });

  it('blocks moves into walls and other scavengers', () => {
    const world = worldOf(['####', '#SS#', '####']);
    expect(world.act(0, 'move_ahead')).toEqual({ action: 'move_ahead', blocked: true });
    expect(world.act(0, 'move_right')).toEqual({ action: 'move_right', blocked: true });
    expect(position(world)).toEqual([1, 1, 0]);
  });

  it('treats an unknown action as doing nothing', () => {
    const world = worldOf(['###', '#.#', '#S#', '###']);
    expect(world.act(0, 'jump')).toEqual({ action: 'unknown' });
    expect(world.act(0, 'MOVE_AHEAD')).toEqual({ action: 'unknown' });
    expect(position(world)).toEqual([1, 2, 0]);
  });

  it('pays 5 per collected resource with the next request, once', () => {
    const world = worldOf(['###', '#*#', '#*#', '#S#', '###']);
    expect(world.act(0, 'move_ahead')).toEqual({ action: 'move_ahead', collected: true });
    world.endCycle();
    expect(world.act(0, 'move_ahead').collected).toBe(true);
    world.endCycle();
    expect(world.takeReward(0)).toBe(10);
    expect(world.takeReward(0)).toBe(0);
    expect(world.scavengers[0]!.collectionCycles).toEqual([1, 2]);
  });
});

describe('ScavengerWorld tagging', () => {
  const arena = (shooter: string) => [
    '###########################',
    ...Array.from({ length: 23 }, (_, y) => {
      const row = '#.........................#'.split('');
      if (y === 22) row[13] = shooter;
      return row.join('');
    }),
    '###########################',
  ];

  function shootAt(
    targetX: number,
    targetY: number,
    facing: 0 | 1 | 2 | 3,
    options: ScavengerWorldOptions = {},
  ) {
    const rows = arena('S');
    const chars = rows[targetY]!.split('');
    chars[targetX] = 'S';
    rows[targetY] = chars.join('');
    const world = worldOf(rows, options);
    const shooter = world.scavengers.find((s) => s.x === 13 && s.y === 23)!;
    shooter.facing = facing;
    return { world, outcome: world.act(shooter.index, 'tag') };
  }

  it('hits scavengers in a beam 5 wide and 21 long starting at the shooter, through walls', () => {
    expect(shootAt(15, 3, 0).outcome.hit).toHaveLength(1); // 20 ahead, 2 to the right
    expect(shootAt(11, 23 - 20, 0).outcome.hit).toHaveLength(1);
    expect(shootAt(13, 2, 0).outcome.hit).toEqual([]); // 21 ahead
    expect(shootAt(16, 10, 0).outcome.hit).toEqual([]); // 3 to the side
    expect(shootAt(15, 23, 0).outcome.hit).toHaveLength(1); // level with the shooter
    expect(shootAt(10, 23, 1).outcome.hit).toEqual([]); // behind, facing east
    expect(shootAt(20, 22, 1).outcome.hit).toHaveLength(1); // east, 7 ahead, 1 to the left
  });

  it('puts the hit scavenger out for 25 cycles, then back on its spawn cell facing north', () => {
    const { world } = shootAt(13, 10, 0);
    const target = world.scavengers.find((s) => s.y === 10)!;
    target.facing = 2;
    // Move it away from its spawn cell first, then tag again from the shooter.
    const shooter = world.scavengers.find((s) => s !== target)!;
    expect(world.isActive(target.index)).toBe(false);
    expect(world.cells[10 * 27 + 13]).toBe(Cell.empty);
    expect(world.act(target.index, 'move_ahead')).toEqual({ action: 'move_ahead' });
    for (let cycle = 1; cycle < 25; cycle++) {
      world.endCycle();
      expect(world.isActive(target.index), `cycle ${cycle}`).toBe(false);
    }
    world.endCycle();
    expect(world.isActive(target.index)).toBe(true);
    expect([target.x, target.y, target.facing, target.timeOutCycles, target.tagged]).toEqual([
      13, 10, 0, 25, 1,
    ]);
    expect(world.isActive(shooter.index)).toBe(true);
  });

  it('with faithfulQuirks, leaves a ghost where a scavenger was tagged and displaces east/south beams', () => {
    const ghost = shootAt(13, 10, 0, { faithfulQuirks: true }).world;
    expect(ghost.cells[10 * 27 + 13]).toBe(Cell.scavenger);
    // Facing south from row 3: the original's beam covers 20 to 40 cells ahead, not 0 to 20.
    const rows = arena('.');
    rows[3] = rows[3]!.slice(0, 13) + 'S' + rows[3]!.slice(14);
    rows[8] = rows[8]!.slice(0, 13) + 'S' + rows[8]!.slice(14);
    rows[23] = rows[23]!.slice(0, 14) + 'S' + rows[23]!.slice(15);
    for (const faithfulQuirks of [false, true]) {
      const world = worldOf(rows, { faithfulQuirks });
      world.scavengers[0]!.facing = 2;
      const hit = world.act(0, 'tag').hit;
      expect(hit, `faithfulQuirks ${faithfulQuirks}`).toEqual(
        faithfulQuirks ? ['Scav. 3'] : ['Scav. 2', 'Scav. 3'],
      );
    }
  });
});

describe('ScavengerWorld regrowth and episode end', () => {
  it('never regrows a resource with no resource within distance 2', () => {
    const world = worldOf(['#######', '#*...S#', '#######'], { seed: 1 });
    for (let i = 0; i < 4; i++) world.act(0, 'move_left');
    for (let i = 0; i < 5; i++) world.act(0, 'face_right');
    expect(world.resourcesLeft).toBe(0);
    world.endCycle();
    expect(world.ended).toBe(true);
  });

  it('regrows at about the documented rates by the number of nearby resources', () => {
    // A resource with k other resources within distance 2 (never collected), harvested once.
    const rate = (neighbours: number) => {
      // The harvested resource is (3,2); the slots around it are at distance 1 or 2.
      const slots = ['.', '.', '.', '.', '.'];
      for (let i = 0; i < neighbours; i++) slots[i] = '*';
      const [a, b, c, d, above] = slots;
      const rows = ['#########', `#..${above}....#`, `#${a}${b}*${c}${d}..#`, '#..S....#', '#########'];
      const trials = 4000;
      let regrown = 0;
      for (let seed = 0; seed < trials / 200; seed++) {
        const world = worldOf(rows, { seed, maxCycles: 1e9 });
        for (let i = 0; i < 200; i++) {
          world.act(0, 'move_ahead'); // onto (3,2), collecting when there
          world.act(0, 'move_back');
          const before = world.resourcesLeft;
          world.endCycle();
          if (world.resourcesLeft > before) regrown++;
        }
      }
      return regrown / trials;
    };
    expect(rate(0)).toBe(0);
    const one = rate(1);
    const three = rate(3);
    const five = rate(5);
    expect(one).toBeGreaterThan(0.003);
    expect(one).toBeLessThan(0.02);
    expect(three).toBeGreaterThan(0.035);
    expect(three).toBeLessThan(0.065);
    expect(five).toBeGreaterThan(0.08);
    expect(five).toBeLessThan(0.12);
  });

  it('ends after maxCycles', () => {
    const world = worldOf(['#####', '#*S*#', '#####'], { maxCycles: 3 });
    for (let i = 0; i < 2; i++) world.endCycle();
    expect(world.ended).toBe(false);
    world.endCycle();
    expect(world.ended).toBe(true);
  });

  it('is deterministic given a seed', () => {
    const play = (seed: number) => {
      const world = new ScavengerWorld(SCAVENGER_SCENARIOS[1]!, { seed, maxCycles: 600 });
      const rng = new Rng(7);
      while (!world.ended) {
        for (const s of world.scavengers)
          if (world.isActive(s.index)) world.act(s.index, SCAVENGER_ACTIONS[rng.nextInt(8)]!);
        world.endCycle();
      }
      return JSON.stringify(world.snapshot());
    };
    expect(play(3)).toBe(play(3));
    expect(play(3)).not.toBe(play(4));
  });
});
