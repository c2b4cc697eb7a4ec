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
