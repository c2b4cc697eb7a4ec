/**
 * The Halma-like game as a course environment, of Protoplay's own design after how students describe the
 * course's hex-board game: 2 or 3 players on a star or (2 players) a rhombus, each moving its pieces from
 * its home corner to the opposite one by steps and jumps (`moves.ts`). The agent is always player A; the
 * server plays B (and C) with a built-in opponent, `greedy` (the move that brings a piece nearest its goal,
 * stragglers first) or `random` (any legal move).
 *
 * - **Percept**: `{"A": [[x, y], ...], "B": [...], "C": [...]}`, each player's pieces (the same piece keeps
 *   its place in the list). A percept is only ever sent when it is A's turn.
 * - **Action**: `[[x, y], [x, y]]`, a piece and where it goes (a step, or jumps to there), or a longer list
 *   spelling a chain of jumps hop by hop. Anything else is refused with a message saying why, and the run
 *   waits for another action.
 * - **End**: a player wins when every cell of its goal is occupied and at least one of them by its own
 *   pieces (so pieces left in someone's goal cannot block them). A's win is outcome 1, another player's
 *   win 0. After `max_moves` moves of A without a winner, the player with the most pieces in its goal wins
 *   (outcome 1 or 0; 0.5 if A shares the lead). Abandoning a run loses it (0). The rating is the average
 *   outcome, so roughly the share of games won.
 * - A player who cannot move passes. With `random_start` a random player begins, so the opponents may
 *   already have moved in the first percept.
 */
import {
  DEFAULT_ENV_SETTINGS,
  EnvironmentCrash,
  type AisysEnvironment,
  type AisysEnvironmentClass,
  type EnvRandom,
  type JsonValue,
} from '../api';
import { pythonRepr } from '../python';
import {
  createHalmaBoard,
  hexDistance,
  MAX_BOARD_SIZE,
  type Cell,
  type HalmaBoard,
  type HalmaShape,
  type Player,
} from './board';
import { canMove, cellText, legalMoves, readMove, type MovePath } from './moves';

/** How the built-in opponents choose their moves. */
export type HalmaOpponent = 'greedy' | 'random';

/** An environment's config, read from its JSON. */
export interface HalmaConfig {
  board: HalmaShape;
  players: 2 | 3;
  size: number;
  opponent: HalmaOpponent;
  randomStart: boolean;
  maxMoves: number;
}

/** A run of the game. */
export type HalmaState = {
  /** Each player's pieces, as the percept shows them. */
  pieces: Record<string, Cell[]>;
  /** A's moves so far. */
  moves: number;
  /** Set when the run has ended. */
  over?: true;
};

/** What the history keeps beside each of A's moves: its full path and the replies. */
export type HalmaMoveRecord = { path: Cell[]; replies: { player: Player; path: Cell[] }[] };

/** Reads `{board?, players?, size?, opponent?, random_start?, max_moves?}`; a bad value raises. */
export function readHalmaConfig(config: JsonValue): HalmaConfig {
  if (config === null) config = {};
  if (typeof config !== 'object' || Array.isArray(config))
    throw new EnvironmentCrash('TypeError', `the environment config is not an object: ${pythonRepr(config)}`);
  const bad = (key: string, expected: string) =>
    new EnvironmentCrash('ValueError', `config ${key} must be ${expected}, not ${pythonRepr(config[key])}`);
  const board = config.board ?? 'star';
  if (board !== 'star' && board !== 'rhombus') throw bad('board', "'star' or 'rhombus'");
  const players = config.players ?? 2;
  if (players !== 2 && players !== 3) throw bad('players', '2 or 3');
  if (board === 'rhombus' && players !== 2) throw bad('players', '2 on the rhombus board');
  const size = config.size ?? 3;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > MAX_BOARD_SIZE)
    throw bad('size', `a whole number from 1 to ${MAX_BOARD_SIZE}`);
  const opponent = config.opponent ?? 'greedy';
  if (opponent !== 'greedy' && opponent !== 'random') throw bad('opponent', "'greedy' or 'random'");
  const randomStart = config.random_start ?? false;
  if (typeof randomStart !== 'boolean') throw bad('random_start', 'true or false');
  const maxMoves = config.max_moves ?? 100;
  if (typeof maxMoves !== 'number' || !Number.isInteger(maxMoves) || maxMoves < 1)
    throw bad('max_moves', 'a whole number from 1');
  return { board, players, size, opponent, randomStart, maxMoves };
}

/** What the game knows of a board beyond its cells: per corner, goal membership and distances. */
interface Rules {
  board: HalmaBoard;
  letters: Player[];
  inGoal: Uint8Array[];
  distance: Int32Array[];
}

function rulesOf(config: HalmaConfig): Rules {
  const board = createHalmaBoard(config.board, config.size, config.players);
  return {
    board,
    letters: board.corners.map((corner) => corner.player),
    inGoal: board.corners.map((corner) => {
      const marks = new Uint8Array(board.cells.length);
      for (const cell of corner.goal) marks[cell] = 1;
      return marks;
    }),
    distance: board.corners.map((corner) =>
      Int32Array.from(board.cells, (cell) => hexDistance(cell, board.cells[corner.goalTip]!)),
    ),
  };
}

/** The occupancy of a state: 0 empty, 1 + the player's turn index. */
function occupancyOf(rules: Rules, pieces: Record<string, Cell[]>): Uint8Array {
  const occupancy = new Uint8Array(rules.board.cells.length);
  rules.letters.forEach((letter, i) => {
    for (const [x, y] of pieces[letter] ?? []) occupancy[rules.board.indexOf(x, y)] = i + 1;
  });
  return occupancy;
}

/** Whether player `i` has reached its goal: all of it occupied, some of it by its own pieces. */
function hasWon(rules: Rules, occupancy: Uint8Array, i: number): boolean {
  let own = false;
  for (const cell of rules.board.corners[i]!.goal) {
    const mark = occupancy[cell]!;
    if (mark === 0) return false;
    if (mark === i + 1) own = true;
  }
  return own;
}

/** Pieces of player `i` in its goal. */
function piecesHome(rules: Rules, occupancy: Uint8Array, i: number): number {
  let count = 0;
  for (const cell of rules.board.corners[i]!.goal) if (occupancy[cell] === i + 1) count++;
  return count;
}

/** The greedy opponent's move: most progress towards the goal's tip, the piece furthest behind first. */
function greedyMove(rules: Rules, occupancy: Uint8Array, i: number, random: EnvRandom): MovePath {
  const distance = rules.distance[i]!;
  const inGoal = rules.inGoal[i]!;
  let best: MovePath[] = [];
  let bestScore = -Infinity;
  for (const path of legalMoves(rules.board, occupancy, i + 1)) {
    const from = path[0]!;
    const to = path[path.length - 1]!;
    const leavesGoal = inGoal[from] === 1 && inGoal[to] === 0;
    // Progress first; among equal progress, the piece furthest from the goal.
    const score = (distance[from]! - distance[to]! - (leavesGoal ? 100 : 0)) * 1000 + distance[from]!;
    if (score > bestScore) {
      bestScore = score;
      best = [path];
    } else if (score === bestScore) best.push(path);
  }
  return best[random.nextInt(best.length)]!;
}

function opponentMove(
  rules: Rules,
  opponent: HalmaOpponent,
  occupancy: Uint8Array,
  i: number,
  random: EnvRandom,
): MovePath {
  if (opponent === 'greedy') return greedyMove(rules, occupancy, i, random);
  const moves = legalMoves(rules.board, occupancy, i + 1);
  return moves[random.nextInt(moves.length)]!;
}

/** A move as a message tells it: `B moved [1, -4] to [0, -3]`, `B jumped [2, -5] to [0, -3] to [-2, -1]`. */
function describeMove(player: Player, path: Cell[]): string {
  return `${player} ${path.length === 2 && hexDistance(path[0]!, path[1]!) === 1 ? 'moved' : 'jumped'} ${path.map(cellText).join(' to ')}`;
}

/** A game in progress: the rules, a copy of the pieces and the occupancy, kept in step. */
class Game {
  readonly occupancy: Uint8Array;
  readonly pieces: Record<string, Cell[]>;
  readonly said: string[] = [];
  readonly replies: { player: Player; path: Cell[] }[] = [];

  constructor(
    readonly rules: Rules,
    pieces: Record<string, Cell[]>,
  ) {
    this.pieces = Object.fromEntries(rules.letters.map((letter) => [letter, [...(pieces[letter] ?? [])]]));
    this.occupancy = occupancyOf(rules, this.pieces);
  }

  /** Moves player i's piece along a path (cell numbers); returns the path as cells. */
  apply(i: number, path: MovePath): Cell[] {
    const cells = this.rules.board.cells;
    const [from, to] = [path[0]!, path[path.length - 1]!];
    this.occupancy[from] = 0;
    this.occupancy[to] = i + 1;
    const own = this.pieces[this.rules.letters[i]!]!;
    const [fx, fy] = cells[from]!;
    const at = own.findIndex(([x, y]) => x === fx && y === fy);
    own[at] = [...cells[to]!];
    return path.map((cell) => [...cells[cell]!] as Cell);
  }

  /** The opponents from turn index `first` on play their moves; returns the winner's index if one won. */
  playOpponents(first: number, opponent: HalmaOpponent, random: EnvRandom): number | undefined {
    for (let i = first; i < this.rules.letters.length; i++) {
      const player = this.rules.letters[i]!;
      if (!canMove(this.rules.board, this.occupancy, i + 1)) {
        this.said.push(`${player} cannot move`);
        continue;
      }
      const path = this.apply(i, opponentMove(this.rules, opponent, this.occupancy, i, random));
      this.replies.push({ player, path });
      this.said.push(describeMove(player, path));
      if (hasWon(this.rules, this.occupancy, i)) return i;
    }
    return undefined;
  }
}

/** The Halma-like game with a JSON config (see `readHalmaConfig`). */
export function createHalma(configJson: JsonValue): AisysEnvironment<HalmaState> {
  const config = readHalmaConfig(configJson);
  const rules = rulesOf(config);
  const { board, letters } = rules;

  /** The end of a run without a winner: the most pieces in their goal wins. */
  function byCount(game: Game, why: string): [number, string] {
    const counts = letters.map((_, i) => piecesHome(rules, game.occupancy, i));
    const most = Math.max(...counts);
    const leaders = letters.filter((_, i) => counts[i] === most);
    const tally = letters.map((letter, i) => `${letter} ${counts[i]}`).join(', ');
    const outcome = counts[0] !== most ? 0 : leaders.length === 1 ? 1 : 0.5;
    const verdict = outcome === 1 ? 'you won' : outcome === 0 ? 'you lost' : "it's a draw";
    return [outcome, `${why}; pieces in their goal: ${tally} \u2013 ${verdict}.`];
  }

  return {
    settings: { ...DEFAULT_ENV_SETTINGS, minRunsForFullyEvaluated: 20, canAbandonRuns: true },

    newRun(random) {
      const pieces = Object.fromEntries(
        board.corners.map((corner) => [
          corner.player,
          corner.home.map((cell) => [...board.cells[cell]!] as Cell),
        ]),
      );
      const first = config.randomStart ? random.nextInt(letters.length) : 0;
      if (first === 0) return { pieces, moves: 0 };
      const game = new Game(rules, pieces);
      // Nobody can win in the opening moves, so only A's turn ends this.
      game.playOpponents(first, config.opponent, random);
      return { pieces: game.pieces, moves: 0 };
    },

    percept: (run) => run.state.pieces,

    act(action, run, random) {
      const state = run.state;
      if (state.over) return { ok: false, message: 'This game is over' };
      const game = new Game(rules, state.pieces);
      const move = readMove(board, game.occupancy, 1, action);
      if (!move.ok) return { ok: false, message: move.message };
      const path = game.apply(0, move.path);
      const moves = state.moves + 1;
      const record = (): JsonValue => ({ path, replies: game.replies });
      const end = (outcome: number, message: string) => ({
        ok: true as const,
        state: { pieces: game.pieces, moves, over: true as const },
        message: [...game.said, message].join('; '),
        extra: record(),
        outcome,
      });
      if (hasWon(rules, game.occupancy, 0)) return end(1, 'Congratulations, you won!');
      // The opponents reply; while A cannot move, it passes and they play on.
      for (let round = 0; ; round++) {
        const winner = game.playOpponents(1, config.opponent, random);
        if (winner !== undefined) return end(0, `${letters[winner]} won \u2013 you lost.`);
        if (moves >= config.maxMoves)
          return end(...byCount(game, `No winner after ${config.maxMoves} moves`));
        if (canMove(board, game.occupancy, 1)) break;
        game.said.push('A cannot move');
        const stuck = letters.every((_, i) => !canMove(board, game.occupancy, i + 1));
        if (stuck) return end(...byCount(game, 'Nobody can move'));
        if (round >= config.maxMoves) return end(...byCount(game, `A could not move for ${round + 1} turns`));
      }
      return {
        ok: true,
        state: { pieces: game.pieces, moves },
        ...(game.said.length ? { message: game.said.join('; ') } : {}),
        extra: record(),
      };
    },

    abandonOutcome: () => 0,
  };
}

/** The Halma-like game's class for `makeenv`. */
export const HALMA_CLASS: AisysEnvironmentClass = {
  id: 'halma',
  label: 'Halma-like hex game',
  create: (config): AisysEnvironment => createHalma(config),
};
