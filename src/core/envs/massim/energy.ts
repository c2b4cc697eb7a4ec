/**
 * Energy and deactivation. An entity whose energy reaches 0 is deactivated for `deactivatedDuration` steps
 * and loses its direct attachments; its energy keeps recharging meanwhile (the documentation says it stays
 * at 0, the real server recharges it) and is set to `refreshEnergy` when it wakes up.
 */
import type { MassimSimConfig } from './api';
import type { Entity } from './things';
import type { World } from './world';

export class EnergyRules {
  readonly #config: MassimSimConfig;
  readonly #world: World;

  constructor(config: MassimSimConfig, world: World) {
    this.#config = config;
    this.#world = world;
  }

  /**
   * Takes energy away (never below 0). Reaching 0 deactivates, and deactivates again (restarting the
   * countdown) an entity that is already down at 0, as the real server does.
   */
  drain(entity: Entity, amount: number): void {
    entity.energy = Math.max(entity.energy - amount, 0);
    if (entity.energy <= 0) {
      // One step more than configured: the countdown runs once before the entity next acts.
      entity.deactivatedSteps = this.#config.deactivatedDuration + 1;
      this.#world.detachAll(entity);
    }
  }

  /** The countdown and recharge at the start of every step. */
  recharge(entity: Entity): void {
    if (entity.deactivatedSteps > 0 && --entity.deactivatedSteps === 0)
      entity.energy = this.#config.refreshEnergy;
    else entity.energy = Math.min(entity.energy + this.#config.stepRecharge, this.#config.maxEnergy);
  }
}
