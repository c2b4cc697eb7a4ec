/**
 * Scenario maps: a grid of floor, walls, resources and scavenger spawn cells, read from text with one
 * character per cell. Bad maps give located errors (`name:line:column: message`).
 */
import { ProtoplayError } from '../../errors';

/** What a map cell holds at the start. */
export const Tile = { floor: 0, resource: 1, spawn: 2, wall: 3 } as const;
/** One of the tiles. */
export type Tile = (typeof Tile)[keyof typeof Tile];

/** The characters of a text map. */
export const TILE_CHARACTERS: Readonly<Record<string, Tile>> = {
  '.': Tile.floor,
  '*': Tile.resource,
  S: Tile.spawn,
  '#': Tile.wall,
};

/** A scenario: its map and what it is for. */
export interface ScavengerScenario {
  /** The name GAMA sends in its scenario message (`C_basic_single_entrance_region`). */
  name: string;
  /** The experiment letter (`C`). */
  letter: string;
  label: string;
  description: string;
  width: number;
  height: number;
  /** Row-major tiles, `width * height` of them. */
  tiles: Uint8Array;
}

/** The map as text, one row per line. */
export function renderScenarioMap(scenario: ScavengerScenario): string {
  const symbol = ['.', '*', 'S', '#'];
  const rows: string[] = [];
  for (let y = 0; y < scenario.height; y++) {
    let row = '';
    for (let x = 0; x < scenario.width; x++) row += symbol[scenario.tiles[y * scenario.width + x]!];
    rows.push(row);
  }
  return rows.join('\n');
}

/**
 * Reads a text map (`.` floor, `*` resource, `S` spawn, `#` wall; every row as long as the first). Scavengers
 * are numbered in row-major order of their spawn cells, as GAMA numbers them from its CSV.
 */
export function parseScenarioMap(
  text: string,
  about: Omit<ScavengerScenario, 'width' | 'height' | 'tiles'>,
): ScavengerScenario {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  const width = lines[0]?.length ?? 0;
  if (width === 0) throw new ProtoplayError('scavenger.map.empty', `${about.name}: the map is empty`);
  const tiles = new Uint8Array(width * lines.length);
  let spawns = 0;
  lines.forEach((line, y) => {
    if (line.length !== width) {
      throw new ProtoplayError(
        'scavenger.map.ragged',
        `row ${y + 1} has ${line.length} cells, the first row ${width}`,
        { source: about.name, line: y + 1, column: Math.min(line.length, width) + 1 },
      );
    }
    for (let x = 0; x < width; x++) {
      const tile = TILE_CHARACTERS[line[x]!];
      if (tile === undefined) {
        throw new ProtoplayError(
          'scavenger.map.character',
          `unknown map character '${line[x]}' (use . * S #)`,
          { source: about.name, line: y + 1, column: x + 1 },
        );
      }
      if (tile === Tile.spawn) spawns++;
      tiles[y * width + x] = tile;
    }
  });
  if (spawns === 0)
    throw new ProtoplayError('scavenger.map.no-spawn', `${about.name}: the map has no spawn cell (S)`);
  return { ...about, width, height: lines.length, tiles };
}
