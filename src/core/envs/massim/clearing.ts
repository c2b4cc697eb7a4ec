/**
 * Clearing cells, by the `clear` action (one cell, spares things attached to an entity) and by clear events
 * (a diamond of `radius` that destroys everything, attached or not, and drains every entity in it). Clear
 * events are announced `warning` steps ahead with markers: `clear` inside the area (`ci` when at most two
 * steps are left) and a ring of `cp` of width `perimeter` around it. After firing, as many obstacles as were
 * removed plus a random number in `create` are scattered around the centre.
 */
import type { MassimClearArea, MassimSimConfig } from './api';
import { between } from './draws';
import type { SimRandom } from './draws';
import type { EnergyRules } from './energy';
import type { World } from './world';

/** A scheduled clear event. */
export interface ClearEvent {
  center: number;
  fireStep: number;
  radius: number;
}

/**
 * Clears a diamond: drains every entity in it by `damage`, destroys its blocks and obstacles (only those not
 * attached to an entity unless `destroyAttached`). Returns how many things were destroyed.
 */
export function clearArea(
  world: World,
  energy: EnergyRules,
  center: number,
  radius: number,
  damage: number,
  destroyAttached: boolean,
): number {
  let removed = 0;
  for (const cell of world.torus.diamondCells(center, radius)) {
    for (const entity of world.entitiesAt(cell)) energy.drain(entity, damage);
    for (const kind of ['obstacle', 'block'] as const) {
      const thing = world.kindAt(cell, kind);
      if (thing && (destroyAttached || !world.attachedToAnotherEntity(thing))) {
        world.destroy(thing);
        removed++;
      }
    }
  }
  return removed;
}

export class ClearEvents {
  readonly #config: MassimSimConfig['events'];
  readonly #world: World;
  readonly #energy: EnergyRules;
  readonly #rng: SimRandom;
  #pending: ClearEvent[] = [];

  constructor(config: MassimSimConfig['events'], world: World, energy: EnergyRules, rng: SimRandom) {
    this.#config = config;
    this.#world = world;
    this.#energy = energy;
    this.#rng = rng;
  }

  /**
   * The clear-event part of preparing a step: maybe schedule a new event, fire the due ones, mark the
   * others. Returns the events that fired.
   */
  prepare(step: number): ClearEvent[] {
    const { chance, warning, radius, perimeter } = this.#config;
    if (this.#rng.nextInt(100) < chance) {
      this.#pending.push({
        center: this.#world.randomCell(this.#rng),
        fireStep: step + warning,
        radius: between(this.#rng, radius),
      });
    }
    const fired: ClearEvent[] = [];
    for (const event of this.#pending) {
      if (event.fireStep === step) {
        this.#fire(event);
        fired.push(event);
        continue;
      }
      const inside = this.#world.torus.diamondCells(event.center, event.radius);
      const insideSet = new Set(inside);
      const type = event.fireStep - step <= 2 ? 'ci' : 'clear';
      for (const cell of inside) this.#world.addMarker(cell, type);
      for (const cell of this.#world.torus.diamondCells(event.center, event.radius + perimeter)) {
        if (!insideSet.has(cell)) this.#world.addMarker(cell, 'cp');
      }
    }
    this.#pending = this.#pending.filter((event) => !fired.includes(event));
    return fired;
  }

  #fire(event: ClearEvent): void {
    const removed = clearArea(this.#world, this.#energy, event.center, event.radius, 1000, true);
    const count = between(this.#rng, this.#config.create) + removed;
    for (let i = 0; i < count; i++) {
      const cell = this.#world.findFreeCellNear(
        event.center,
        this.#config.perimeter + event.radius,
        this.#rng,
      );
      if (cell !== undefined && this.#world.dispenserAt(cell) === undefined) this.#world.addObstacle(cell);
    }
  }

  /** Scheduled events, for the world view. */
  pending(step: number): MassimClearArea[] {
    const torus = this.#world.torus;
    return this.#pending.map((event) => ({
      x: torus.x(event.center),
      y: torus.y(event.center),
      radius: event.radius,
      stepsLeft: event.fireStep - step,
    }));
  }
}
