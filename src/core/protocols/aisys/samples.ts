/**
 * The sample policies of the aisys playground: for Nim, a perfect player, a random one, the "always take
 * one" policy of the course's client examples, and one that keeps notes per run; for the Wumpus cave, an
 * explorer that walks safe paths to the gold; for Halma, a greedy mover. They are written against
 * the editor's declarations (`Percept`, `Action`, `Run`, `PolicyContext`, `Outcome`), which are globals
 * there.
 */
import type { SamplePolicy } from '../../policy/types';

const NIM_OPTIMAL = `// Perfect Nim: leave the opponent a multiple of 4. From 9, 10 or 11 objects this always wins.
export function act(percept: Percept, run: Run, context: PolicyContext): Action {
  const take = percept % 4;
  // A multiple of 4 cannot be won against a perfect opponent: take one and hope.
  return take === 0 ? 1 : take;
}
`;

const NIM_RANDOM = `// Random: take 1, 2 or 3 objects, never more than are left.
export function act(percept: Percept, run: Run, context: PolicyContext): Action {
  // context.random() is seeded with the session's seed: the same seed replays the same choices.
  const most = Math.min(3, percept);
  return 1 + Math.floor(context.random() * most);
}
`;

const NIM_TAKE_ONE = `// Take one, every time: the policy of the course's client examples. Against a random opponent it
// still wins now and then.
export function act(percept: Percept, run: Run, context: PolicyContext): Action {
  return 1;
}
`;

const NIM_NOTES = `// Keeps notes per run: run.memory lives as long as the run (the course client makes one agent object
// per run), context.memory as long as the session. Plays perfectly and logs what each game looked like.
export function act(percept: Percept, run: Run, context: PolicyContext): Action {
  const seen = ((run.memory.seen as number[] | undefined) ??= []);
  seen.push(percept);
  const take = percept % 4 || 1;
  return take;
}

export function onRunEnd(outcome: Outcome, run: Run, context: PolicyContext): void {
  const won = ((context.memory.won as number | undefined) ?? 0) + (outcome === 1 ? 1 : 0);
  context.memory.won = won;
  const seen = (run.memory.seen as number[] | undefined) ?? [];
  context.log(\`run \${run.id}: \${outcome === 1 ? 'won' : 'lost'} after seeing \${seen.join(', ')}; \${won} won so far\`);
}
`;

const CAVE_EXPLORER = `// Cave explorer: everything on agility (bridges), then the nearest gold reachable without pits or
// wumpuses, one after another, then back to the stairs and out. The map changes as gold is taken.
type Cell = [number, number];
const STEPS: Record<Move, Cell> = { NORTH: [0, -1], EAST: [1, 0], SOUTH: [0, 1], WEST: [-1, 0] };

export function act(percept: Percept, run: Run, context: PolicyContext): Action {
  const free = percept['free-skill-points'];
  if (free > 0) return { agility: free, fighting: 0 };
  const lines = percept.map.split('\\n');
  const here = position(percept, lines);
  const target = lines.some((line) => line.includes('G')) ? 'G' : 'S';
  if (target === 'S' && lines[here[1]]![here[0]] === 'S') return 'EXIT';
  const move = firstMove(lines, here, target) ?? firstMove(lines, here, 'S');
  if (!move) return 'EXIT';
  context.log(\`run \${run.id}: \${move} towards \${target}\`);
  return move;
}

/** Where I am: the last move's outcome, or the stairs before any. */
function position(percept: Percept, lines: string[]): Cell {
  for (let i = percept.history.length - 1; i >= 0; i--) {
    const outcome = percept.history[i]!.outcome;
    if ('position' in outcome) return outcome.position;
  }
  const y = lines.findIndex((line) => line.includes('S'));
  return [lines[y]!.indexOf('S'), y];
}

/** The first move of a shortest safe way to a cell holding \`target\` (breadth-first). */
function firstMove(lines: string[], from: Cell, target: string): Move | undefined {
  const key = ([x, y]: Cell) => \`\${x},\${y}\`;
  const seen = new Set([key(from)]);
  const queue: { cell: Cell; first?: Move }[] = [{ cell: from }];
  for (let head = 0; head < queue.length; head++) {
    const { cell, first } = queue[head]!;
    if (first && lines[cell[1]]![cell[0]] === target) return first;
    for (const move of Object.keys(STEPS) as Move[]) {
      const next: Cell = [cell[0] + STEPS[move][0], cell[1] + STEPS[move][1]];
      const char = lines[next[1]]?.[next[0]] ?? 'X';
      if ('XPW'.includes(char) || seen.has(key(next))) continue;
      seen.add(key(next));
      queue.push({ cell: next, first: first ?? move });
    }
  }
  return undefined;
}
`;

const WIRE_NIM = `// Wire level: you write the request loop. onMessage gets the server's last answer (null before the
// first request) and returns the next request's body: it is sent as PUT <url>act/<env>, JSON.
export function onMessage(response: WireResponse | null, context: WireContext): WireRequest {
  const { agent, pwd } = context.config;
  if (response && response.status !== 200) {
    context.log(\`the server refused: \${response.text}\`);
    return null; // ends the session
  }
  const requests: { run: string; act_no: number; percept: number }[] = response?.body.action_requests ?? [];
  const actions = requests.map((r) => ({ run: r.run, act_no: r.act_no, action: r.percept % 4 || 1 }));
  return { protocol_version: 1, agent, pwd, actions, parallel_runs: true, client: 'my-loop' };
}
`;

const HALMA_GREEDY = `// Greedy Halma: of every legal move (a step, or jumps over one piece at a time), take the one that
// brings a piece nearest the tip of the top corner (your goal); among equals, move the piece furthest
// behind. The percept lists the pieces only, so the board's shape comes from the environment's name and
// its size from how many pieces you have (a goal of n rows holds n(n+1)/2).
const DIRECTIONS: Cell[] = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];

export function act(percept: Percept, run: Run, context: PolicyContext): Action {
  const rows = Math.round((Math.sqrt(8 * percept.A.length + 1) - 1) / 2);
  const rhombus = context.env.includes('rhombus');
  const k = rows + 1;
  const onBoard = ([x, y]: Cell) =>
    !(x === 0 && y === 0) &&
    (rhombus
      ? Math.abs(x) <= k && Math.abs(x + y) <= k
      : (x >= -rows && y >= -rows && -x - y >= -rows) || (x <= rows && y <= rows && -x - y <= rows));
  const tip: Cell = rhombus ? [k, -2 * k] : [rows, -2 * rows];
  const taken = new Set([...percept.A, ...percept.B, ...(percept.C ?? [])].map(key));
  let best: Action = [];
  let bestScore = -Infinity;
  for (const piece of percept.A) {
    const behind = distance(piece, tip);
    for (const to of destinations(piece, taken, onBoard)) {
      // Progress first, then the piece furthest behind, then chance.
      const score = (behind - distance(to, tip)) * 100 + behind + context.random();
      if (score > bestScore) {
        bestScore = score;
        best = [piece, to];
      }
    }
  }
  return best;
}

function key([x, y]: Cell): string {
  return \`\${x},\${y}\`;
}

function distance(a: Cell, b: Cell): number {
  const dx = a[0] - b[0];
  const dy = a[1] - b[1];
  return (Math.abs(dx) + Math.abs(dy) + Math.abs(dx + dy)) / 2;
}

/** Where the piece on \`from\` can go: empty neighbours, and every cell a chain of jumps reaches. */
function destinations(from: Cell, taken: Set<string>, onBoard: (cell: Cell) => boolean): Cell[] {
  const free = (cell: Cell) => onBoard(cell) && !taken.has(key(cell));
  const found: Cell[] = [];
  for (const [dx, dy] of DIRECTIONS) {
    const next: Cell = [from[0] + dx, from[1] + dy];
    if (free(next)) found.push(next);
  }
  // The piece's own cell is empty while it jumps, and no cell is landed on twice.
  taken.delete(key(from));
  const seen = new Set([key(from)]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift()!;
    for (const [dx, dy] of DIRECTIONS) {
      const over: Cell = [at[0] + dx, at[1] + dy];
      const land: Cell = [at[0] + 2 * dx, at[1] + 2 * dy];
      if (!onBoard(over) || !taken.has(key(over)) || !free(land) || seen.has(key(land))) continue;
      seen.add(key(land));
      queue.push(land);
      found.push(land);
    }
  }
  taken.add(key(from));
  return found;
}
`;

/** Every sample, the default first. */
export const AISYS_SAMPLES: readonly SamplePolicy[] = [
  {
    id: 'nim-optimal',
    label: 'Perfect Nim',
    description: 'leaves a multiple of 4: always wins from 9 to 11',
    language: 'ts',
    level: 'policy',
    code: NIM_OPTIMAL,
    environments: ['nim', 'nim-strong'],
  },
  {
    id: 'nim-random',
    label: 'Random',
    description: 'takes 1 to 3 at random',
    language: 'ts',
    level: 'policy',
    code: NIM_RANDOM,
    environments: ['nim', 'nim-strong'],
  },
  {
    id: 'nim-take-one',
    label: 'Take one',
    description: "the course examples' policy",
    language: 'ts',
    level: 'policy',
    code: NIM_TAKE_ONE,
    environments: ['nim', 'nim-strong'],
  },
  {
    id: 'nim-notes',
    label: 'Notes per run',
    description: 'per-run memory and onRunEnd',
    language: 'ts',
    level: 'policy',
    code: NIM_NOTES,
    environments: ['nim', 'nim-strong'],
  },
  {
    id: 'cave-explorer',
    label: 'Cave explorer',
    description: 'safe paths to the gold, then out',
    language: 'ts',
    level: 'policy',
    code: CAVE_EXPLORER,
    environments: ['wumpus-cave'],
  },
  {
    id: 'halma-greedy',
    label: 'Greedy Halma',
    description: 'the move that gets a piece nearest the goal',
    language: 'ts',
    level: 'policy',
    code: HALMA_GREEDY,
    environments: ['halma', 'halma-3', 'halma-rhombus'],
  },
  {
    id: 'wire-loop',
    label: 'Request loop',
    description: 'wire level: write each request body yourself',
    language: 'ts',
    level: 'wire',
    code: WIRE_NIM,
    environments: ['nim', 'nim-strong'],
  },
];

export const DEFAULT_AISYS_SAMPLE = 'nim-optimal';
