/**
 * The Halma-like game: its boards, move generation (steps, chained jumps, no cell landed on twice),
 * reading actions, the end of a game (a filled goal, the move limit), its config, and determinism by seed.
 */
import { describe, expect, it } from 'vitest';
import type { JsonValue, RunView } from '../../../../src/core/envs/aisys/api';
import { EnvironmentCrash } from '../../../../src/core/envs/aisys/api';
import {
  createHalma,
  createHalmaBoard,
  hexDistance,
  movesFrom,
  readMove,
  type Cell,
  type HalmaBoard,
  type HalmaState,
} from '../../../../src/core/envs/aisys/halma';
import { Rng } from '../../../../src/core/random';

/** An occupancy of a board: player marks 1, 2, 3 for the cells of each list. */
function occupy(board: HalmaBoard, ...players: Cell[][]): Uint8Array {
  const occupancy = new Uint8Array(board.cells.length);
  players.forEach((cells, i) => {
    for (const [x, y] of cells) {
      const at = board.indexOf(x, y);
      if (at < 0) throw new Error(`[${x}, ${y}] is off the board`);
      occupancy[at] = i + 1;
    }
  });
  return occupancy;
}

/** Destinations of the piece on a cell, as cells, sorted. */
function destinations(board: HalmaBoard, occupancy: Uint8Array, [x, y]: Cell): Cell[] {
  return movesFrom(board, occupancy, board.indexOf(x, y))
    .map((path) => board.cells[path[path.length - 1]!]!)
    .sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

const view = (state: HalmaState): RunView<HalmaState> => ({ runId: 1, agent: 'a', state, history: [] });

/** A's goal on the star of size 3 (its top point), and B's (the bottom point, A's home). */
const A_GOAL: Cell[] = [
  [3, -6],
  [2, -5],
  [3, -5],
  [1, -4],
  [2, -4],
  [3, -4],
];
const B_GOAL: Cell[] = [
  [-3, 6],
  [-3, 5],
  [-2, 5],
  [-3, 4],
  [-2, 4],
  [-1, 4],
];

describe('Halma boards', () => {
  it('builds the star: a hexagon with six points, without the centre', () => {
    const classic = createHalmaBoard('star', 4, 2);
    expect(classic.cells.length).toBe(120);
    const small = createHalmaBoard('star', 3, 2);
    expect(small.cells.length).toBe(72);
    expect(small.indexOf(0, 0)).toBe(-1);
    expect(small.indexOf(0, 1)).toBeGreaterThanOrEqual(0);
    expect(small.indexOf(4, 4)).toBe(-1);
    expect(small.indexOf(0.5, 1)).toBe(-1);
    const [a, b] = small.corners;
    const cells = (numbers: readonly number[]) => numbers.map((i) => small.cells[i]!);
    expect(cells(a!.goal).sort()).toEqual([...A_GOAL].sort());
    expect(cells(a!.home).sort()).toEqual([...B_GOAL].sort());
    expect(b!.home).toEqual(a!.goal);
    expect(small.cells[a!.goalTip]).toEqual([3, -6]);
  });

  it('gives three players alternate points, each heading for the opposite one', () => {
    const board = createHalmaBoard('star', 3, 3);
    expect(board.corners.map((corner) => corner.player)).toEqual(['A', 'B', 'C']);
    const homes = new Set(board.corners.flatMap((corner) => corner.home));
    const goals = new Set(board.corners.flatMap((corner) => corner.goal));
    expect(homes.size).toBe(18);
    expect(goals.size).toBe(18);
    expect([...homes].filter((cell) => goals.has(cell))).toEqual([]);
    for (const corner of board.corners) {
      const tip = board.cells[corner.goalTip]!;
      for (const cell of corner.home) expect(hexDistance(board.cells[cell]!, tip)).toBeGreaterThanOrEqual(10);
    }
  });

  it('builds the rhombus standing on a corner, homes at the bottom and the top', () => {
    const board = createHalmaBoard('rhombus', 3, 2);
    expect(board.cells.length).toBe(80);
    const [a, b] = board.corners;
    expect(a!.home.map((i) => board.cells[i]![1]).every((y) => y >= 6)).toBe(true);
    expect(a!.goal.map((i) => board.cells[i]![1]).every((y) => y <= -6)).toBe(true);
    expect(a!.home.length).toBe(6);
    expect(b!.home).toEqual(a!.goal);
    expect(() => createHalmaBoard('rhombus', 3, 3)).toThrow(/2 players/);
    expect(() => createHalmaBoard('star', 0, 2)).toThrow(/size/);
  });

  it('keeps a symmetric neighbour table', () => {
    for (const board of [createHalmaBoard('star', 3, 3), createHalmaBoard('rhombus', 2, 2)])
      board.cells.forEach((_, i) => {
        for (let d = 0; d < 6; d++) {
          const next = board.neighbours[i * 6 + d]!;
          if (next >= 0) expect(board.neighbours[next * 6 + ((d + 3) % 6)]).toBe(i);
        }
      });
  });
});

describe('Halma moves', () => {
  const board = createHalmaBoard('star', 3, 2);

  it('steps to empty neighbours only', () => {
    const occupancy = occupy(board, [[1, 1]], [[2, 1]]);
    // [0, 1]'s centre neighbour [0, 0] is not on the board; [2, 1] is taken, so it is jumped instead.
    expect(destinations(board, occupancy, [1, 1])).toEqual([
      [1, 0],
      [2, 0],
      [0, 1],
      [3, 1],
      [0, 2],
      [1, 2],
    ]);
  });

  it('chains jumps over anyone, with the path of each', () => {
    const occupancy = occupy(
      board,
      [[1, 1]],
      [
        [2, 1],
        [3, 0],
      ],
    );
    const paths = movesFrom(board, occupancy, board.indexOf(1, 1)).map((path) =>
      path.map((i) => board.cells[i]),
    );
    expect(paths).toContainEqual([
      [1, 1],
      [3, 1],
    ]);
    expect(paths).toContainEqual([
      [1, 1],
      [3, 1],
      [3, -1],
    ]);
  });

  it('never lands on a cell twice, its start included, and ends', () => {
    // Three jumps round a triangle of pieces lead back to the start.
    const occupancy = occupy(
      board,
      [[1, 1]],
      [
        [2, 1],
        [2, 2],
        [1, 2],
      ],
    );
    const found = destinations(board, occupancy, [1, 1]);
    expect(found).not.toContainEqual([1, 1]);
    expect(found).toContainEqual([3, 1]);
    expect(found).toContainEqual([1, 3]);
    expect(new Set(found.map(String)).size).toBe(found.length);
    const loop = readMove(board, occupancy, 1, [
      [1, 1],
      [3, 1],
      [1, 3],
      [1, 1],
    ]);
    expect(loop).toEqual({ ok: false, message: 'Invalid move: the jumps visit [1, 1] twice' });
    expect(
      readMove(board, occupancy, 1, [
        [1, 1],
        [3, 1],
        [1, 3],
      ]),
    ).toMatchObject({ ok: true });
  });

  it('reads a two-cell action as a step or the jumps to there, a longer one hop by hop', () => {
    const occupancy = occupy(
      board,
      [[1, 1]],
      [
        [2, 1],
        [3, 0],
      ],
    );
    const cellsOf = (result: ReturnType<typeof readMove>) =>
      result.ok ? result.path.map((i) => board.cells[i]) : result.message;
    expect(
      cellsOf(
        readMove(board, occupancy, 1, [
          [1, 1],
          [1, 0],
        ]),
      ),
    ).toEqual([
      [1, 1],
      [1, 0],
    ]);
    expect(
      cellsOf(
        readMove(board, occupancy, 1, [
          [1, 1],
          [3, -1],
        ]),
      ),
    ).toEqual([
      [1, 1],
      [3, 1],
      [3, -1],
    ]);
    expect(
      cellsOf(
        readMove(board, occupancy, 1, [
          [1, 1],
          [3, 1],
          [3, -1],
        ]),
      ),
    ).toEqual([
      [1, 1],
      [3, 1],
      [3, -1],
    ]);
  });

  it('refuses what is not a legal move, saying why', () => {
    const occupancy = occupy(
      board,
      [[1, 1]],
      [
        [2, 1],
        [3, 0],
      ],
    );
    const refusals: [JsonValue, string][] = [
      ['x', 'Invalid action: a move is a list of cells'],
      [null, 'Invalid action: a move is a list of cells'],
      [[[1, 1]], 'Invalid action: a move is a list of cells'],
      [[[1, 1], 'a'], 'Invalid action: "a" is not a cell [x, y]'],
      [
        [
          [1, 1],
          [1.5, 0],
        ],
        'Invalid action: [1.5,0] is not a cell [x, y]',
      ],
      [
        [
          [1, 1],
          [9, 9],
        ],
        'Invalid move: [9, 9] is not on the board',
      ],
      [
        [
          [1, 1],
          [0, 0],
        ],
        'Invalid move: [0, 0] is not on the board',
      ],
      [
        [
          [2, 1],
          [2, 2],
        ],
        'Invalid move: there is no piece of yours on [2, 1]',
      ],
      [
        [
          [1, 1],
          [2, 1],
        ],
        'Invalid move: [2, 1] is not empty',
      ],
      [
        [
          [1, 1],
          [1, -1],
        ],
        'Invalid move: [1, -1] cannot be reached from [1, 1] in one move',
      ],
      [
        [
          [1, 1],
          [1, 0],
          [1, -1],
        ],
        'Invalid move: [1, 1] to [1, 0] is not a jump over a piece',
      ],
    ];
    for (const [action, message] of refusals) {
      const result = readMove(board, occupancy, 1, action);
      expect(result.ok, JSON.stringify(action)).toBe(false);
      if (!result.ok) expect(result.message, JSON.stringify(action)).toContain(message);
    }
  });
});

describe('the Halma environment', () => {
  const random = () => new Rng(3);

  it('shows every player the pieces of its home, and A moves first', () => {
    const env = createHalma({});
    const state = env.newRun(random());
    expect(Object.keys(state.pieces)).toEqual(['A', 'B']);
    expect([...state.pieces.A!].sort()).toEqual([...B_GOAL].sort());
    expect([...state.pieces.B!].sort()).toEqual([...A_GOAL].sort());
    expect(env.percept(view(state))).toEqual(state.pieces);
    expect(env.settings).toMatchObject({ canAbandonRuns: true, minRunsForFullyEvaluated: 20 });
    expect(env.abandonOutcome!(view(state))).toBe(0);
    expect(Object.keys(createHalma({ players: 3 }).newRun(random()).pieces)).toEqual(['A', 'B', 'C']);
  });

  it('applies a move, keeps the piece in its place in the list, and the opponent replies', () => {
    const env = createHalma({ opponent: 'random' });
    const state = env.newRun(random());
    const moved = state.pieces.A!.findIndex(([x, y]) => x === -1 && y === 4);
    const result = env.act(
      [
        [-1, 4],
        [-1, 3],
      ],
      view(state),
      random(),
    );
    expect(result).toMatchObject({ ok: true, message: expect.stringMatching(/^B (moved|jumped) \[/) });
    if (!result.ok) return;
    expect(result.state.pieces.A![moved]).toEqual([-1, 3]);
    expect(result.state.moves).toBe(1);
    expect(result.state.pieces.B).not.toEqual(state.pieces.B);
    expect(result.extra).toMatchObject({
      path: [
        [-1, 4],
        [-1, 3],
      ],
      replies: [{ player: 'B' }],
    });
    // The state the run started with is not touched.
    expect(state.pieces.A![moved]).toEqual([-1, 4]);
  });

  it('refuses an illegal action and leaves the run as it was', () => {
    const env = createHalma({});
    const state = env.newRun(random());
    expect(
      env.act(
        [
          [-3, 6],
          [-3, 5],
        ],
        view(state),
        random(),
      ),
    ).toEqual({ ok: false, message: 'Invalid move: [-3, 5] is not empty' });
  });

  it('is won by filling the goal, even with an opponent piece left in it', () => {
    const env = createHalma({});
    const state: HalmaState = {
      pieces: { A: [...A_GOAL.slice(0, 5), [3, -3]], B: [...B_GOAL.slice(0, 5), [0, 2]] },
      moves: 10,
    };
    const won = env.act(
      [
        [3, -3],
        [3, -4],
      ],
      view(state),
      random(),
    );
    expect(won).toMatchObject({ ok: true, outcome: 1, message: 'Congratulations, you won!' });
    const spoiled: HalmaState = {
      pieces: { A: [...A_GOAL.slice(1, 5), [3, -3], [0, 1]], B: [A_GOAL[0]!, ...B_GOAL.slice(0, 4), [0, 2]] },
      moves: 10,
    };
    expect(
      env.act(
        [
          [3, -3],
          [3, -4],
        ],
        view(spoiled),
        random(),
      ),
    ).toMatchObject({ ok: true, outcome: 1 });
    if (won.ok)
      expect(
        env.act(
          [
            [1, -4],
            [1, -3],
          ],
          view(won.state),
          random(),
        ),
      ).toEqual({
        ok: false,
        message: 'This game is over',
      });
  });

  it('is lost when the opponent fills its goal first, a piece of A in it or not', () => {
    const env = createHalma({});
    // A's piece on [-1, 4] sits in B's goal; B fills the one free cell, [-2, 4], and wins all the same.
    const state: HalmaState = {
      pieces: {
        A: [
          [-1, 4],
          [0, -1],
          [2, -5],
          [3, -5],
          [3, -6],
          [1, -4],
        ],
        B: [...B_GOAL.slice(0, 4), [-1, 3], [-2, 3]],
      },
      moves: 10,
    };
    const result = env.act(
      [
        [0, -1],
        [0, -2],
      ],
      view(state),
      random(),
    );
    expect(result).toMatchObject({
      ok: true,
      outcome: 0,
      message: expect.stringMatching(/^B moved \[-[12], 3\] to \[-2, 4\]; B won \u2013 you lost\.$/),
      state: { over: true },
    });
  });

  it('lets a player who cannot move pass', () => {
    // On the smallest star B's only piece sits in its tip, hemmed in by A's pieces with nowhere to jump.
    const env = createHalma({ size: 1 });
    const state: HalmaState = {
      pieces: {
        A: [
          [1, -1],
          [0, -1],
          [1, 0],
          [-1, 0],
          [-1, 2],
        ],
        B: [[1, -2]],
      },
      moves: 0,
    };
    const result = env.act(
      [
        [-1, 2],
        [-1, 1],
      ],
      view(state),
      random(),
    );
    expect(result).toMatchObject({ ok: true, message: 'B cannot move', state: { pieces: { B: [[1, -2]] } } });
    expect(result).not.toHaveProperty('outcome');
  });

  it('ends at the move limit: the most pieces in their goal wins, a shared lead is a draw', () => {
    const env = createHalma({ max_moves: 1, opponent: 'random' });
    const ahead: HalmaState = {
      pieces: {
        A: [...A_GOAL.slice(0, 2), [0, 1], [1, 1], [0, 2], [1, 2]],
        B: [
          [-1, -1],
          [-2, -1],
          [-1, -2],
          [0, -2],
          [3, 2],
          [2, 3],
        ],
      },
      moves: 0,
    };
    const result = env.act(
      [
        [0, 1],
        [-1, 1],
      ],
      view(ahead),
      random(),
    );
    expect(result).toMatchObject({
      ok: true,
      outcome: 1,
      message: expect.stringContaining(
        'No winner after 1 moves; pieces in their goal: A 2, B 0 \u2013 you won.',
      ),
    });
    const even = createHalma({ max_moves: 1 }).act(
      [
        [-1, 4],
        [-1, 3],
      ],
      view(createHalma({}).newRun(random())),
      random(),
    );
    expect(even).toMatchObject({ ok: true, outcome: 0.5, message: expect.stringContaining("it's a draw") });
  });

  it('refuses a bad config as a crash naming the problem', () => {
    for (const [config, message] of [
      [{ board: 'square' }, "config board must be 'star' or 'rhombus', not 'square'"],
      [{ board: 'rhombus', players: 3 }, 'config players must be 2 on the rhombus board, not 3'],
      [{ size: 0 }, 'config size must be a whole number from 1 to 8, not 0'],
      [{ opponent: 'clever' }, "config opponent must be 'greedy' or 'random', not 'clever'"],
      [{ max_moves: 'many' }, "config max_moves must be a whole number from 1, not 'many'"],
      [[1], 'the environment config is not an object: [1]'],
    ] as [JsonValue, string][]) {
      let thrown: unknown;
      try {
        createHalma(config);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(EnvironmentCrash);
      expect((thrown as Error).message).toBe(message);
    }
  });

  it('plays the same games for the same seed, and with random_start lets the opponent begin', () => {
    const play = (seed: number, config: JsonValue) => {
      const env = createHalma(config);
      const rng = new Rng(seed);
      let state = env.newRun(rng);
      const seen = [JSON.stringify(state.pieces)];
      for (let i = 0; i < 5; i++) {
        const piece = state.pieces.A!.find(([x, y]) => y > 0 && y <= 4 && x + y > 0) ?? state.pieces.A![5]!;
        const [x, y] = piece;
        const result = env.act([piece, [x, y - 1]], view(state), rng);
        if (!result.ok) break;
        state = result.state;
        seen.push(JSON.stringify(state.pieces));
      }
      return seen;
    };
    const config = { opponent: 'random' };
    expect(play(7, config)).toEqual(play(7, config));
    expect(play(7, config)).not.toEqual(play(8, config));
    const home = JSON.stringify(createHalma({}).newRun(new Rng(0)).pieces);
    const starts = [0, 1, 2, 3, 4, 5, 6, 7].map(
      (seed) => JSON.stringify(createHalma({ random_start: true }).newRun(new Rng(seed)).pieces) === home,
    );
    expect(starts).toContain(true);
    expect(starts).toContain(false);
  });
});
