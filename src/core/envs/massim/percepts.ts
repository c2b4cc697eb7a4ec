/**
 * The request-action percept: what one agent sees this step. Built by walking the agent's vision diamond
 * once, reading the per-cell tables of the world, so the cost is proportional to the vision area and
 * what is in it. Keys are created in the real server's output order (except `absolutePosition`, which comes
 * last instead of second), so our messages read like its messages; agents must not rely on key order.
 */
import type { MassimNormPercept, MassimStepPercept, MassimTaskPercept, MassimThing } from './api';
import type { Entity } from './things';
import type { World } from './world';

/** What all agents of a step share: computed once per step. */
export interface StepShared {
  tasks: MassimTaskPercept[];
  norms: MassimNormPercept[];
  /** Norm names each agent was punished for at the start of this step. */
  violations: ReadonlyMap<Entity, string[]>;
  scores: ReadonlyMap<string, number>;
  absolutePosition: boolean;
}

export function buildStepPercept(world: World, entity: Entity, shared: StepShared): MassimStepPercept {
  const torus = world.torus;
  const width = torus.width;
  const height = torus.height;
  const ox = torus.x(entity.cell);
  const oy = torus.y(entity.cell);
  const radius = entity.role.vision;
  // Without wrap-around ambiguity (the usual case) a cell's relative position is just its offset.
  const plainOffsets = 2 * radius < width && 2 * radius < height;

  const things: MassimThing[] = [];
  const attached: [number, number][] = [];
  const goalZones: [number, number][] = [];
  const roleZones: [number, number][] = [];

  for (const { dx, dy } of torus.diamond(radius)) {
    let x = ox + dx;
    let y = oy + dy;
    if (plainOffsets) {
      if (x < 0) x += width;
      else if (x >= width) x -= width;
      if (y < 0) y += height;
      else if (y >= height) y -= height;
    } else {
      x = ((x % width) + width) % width;
      y = ((y % height) + height) % height;
    }
    const cell = y * width + x;
    const first = world.firstAt(cell);
    const markers = world.markersAt(cell);
    const dispenser = world.dispenserAt(cell);
    const inGoal = world.goalZones.covers(cell);
    const inRole = world.roleZones.covers(cell);
    if (first === null && markers === undefined && dispenser === undefined && !inGoal && !inRole) continue;

    const rx = plainOffsets ? dx : torus.relativeX(x, ox);
    const ry = plainOffsets ? dy : torus.relativeY(y, oy);
    for (let thing = first; thing; thing = thing.nextInCell) {
      things.push({ x: rx, y: ry, details: thing.details, type: thing.kind });
      if (thing !== entity && world.perceivedAsAttached(thing)) attached.push([rx, ry]);
    }
    if (markers) for (const marker of markers) things.push({ x: rx, y: ry, details: marker, type: 'marker' });
    if (dispenser !== undefined) things.push({ x: rx, y: ry, details: dispenser, type: 'dispenser' });
    if (inGoal) goalZones.push([rx, ry]);
    if (inRole) roleZones.push([rx, ry]);
  }

  const percept: MassimStepPercept = {
    lastActionParams: [...entity.lastActionParams],
    role: entity.role.name,
    violations: [...(shared.violations.get(entity) ?? [])],
    deactivated: entity.deactivated,
    goalZones,
    roleZones,
    score: shared.scores.get(entity.team) ?? 0,
    lastAction: entity.lastAction,
    norms: shared.norms,
    things,
    attached,
    lastActionResult: entity.lastActionResult,
    tasks: shared.tasks,
    events: [...entity.events],
    energy: entity.energy,
  };
  if (shared.absolutePosition) percept.absolutePosition = [ox, oy];
  return percept;
}
