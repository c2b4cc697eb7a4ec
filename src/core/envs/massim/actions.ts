/**
 * What each action does once it has passed the checks every action gets (deactivated, allowed by the role,
 * random failure). Parameters arrive as strings; each action checks them and the world in the real server's
 * order, because the first failing check decides the result an agent sees.
 */
import { javaShuffleDraws, type SimRandom } from './draws';
import type { MassimAction, MassimActionResult, MassimSimConfig, MassimWorldEvent } from './api';
import { clearArea } from './clearing';
import type { EnergyRules } from './energy';
import type { TaskBoard } from './tasks';
import { type Attachable, type Entity, isBlock, isEntity } from './things';
import { isDirection } from './torus';
import type { World } from './world';

/** The result an action has while its step is being executed and it has not run yet. */
export const UNPROCESSED = 'unprocessed';

/** Integers as Java's `Integer.parseInt` reads them: optional sign, decimal digits, 32-bit range. */
export function parseJavaInt(text: string | undefined): number | undefined {
  if (text === undefined || !/^[+-]?\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= -2147483648 && value <= 2147483647 ? value : undefined;
}

/** Everything the action rules read or change. */
export interface ActionContext {
  config: MassimSimConfig;
  world: World;
  energy: EnergyRules;
  tasks: TaskBoard;
  rng: SimRandom;
  /** Draw as the real server does where it differs (`semantics: 'massim'`). */
  javaOrder?: boolean;
  /** Team scores, changed by submissions. */
  scores: Map<string, number>;
  entitiesByName: ReadonlyMap<string, Entity>;
  /** Records what the world view shows about the step. */
  log(event: MassimWorldEvent): void;
}

export class ActionRules {
  readonly #context: ActionContext;
  #step = 0;

  constructor(context: ActionContext) {
    this.#context = context;
  }

  /**
   * Runs an entity's action (already stored in its `lastAction*` fields, like every other entity's action of
   * this step) and sets its result; `connect` also sets its partner's.
   */
  execute(entity: Entity, step: number): void {
    this.#step = step;
    entity.lastActionResult = this.#run(entity, entity.lastAction, entity.lastActionParams);
  }

  #run(entity: Entity, type: string, p: readonly string[]): string {
    switch (type) {
      case 'no_action':
      case 'skip':
        return 'success';
      case 'move':
        return this.#move(entity, p);
      case 'attach':
        return isDirection(p[0]) ? this.#attach(entity, p[0]) : 'failed_parameter';
      case 'detach':
        return isDirection(p[0]) ? this.#detach(entity, p[0]) : 'failed_parameter';
      case 'rotate':
        if (p[0] !== 'cw' && p[0] !== 'ccw') return 'failed_parameter';
        return this.#context.world.rotateCluster(entity, p[0] === 'cw') ? 'success' : 'failed';
      case 'connect':
        return this.#connect(entity, p);
      case 'disconnect':
        return this.#disconnect(entity, p);
      case 'request':
        return isDirection(p[0]) ? this.#request(entity, p[0]) : 'failed_parameter';
      case 'submit':
        return this.#submit(entity, p[0]);
      case 'clear':
        return this.#clear(entity, p);
      case 'survey':
        return this.#survey(entity, p);
      case 'adopt':
      case 'adapt':
        return this.#adopt(entity, p[0]);
      default:
        // Unknown types already failed with failed_role; the real server's fallback result is kept.
        return 'unknown_action';
    }
  }

  #move(entity: Entity, p: readonly string[]): MassimActionResult {
    if (p.length === 0 || !p.every(isDirection)) return 'failed_parameter';
    const world = this.#context.world;
    const speeds = entity.role.speed;
    const speed = speeds[Math.min(world.attachedCount(entity), speeds.length - 1)]!;
    let moved = 0;
    for (const direction of p) {
      if (!world.moveCluster(entity, direction)) break;
      moved++;
      // Checked after moving, so a speed of 0 still allows one cell (a real-server quirk agents rely on).
      if (moved >= speed) break;
    }
    if (moved === 0) return 'failed_path';
    return moved < p.length ? 'partial_success' : 'success';
  }

  #attach(entity: Entity, direction: 'n' | 's' | 'e' | 'w'): MassimActionResult {
    const world = this.#context.world;
    const target = world.uniqueAt(world.torus.neighbour(entity.cell, direction));
    if (!target || (isEntity(target) && target.team !== entity.team)) return 'failed_target';
    const { members } = world.cluster(target);
    if (members.some((member) => isEntity(member) && member.team !== entity.team)) return 'failed_blocked';
    return world.attach(entity, target) ? 'success' : 'failed';
  }

  #detach(entity: Entity, direction: 'n' | 's' | 'e' | 'w'): MassimActionResult {
    const world = this.#context.world;
    const target = world.uniqueAt(world.torus.neighbour(entity.cell, direction));
    if (!target || (isEntity(target) && target.team !== entity.team)) return 'failed_target';
    return world.detachNeighbours(entity, target) ? 'success' : 'failed';
  }

  /**
   * Both agents must name each other in the same step; whichever comes first in the shuffled order does the
   * work and both get the same result. The real server does not check that the partner is a teammate.
   */
  #connect(entity: Entity, p: readonly string[]): string {
    const partner = this.#context.entitiesByName.get(p[0] ?? '');
    const x = parseJavaInt(p[1]);
    const y = parseJavaInt(p[2]);
    if (!partner || x === undefined || y === undefined) return 'failed_parameter';
    const partnerParams = partner.lastActionParams;
    if (
      partner.lastAction !== 'connect' ||
      partner.lastActionResult !== UNPROCESSED ||
      partnerParams[0] !== entity.name
    ) {
      return 'failed_partner';
    }
    const px = parseJavaInt(partnerParams[1]);
    const py = parseJavaInt(partnerParams[2]);
    if (px === undefined || py === undefined) {
      partner.lastActionResult = 'failed_parameter';
      return 'failed_partner';
    }
    const result = this.#joinBlocks(entity, x, y, partner, px, py);
    partner.lastActionResult = result;
    return result;
  }

  #joinBlocks(
    entity: Entity,
    x: number,
    y: number,
    partner: Entity,
    px: number,
    py: number,
  ): MassimActionResult {
    const world = this.#context.world;
    const block = world.uniqueAt(world.torus.offset(entity.cell, x, y));
    const partnerBlock = world.uniqueAt(world.torus.offset(partner.cell, px, py));
    if (!isBlock(block) || !isBlock(partnerBlock)) return 'failed_target';
    const mine = world.cluster(entity);
    if (partner.mark === mine.stamp) return 'failed';
    if (block.mark !== mine.stamp || partnerBlock.mark === mine.stamp) return 'failed_target';
    const theirs = world.cluster(partner);
    if (partnerBlock.mark !== theirs.stamp || block.mark === theirs.stamp) return 'failed_target';
    return world.attach(block, partnerBlock) ? 'success' : 'failed';
  }

  #disconnect(entity: Entity, p: readonly string[]): MassimActionResult {
    const [x1, y1, x2, y2] = [0, 1, 2, 3].map((i) => parseJavaInt(p[i]));
    if (x1 === undefined || y1 === undefined || x2 === undefined || y2 === undefined)
      return 'failed_parameter';
    const world = this.#context.world;
    const first = world.uniqueAt(world.torus.offset(entity.cell, x1, y1));
    const second = world.uniqueAt(world.torus.offset(entity.cell, x2, y2));
    if (!first || !second) return 'failed_target';
    const { stamp } = world.cluster(entity);
    if (first.mark !== stamp || second.mark !== stamp) return 'failed_target';
    return world.detachNeighbours(first, second) ? 'success' : 'failed_target';
  }

  #request(entity: Entity, direction: 'n' | 's' | 'e' | 'w'): MassimActionResult {
    const world = this.#context.world;
    const cell = world.torus.neighbour(entity.cell, direction);
    const type = world.dispenserAt(cell);
    if (type === undefined) return 'failed_target';
    if (!world.isFree(cell)) return 'failed_blocked';
    world.addBlock(cell, type);
    return 'success';
  }

  #submit(entity: Entity, taskName: string | undefined): MassimActionResult {
    const { world, tasks } = this.#context;
    const task = tasks.byName(taskName);
    if (!task || !tasks.isActive(task, this.#step)) return 'failed_target';
    if (!world.goalZones.covers(entity.cell)) return 'failed';
    const { stamp } = world.cluster(entity);
    const blocks: Attachable[] = [];
    for (const requirement of task.requirements) {
      const block = world.uniqueAt(world.torus.offset(entity.cell, requirement.x, requirement.y));
      if (!isBlock(block) || block.details !== requirement.type || block.mark !== stamp) return 'failed';
      blocks.push(block);
    }
    for (const block of blocks) world.destroy(block);
    this.#context.scores.set(entity.team, (this.#context.scores.get(entity.team) ?? 0) + task.reward);
    task.completions++;
    tasks.invalidate();
    this.#moveGoalZone(entity.cell);
    this.#context.log({
      type: 'task completed',
      task: task.name,
      team: entity.team,
      agent: entity.name,
      reward: task.reward,
    });
    return 'success';
  }

  /** After a submission, with `moveProbability`, the goal zone under the agent moves to a random centre. */
  #moveGoalZone(cell: number): void {
    const { world, rng, config } = this.#context;
    if (rng.nextFloat() > config.grid.goals.moveProbability) return;
    const zone = world.goalZones.zoneAt(cell);
    if (!zone) return;
    let center = zone.center;
    while (world.goalZones.hasCenter(center)) center = world.randomCell(rng);
    world.goalZones.remove(zone.center);
    world.goalZones.add(center, zone.radius);
  }

  #clear(entity: Entity, p: readonly string[]): MassimActionResult {
    const x = parseJavaInt(p[0]);
    const y = parseJavaInt(p[1]);
    if (x === undefined || y === undefined) return 'failed_parameter';
    const { world, energy, config, rng } = this.#context;
    if (rng.nextFloat() > entity.role.clear.chance) return 'failed_random';
    const maxDistance = entity.role.clear.maxDistance;
    const target = world.torus.offset(entity.cell, x, y);
    const distance = world.torus.distance(entity.cell, target);
    if (distance > maxDistance) return 'failed_location';
    if (entity.energy < config.clearEnergyCost) return 'failed_resources';
    energy.drain(entity, config.clearEnergyCost);
    const removed = clearArea(world, energy, target, 0, 0, false);
    let hit = 0;
    if (maxDistance > 1) {
      // The real server crashes for a distance equal to the table's length; the last entry is used instead.
      const damage = config.clearDamage[Math.min(distance, config.clearDamage.length - 1)]!;
      for (const victim of world.entitiesAt(target)) {
        energy.drain(victim, damage);
        victim.events.push({ damage, origin: world.torus.relative(entity.cell, victim.cell), type: 'hit' });
        hit++;
      }
    }
    return removed > 0 || hit > 0 ? 'success' : 'failed_target';
  }

  #survey(entity: Entity, p: readonly string[]): MassimActionResult {
    const { world } = this.#context;
    if (p.length === 1) {
      const target = p[0];
      let distance: number | undefined;
      if (target !== 'dispenser' && target !== 'goal' && target !== 'role') return 'failed_parameter';
      if (target === 'dispenser') {
        for (const cell of world.dispenserCells) {
          const d = world.torus.distance(cell, entity.cell);
          if (distance === undefined || d < distance) distance = d;
        }
      } else if (target === 'goal') distance = world.goalZones.distanceToNearestCenter(entity.cell);
      else distance = world.roleZones.distanceToNearestCenter(entity.cell);
      if (distance === undefined) return 'failed_target';
      entity.events.push({ distance, type: 'surveyed', target });
      return 'success';
    }
    if (p.length !== 2) return 'failed_parameter';
    const x = parseJavaInt(p[0]);
    const y = parseJavaInt(p[1]);
    if (x === undefined || y === undefined) return 'failed_parameter';
    const cell = world.torus.offset(entity.cell, x, y);
    if (world.torus.distance(entity.cell, cell) > entity.role.vision) return 'failed_location';
    const found = world.entitiesAt(cell);
    if (found.length === 0) return 'failed_target';
    const seen = found[this.#pickSurveyed(found.length)]!;
    entity.events.push({
      role: seen.role.name,
      name: seen.name,
      type: 'surveyed',
      target: 'agent',
      energy: seen.energy,
    });
    return 'success';
  }

  /**
   * Which of the agents in a surveyed cell is reported. The real server shuffles them (Java's
   * `Collections.shuffle`: `nextInt(n)`, `nextInt(n - 1)`, ..., `nextInt(2)`, nothing for one agent) and
   * reports the first; with `javaOrder` we make the same draws. Which agent the server's first is depends on
   * its hash-set order of entities (JVM identity hashes), which nothing reproduces; we take the first draw's.
   */
  #pickSurveyed(count: number): number {
    const { rng, javaOrder } = this.#context;
    return javaOrder ? javaShuffleDraws(rng, count) : rng.nextInt(count);
  }

  #adopt(entity: Entity, roleName: string | undefined): MassimActionResult {
    const role = this.#context.config.roles.find((candidate) => candidate.name === roleName);
    if (!role) return 'failed_parameter';
    if (!this.#context.world.roleZones.covers(entity.cell)) return 'failed_location';
    entity.role = role;
    return 'success';
  }
}

/** The action performed by an agent that did not answer in time. */
export const NO_ACTION: MassimAction = { type: 'no_action', p: [] };
