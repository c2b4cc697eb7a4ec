import { describe, expect, it } from 'vitest';
import { generateObstacles, generateWorld } from '../../../../src/core/envs/massim/mapgen';
import { quickMassimConfig, sampleSimConfig } from '../../../../src/core/envs/massim/index';
import { Rng } from '../../../../src/core/random';

describe('obstacle generation', () => {
  it('applies the cave rule: obstacles need destroyLimit neighbours to stay, free cells more than createLimit to fill', () => {
    const cave = { kind: 'cave' as const, chance: 0.5, createLimit: 5, destroyLimit: 4 };
    const before = generateObstacles(16, 12, [{ ...cave, iterations: 0 }], new Rng(8));
    const after = generateObstacles(16, 12, [{ ...cave, iterations: 1 }], new Rng(8));
    for (let y = 0; y < 12; y++) {
      for (let x = 0; x < 16; x++) {
        let neighbours = 0;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            if (dx || dy) neighbours += before[((y + dy + 12) % 12) * 16 + ((x + dx + 16) % 16)]!;
          }
        }
        const expected = before[y * 16 + x] ? neighbours >= 4 : neighbours > 5;
        expect(after[y * 16 + x], `${x},${y}`).toBe(expected ? 1 : 0);
      }
    }
  });

  it('draws line borders of the given width', () => {
    const grid = generateObstacles(8, 6, [{ kind: 'line-border', width: 2 }], new Rng(1));
    const rows = Array.from({ length: 6 }, (_, y) => Array.from(grid.slice(y * 8, y * 8 + 8)).join(''));
    expect(rows).toEqual(['11111111', '11111111', '11000011', '11000011', '11111111', '11111111']);
  });

  it('draws ragged borders at least one cell thick on every side', () => {
    const grid = generateObstacles(12, 10, [{ kind: 'ragged-border', width: 2 }], new Rng(4));
    for (let x = 0; x < 12; x++) expect([grid[x], grid[9 * 12 + x]]).toEqual([1, 1]);
    for (let y = 0; y < 10; y++) expect([grid[y * 12], grid[y * 12 + 11]]).toEqual([1, 1]);
    expect(grid.reduce((a, b) => a + b, 0)).toBeLessThan(120);
  });
});

describe('world generation', () => {
  const teams = [
    { name: 'A', agents: ['a1', 'a2', 'a3', 'a4', 'a5'] },
    { name: 'B', agents: ['b1', 'b2', 'b3', 'b4', 'b5'] },
  ];

  it('stacks agent i of every team on one free start cell, with dispensers elsewhere', () => {
    const config = quickMassimConfig().match[0]!;
    const { world, blockTypes } = generateWorld(config, teams, new Rng(11));
    expect(world.entities.map((e) => e.name).sort()).toEqual(
      [...teams[0]!.agents, ...teams[1]!.agents].sort(),
    );
    for (let i = 0; i < 5; i++) {
      const [a, b] = [teams[0]!.agents[i], teams[1]!.agents[i]].map((n) =>
        world.entities.find((e) => e.name === n)!,
      );
      expect(a!.cell).toBe(b!.cell);
      expect(world.entitiesAt(a!.cell).length).toBe(2);
      expect(world.kindAt(a!.cell, 'obstacle')).toBeNull();
      expect(world.dispenserAt(a!.cell)).toBeUndefined();
    }
    expect(blockTypes).toEqual(['b0', 'b1', 'b2']);
    const perType = blockTypes.map(
      (type) => world.dispenserCells.filter((cell) => world.dispenserAt(cell) === type).length,
    );
    for (const count of perType) expect(count).toBeLessThanOrEqual(config.dispensers[1]);
    expect(world.goalZones.size).toBe(config.grid.goals.number);
    expect(world.roleZones.size).toBe(config.grid.roleZones.number);
  });

  it('keeps obstacles near the sample configuration’s density and is reproducible', () => {
    const config = sampleSimConfig('small');
    const one = generateWorld(config, teams, new Rng(2));
    const two = generateWorld(config, teams, new Rng(2));
    const obstacles = (w: typeof one) =>
      [...w.world.occupiedCells()].filter(([, t]) => t.kind === 'obstacle').map(([c]) => c);
    expect(obstacles(one)).toEqual(obstacles(two));
    const share = obstacles(one).length / (70 * 70);
    expect(share).toBeGreaterThan(0.4);
    expect(share).toBeLessThan(0.8);
  });
});
