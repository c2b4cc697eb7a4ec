/**
 * The sample team policies of the MASSim playground: an idle baseline, a random mover, an explorer that
 * maps what it sees, a block fetcher that completes one-block tasks, and a wire-level client for learners
 * writing the protocol themselves. They are written against the editor's declarations (`Percept`,
 * `Action`, `Agent`, `Team`, `PolicyContext`, `WireAgent`...), which are globals there.
 */
import type { SamplePolicy } from '../../policy/types';

const SKIP = `// Skip: every agent does nothing, every step. The baseline every other team should beat.
export function act(percept: Percept, agent: Agent, team: Team): Action {
  return { type: 'skip', p: [] };
}
`;

const RANDOM_MOVER = `// Random mover: every agent moves one cell in a random direction, every step.
const DIRECTIONS: Direction[] = ['n', 's', 'e', 'w'];

export function act(percept: Percept, agent: Agent, team: Team, context: PolicyContext): Action {
  // context.random() is seeded with the session's seed: the same seed replays the same moves.
  const direction = DIRECTIONS[Math.floor(context.random() * DIRECTIONS.length)]!;
  return { type: 'move', p: [direction] };
}
`;

/**
 * What the explorer and the block fetcher share: a map of their own (an agent never learns where it is,
 * so it counts its moves from where it started) and a path finder over it.
 */
const MAPPING = `// ---- A map of my own ------------------------------------------------------------------------------
// An agent never learns where it is: it counts its moves from where it started (0, 0) by their results,
// and writes what it sees at those coordinates. The grid wraps around, so a place seen again after a
// trip around the world gets a second entry: harmless here.

interface Mind {
  x: number;
  y: number;
  seen: Set<number>;
  obstacles: Set<number>;
  /** Block type of each dispenser. */
  dispensers: Map<number, string>;
  goalZones: Set<number>;
  roleZones: Set<number>;
  /** The block I carry, relative to me. */
  block?: { x: number; y: number; type: string };
  /** Moves that failed in a row (someone in the way). */
  failedMoves: number;
}

const STEP: Record<Direction, [number, number]> = { n: [0, -1], s: [0, 1], e: [1, 0], w: [-1, 0] };
const DIRECTIONS: Direction[] = ['n', 'e', 's', 'w'];
// One number per cell (unique while |y| < 32768: far more than an agent walks in a match).
const key = (x: number, y: number) => x * 65536 + y;

function mindOf(agent: Agent): Mind {
  return ((agent.memory.mind as Mind | undefined) ??= {
    x: 0,
    y: 0,
    seen: new Set(),
    obstacles: new Set(),
    dispensers: new Map(),
    goalZones: new Set(),
    roleZones: new Set(),
    failedMoves: 0,
  });
}

/** Follows my last action by its result: where I moved, what I attached or turned or handed in. */
function follow(mind: Mind, percept: Percept): void {
  const { lastAction, lastActionResult: result, lastActionParams: p } = percept;
  const done = result === 'success' || result === 'partial_success';
  if (lastAction === 'move') {
    // I never ask for more than two cells: partial success means the first one only.
    for (const direction of result === 'success' ? p : done ? p.slice(0, 1) : []) {
      const [dx, dy] = STEP[direction as Direction];
      mind.x += dx;
      mind.y += dy;
    }
    mind.failedMoves = done ? 0 : mind.failedMoves + 1;
  }
  if (!done) return;
  if (lastAction === 'attach') {
    const [dx, dy] = STEP[p[0] as Direction];
    const thing = percept.things.find((t) => t.x === dx && t.y === dy && t.type === 'block');
    if (thing) mind.block = { x: dx, y: dy, type: thing.details };
  } else if (lastAction === 'rotate' && mind.block) {
    const { x, y } = mind.block;
    mind.block = p[0] === 'cw' ? { ...mind.block, x: -y, y: x } : { ...mind.block, x: y, y: -x };
  } else if (lastAction === 'submit') {
    mind.block = undefined;
  }
}

/** Writes what I see now into my map (zones can move and obstacles come and go: the view wins). */
function look(mind: Mind, percept: Percept, vision: number): void {
  for (let dx = -vision; dx <= vision; dx++) {
    const reach = vision - Math.abs(dx);
    for (let dy = -reach; dy <= reach; dy++) {
      const cell = key(mind.x + dx, mind.y + dy);
      mind.seen.add(cell);
      mind.obstacles.delete(cell);
      mind.goalZones.delete(cell);
      mind.roleZones.delete(cell);
    }
  }
  for (const thing of percept.things) {
    const cell = key(mind.x + thing.x, mind.y + thing.y);
    if (thing.type === 'obstacle') mind.obstacles.add(cell);
    if (thing.type === 'dispenser') mind.dispensers.set(cell, thing.details);
  }
  for (const [x, y] of percept.goalZones) mind.goalZones.add(key(mind.x + x, mind.y + y));
  for (const [x, y] of percept.roleZones) mind.roleZones.add(key(mind.x + x, mind.y + y));
  // A block I carry that I no longer see attached was lost (a clear event took it...).
  const block = mind.block;
  if (block && !percept.attached.some(([x, y]) => x === block.x && y === block.y)) mind.block = undefined;
}

/** How far my role lets me see. */
function visionOf(percept: Percept, agent: Agent): number {
  return agent.simulation?.roles.find((role) => role.name === percept.role)?.vision ?? 5;
}

/** Cells taken right now by something other than me and my block. */
function occupied(mind: Mind, percept: Percept): Set<number> {
  const taken = new Set<number>();
  for (const t of percept.things) {
    const mine = (t.x === 0 && t.y === 0) || (mind.block && t.x === mind.block.x && t.y === mind.block.y);
    if (!mine && (t.type === 'entity' || t.type === 'block'))
      taken.add(key(mind.x + t.x, mind.y + t.y));
  }
  return taken;
}

/**
 * A breadth-first search from where I am, my block moving with me, through cells not known to be blocked
 * (unknown cells count as free), over at most \`limit\` cells. \`score\` rates a cell reached after \`depth\`
 * moves (undefined: not a target; never below the depth). Returns the first two moves towards the best
 * target, or undefined when there is none. \`prefer\` turns the order directions are tried in, so agents of
 * a team spread out.
 */
function search(
  mind: Mind,
  percept: Percept,
  score: (x: number, y: number, depth: number) => number | undefined,
  prefer = 0,
  limit = 1500,
): Direction[] | undefined {
  const taken = occupied(mind, percept);
  const free = (x: number, y: number) => !mind.obstacles.has(key(x, y)) && !taken.has(key(x, y));
  const block = mind.block;
  const fits = (x: number, y: number) => free(x, y) && (!block || free(x + block.x, y + block.y));
  const order = DIRECTIONS.map((_, i) => DIRECTIONS[(i + prefer) % 4]!);
  const visited = new Set([key(mind.x, mind.y)]);
  const queue: { x: number; y: number; depth: number; moves: Direction[] }[] = [
    { x: mind.x, y: mind.y, depth: 0, moves: [] },
  ];
  let best: { score: number; moves: Direction[] } | undefined;
  for (let head = 0; head < queue.length && head < limit; head++) {
    const node = queue[head]!;
    if (best && node.depth >= best.score) break; // nothing farther can do better
    const value = node.depth > 0 ? score(node.x, node.y, node.depth) : undefined;
    if (value !== undefined && (!best || value < best.score)) best = { score: value, moves: node.moves };
    for (const direction of order) {
      const [dx, dy] = STEP[direction];
      const x = node.x + dx;
      const y = node.y + dy;
      if (visited.has(key(x, y)) || !fits(x, y)) continue;
      visited.add(key(x, y));
      const moves = node.moves.length < 2 ? [...node.moves, direction] : node.moves;
      queue.push({ x, y, depth: node.depth + 1, moves });
    }
  }
  return best?.moves;
}

/** The first moves of a shortest way to a cell where \`arrived\` holds (see \`search\`). */
function route(mind: Mind, percept: Percept, arrived: (x: number, y: number) => boolean): Direction[] | undefined {
  return search(mind, percept, (x, y, depth) => (arrived(x, y) ? depth : undefined));
}

/** A move along a path: as many cells as my role's speed allows with what I carry (at most two). */
function moveAlong(path: Direction[], percept: Percept, mind: Mind, agent: Agent): Action {
  const role = agent.simulation?.roles.find((r) => r.name === percept.role);
  const speeds = role?.speed ?? [1];
  const speed = speeds[Math.min(mind.block ? 1 : 0, speeds.length - 1)]!;
  return { type: 'move', p: path.slice(0, Math.max(1, Math.min(2, speed))) };
}

/**
 * Towards a cell I have not seen yet, near me and near a centre of my own (a little away from my start,
 * each agent of the team on another side): my walk winds outwards around it and covers the area, where
 * heading for the nearest unseen cell alone would go round the world in a straight line.
 */
function explore(mind: Mind, percept: Percept, agent: Agent, team: Team, context: PolicyContext): Action {
  const lean = team.agents.indexOf(agent.name);
  const [cx, cy] = STEP[DIRECTIONS[lean % 4]!].map((d) => d * 8);
  const path =
    mind.failedMoves < 3
      ? search(
          mind,
          percept,
          (x, y, depth) => (mind.seen.has(key(x, y)) ? undefined : depth + (Math.abs(x - cx!) + Math.abs(y - cy!)) / 2),
          lean,
        )
      : undefined;
  if (path) return moveAlong(path, percept, mind, agent);
  // Boxed in, or someone keeps standing in my way: a random step gets things going again.
  return { type: 'move', p: [DIRECTIONS[Math.floor(context.random() * 4)]!] };
}

const inZone = (zones: [number, number][]) => zones.some(([x, y]) => x === 0 && y === 0);
`;

const EXPLORER = `// Explorer: every agent walks to the nearest cell it has not seen yet, keeping a map of what it found
// (dispensers, goal zones, role zones), and the team counts the dispensers found in its shared memory.

export function act(percept: Percept, agent: Agent, team: Team, context: PolicyContext): Action {
  const mind = mindOf(agent);
  follow(mind, percept);
  const known = mind.dispensers.size;
  look(mind, percept, visionOf(percept, agent));
  if (mind.dispensers.size > known) {
    team.memory.dispensers = ((team.memory.dispensers as number | undefined) ?? 0) + mind.dispensers.size - known;
    context.log(\`\${agent.name} has found \${mind.dispensers.size} dispensers; the team \${team.memory.dispensers}\`);
  }
  if (percept.deactivated) return { type: 'skip', p: [] };
  return explore(mind, percept, agent, team, context);
}

${MAPPING}`;

const BLOCK_FETCHER = `// Block fetcher: completes one-block tasks. Each agent becomes a worker in a role zone, gets a block of
// a type an active one-block task needs from a dispenser, turns it south of itself (where every
// one-block task wants its block), carries it into a goal zone and submits the task.

export function act(percept: Percept, agent: Agent, team: Team, context: PolicyContext): Action {
  const mind = mindOf(agent);
  follow(mind, percept);
  look(mind, percept, visionOf(percept, agent));
  if (percept.lastAction === 'submit' && percept.lastActionResult === 'success') {
    team.memory.submitted = ((team.memory.submitted as number | undefined) ?? 0) + 1;
    context.log(\`\${agent.name} submitted \${percept.lastActionParams[0]}; score \${percept.score}\`);
  }
  if (percept.deactivated) return { type: 'skip', p: [] };
  if (percept.role !== 'worker') return becomeWorker(mind, percept, agent, team, context);
  if (!mind.block) return fetchBlock(mind, percept, agent, team, context);
  return deliver(mind, percept, agent, team, context);
}

/** Active tasks of a single block, with enough time left to deliver. */
function oneBlockTasks(percept: Percept, step: number): Task[] {
  return percept.tasks.filter((task) => task.requirements.length === 1 && task.deadline > step + 2);
}

function becomeWorker(mind: Mind, percept: Percept, agent: Agent, team: Team, context: PolicyContext): Action {
  if (inZone(percept.roleZones)) return { type: 'adopt', p: ['worker'] };
  const path = mind.roleZones.size ? route(mind, percept, (x, y) => mind.roleZones.has(key(x, y))) : undefined;
  return path ? moveAlong(path, percept, mind, agent) : explore(mind, percept, agent, team, context);
}

function fetchBlock(mind: Mind, percept: Percept, agent: Agent, team: Team, context: PolicyContext): Action {
  const wanted = new Set(oneBlockTasks(percept, agent.step).map((task) => task.requirements[0]!.type));
  if (wanted.size === 0) return explore(mind, percept, agent, team, context);
  const thingsAt = (x: number, y: number) => percept.things.filter((t) => t.x === x && t.y === y);
  for (const direction of DIRECTIONS) {
    const [x, y] = STEP[direction];
    const here = thingsAt(x, y);
    // A wanted block next to me that nobody carries: take it (this is where a request puts it).
    const block = here.find((t) => t.type === 'block' && wanted.has(t.details));
    const carried = percept.attached.some(([ax, ay]) => ax === x && ay === y);
    if (block && !carried && !here.some((t) => t.type === 'entity')) return { type: 'attach', p: [direction] };
    // A dispenser of a wanted type next to me, with nothing on it: ask it for a block.
    const type = mind.dispensers.get(key(mind.x + x, mind.y + y));
    if (type !== undefined && wanted.has(type) && here.every((t) => t.type === 'dispenser' || t.type === 'marker'))
      return { type: 'request', p: [direction] };
  }
  const nextToDispenser = (x: number, y: number) =>
    DIRECTIONS.some((direction) => {
      const type = mind.dispensers.get(key(x + STEP[direction][0], y + STEP[direction][1]));
      return type !== undefined && wanted.has(type);
    });
  const known = [...mind.dispensers.values()].some((type) => wanted.has(type));
  const path = known ? route(mind, percept, nextToDispenser) : undefined;
  return path ? moveAlong(path, percept, mind, agent) : explore(mind, percept, agent, team, context);
}

function deliver(mind: Mind, percept: Percept, agent: Agent, team: Team, context: PolicyContext): Action {
  const block = mind.block!;
  const south = block.x === 0 && block.y === 1;
  const turnFailed = percept.lastAction === 'rotate' && percept.lastActionResult !== 'success';
  // Turn the block south of me first; if something is in the way, move on and try again later.
  if (!south && !turnFailed) return { type: 'rotate', p: [block.x === -1 ? 'ccw' : 'cw'] };
  const task = oneBlockTasks(percept, agent.step).find((t) => t.requirements[0]!.type === block.type);
  if (south && inZone(percept.goalZones)) {
    if (task) return { type: 'submit', p: [task.name] };
    return { type: 'skip', p: [] }; // in place: wait for a task that wants my block
  }
  const path = mind.goalZones.size ? route(mind, percept, (x, y) => mind.goalZones.has(key(x, y))) : undefined;
  return path ? moveAlong(path, percept, mind, agent) : explore(mind, percept, agent, team, context);
}

${MAPPING}`;

const WIRE_CLIENT = `// Wire level: you are the MASSim client of every agent of the team. Each frame the server sends arrives
// as its JSON text; return the frames to send (a string, a list, or { frames, reconnect }). The 0 byte
// that ends a frame is added for you. This client moves at random.
//
// Try the most common mistake: remove "p" from the action below. The server then stops reading that
// agent for good: it does no_action every step until it reconnects ({ reconnect: true }).

const DIRECTIONS = ['n', 's', 'e', 'w'];

export function onConnect(agent: WireAgent): WireReply {
  return JSON.stringify({ type: 'auth-request', content: { user: agent.name, pw: agent.password } });
}

export function onMessage(message: string, agent: WireAgent, context: PolicyContext): WireReply {
  const { type, content } = JSON.parse(message);
  if (type !== 'request-action') return null; // auth-response, sim-start, sim-end, bye: nothing to answer
  const direction = DIRECTIONS[Math.floor(context.random() * DIRECTIONS.length)];
  // Answer with the request's id (each agent counts its own ids), never the step number.
  return JSON.stringify({ type: 'action', content: { id: content.id, type: 'move', p: [direction] } });
}
`;

/** The samples, in the order the editor offers them. */
export const MASSIM_SAMPLES: readonly SamplePolicy[] = [
  {
    id: 'skip',
    label: 'Skip',
    description: 'Every agent does nothing: the baseline',
    language: 'ts',
    level: 'policy',
    code: SKIP,
  },
  {
    id: 'random-mover',
    label: 'Random mover',
    description: 'Every agent moves one cell in a random direction',
    language: 'ts',
    level: 'policy',
    code: RANDOM_MOVER,
  },
  {
    id: 'explorer',
    label: 'Explorer',
    description: 'Walk to the nearest unseen cell, mapping dispensers and zones',
    language: 'ts',
    level: 'policy',
    code: EXPLORER,
  },
  {
    id: 'block-fetcher',
    label: 'Block fetcher',
    description: 'Become a worker, fetch a block, submit one-block tasks',
    language: 'ts',
    level: 'policy',
    code: BLOCK_FETCHER,
  },
  {
    id: 'wire-client',
    label: 'Wire level',
    description: 'Write the protocol yourself: raw JSON frames in and out',
    language: 'ts',
    level: 'wire',
    code: WIRE_CLIENT,
  },
];

/** The sample a new workspace starts with. */
export const DEFAULT_MASSIM_SAMPLE = 'block-fetcher';
