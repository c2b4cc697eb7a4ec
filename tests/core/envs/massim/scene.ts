/**
 * Small hand-built worlds for action tests: an empty 20 x 20 grid without zones, events, norms, tasks or
 * random failures, where a setup script places exactly what a test needs. All agents are first parked in
 * the bottom row (agent i of the list A1.., B1.. at x = 2i), away from the action, then the script runs.
 */
import type {
  MassimAction,
  MassimSimConfig,
  MassimSimulation,
  MassimStepPercept,
} from '../../../../src/core/envs/massim/api';
import { createSimulation } from '../../../../src/core/envs/massim/index';

const ALL_ACTIONS = [
  'skip',
  'move',
  'rotate',
  'adopt',
  'detach',
  'clear',
  'request',
  'attach',
  'connect',
  'disconnect',
  'submit',
  'survey',
];

/** A configuration for scenes; `overrides` replace whole top-level keys. */
export function sceneConfig(overrides: Partial<MassimSimConfig> = {}): MassimSimConfig {
  return {
    steps: 50,
    randomFail: 0,
    agentsPerTeam: 1,
    clusterBounds: [1, 1],
    roles: [
      { name: 'default', vision: 5, actions: ALL_ACTIONS, speed: [1], clear: { chance: 1, maxDistance: 1 } },
      {
        name: 'worker',
        vision: 5,
        actions: ALL_ACTIONS,
        speed: [2, 1, 1, 0],
        clear: { chance: 1, maxDistance: 1 },
      },
      {
        name: 'explorer',
        vision: 7,
        actions: ALL_ACTIONS,
        speed: [3, 0],
        clear: { chance: 1, maxDistance: 1 },
      },
      {
        name: 'digger',
        vision: 5,
        actions: ALL_ACTIONS,
        speed: [1, 0],
        clear: { chance: 1, maxDistance: 5 },
      },
      {
        name: 'limited',
        vision: 5,
        actions: ['skip', 'move'],
        speed: [1],
        clear: { chance: 1, maxDistance: 1 },
      },
    ],
    clearEnergyCost: 2,
    deactivatedDuration: 3,
    maxEnergy: 100,
    refreshEnergy: 50,
    stepRecharge: 1,
    clearDamage: [32, 16, 8, 4, 2, 1],
    attachLimit: 10,
    grid: {
      width: 20,
      height: 20,
      instructions: [],
      goals: { number: 0, size: [1, 1], moveProbability: 0 },
      roleZones: { number: 0, size: [1, 1] },
    },
    blockTypes: [3, 3],
    dispensers: [0, 0],
    tasks: { size: [1, 1], concurrent: 0, iterations: [1, 1], maxDuration: [100, 100] },
    events: { chance: 0, radius: [1, 1], warning: 5, create: [0, 0], perimeter: 1 },
    regulation: { simultaneous: 0, chance: 0, subjects: [] },
    absolutePosition: true,
    ...overrides,
  };
}

/** What differs between the lively worlds of the property tests (see `livelyConfig`). */
export interface LivelyWorld {
  steps: number;
  randomFail: number;
  clusterBounds: [number, number];
  /** Grid width and height. */
  size: [number, number];
  /** Chance of a cave cell in the map generator's one pass. */
  caveChance: number;
  goals: { number: number; size: [number, number] };
  roleZones: { number: number; size: [number, number] };
  blockTypes: [number, number];
  dispensers: [number, number];
  tasks: { size: [number, number]; iterations: [number, number]; maxDuration: [number, number] };
  events: { chance: number; radius: [number, number] };
  /** How often norms come, what breaking Carry and Adopt costs, and Adopt's allowed share of a role. */
  norms: {
    chance: number;
    carryPunishment: [number, number];
    adoptPunishment: [number, number];
    adoptPlaying: number;
  };
}

/**
 * A small world where much happens, for property tests: three agents a team, caves, moving goal zones,
 * role zones, dispensers, tasks, clear events, and both norms (Carry, Adopt) drawn at once; `overrides`
 * replace whole top-level keys.
 */
export function livelyConfig(world: LivelyWorld, overrides: Partial<MassimSimConfig> = {}): MassimSimConfig {
  const { norms } = world;
  const subject = { announcement: [0, 2], duration: [2, 5], weight: 1 } as const;
  return sceneConfig({
    steps: world.steps,
    randomFail: world.randomFail,
    agentsPerTeam: 3,
    clusterBounds: world.clusterBounds,
    grid: {
      width: world.size[0],
      height: world.size[1],
      instructions: [
        { kind: 'cave', chance: world.caveChance, iterations: 1, createLimit: 5, destroyLimit: 4 },
      ],
      goals: { ...world.goals, moveProbability: 0.5 },
      roleZones: world.roleZones,
    },
    blockTypes: world.blockTypes,
    dispensers: world.dispensers,
    tasks: { ...world.tasks, concurrent: 3 },
    events: { ...world.events, warning: 2, create: [-1, 2], perimeter: 1 },
    regulation: {
      simultaneous: 2,
      chance: norms.chance,
      subjects: [
        { ...subject, name: 'Carry', punishment: norms.carryPunishment, quantity: [0, 1], playing: 100 },
        {
          ...subject,
          name: 'Adopt',
          punishment: norms.adoptPunishment,
          quantity: [0, 4],
          playing: norms.adoptPlaying,
        },
      ],
    },
    ...overrides,
  });
}

/** One action written as `['move', 'n']`. */
export type ActionWords = [string, ...string[]];

export interface Scene {
  sim: MassimSimulation;
  /** Executes one step with the given actions (others time out) and returns every agent's next percept. */
  act(actions: Record<string, ActionWords>): Record<string, MassimStepPercept>;
  percept(agent: string): MassimStepPercept;
  /** Absolute position of an agent. */
  at(agent: string): [number, number];
  /** What the world has in an absolute cell: block types, `obstacle`, `entity:<name>`. */
  cell(x: number, y: number): string[];
}

export function scene(
  setup: string,
  options: { config?: Partial<MassimSimConfig>; seed?: number } = {},
): Scene {
  const config = sceneConfig(options.config);
  const names = ['A', 'B'].flatMap((team) =>
    Array.from({ length: config.agentsPerTeam }, (_, i) => `agent${team}${i + 1}`),
  );
  // Twice, because a random start cell may be another agent's parking place until that agent moves.
  const parking = names.map((name, i) => `move ${i * 2} ${config.grid.height - 1} ${name}`);
  const sim = createSimulation(config, {
    seed: options.seed ?? 1,
    setup: [...parking, ...parking, setup].join('\n'),
  });
  const percept = (agent: string) => sim.requestActionPercept(agent);
  return {
    sim,
    percept,
    act(actions) {
      const joint = new Map<string, MassimAction>(
        Object.entries(actions).map(([agent, [type, ...p]]) => [agent, { type, p }]),
      );
      sim.step(joint);
      return Object.fromEntries(sim.agents.map((agent) => [agent, percept(agent)]));
    },
    at(agent) {
      const entity = sim.snapshot().entities.find((e) => e.name === agent)!;
      return [entity.x, entity.y];
    },
    cell(x, y) {
      const snapshot = sim.snapshot();
      const width = config.grid.width;
      return [
        ...snapshot.blocks.filter((b) => b.x === x && b.y === y).map((b) => b.type),
        ...snapshot.obstacles.filter((cell) => cell === y * width + x).map(() => 'obstacle'),
        ...snapshot.entities.filter((e) => e.x === x && e.y === y).map((e) => `entity:${e.name}`),
      ];
    },
  };
}
