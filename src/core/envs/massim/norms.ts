/**
 * Norms (the configuration's `regulation`): created at random from weighted templates, announced at
 * creation, active from `start` to `until` (inclusive), enforced at the beginning of every step. Carry
 * punishes each agent carrying more than a drawn number of things; Adopt punishes every agent of a team that
 * has more agents in one role than allowed; RoleIndividual punishes every agent in a drawn role.
 * Deactivated violators are recorded but not charged.
 */
import type { MassimNormPercept, MassimNormSubjectConfig, MassimSimConfig } from './api';
import { between } from './draws';
import type { SimRandom } from './draws';
import type { EnergyRules } from './energy';
import { javaStringKeyOrder } from '../../java/hash-map-order';
import type { Entity } from './things';
import type { World } from './world';

/** A punishment handed out: which norm, whom. */
export interface NormViolation {
  norm: string;
  entity: Entity;
  /** Energy taken (0 for a deactivated violator). */
  punishment: number;
}

interface Norm {
  name: string;
  kind: MassimNormSubjectConfig['name'];
  announcedAt: number;
  start: number;
  until: number;
  punishment: number;
  /** Carry: things allowed; Adopt: agents per team allowed in `role`; RoleIndividual: 1. */
  limit: number;
  role: string;
}

export class Officer {
  readonly #config: MassimSimConfig;
  readonly #world: World;
  readonly #energy: EnergyRules;
  readonly #rng: SimRandom;
  /** Draw as the real server does (see the constructor). */
  readonly #javaOrder: boolean;
  readonly #norms: Norm[] = [];
  #lastViolations: NormViolation[] = [];
  #lastEnforcedStep = -1;

  /**
   * With `javaOrder` (under `java.util.Random`), two draws follow the real server exactly: RoleIndividual
   * indexes the roles in their hash-map order, and Adopt makes the server's one unused draw (`betweenClosed
   * (0, 1)`) before taking its role.
   */
  constructor(config: MassimSimConfig, world: World, energy: EnergyRules, rng: SimRandom, javaOrder = false) {
    this.#config = config;
    this.#world = world;
    this.#energy = energy;
    this.#rng = rng;
    this.#javaOrder = javaOrder;
  }

  /** Norms announced but not yet active, or active, at `step`. */
  #approved(step: number): Norm[] {
    return this.#norms.filter(
      (norm) => (norm.announcedAt <= step && step < norm.start) || this.#active(norm, step),
    );
  }

  #active(norm: Norm, step: number): boolean {
    return norm.start <= step && step <= norm.until;
  }

  /** Punishes the violators of every norm active at `step`. */
  enforce(step: number): void {
    const violations: NormViolation[] = [];
    for (const norm of this.#norms) {
      if (!this.#active(norm, step)) continue;
      for (const entity of this.#violators(norm)) {
        const charged = !entity.deactivated;
        if (charged) this.#energy.drain(entity, norm.punishment);
        violations.push({ norm: norm.name, entity, punishment: charged ? norm.punishment : 0 });
      }
    }
    this.#lastViolations = violations;
    this.#lastEnforcedStep = step;
  }

  #violators(norm: Norm): Entity[] {
    const entities = this.#world.entities;
    switch (norm.kind) {
      case 'Carry':
        return entities.filter((entity) => this.#world.attachedCount(entity) > norm.limit);
      case 'RoleIndividual':
        return entities.filter((entity) => entity.role.name === norm.role);
      case 'Adopt': {
        const violators: Entity[] = [];
        for (const team of new Set(entities.map((entity) => entity.team))) {
          const inRole = entities.filter((entity) => entity.team === team && entity.role.name === norm.role);
          if (inRole.length > norm.limit) violators.push(...inRole);
        }
        return violators;
      }
    }
  }

  /** Violations recorded when `step` began (empty for any other step). */
  violations(step: number): readonly NormViolation[] {
    return step === this.#lastEnforcedStep ? this.#lastViolations : [];
  }

  /** With the configured chance, creates a norm from a template drawn by weight, unless enough are pending. */
  maybeCreate(step: number): void {
    const { simultaneous, chance, subjects } = this.#config.regulation;
    if (this.#approved(step).length >= simultaneous) return;
    if (this.#rng.nextFloat() > chance / 100) return;
    const total = subjects.reduce((sum, subject) => sum + subject.weight, 0);
    const pick = this.#rng.nextFloat() * total;
    let cumulative = 0;
    const template = subjects.find((subject) => (cumulative += subject.weight) >= pick);
    if (template) this.#norms.push(this.#create(step, template));
  }

  #create(step: number, template: MassimNormSubjectConfig): Norm {
    const duration = between(this.#rng, template.duration);
    const announcement = between(this.#rng, template.announcement);
    const norm: Norm = {
      name: `n${this.#norms.length + 1}`,
      kind: template.name,
      announcedAt: step,
      start: step + announcement,
      until: step + announcement + duration,
      punishment: between(this.#rng, template.punishment),
      limit: 1,
      role: '',
    };
    switch (template.name) {
      case 'Carry':
        norm.limit = between(this.#rng, template.quantity);
        break;
      case 'RoleIndividual': {
        const names = this.#config.roles.map((role) => role.name);
        const order = this.#javaOrder ? javaStringKeyOrder(names) : names;
        norm.role = order[this.#rng.nextInt(order.length)]!;
        break;
      }
      case 'Adopt':
        this.#restrictRoleInUse(norm, template.playing);
        break;
    }
    return norm;
  }

  /**
   * The real server means to draw a role in use but always takes the first one in its hash map's order
   * (a misplaced `break`); agents can observe which role gets restricted, so we take the same one.
   */
  #restrictRoleInUse(norm: Norm, playing: number): void {
    const entities = this.#world.entities;
    if (this.#javaOrder) this.#rng.nextInt(2);
    const rolesInUse = [...new Set(entities.map((entity) => entity.role.name))];
    const role = javaStringKeyOrder(rolesInUse)[0]!;
    let most = 0;
    for (const team of new Set(entities.map((entity) => entity.team))) {
      const count = entities.filter((entity) => entity.team === team && entity.role.name === role).length;
      most = Math.max(most, count);
    }
    norm.role = role;
    norm.limit = Math.ceil(most * (playing / 100));
  }

  /** The norms agents are told about at `step`: announced or active. The real server sends no `level`. */
  percepts(step: number): MassimNormPercept[] {
    return this.#approved(step).map((norm) => ({
      requirements: [
        norm.kind === 'Carry'
          ? { quantity: norm.limit, name: 'any', type: 'block' }
          : { quantity: norm.limit, name: norm.role, type: 'role' },
      ],
      punishment: norm.punishment,
      name: norm.name,
      start: norm.start,
      until: norm.until,
    }));
  }
}
