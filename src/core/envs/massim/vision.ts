/**
 * What one agent sees: the walk over its vision diamond that both percept forms share (the JSON objects of
 * `percepts.ts` and the JSON text of `percept-json.ts`), so the two cannot disagree on order or content.
 * The walk reads the world's per-cell tables once per cell, so it costs what the vision area holds, and fills
 * reusable typed arrays instead of allocating objects.
 */
import type { MassimThingType } from './api';
import type { Attachable, Entity } from './things';
import type { World } from './world';

/** Every kind of thing, in the order of the codes `VisionScan.thingCode` uses. */
export const THING_TYPES: readonly MassimThingType[] = ['entity', 'block', 'obstacle', 'marker', 'dispenser'];

const ENTITY = 0;
const BLOCK = 1;
const OBSTACLE = 2;
const MARKER = 3;
const DISPENSER = 4;

/** The result of one walk, valid until the next `scan`. Items are in the order agents receive them. */
export class VisionScan {
  /** Things: relative position, type (as an index of `THING_TYPES`) and details. */
  thingCount = 0;
  thingX = new Int32Array(64);
  thingY = new Int32Array(64);
  thingCode = new Uint8Array(64);
  readonly thingDetails: string[] = [];
  /** Visible attachables attached to some entity other than themselves, excluding the agent. */
  attachedCount = 0;
  attachedX = new Int32Array(16);
  attachedY = new Int32Array(16);
  goalCount = 0;
  goalX = new Int32Array(16);
  goalY = new Int32Array(16);
  roleCount = 0;
  roleX = new Int32Array(16);
  roleY = new Int32Array(16);
  readonly #diamonds = new Map<number, Int32Array>();

  /** Which view the arrays hold: the same agent in an unchanged world is not walked twice. */
  #last: { world: World; entity: Entity; epoch: number } | undefined;

  /** Walks the vision diamond of `entity`, column by column from west to east, north to south. */
  scan(world: World, entity: Entity): void {
    const last = this.#last;
    if (last && last.entity === entity && last.world === world && last.epoch === world.epoch) return;
    this.#last = { world, entity, epoch: world.epoch };
    this.thingCount = 0;
    this.attachedCount = 0;
    this.goalCount = 0;
    this.roleCount = 0;
    const torus = world.torus;
    const width = torus.width;
    const height = torus.height;
    const ox = torus.x(entity.cell);
    const oy = torus.y(entity.cell);
    const radius = entity.role.vision;
    // Without wrap-around ambiguity (the usual case) a cell's relative position is just its offset.
    const plainOffsets = 2 * radius < width && 2 * radius < height;

    const offsets = this.#offsets(world, radius);
    const { things, markers: markerTable, dispensers } = world.cellTables();
    const goal = world.goalZones.coverage();
    const role = world.roleZones.coverage();
    for (let k = 0; k < offsets.length; k += 2) {
      const dx = offsets[k]!;
      const dy = offsets[k + 1]!;
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
      const first = things[cell]!;
      const markers = markerTable[cell];
      const dispenser = dispensers[cell];
      const inGoal = goal[cell]! > 0;
      const inRole = role[cell]! > 0;
      if (first === null && markers === undefined && dispenser === undefined && !inGoal && !inRole) continue;

      const rx = plainOffsets ? dx : torus.relativeX(x, ox);
      const ry = plainOffsets ? dy : torus.relativeY(y, oy);
      for (let thing: Attachable | null = first; thing; thing = thing.nextInCell) {
        const code = thing.kind === 'entity' ? ENTITY : thing.kind === 'block' ? BLOCK : OBSTACLE;
        this.#addThing(rx, ry, code, thing.details);
        if (thing !== entity && world.perceivedAsAttached(thing)) this.#addAttached(rx, ry);
      }
      if (markers) for (const marker of markers) this.#addThing(rx, ry, MARKER, marker);
      if (dispenser !== undefined) this.#addThing(rx, ry, DISPENSER, dispenser);
      if (inGoal) this.#addGoal(rx, ry);
      if (inRole) this.#addRole(rx, ry);
    }
  }

  /** The diamond's offsets as `dx, dy` pairs, in the torus's order, cached per radius. */
  #offsets(world: World, radius: number): Int32Array {
    let offsets = this.#diamonds.get(radius);
    if (!offsets) {
      const diamond = world.torus.diamond(radius);
      offsets = new Int32Array(diamond.length * 2);
      diamond.forEach(({ dx, dy }, i) => {
        offsets![2 * i] = dx;
        offsets![2 * i + 1] = dy;
      });
      this.#diamonds.set(radius, offsets);
    }
    return offsets;
  }

  #addThing(x: number, y: number, code: number, details: string): void {
    const i = this.thingCount++;
    if (i === this.thingX.length) {
      this.thingX = grown(this.thingX);
      this.thingY = grown(this.thingY);
      const codes = new Uint8Array(this.thingCode.length * 2);
      codes.set(this.thingCode);
      this.thingCode = codes;
    }
    this.thingX[i] = x;
    this.thingY[i] = y;
    this.thingCode[i] = code;
    this.thingDetails[i] = details;
  }

  #addAttached(x: number, y: number): void {
    const i = this.attachedCount++;
    if (i === this.attachedX.length) {
      this.attachedX = grown(this.attachedX);
      this.attachedY = grown(this.attachedY);
    }
    this.attachedX[i] = x;
    this.attachedY[i] = y;
  }

  #addGoal(x: number, y: number): void {
    const i = this.goalCount++;
    if (i === this.goalX.length) {
      this.goalX = grown(this.goalX);
      this.goalY = grown(this.goalY);
    }
    this.goalX[i] = x;
    this.goalY[i] = y;
  }

  #addRole(x: number, y: number): void {
    const i = this.roleCount++;
    if (i === this.roleX.length) {
      this.roleX = grown(this.roleX);
      this.roleY = grown(this.roleY);
    }
    this.roleX[i] = x;
    this.roleY[i] = y;
  }
}

function grown(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
