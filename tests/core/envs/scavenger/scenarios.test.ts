import { describe, expect, it } from 'vitest';
import {
  SCAVENGER_SCENARIOS,
  Tile,
  findScavengerScenario,
  parseScenarioMap,
  renderScenarioMap,
  type ScavengerScenario,
} from '../../../../src/core/envs/scavenger';
import { ProtoplayError } from '../../../../src/core/errors';

function count(scenario: ScavengerScenario, tile: Tile): number {
  return scenario.tiles.filter((t) => t === tile).length;
}

/** Cells reachable from a start without crossing walls (4-neighbour flood fill). */
function reachable(scenario: ScavengerScenario, startX: number, startY: number): Set<number> {
  const seen = new Set<number>();
  const stack = [startY * scenario.width + startX];
  while (stack.length) {
    const cell = stack.pop()!;
    if (seen.has(cell) || scenario.tiles[cell] === Tile.wall) continue;
    seen.add(cell);
    const x = cell % scenario.width;
    if (x > 0) stack.push(cell - 1);
    if (x < scenario.width - 1) stack.push(cell + 1);
    if (cell >= scenario.width) stack.push(cell - scenario.width);
    if (cell < scenario.tiles.length - scenario.width) stack.push(cell + scenario.width);
  }
  return seen;
}

/** Gaps in a region's walls: floor cells on its border rows/columns that lead outside it. */
function entrances(scenario: ScavengerScenario, x0: number, y0: number, x1: number, y1: number): number {
  let gaps = 0;
  for (let y = y0 - 1; y <= y1 + 1; y++) {
    for (let x = x0 - 1; x <= x1 + 1; x++) {
      const onBorder = x === x0 - 1 || x === x1 + 1 || y === y0 - 1 || y === y1 + 1;
      const outerWall = x === 0 || y === 0 || x === scenario.width - 1 || y === scenario.height - 1;
      if (onBorder && !outerWall && scenario.tiles[y * scenario.width + x] !== Tile.wall) gaps++;
    }
  }
  return gaps;
}

const REGIONS: [number, number, number, number][] = [
  [1, 1, 24, 7],
  [30, 1, 53, 7],
  [1, 13, 24, 19],
  [30, 13, 53, 19],
];

describe('the six scenarios', () => {
  it('have the sizes, scavengers and resources of the experiments they follow', () => {
    const shapes = SCAVENGER_SCENARIOS.map((s) => [
      s.letter,
      s.width,
      s.height,
      count(s, Tile.spawn),
      count(s, Tile.resource),
    ]);
    expect(shapes).toEqual([
      ['A', 26, 9, 1, 45],
      ['B', 42, 22, 9, 180],
      ['C', 55, 21, 12, 180],
      ['D', 55, 21, 12, 180],
      ['E', 55, 21, 12, 180],
      ['F', 55, 21, 12, 180],
    ]);
  });

  it('give every region 45 resources, one entrance in C and D, four in E, no walls in F', () => {
    for (const letter of ['C', 'D', 'E']) {
      const scenario = findScavengerScenario(letter)!;
      const expected = letter === 'E' ? 4 : 1;
      for (const [x0, y0, x1, y1] of REGIONS) {
        expect(entrances(scenario, x0, y0, x1, y1), `${letter} region at ${x0},${y0}`).toBe(expected);
        let resources = 0;
        for (let y = y0; y <= y1; y++)
          for (let x = x0; x <= x1; x++) if (scenario.tiles[y * 55 + x] === Tile.resource) resources++;
        expect(resources).toBe(45);
      }
    }
    const f = findScavengerScenario('F')!;
    expect(count(f, Tile.wall)).toBe(2 * 55 + 2 * 19);
  });

  it('let every scavenger reach every resource', () => {
    for (const scenario of SCAVENGER_SCENARIOS) {
      const spawn = scenario.tiles.indexOf(Tile.spawn);
      const seen = reachable(scenario, spawn % scenario.width, Math.floor(spawn / scenario.width));
      scenario.tiles.forEach((tile, cell) => {
        if (tile === Tile.resource || tile === Tile.spawn) expect(seen.has(cell), scenario.name).toBe(true);
      });
    }
  });

  it('pack the top-left region of D denser than the one of C', () => {
    const near = (scenario: ScavengerScenario) => {
      let total = 0;
      let resources = 0;
      for (let y = 1; y <= 7; y++) {
        for (let x = 1; x <= 24; x++) {
          if (scenario.tiles[y * 55 + x] !== Tile.resource) continue;
          resources++;
          for (let dy = -2; dy <= 2; dy++)
            for (let dx = -2; dx <= 2; dx++) {
              const d = Math.abs(dx) + Math.abs(dy);
              if (d > 0 && d <= 2 && scenario.tiles[(y + dy) * 55 + x + dx] === Tile.resource) total++;
            }
        }
      }
      return total / resources;
    };
    expect(near(findScavengerScenario('D')!)).toBeGreaterThan(near(findScavengerScenario('C')!) + 2);
  });

  it('are found by letter in any case or by name', () => {
    expect(findScavengerScenario('c')?.name).toBe('C_basic_single_entrance_region');
    expect(findScavengerScenario('B_open')?.letter).toBe('B');
    expect(findScavengerScenario('Z')).toBeUndefined();
  });
});

describe('parseScenarioMap', () => {
  const about = { name: 'test.map', letter: 'T', label: 'test', description: 'test' };

  it('reads a map and renders it back', () => {
    const text = '#####\n#S.*#\n#####';
    const scenario = parseScenarioMap(text, about);
    expect([scenario.width, scenario.height]).toEqual([5, 3]);
    expect(renderScenarioMap(scenario)).toBe(text);
  });

  it('locates a ragged row and an unknown character', () => {
    expect(() => parseScenarioMap('###\n#S\n###', about)).toThrow(
      expect.objectContaining({ location: expect.objectContaining({ line: 2, column: 3 }) }),
    );
    try {
      parseScenarioMap('###\n#Sx\n###', about);
      expect.unreachable();
    } catch (error) {
      expect((error as ProtoplayError).format()).toBe(
        "test.map:2:3: unknown map character 'x' (use . * S #)",
      );
    }
  });

  it('refuses a map without spawn or without cells', () => {
    expect(() => parseScenarioMap('###', about)).toThrow(/no spawn cell/);
    expect(() => parseScenarioMap('', about)).toThrow(/empty/);
  });
});
