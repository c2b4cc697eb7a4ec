/**
 * The boards of the Halma-like game: hexagonal cells in axial coordinates `[x, y]` (x along a row, y the
 * row, growing downwards; the third cube coordinate is `-x - y`), so the six neighbours of `[x, y]` are
 * `[x±1, y]`, `[x, y±1]`, `[x+1, y-1]` and `[x-1, y+1]`. Drawn with pointy-top hexagons, a cell's centre
 * is at `(√3·(x + y/2), 1.5·y)`. The centre cell `[0, 0]` is left out of every board, as the course's
 * boards are described.
 *
 * - **star** of size n: a six-pointed star (Chinese checkers; n = 4 is the classic 121-hole board), a
 *   hexagon of radius n with a triangle of n rows on each side. Two players start at the bottom and top
 *   points; three at the bottom, upper-right and upper-left points. Each goes for the opposite point.
 * - **rhombus** of size n: a diamond of side 2n + 3 standing on a corner (its acute corners at the top and
 *   the bottom), for two players whose homes are triangles of n rows in those corners.
 *
 * A board is built once per environment and shared by every run: cells are numbered, and the neighbours
 * of each are looked up in a flat table, so move generation touches no strings.
 */

/** A cell as the wire shows it: `[x, y]`. */
export type Cell = [number, number];

/** The players; the agent is always A. */
export type Player = 'A' | 'B' | 'C';

/** The board shapes. */
export type HalmaShape = 'star' | 'rhombus';

/** The six directions, as `[dx, dy]`, in the order neighbours are stored. */
export const DIRECTIONS: readonly Cell[] = [
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, 0],
  [-1, 1],
  [0, 1],
];

/** One player's corners: where its pieces start, where they have to go, and the far tip of the goal. */
export interface Corner {
  player: Player;
  /** Cell numbers of the home triangle, the tip first, row by row. */
  home: readonly number[];
  /** Cell numbers of the goal triangle (the home of the opposite corner). */
  goal: readonly number[];
  /** The goal's tip: distances to it measure how far a piece still has to go. */
  goalTip: number;
}

/** A board: its cells, their neighbours and the players' corners. */
export interface HalmaBoard {
  shape: HalmaShape;
  size: number;
  /** Every cell, by number. */
  cells: readonly Cell[];
  /** Six neighbour numbers per cell (in `DIRECTIONS` order), -1 off the board. */
  neighbours: Int32Array;
  /** The corners of the players, in turn order (A first). */
  corners: readonly Corner[];
  /** The number of a cell, or -1 when it is not on the board (or not a pair of integers). */
  indexOf(x: number, y: number): number;
}

/** The largest size a board may have (a star of size 8 has 337 cells). */
export const MAX_BOARD_SIZE = 8;

/** Hex distance between two cells. */
export function hexDistance(a: Cell, b: Cell): number {
  const dx = a[0] - b[0];
  const dy = a[1] - b[1];
  return (Math.abs(dx) + Math.abs(dy) + Math.abs(dx + dy)) / 2;
}

/** A point of the star or a corner of the rhombus: which cells it has and its tip. */
interface Point {
  contains(x: number, y: number): boolean;
  tip: Cell;
}

/**
 * The star's six points, by the cube coordinate that runs out past the hexagon: `y+` is the bottom point,
 * `y-` the top; `x+` the upper-right, `x-` the lower-left; `z+` the upper-left, `z-` the lower-right.
 */
function starPoints(n: number): Record<'y+' | 'y-' | 'x+' | 'x-' | 'z+' | 'z-', Point> {
  const z = (x: number, y: number) => -x - y;
  return {
    'y+': { contains: (x, y) => y > n && x >= -n && z(x, y) >= -n, tip: [-n, 2 * n] },
    'y-': { contains: (x, y) => y < -n && x <= n && z(x, y) <= n, tip: [n, -2 * n] },
    'x+': { contains: (x, y) => x > n && y >= -n && z(x, y) >= -n, tip: [2 * n, -n] },
    'x-': { contains: (x, y) => x < -n && y <= n && z(x, y) <= n, tip: [-2 * n, n] },
    'z+': { contains: (x, y) => z(x, y) > n && x >= -n && y >= -n, tip: [-n, -n] },
    'z-': { contains: (x, y) => z(x, y) < -n && x <= n && y <= n, tip: [n, n] },
  };
}

/** Builds a board of a shape and size for 2 or 3 players (3 only on the star). */
export function createHalmaBoard(shape: HalmaShape, size: number, players: 2 | 3): HalmaBoard {
  if (!Number.isInteger(size) || size < 1 || size > MAX_BOARD_SIZE)
    throw new RangeError(`the board size must be a whole number from 1 to ${MAX_BOARD_SIZE}, not ${size}`);
  if (shape === 'rhombus' && players !== 2) throw new RangeError('the rhombus board is for 2 players');

  let onBoard: (x: number, y: number) => boolean;
  let extent: number;
  let pairs: [Point, Point][];
  if (shape === 'star') {
    const n = size;
    extent = 2 * n;
    onBoard = (x, y) => {
      const z = -x - y;
      return (x >= -n && y >= -n && z >= -n) || (x <= n && y <= n && z <= n);
    };
    const p = starPoints(n);
    pairs =
      players === 2
        ? [
            [p['y+'], p['y-']],
            [p['y-'], p['y+']],
          ]
        : [
            [p['y+'], p['y-']],
            [p['x+'], p['x-']],
            [p['z+'], p['z-']],
          ];
  } else {
    // Side 2k + 1 with k = n + 1: one free row between a home triangle and the widest part.
    const k = size + 1;
    extent = 2 * k;
    onBoard = (x, y) => Math.abs(x) <= k && Math.abs(x + y) <= k;
    const bottom: Point = { contains: (x, y) => onBoard(x, y) && y > 2 * k - size, tip: [-k, 2 * k] };
    const top: Point = { contains: (x, y) => onBoard(x, y) && y < size - 2 * k, tip: [k, -2 * k] };
    pairs = [
      [bottom, top],
      [top, bottom],
    ];
  }

  const cells: Cell[] = [];
  const width = 2 * extent + 1;
  const numbers = new Int32Array(width * width).fill(-1);
  for (let y = -extent; y <= extent; y++)
    for (let x = -extent; x <= extent; x++) {
      if ((x === 0 && y === 0) || !onBoard(x, y)) continue;
      numbers[(y + extent) * width + (x + extent)] = cells.length;
      cells.push([x, y]);
    }
  const indexOf = (x: number, y: number) =>
    Number.isInteger(x) && Number.isInteger(y) && Math.abs(x) <= extent && Math.abs(y) <= extent
      ? numbers[(y + extent) * width + (x + extent)]!
      : -1;
  const neighbours = new Int32Array(cells.length * 6);
  cells.forEach(([x, y], i) => {
    DIRECTIONS.forEach(([dx, dy], d) => {
      neighbours[i * 6 + d] = indexOf(x + dx, y + dy);
    });
  });

  /** A triangle's cells, nearest the tip first. */
  const triangle = (point: Point) =>
    cells
      .map((cell, i) => ({ cell, i }))
      .filter(({ cell }) => point.contains(cell[0], cell[1]))
      .sort((a, b) => hexDistance(a.cell, point.tip) - hexDistance(b.cell, point.tip))
      .map(({ i }) => i);
  const letters: Player[] = ['A', 'B', 'C'];
  const corners = pairs.map(([home, goal], i) => ({
    player: letters[i]!,
    home: triangle(home),
    goal: triangle(goal),
    goalTip: indexOf(...goal.tip),
  }));
  return { shape, size, cells, neighbours, corners, indexOf };
}
