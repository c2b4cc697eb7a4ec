import { describe, expect, it } from 'vitest';
import { createSimulation, quickMassimConfig } from '../../../../src/core/envs/massim';
import { WorldCells, describeCell, zoneCells } from '../../../../src/core/protocols/massim/world-cells';

describe('the world, cell by cell', () => {
  it('a zone is a Manhattan diamond, wrapped around the torus, each cell once', () => {
    const cells = zoneCells({ x: 0, y: 1, radius: 2 }, 10, 8);
    expect(cells).toHaveLength(13); // 1 + 3 + 5 + 3 + 1
    expect(new Set(cells).size).toBe(13);
    expect(cells).toContain(7 * 10 + 0); // (0, -1) wraps to the last row
    expect(cells).toContain(1 * 10 + 8); // (-2, 1) wraps to column 8
    // On a grid smaller than the diamond, cells are not counted twice.
    expect(zoneCells({ x: 1, y: 1, radius: 3 }, 3, 3).sort((a, b) => a - b)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8,
    ]);
  });

  it('lists what the scenario put in a cell: agents, obstacles, dispensers, zones', () => {
    const config = quickMassimConfig({ agentsPerTeam: 2, width: 20, height: 20 });
    const simulation = createSimulation(config.match[0]!, {
      seed: 3,
      teams: config.teams,
      setup: ['move 4 4 agentA1', 'terrain 6 6 obstacle', 'add 8 8 dispenser b1', 'add 9 9 block b0'].join(
        '\n',
      ),
    });
    const world = simulation.snapshot();
    const cells = new WorldCells(world, 20, 20);
    const agent = cells.at(4, 4);
    expect(agent.agents.map((a) => a.name)).toContain('agentA1');
    expect(describeCell(agent).join('\n')).toMatch(/^agentA1 \(team A\) default, energy \d+/);
    expect(cells.at(6, 6).obstacle).toBe(true);
    expect(cells.at(26, -14).obstacle).toBe(true); // the same cell, across the edges
    expect(describeCell(cells.at(8, 8))).toContain('dispenser of b1');
    expect(describeCell(cells.at(9, 9))).toContain('block b0');
    const goal = world.goalZones[0]!;
    expect(cells.at(goal.x, goal.y).goalZone).toBe(true);
    expect(cells.goalCells.has(goal.y * 20 + goal.x)).toBe(true);
  });
});
