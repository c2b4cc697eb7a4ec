/**
 * The sample GAMA policies: a random scavenger, a greedy one that walks to the nearest resource it sees,
 * and a sustainable one that leaves the last resources of a patch so that it regrows. They are written
 * against the editor's declarations (`Observation`, `Action`, `Scavenger`, `PolicyContext`), which are
 * globals there.
 */
import type { SamplePolicy } from '../../policy/types';

const RANDOM = `// Random: each scavenger picks one of the eight actions at random, every cycle.
const ACTIONS: Action[] = ['idle', 'tag', 'move_ahead', 'move_right', 'move_left', 'move_back', 'face_right', 'face_left'];

export function act(observation: Observation, reward: number, scavenger: Scavenger, context: PolicyContext): Action {
  // context.random() is seeded with the session's seed: the same seed replays the same moves.
  return ACTIONS[Math.floor(context.random() * ACTIONS.length)]!;
}
`;

/** What the greedy and the sustainable scavengers share: reading the view and walking to a target. */
const WALKING = `// ---- Reading the view ------------------------------------------------------------------------------
// The view is egocentric: the scavenger faces up, so "ahead" is the row above, "right" the next column.
const EMPTY = 0, RESOURCE = 1, SELF = 4;

/** The legend view, whichever encoding the simulation sends (RGB is turned back into the legend). */
function legendOf(observation: Observation): number[][] {
  if (!Array.isArray(observation[0]?.[0])) return observation as number[][];
  const [red, green, blue] = observation as number[][][];
  return red!.map((row, r) =>
    row.map((value, c) => {
      const g = green![r]![c]!, b = blue![r]![c]!;
      if (b === 255) return SELF;
      if (g === 255) return RESOURCE;
      if (value === 255) return 2;
      return value === 128 ? 3 : EMPTY;
    }),
  );
}

interface Cell { row: number; column: number }

function findSelf(view: number[][]): Cell {
  for (let row = view.length - 1; row >= 0; row--) {
    const column = view[row]!.indexOf(SELF);
    if (column >= 0) return { row, column };
  }
  return { row: view.length - 1, column: Math.floor(view[0]!.length / 2) };
}

/** Resources within distance 2 of a cell, the cell itself left out (what sets the regrowth chance). */
function resourcesNear(view: number[][], cell: Cell): number {
  let count = 0;
  for (let dr = -2; dr <= 2; dr++)
    for (let dc = -2; dc <= 2; dc++) {
      const distance = Math.abs(dr) + Math.abs(dc);
      if (distance > 0 && distance <= 2 && view[cell.row + dr]?.[cell.column + dc] === RESOURCE) count++;
    }
  return count;
}

const MOVES: [Action, number, number][] = [
  ['move_ahead', -1, 0],
  ['move_right', 0, 1],
  ['move_left', 0, -1],
  ['move_back', 1, 0],
];

/**
 * One step towards the nearest resource \`wanted\` accepts, never onto a resource \`wanted\` refuses; when none
 * is in sight, walk ahead and turn at walls (and now and then at random) to look elsewhere.
 */
function walk(observation: Observation, context: PolicyContext, wanted: (view: number[][], cell: Cell) => boolean): Action {
  const view = legendOf(observation);
  const self = findSelf(view);
  let target: Cell | undefined;
  let best = Infinity;
  view.forEach((cells, row) =>
    cells.forEach((value, column) => {
      const distance = Math.abs(row - self.row) + Math.abs(column - self.column);
      if (value === RESOURCE && distance < best && wanted(view, { row, column })) {
        best = distance;
        target = { row, column };
      }
    }),
  );
  const free = (row: number, column: number) => {
    const value = view[row]?.[column];
    if (value === undefined) return row > self.row; // behind is not in view: assume free
    return value === EMPTY || (value === RESOURCE && wanted(view, { row, column }));
  };
  if (!target) {
    if (!free(self.row - 1, self.column) || context.random() < 0.05)
      return context.random() < 0.5 ? 'face_right' : 'face_left';
    return 'move_ahead';
  }
  const goal = target;
  let choice: Action = 'face_right';
  let closest = Infinity;
  for (const [action, dr, dc] of MOVES) {
    const row = self.row + dr, column = self.column + dc;
    if (!free(row, column)) continue;
    const distance = Math.abs(goal.row - row) + Math.abs(goal.column - column);
    if (distance < closest) {
      closest = distance;
      choice = action;
    }
  }
  return choice;
}
`;

const GREEDY = `// Greedy: walk to the nearest resource in sight and take it, however few are left around it.
${WALKING}
export function act(observation: Observation, reward: number, scavenger: Scavenger, context: PolicyContext): Action {
  return walk(observation, context, () => true);
}
`;

const SUSTAINABLE = `// Sustainable: take a resource only when at least two others stay within distance 2 of it, so its
// patch keeps regrowing (a resource with no resource near it never comes back).
${WALKING}
const KEEP_AROUND = 2;

export function act(observation: Observation, reward: number, scavenger: Scavenger, context: PolicyContext): Action {
  return walk(observation, context, (view, cell) => resourcesNear(view, cell) >= KEEP_AROUND);
}
`;

/** The samples, random first. */
export const GAMA_SAMPLES: readonly SamplePolicy[] = [
  {
    id: 'random',
    label: 'Random',
    description: 'one of the eight actions at random',
    language: 'ts',
    level: 'policy',
    code: RANDOM,
  },
  {
    id: 'greedy',
    label: 'Greedy',
    description: 'walks to the nearest resource in sight',
    language: 'ts',
    level: 'policy',
    code: GREEDY,
  },
  {
    id: 'sustainable',
    label: 'Sustainable',
    description: 'harvests but leaves the last resources of a patch',
    language: 'ts',
    level: 'policy',
    code: SUSTAINABLE,
  },
];
