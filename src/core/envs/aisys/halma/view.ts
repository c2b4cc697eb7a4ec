/**
 * What a board view needs from a Halma percept, which lists pieces only: the pieces checked for shape, and
 * the board they stand on, from the environment's config when the view knows it, otherwise guessed from
 * the pieces (3 players: a star; a goal of n rows per n(n+1)/2 pieces; a rhombus only when a piece stands
 * where the star has no cell).
 */
import type { JsonValue } from '../api';
import { createHalmaBoard, MAX_BOARD_SIZE, type Cell, type HalmaBoard, type Player } from './board';
import { readHalmaConfig } from './game';

/** A percept read for a view: the pieces of each player, in turn order. */
export interface HalmaPosition {
  pieces: { player: Player; cells: Cell[] }[];
  board: HalmaBoard;
}

const isCell = (value: unknown): value is Cell =>
  Array.isArray(value) && value.length === 2 && value.every((n) => Number.isInteger(n));

/** Reads a percept (and the environment's config, if known) for a view; a string says what is wrong. */
export function readHalmaPosition(percept: unknown, config?: JsonValue): HalmaPosition | string {
  if (percept === null || typeof percept !== 'object' || Array.isArray(percept))
    return 'not a Halma percept: expected {"A": [[x, y], ...], "B": [...]}';
  const given = percept as Record<string, unknown>;
  const players: Player[] = 'C' in given ? ['A', 'B', 'C'] : ['A', 'B'];
  const pieces: HalmaPosition['pieces'] = [];
  for (const player of players) {
    const cells = given[player];
    if (!Array.isArray(cells) || !cells.every(isCell))
      return `not a Halma percept: ${player} should be a list of cells [x, y]`;
    pieces.push({ player, cells });
  }
  let board: HalmaBoard;
  try {
    board = config === undefined ? guessBoard(pieces) : boardOfConfig(config);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  for (const { player, cells } of pieces)
    for (const [x, y] of cells)
      if (board.indexOf(x, y) < 0) return `${player}'s piece on [${x}, ${y}] is off the board`;
  return { pieces, board };
}

function boardOfConfig(config: JsonValue): HalmaBoard {
  const { board, size, players } = readHalmaConfig(config);
  return createHalmaBoard(board, size, players);
}

function guessBoard(pieces: HalmaPosition['pieces']): HalmaBoard {
  const players = pieces.length as 2 | 3;
  const count = pieces[0]!.cells.length;
  const size = Math.min(MAX_BOARD_SIZE, Math.max(1, Math.round((Math.sqrt(8 * count + 1) - 1) / 2)));
  const star = createHalmaBoard('star', size, players);
  if (players === 3) return star;
  const offStar = pieces.some(({ cells }) => cells.some(([x, y]) => star.indexOf(x, y) < 0));
  return offStar ? createHalmaBoard('rhombus', size, 2) : star;
}

/** A cell's centre on a drawing with hexagons of radius 1 (pointy top). */
export function cellCentre([x, y]: Cell): [number, number] {
  return [Math.sqrt(3) * (x + y / 2), 1.5 * y];
}

/** The keys that move a board view's cursor: rows up and down, along a row left and right. */
export type CursorKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight';

const CURSOR_STEPS: Record<CursorKey, [dy: number, side: -1 | 0 | 1]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/**
 * Where a keyboard cursor on cell `at` goes for a key: the next cell along its row to the left or right
 * (over the missing centre), or the cell of the row above or below nearest straight up or down (the right
 * one of two as near). Stays put at an edge.
 */
export function moveCursor(board: HalmaBoard, at: number, key: CursorKey): number {
  const [dy, side] = CURSOR_STEPS[key];
  const row = board.cells[at]![1] + dy;
  const px = cellCentre(board.cells[at]!)[0];
  let best = at;
  let bestDistance = Infinity;
  board.cells.forEach((cell, i) => {
    if (cell[1] !== row) return;
    const gap = cellCentre(cell)[0] - px;
    if (side !== 0 && gap * side <= 0.01) return;
    const distance = side === 0 ? Math.abs(gap) - (gap > 0 ? 0.001 : 0) : gap * side;
    if (distance < bestDistance) [best, bestDistance] = [i, distance];
  });
  return best;
}
