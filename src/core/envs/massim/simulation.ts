/**
 * One simulation of the 2022 scenario, stepped the way the real server steps it: preparing a step (markers,
 * norm enforcement, tasks, energy, clear events, new norms) happens before its percepts are read; executing
 * a step shuffles the entities, fails actions in a first pass (deactivated > not allowed by the role >
 * random failure) and runs the rest in the shuffled order in a second pass, each changing the world at once.
 */
import { ProtoplayError } from '../../errors';
import { Rng } from '../../random';
import { JavaRandom } from '../../java/random';
import type {
  MassimRoleConfig,
  CreateMassimSimulation,
  MassimSemantics,
  MassimJointAction,
  MassimPhraseOutput,
  MassimSimConfig,
  MassimSimEndContent,
  MassimSimStartPercept,
  MassimSimulation,
  MassimSimulationOptions,
  MassimStepPercept,
  MassimTeam,
  MassimWorldEvent,
  MassimWorldSnapshot,
  MassimWorldStatic,
} from './api';
import { ActionRules, NO_ACTION, UNPROCESSED } from './actions';
import { ClearEvents } from './clearing';
import { shuffle, type SimRandom } from './draws';
import { EnergyRules } from './energy';
import { javaStringKeyOrder } from '../../java/hash-map-order';
import { generateWorld } from './mapgen';
import { Officer } from './norms';
import { PerceptJsonWriter } from './percept-json';
import { buildStepPercept, type StepShared } from './percepts';
import { applySetup } from './setup';
import { TaskBoard } from './tasks';
import type { Entity } from './things';
import { VisionScan } from './vision';
import type { World } from './world';

/** Creates a simulation from one element of a configuration's `match` list. */
export const createSimulation: CreateMassimSimulation = (config, options = {}) =>
  new Simulation(config, options);

const DEFAULT_TEAMS = [
  { name: 'A', prefix: 'agent' },
  { name: 'B', prefix: 'agent' },
];

class Simulation implements MassimSimulation {
  readonly config: MassimSimConfig;
  readonly seed: number;
  readonly semantics: MassimSemantics;
  readonly teams: readonly MassimTeam[];
  readonly agents: readonly string[];
  readonly steps: number;

  readonly #rng: SimRandom;
  readonly #world: World;
  readonly #blockTypes: readonly string[];
  readonly #energy: EnergyRules;
  readonly #officer: Officer;
  readonly #tasks: TaskBoard;
  readonly #clearEvents: ClearEvents;
  readonly #rules: ActionRules;
  readonly #scores = new Map<string, number>();
  readonly #entities = new Map<string, Entity>();
  readonly #simStart = new Map<string, MassimSimStartPercept>();
  #currentStep = 0;
  #events: MassimWorldEvent[] = [];
  #shared: StepShared | undefined;
  readonly #scan = new VisionScan();
  #jsonWriter: PerceptJsonWriter | undefined;

  constructor(config: MassimSimConfig, options: MassimSimulationOptions) {
    this.config = config;
    this.seed = options.seed ?? config.randomSeed ?? 0;
    this.steps = config.steps;
    this.teams = (options.teams ?? DEFAULT_TEAMS).map(({ name, prefix }) => ({
      name,
      agents: Array.from({ length: config.agentsPerTeam }, (_, i) => `${prefix}${name}${i + 1}`),
    }));
    this.agents = this.teams.flatMap((team) => team.agents);
    if (new Set(this.teams.map((team) => team.name)).size !== this.teams.length) {
      throw new ProtoplayError('massim-teams', 'two teams of this simulation have the same name');
    }
    if (new Set(this.agents).size !== this.agents.length) {
      throw new ProtoplayError(
        'massim-teams',
        'agent names clash between teams; give the teams different prefixes',
      );
    }

    this.semantics = options.semantics ?? 'protoplay';
    const javaOrder = this.semantics === 'massim';
    this.#rng = javaOrder ? new JavaRandom(this.seed) : new Rng(this.seed);
    const { world, blockTypes } = generateWorld(config, this.teams, this.#rng, javaOrder);
    this.#world = world;
    this.#blockTypes = blockTypes;
    for (const entity of world.entities) this.#entities.set(entity.name, entity);
    for (const team of this.teams) this.#scores.set(team.name, 0);
    this.#energy = new EnergyRules(config, world);
    this.#officer = new Officer(config, world, this.#energy, this.#rng, javaOrder);
    this.#tasks = new TaskBoard(config.tasks, blockTypes, this.#rng);
    this.#clearEvents = new ClearEvents(config.events, world, this.#energy, this.#rng);
    if (options.setup !== undefined) applySetup(options.setup, world, this.#tasks, blockTypes);
    this.#rules = new ActionRules({
      config,
      world,
      energy: this.#energy,
      tasks: this.#tasks,
      rng: this.#rng,
      javaOrder,
      scores: this.#scores,
      entitiesByName: this.#entities,
      log: (event) => this.#events.push(event),
    });
    this.#prepare(0);
  }

  get currentStep(): number {
    return this.#currentStep;
  }

  get isFinished(): boolean {
    return this.#currentStep >= this.steps;
  }

  teamOf(agent: string): string | undefined {
    return this.#entities.get(agent)?.team;
  }

  #entity(agent: string): Entity {
    const entity = this.#entities.get(agent);
    if (!entity) throw new ProtoplayError('massim-agent', `no agent ${agent} in this simulation`);
    return entity;
  }

  #rolesInServerOrder(): MassimRoleConfig[] {
    const byName = new Map(this.config.roles.map((role) => [role.name, role]));
    return javaStringKeyOrder([...byName.keys()]).map((name) => byName.get(name)!);
  }

  simStartPercept(agent: string): MassimSimStartPercept {
    let percept = this.#simStart.get(agent);
    if (!percept) {
      const entity = this.#entity(agent);
      percept = {
        teamSize: this.config.agentsPerTeam,
        // The real server keeps roles in a HashMap by name and each role's actions in a HashSet: a client
        // that indexes by position sees their hash order, not the configuration's.
        roles: this.#rolesInServerOrder().map((role) => ({
          vision: role.vision,
          name: role.name,
          clear: { chance: role.clear.chance, maxDistance: role.clear.maxDistance },
          actions: javaStringKeyOrder(role.actions),
          speed: [...role.speed],
        })),
        name: entity.name,
        team: entity.team,
        steps: this.steps,
      };
      this.#simStart.set(agent, percept);
    }
    return percept;
  }

  requestActionPercept(agent: string): MassimStepPercept {
    return buildStepPercept(this.#world, this.#entity(agent), this.#stepShared(), this.#scan);
  }

  writeRequestActionPercept(agent: string, out: MassimPhraseOutput): void {
    let writer = this.#jsonWriter;
    if (writer?.book !== out.book) {
      const maxVision = Math.max(...this.config.roles.map((role) => role.vision));
      this.#jsonWriter = writer = new PerceptJsonWriter(out.book, maxVision);
    }
    writer.write(this.#world, this.#entity(agent), this.#stepShared(), this.#scan, out);
  }

  #stepShared(): StepShared {
    if (!this.#shared) {
      const step = this.#currentStep;
      const violations = new Map<Entity, string[]>();
      for (const { norm, entity } of this.#officer.violations(step)) {
        const list = violations.get(entity);
        if (list) list.push(norm);
        else violations.set(entity, [norm]);
      }
      this.#shared = {
        tasks: this.#tasks.percepts(step),
        norms: this.#officer.percepts(step),
        violations,
        scores: this.#scores,
        absolutePosition: this.config.absolutePosition,
      };
    }
    return this.#shared;
  }

  step(actions: MassimJointAction): void {
    if (this.isFinished) throw new ProtoplayError('massim-finished', 'the simulation has already ended');
    const step = this.#currentStep;
    this.#events = [];
    const order = shuffle(this.#rng, [...this.#world.entities]);
    for (const entity of order) {
      // Events were delivered with this step's percepts.
      entity.events = [];
      const action = actions.get(entity.name) ?? NO_ACTION;
      entity.lastAction = action.type;
      entity.lastActionParams = [...action.p];
      if (entity.deactivated) entity.lastActionResult = 'failed_status';
      else if (!isAllowed(entity, action.type)) entity.lastActionResult = 'failed_role';
      else if (this.#rng.nextInt(100) < this.config.randomFail) entity.lastActionResult = 'failed_random';
      else entity.lastActionResult = UNPROCESSED;
    }
    for (const entity of order) {
      if (entity.lastActionResult === UNPROCESSED) this.#rules.execute(entity, step);
    }
    this.#world.epoch++;
    this.#currentStep++;
    if (!this.isFinished) this.#prepare(this.#currentStep);
  }

  #prepare(step: number): void {
    this.#world.clearMarkers();
    this.#officer.enforce(step);
    for (const { norm, entity, punishment } of this.#officer.violations(step)) {
      this.#events.push({ type: 'norm violated', norm, agent: entity.name, punishment });
    }
    this.#tasks.topUp(step);
    for (const entity of this.#world.entities) this.#energy.recharge(entity);
    for (const event of this.#clearEvents.prepare(step)) {
      const torus = this.#world.torus;
      this.#events.push({
        type: 'clear event',
        x: torus.x(event.center),
        y: torus.y(event.center),
        radius: event.radius,
      });
    }
    this.#officer.maybeCreate(step);
    this.#world.epoch++;
    this.#shared = undefined;
  }

  scores(): { team: string; score: number }[] {
    return this.teams.map((team) => ({ team: team.name, score: this.#scores.get(team.name) ?? 0 }));
  }

  /** Ranks by score; equal scores get distinct ranks in the real server's hash-map order of team names. */
  simEndContent(agent: string): MassimSimEndContent {
    const team = this.#entity(agent).team;
    const hashOrder = javaStringKeyOrder(this.teams.map((t) => t.name));
    const ranked = [...hashOrder].sort((a, b) => (this.#scores.get(b) ?? 0) - (this.#scores.get(a) ?? 0));
    return { score: this.#scores.get(team) ?? 0, ranking: ranked.indexOf(team) + 1 };
  }

  snapshot(): MassimWorldSnapshot {
    const world = this.#world;
    const torus = world.torus;
    const blocks: MassimWorldSnapshot['blocks'] = [];
    for (const block of world.blocks())
      blocks.push({ x: torus.x(block.cell), y: torus.y(block.cell), type: block.details });
    const attachments: MassimWorldSnapshot['attachments'] = [];
    for (const thing of world.linkedThings()) {
      for (const other of thing.links) {
        if (other.id > thing.id) {
          attachments.push([
            torus.x(thing.cell),
            torus.y(thing.cell),
            torus.x(other.cell),
            torus.y(other.cell),
          ]);
        }
      }
    }
    const step = this.#currentStep;
    return {
      step,
      obstacles: world.obstacleCells(),
      blocks,
      dispensers: world.dispenserCells.map((cell) => ({
        x: torus.x(cell),
        y: torus.y(cell),
        type: world.dispenserAt(cell)!,
      })),
      goalZones: world.goalZones.list(),
      roleZones: world.roleZones.list(),
      entities: world.entities.map((entity) => ({
        name: entity.name,
        team: entity.team,
        x: torus.x(entity.cell),
        y: torus.y(entity.cell),
        role: entity.role.name,
        energy: entity.energy,
        deactivated: entity.deactivated,
        vision: entity.role.vision,
        action: entity.lastAction,
        actionParams: entity.lastActionParams,
        actionResult: entity.lastActionResult,
      })),
      attachments,
      clearAreas: this.#clearEvents.pending(step),
      markers: world
        .markerCells()
        .flatMap((cell) =>
          (world.markersAt(cell) ?? []).map((type) => ({ x: torus.x(cell), y: torus.y(cell), type })),
        ),
      scores: Object.fromEntries(this.#scores),
      tasks: this.#tasks.percepts(step),
      norms: this.#officer.percepts(step),
      violations: this.#officer.violations(step).map(({ norm, entity }) => ({ norm, agent: entity.name })),
      events: [...this.#events],
    };
  }

  staticInfo(): MassimWorldStatic {
    return {
      width: this.config.grid.width,
      height: this.config.grid.height,
      steps: this.steps,
      teams: this.teams,
      blockTypes: this.#blockTypes,
      maxEnergy: this.config.maxEnergy,
      roles: this.config.roles,
    };
  }
}

/** Whether the role allows an action type: `adapt` counts as `adopt`, `no_action` is always allowed. */
function isAllowed(entity: Entity, type: string): boolean {
  if (type === 'no_action') return true;
  return entity.role.actions.includes(type === 'adapt' ? 'adopt' : type);
}
