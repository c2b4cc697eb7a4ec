/**
 * What the built-in team policies remember about the world, in one agent's own frame of reference: agents
 * never learn absolute positions, so each agent counts its own successful moves from where it started
 * (dead reckoning) and files what it sees (dispensers, goal and role zones) under those coordinates. The
 * grid wraps around, so one place may end up known under two coordinates; nearest-first search copes.
 */
import type {
  MassimDirection,
  MassimPolicyAction,
  MassimStepPerceptInfo,
} from '../../../../src/core/protocols/massim/policy-api';

/** A cell relative to something: x grows to the east, y to the south. */
export interface Offset {
  x: number;
  y: number;
}

/** Every direction with its offset. */
export const DIRECTIONS: readonly { direction: MassimDirection; x: number; y: number }[] = [
  { direction: 'n', x: 0, y: -1 },
  { direction: 'e', x: 1, y: 0 },
  { direction: 's', x: 0, y: 1 },
  { direction: 'w', x: -1, y: 0 },
];

/** The offset of one step in a direction. */
export function offsetOf(direction: MassimDirection): Offset {
  return DIRECTIONS.find((candidate) => candidate.direction === direction)!;
}

/** The direction of an adjacent offset, if it is one. */
export function directionTo(offset: Offset): MassimDirection | undefined {
  return DIRECTIONS.find((candidate) => candidate.x === offset.x && candidate.y === offset.y)?.direction;
}

/** Manhattan distance. */
export function distance(a: Offset, b: Offset): number {
  return Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
}

const key = (x: number, y: number) => `${x},${y}`;
const MAX_REMEMBERED = 4000;

/** One agent's memory of the map, kept in its policy memory between steps. */
export class LocalMap {
  /** Where the agent is, counted from where it started. */
  position: Offset = { x: 0, y: 0 };
  readonly dispensers = new Map<string, { at: Offset; type: string }>();
  readonly goalZones = new Map<string, Offset>();
  readonly roleZones = new Map<string, Offset>();

  /**
   * Brings the map up to date with a percept: first the move the agent made last step (if it succeeded),
   * then what it sees now.
   */
  update(percept: MassimStepPerceptInfo): void {
    if (percept.lastAction === 'move' && percept.lastActionResult === 'success') {
      for (const direction of percept.lastActionParams) {
        const step = DIRECTIONS.find((candidate) => candidate.direction === direction);
        if (step) this.position = { x: this.position.x + step.x, y: this.position.y + step.y };
      }
    }
    const { x: px, y: py } = this.position;
    for (const thing of percept.things) {
      if (thing.type !== 'dispenser') continue;
      const at = { x: px + thing.x, y: py + thing.y };
      remember(this.dispensers, key(at.x, at.y), { at, type: thing.details });
    }
    for (const [x, y] of percept.goalZones)
      remember(this.goalZones, key(px + x, py + y), { x: px + x, y: py + y });
    for (const [x, y] of percept.roleZones)
      remember(this.roleZones, key(px + x, py + y), { x: px + x, y: py + y });
  }

  /** A remembered position, seen from where the agent is now. */
  relative(at: Offset): Offset {
    return { x: at.x - this.position.x, y: at.y - this.position.y };
  }

  /** The nearest of some remembered positions, relative to the agent. */
  nearest(positions: Iterable<Offset>): Offset | undefined {
    let best: Offset | undefined;
    for (const at of positions) {
      const offset = this.relative(at);
      if (!best || distance(offset, { x: 0, y: 0 }) < distance(best, { x: 0, y: 0 })) best = offset;
    }
    return best;
  }
}

function remember<T>(map: Map<string, T>, cellKey: string, value: T): void {
  map.delete(cellKey);
  map.set(cellKey, value);
  // Oldest first: forget what was seen longest ago once the memory is full.
  if (map.size > MAX_REMEMBERED) map.delete(map.keys().next().value!);
}

/** What occupies the cells around the agent this step. */
export class Surroundings {
  readonly #blocked = new Set<string>();
  readonly #obstacles = new Set<string>();

  constructor(percept: MassimStepPerceptInfo) {
    for (const thing of percept.things) {
      if (thing.x === 0 && thing.y === 0) continue;
      if (thing.type === 'obstacle') this.#obstacles.add(key(thing.x, thing.y));
      if (thing.type === 'obstacle' || thing.type === 'entity' || thing.type === 'block')
        this.#blocked.add(key(thing.x, thing.y));
    }
  }

  /** Something stands on the cell (relative to the agent). */
  isBlocked(offset: Offset): boolean {
    return this.#blocked.has(key(offset.x, offset.y));
  }

  /** An obstacle (which `clear` removes) stands on the cell. */
  isObstacle(offset: Offset): boolean {
    return this.#obstacles.has(key(offset.x, offset.y));
  }
}

/**
 * Whether the agent can move one step: the cells it and everything it carries (`carried`, relative to
 * the agent) move into must be free, or taken by the agent or its own cargo.
 */
export function canMove(step: Offset, surroundings: Surroundings, carried: readonly Offset[] = []): boolean {
  const own = (cell: Offset) =>
    (cell.x === 0 && cell.y === 0) || carried.some((c) => c.x === cell.x && c.y === cell.y);
  return [{ x: 0, y: 0 }, ...carried].every((cell) => {
    const next = { x: cell.x + step.x, y: cell.y + step.y };
    return own(next) || !surroundings.isBlocked(next);
  });
}

/**
 * One step towards `target` (relative to the agent): a free direction that brings it closer, else mostly
 * any free one (to get around obstacles), else clearing the obstacle in the way. `carried` are cells that
 * move with the agent (attached blocks).
 */
export function stepTowards(
  target: Offset,
  surroundings: Surroundings,
  random: () => number,
  carried: readonly Offset[] = [],
): MassimPolicyAction {
  const here = distance(target, { x: 0, y: 0 });
  const shuffled = shuffle(DIRECTIONS, random);
  const closer = shuffled.filter((step) => distance(target, step) < here);
  const free = (step: Offset) => canMove(step, surroundings, carried);
  const choice = closer.find(free) ?? (random() < 0.8 ? shuffled.find(free) : undefined);
  if (choice) return { type: 'move', p: [choice.direction] };
  const obstacle = closer.find((step) => surroundings.isObstacle(step));
  if (obstacle) return { type: 'clear', p: [obstacle.x, obstacle.y] };
  return { type: 'skip', p: [] };
}

/** Chance per step of turning although the way ahead is free. */
const TURN_CHANCE = 0.05;

/**
 * One step of exploring: keep the heading kept in `memory` and walk straight on, turning to a random free
 * direction when the way is blocked, the last move failed, and now and then anyway, so agents spread out
 * over the map instead of jittering in place.
 */
export function exploringStep(
  percept: MassimStepPerceptInfo,
  memory: { heading?: MassimDirection },
  random: () => number,
  carried: readonly Offset[] = [],
): MassimPolicyAction {
  const surroundings = new Surroundings(percept);
  const free = (direction: MassimDirection) => canMove(offsetOf(direction), surroundings, carried);
  const moveFailed = percept.lastAction === 'move' && percept.lastActionResult.startsWith('failed');
  let heading = memory.heading;
  if (!heading || !free(heading) || moveFailed || random() < TURN_CHANCE) {
    const choice = shuffle(DIRECTIONS, random).find((step) => free(step.direction));
    heading = choice?.direction ?? DIRECTIONS[Math.floor(random() * DIRECTIONS.length)]!.direction;
  }
  memory.heading = heading;
  return { type: 'move', p: [heading] };
}

/** The items in a random order (Fisher-Yates). */
export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const list = [...items];
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}
