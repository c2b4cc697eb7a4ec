/**
 * The request-action percept as JSON objects: what one agent sees this step, built from the walk of its
 * vision diamond (`vision.ts`). Keys are created in the real server's output order (except
 * `absolutePosition`, which comes last instead of second), so our messages read like its messages; agents
 * must not rely on key order. `percept-json.ts` writes the same percept as text, byte for byte what
 * `JSON.stringify` makes of these objects.
 */
import type { MassimNormPercept, MassimStepPercept, MassimTaskPercept, MassimThing } from './api';
import type { Entity } from './things';
import { THING_TYPES, type VisionScan } from './vision';
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

/** The percept of `entity`; `scan` is scratch space (reused between calls). */
export function buildStepPercept(
  world: World,
  entity: Entity,
  shared: StepShared,
  scan: VisionScan,
): MassimStepPercept {
  scan.scan(world, entity);
  const things: MassimThing[] = [];
  for (let i = 0; i < scan.thingCount; i++) {
    things.push({
      x: scan.thingX[i]!,
      y: scan.thingY[i]!,
      details: scan.thingDetails[i]!,
      type: THING_TYPES[scan.thingCode[i]!]!,
    });
  }
  const percept: MassimStepPercept = {
    lastActionParams: [...entity.lastActionParams],
    role: entity.role.name,
    violations: [...(shared.violations.get(entity) ?? [])],
    deactivated: entity.deactivated,
    goalZones: pairs(scan.goalX, scan.goalY, scan.goalCount),
    roleZones: pairs(scan.roleX, scan.roleY, scan.roleCount),
    score: shared.scores.get(entity.team) ?? 0,
    lastAction: entity.lastAction,
    norms: shared.norms,
    things,
    attached: pairs(scan.attachedX, scan.attachedY, scan.attachedCount),
    lastActionResult: entity.lastActionResult,
    tasks: shared.tasks,
    events: [...entity.events],
    energy: entity.energy,
  };
  if (shared.absolutePosition) {
    const torus = world.torus;
    percept.absolutePosition = [torus.x(entity.cell), torus.y(entity.cell)];
  }
  return percept;
}

function pairs(xs: Int32Array, ys: Int32Array, count: number): [number, number][] {
  const list: [number, number][] = [];
  for (let i = 0; i < count; i++) list.push([xs[i]!, ys[i]!]);
  return list;
}
