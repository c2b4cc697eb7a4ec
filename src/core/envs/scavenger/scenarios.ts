/**
 * The six scenarios, drawn for Protoplay after the six experiments of the original GAMA model (A to F): the
 * same ideas (a one-agent strip, an open arena, four walled regions with one or four entrances, one region
 * denser than the others, no inner walls), not the original maps. Resources come in "+" patches of five,
 * so a patch regrows while some of it is left and dies once harvested to the last resource.
 */
import { parseScenarioMap, type ScavengerScenario } from './scenario';

/** A map being drawn, cell by cell. */
class MapCanvas {
  readonly rows: string[][];

  constructor(width: number, height: number) {
    this.rows = Array.from({ length: height }, (_, y) =>
      Array.from({ length: width }, (_, x) =>
        x === 0 || y === 0 || x === width - 1 || y === height - 1 ? '#' : '.',
      ),
    );
  }

  set(x: number, y: number, symbol: string): this {
    this.rows[y]![x] = symbol;
    return this;
  }

  /** A horizontal wall on row `y` from `x0` to `x1`, inclusive. */
  wallRow(y: number, x0: number, x1: number): this {
    for (let x = x0; x <= x1; x++) this.set(x, y, '#');
    return this;
  }

  /** A vertical wall on column `x` from `y0` to `y1`, inclusive. */
  wallColumn(x: number, y0: number, y1: number): this {
    for (let y = y0; y <= y1; y++) this.set(x, y, '#');
    return this;
  }

  /** A "+" patch of five resources centred on (x, y). */
  patch(x: number, y: number): this {
    for (const [dx, dy] of [
      [0, 0],
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ] as const)
      this.set(x + dx, y + dy, '*');
    return this;
  }

  /** A solid block of resources. */
  block(x0: number, y0: number, width: number, height: number): this {
    for (let y = y0; y < y0 + height; y++) for (let x = x0; x < x0 + width; x++) this.set(x, y, '*');
    return this;
  }

  text(): string {
    return this.rows.map((row) => row.join('')).join('\n');
  }
}

/** Nine patches in two staggered rows, in a region 24 cells wide whose top interior row is `top`. */
function staggeredPatches(canvas: MapCanvas, left: number, top: number): void {
  for (const x of [2, 7, 12, 17, 22]) canvas.patch(left + x, top + 1);
  for (const x of [4, 9, 14, 19]) canvas.patch(left + x, top + 5);
}

/** The 55 x 21 region maps (C to F): four regions of 45 resources around a band and a corridor. */
function regionMap(options: { walls: boolean; entrances: 1 | 4; denseTopLeft: boolean }): string {
  const canvas = new MapCanvas(55, 21);
  // Regions: columns 1-24 and 30-53, rows 1-7 and 13-19. Band: rows 9-11. Corridor: columns 26-28.
  if (options.walls) {
    canvas.wallRow(8, 1, 25).wallRow(8, 29, 53).wallRow(12, 1, 25).wallRow(12, 29, 53);
    canvas.wallColumn(25, 1, 8).wallColumn(29, 1, 8).wallColumn(25, 12, 19).wallColumn(29, 12, 19);
    // One entrance each: top-left and bottom-right open onto the band, the others onto the corridor.
    canvas.set(12, 8, '.').set(42, 12, '.').set(29, 4, '.').set(25, 16, '.');
    if (options.entrances === 4) {
      for (const x of [4, 20]) canvas.set(x, 8, '.').set(x, 12, '.');
      for (const x of [34, 50]) canvas.set(x, 8, '.').set(x, 12, '.');
      canvas.set(25, 4, '.').set(42, 8, '.').set(12, 12, '.').set(29, 16, '.');
    }
  }
  if (options.denseTopLeft) canvas.block(8, 2, 9, 5);
  else staggeredPatches(canvas, 1, 1);
  staggeredPatches(canvas, 30, 1);
  staggeredPatches(canvas, 1, 13);
  staggeredPatches(canvas, 30, 13);
  for (const [x, y] of [
    [17, 9],
    [21, 9],
    [33, 9],
    [37, 9],
    [19, 10],
    [23, 10],
    [31, 10],
    [35, 10],
    [17, 11],
    [21, 11],
    [33, 11],
    [37, 11],
  ] as const)
    canvas.set(x, y, 'S');
  return canvas.text();
}

function smallMap(): string {
  const canvas = new MapCanvas(26, 9);
  staggeredPatches(canvas, 1, 1);
  return canvas.set(24, 7, 'S').text();
}

function openMap(): string {
  const canvas = new MapCanvas(42, 22);
  for (const [row, y] of [3, 7, 11, 15].entries()) {
    const shift = row % 2 === 0 ? 0 : 2;
    for (let x = 3 + shift; x <= 38; x += 4) canvas.patch(x, y);
  }
  for (const x of [33, 35, 37]) for (const y of [18, 19, 20]) canvas.set(x, y, 'S');
  return canvas.text();
}

/** The six scenarios, in experiment order. */
export const SCAVENGER_SCENARIOS: readonly ScavengerScenario[] = [
  parseScenarioMap(smallMap(), {
    name: 'A_small',
    letter: 'A',
    label: 'A: small strip, one scavenger',
    description:
      'One scavenger in a walled 26 x 9 strip with nine patches: learn to harvest without killing them.',
  }),
  parseScenarioMap(openMap(), {
    name: 'B_open',
    letter: 'B',
    label: 'B: open arena, nine scavengers',
    description: 'Nine scavengers start together in a corner of an open 42 x 22 arena full of patches.',
  }),
  parseScenarioMap(regionMap({ walls: true, entrances: 1, denseTopLeft: false }), {
    name: 'C_basic_single_entrance_region',
    letter: 'C',
    label: 'C: four regions, one entrance each',
    description:
      'Twelve scavengers in a central band; four walled regions of 45 resources, each with a single entrance a scavenger can guard.',
  }),
  parseScenarioMap(regionMap({ walls: true, entrances: 1, denseTopLeft: true }), {
    name: 'D_unequal_single_entrance_region',
    letter: 'D',
    label: 'D: unequal regions, one entrance each',
    description:
      'As C, but the top-left region packs its 45 resources in one block, so it regrows faster than the others.',
  }),
  parseScenarioMap(regionMap({ walls: true, entrances: 4, denseTopLeft: false }), {
    name: 'E_multi_entrance_region',
    letter: 'E',
    label: 'E: four regions, four entrances each',
    description: 'As C, with four entrances to every region: too many to guard alone.',
  }),
  parseScenarioMap(regionMap({ walls: false, entrances: 1, denseTopLeft: false }), {
    name: 'F_region_with_no_walls',
    letter: 'F',
    label: 'F: no inner walls',
    description: 'The resources and spawns of C without any inner wall.',
  }),
];

/** A scenario by its name (`C_basic_single_entrance_region`) or letter (`C`, any case). */
export function findScavengerScenario(nameOrLetter: string): ScavengerScenario | undefined {
  return SCAVENGER_SCENARIOS.find(
    (scenario) => scenario.name === nameOrLetter || scenario.letter === nameOrLetter.toUpperCase(),
  );
}
