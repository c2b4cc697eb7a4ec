/**
 * Moves of the Halma-like game. A move takes one piece either one **step** to an empty neighbouring cell,
 * or through one or more **jumps**: over one adjacent piece (anyone's) in a straight line to the empty cell
 * right behind it, again and again as long as the piece likes, never landing on a cell it has already been
 * on in this move (its start included). A step ends the move. While it moves, the piece's start counts as
 * empty.
 *
 * Positions are an occupancy array over the board's cell numbers: 0 empty, 1 + the player's turn index
 * otherwise.
 */
import { DIRECTIONS, type Cell, type HalmaBoard } from './board';

/** One move: the cells the piece visits, by number, from its start to where it ends. */
export type MovePath = number[];

/** Every legal move of the piece on `from`, one per destination (the shortest jump path to each). */
export function movesFrom(board: HalmaBoard, occupancy: Uint8Array, from: number): MovePath[] {
  const { neighbours } = board;
  const moves: MovePath[] = [];
  for (let d = 0; d < 6; d++) {
    const next = neighbours[from * 6 + d]!;
    if (next >= 0 && occupancy[next] === 0) moves.push([from, next]);
  }
  // Jumps, breadth first, so every destination gets its shortest path.
  const owner = occupancy[from]!;
  occupancy[from] = 0;
  const parent = new Map<number, number>([[from, -1]]);
  const queue = [from];
  for (let head = 0; head < queue.length; head++) {
    const at = queue[head]!;
    for (let d = 0; d < 6; d++) {
      const over = neighbours[at * 6 + d]!;
      if (over < 0 || occupancy[over] === 0) continue;
      const land = neighbours[over * 6 + d]!;
      if (land < 0 || occupancy[land] !== 0 || parent.has(land)) continue;
      parent.set(land, at);
      queue.push(land);
      // A chain of jumps may come round to a neighbour: that destination is already a step.
      if (neighbourOf(board, from, land)) continue;
      const path = [land];
      for (let cell = at; cell >= 0; cell = parent.get(cell)!) path.push(cell);
      moves.push(path.reverse());
    }
  }
  occupancy[from] = owner;
  return moves;
}

function neighbourOf(board: HalmaBoard, a: number, b: number): boolean {
  for (let d = 0; d < 6; d++) if (board.neighbours[a * 6 + d] === b) return true;
  return false;
}

/** Every legal move of a player (by its occupancy mark), piece by piece. */
export function legalMoves(board: HalmaBoard, occupancy: Uint8Array, mark: number): MovePath[] {
  const moves: MovePath[] = [];
  for (let cell = 0; cell < occupancy.length; cell++)
    if (occupancy[cell] === mark) for (const move of movesFrom(board, occupancy, cell)) moves.push(move);
  return moves;
}

/** Whether a player has any legal move (without listing them all). */
export function canMove(board: HalmaBoard, occupancy: Uint8Array, mark: number): boolean {
  const { neighbours } = board;
  for (let cell = 0; cell < occupancy.length; cell++) {
    if (occupancy[cell] !== mark) continue;
    for (let d = 0; d < 6; d++) {
      const next = neighbours[cell * 6 + d]!;
      if (next < 0) continue;
      if (occupancy[next] === 0) return true;
      const land = neighbours[next * 6 + d]!;
      if (land >= 0 && occupancy[land] === 0) return true;
    }
  }
  return false;
}

/** A cell as messages print it: `[x, y]`. */
export function cellText(cell: Cell): string {
  return `[${cell[0]}, ${cell[1]}]`;
}

/**
 * Reads an action as a move of player `mark`: a list of cells `[[x, y], ...]` from one of the player's
 * pieces to where it ends. Two cells are a step, a jump or a chain of jumps to that cell (the shortest is
 * taken); more cells spell out a chain of jumps hop by hop. Returns the full path, or why it is not legal.
 */
export function readMove(
  board: HalmaBoard,
  occupancy: Uint8Array,
  mark: number,
  action: unknown,
): { ok: true; path: MovePath } | { ok: false; message: string } {
  const shape = 'a move is a list of cells [[x, y], [x, y], ...] from one of your pieces to where it ends';
  if (!Array.isArray(action) || action.length < 2) return { ok: false, message: `Invalid action: ${shape}` };
  const cells: Cell[] = [];
  for (const item of action as unknown[]) {
    if (
      !Array.isArray(item) ||
      item.length !== 2 ||
      !item.every((value) => typeof value === 'number' && Number.isInteger(value))
    )
      return {
        ok: false,
        message: `Invalid action: ${JSON.stringify(item)} is not a cell [x, y] (${shape})`,
      };
    cells.push([item[0] as number, item[1] as number]);
  }
  const numbers = cells.map(([x, y]) => board.indexOf(x, y));
  const off = numbers.indexOf(-1);
  if (off >= 0) return { ok: false, message: `Invalid move: ${cellText(cells[off]!)} is not on the board` };
  const from = numbers[0]!;
  if (occupancy[from] !== mark)
    return { ok: false, message: `Invalid move: there is no piece of yours on ${cellText(cells[0]!)}` };
  for (let i = 1; i < numbers.length; i++)
    if (occupancy[numbers[i]!] !== 0 && numbers[i] !== from)
      return { ok: false, message: `Invalid move: ${cellText(cells[i]!)} is not empty` };

  if (numbers.length === 2) {
    const to = numbers[1]!;
    const move = movesFrom(board, occupancy, from).find((path) => path[path.length - 1] === to);
    if (!move)
      return {
        ok: false,
        message: `Invalid move: ${cellText(cells[1]!)} cannot be reached from ${cellText(cells[0]!)} in one move (a step to a neighbouring cell, or jumps over one piece at a time)`,
      };
    return { ok: true, path: move };
  }

  // A chain of jumps, hop by hop; the start counts as empty while the piece is away.
  occupancy[from] = 0;
  try {
    for (let i = 1; i < numbers.length; i++) {
      const [a, b] = [cells[i - 1]!, cells[i]!];
      const d = DIRECTIONS.findIndex(([dx, dy]) => b[0] - a[0] === 2 * dx && b[1] - a[1] === 2 * dy);
      const over = d >= 0 ? board.neighbours[numbers[i - 1]! * 6 + d]! : -1;
      if (over < 0 || occupancy[over] === 0)
        return {
          ok: false,
          message: `Invalid move: ${cellText(a)} to ${cellText(b)} is not a jump over a piece (a move of more than two cells is a chain of jumps)`,
        };
      if (numbers.indexOf(numbers[i]!) < i)
        return { ok: false, message: `Invalid move: the jumps visit ${cellText(b)} twice` };
    }
  } finally {
    occupancy[from] = mark;
  }
  return { ok: true, path: numbers };
}
