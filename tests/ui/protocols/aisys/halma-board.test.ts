/**
 * The Halma board view, rendered on the server side of Svelte (no DOM needed): one cell per board cell,
 * the pieces lettered by player, a move as an arrow, the board of the config or guessed from the pieces,
 * a keyboard-reachable listbox of cells, and a clear line for a percept that is not a Halma position;
 * and the history of a run played through the emulated server, step by step.
 */
import { render } from 'svelte/server';
import { describe, expect, it } from 'vitest';
import HalmaBoard from '../../../../src/ui/protocols/aisys/boards/HalmaBoard.svelte';
import HalmaHistory from '../../../../src/ui/protocols/aisys/boards/HalmaHistory.svelte';
import { localDecide } from '../../../../src/core/protocols/aisys/decide';
import { readAisysRunHistory } from '../../../../src/core/protocols/aisys/run-history';
import { AisysSession } from '../../../../src/core/protocols/aisys/session';
import {
  createHalma,
  createHalmaBoard,
  legalMoves,
  moveCursor,
  readHalmaPosition,
  type CursorKey,
} from '../../../../src/core/envs/aisys/halma';
import { Rng } from '../../../../src/core/random';

const count = (html: string, pattern: RegExp) => html.match(pattern)?.length ?? 0;

describe('HalmaBoard', () => {
  it('draws every cell of the star, each player piece lettered, and is focusable', () => {
    const percept = createHalma({ players: 3 }).newRun(new Rng(0)).pieces;
    const { body } = render(HalmaBoard, { props: { percept } });
    expect(count(body, /role="option"/g)).toBe(72);
    expect(count(body, /data-player="A"/g)).toBe(6);
    expect(count(body, /data-player="C"/g)).toBe(6);
    expect(body).toContain('role="listbox"');
    expect(body).toContain('tabindex="0"');
    // Each cell is an option named by its coordinates and what is on it.
    expect(body).toContain(`aria-label="[-3, 6]: A (you)'s piece"`);
    const two = render(HalmaBoard, { props: { percept: createHalma({}).newRun(new Rng(0)).pieces } }).body;
    expect(two).toContain(`aria-label="[3, -6]: B's piece, A (you)'s goal"`);
    expect(two).toContain(`aria-label="[0, 1]: empty"`);
  });

  it('draws the rhombus the config names, and a move as a line through its cells', () => {
    const config = { board: 'rhombus', size: 3 };
    const percept = createHalma(config).newRun(new Rng(0)).pieces;
    const move = [
      [-3, 6],
      [-3, 4],
    ];
    const { body } = render(HalmaBoard, { props: { percept, config, move } });
    expect(count(body, /role="option"/g)).toBe(80);
    expect(body).toMatch(/<polyline class="move[^"]*" points="[-\d.]+,[-\d.]+ [-\d.]+,[-\d.]+"/);
    // Without the config, the pieces in the rhombus's corners tell it from the star.
    expect(count(render(HalmaBoard, { props: { percept } }).body, /role="option"/g)).toBe(80);
  });

  it('says what is wrong with a percept it cannot draw', () => {
    const { body } = render(HalmaBoard, { props: { percept: 10 } });
    expect(body).toContain('not a Halma percept');
    expect(body).not.toContain('<svg');
    expect(readHalmaPosition({ A: [[0, 0]], B: [] })).toBe("A's piece on [0, 0] is off the board");
  });

  it('moves the keyboard cursor along rows, over the centre, and up and down the nearest way', () => {
    const board = createHalmaBoard('star', 3, 2);
    const walk = (from: [number, number], ...keys: CursorKey[]) =>
      board.cells[keys.reduce((at, key) => moveCursor(board, at, key), board.indexOf(...from))];
    expect(walk([-3, 6], 'ArrowUp')).toEqual([-2, 5]);
    expect(walk([-3, 6], 'ArrowLeft')).toEqual([-3, 6]);
    expect(walk([-3, 6], 'ArrowDown')).toEqual([-3, 6]);
    expect(walk([-1, 0], 'ArrowRight')).toEqual([1, 0]);
    expect(walk([1, 0], 'ArrowLeft', 'ArrowLeft')).toEqual([-2, 0]);
    expect(walk([3, -6], 'ArrowUp')).toEqual([3, -6]);
    expect(walk([3, -6], 'ArrowDown', 'ArrowUp')).toEqual([3, -6]);
  });
});

describe('HalmaHistory', () => {
  it('shows the last step of a finished run with its move, the outcome, and every move to pick', async () => {
    const rhombus = createHalmaBoard('rhombus', 3, 2);
    const session = new AisysSession({
      env: 'halma-rhombus',
      runs: 1,
      seed: 5,
      now: () => 0,
      decide: localDecide((percept) => {
        // The first legal move in cell order: a simple policy that always moves.
        const pieces = percept as Record<string, [number, number][]>;
        const occupancy = new Uint8Array(rhombus.cells.length);
        ['A', 'B'].forEach((player, i) => {
          for (const [x, y] of pieces[player]!) occupancy[rhombus.indexOf(x, y)] = i + 1;
        });
        const [path] = legalMoves(rhombus, occupancy, 1);
        return [rhombus.cells[path![0]!]!, rhombus.cells[path!.at(-1)!]!];
      }),
    });
    await session.run();
    const [run] = session.finished;
    const { steps, outcome } = readAisysRunHistory(session.transcript.messages, run!.run);
    const { body } = render(HalmaHistory, {
      props: {
        steps: steps.map(({ percept, action, messages }) => ({
          percept,
          action,
          messages: messages.map((m) => m.content),
        })),
        config: { board: 'rhombus' },
        outcome,
      },
    });
    expect(body).toContain(`Step ${steps.length} of ${steps.length}`);
    expect(count(body, /<li>/g)).toBe(steps.length);
    expect(body).toContain(`Outcome ${JSON.stringify(outcome)}`);
    expect(body).toContain('<polyline class="move');
    expect(render(HalmaHistory, { props: { steps: [] } }).body).toContain(
      'No action request in this run yet.',
    );
  });
});
