/**
 * Ready-made configurations: the playground's default (2 teams x 5 agents on 40 x 40, 200 steps), quick
 * setups for the command line, and the contest's sample match (20 agents per team on 70 x 70, then 40 per
 * team on 100 x 100, 750 steps each) with the standard roles and norms.
 */
import type {
  CreateMassimQuickConfig,
  MassimNormSubjectConfig,
  MassimQuickSetup,
  MassimRoleConfig,
  MassimServerConfig,
  MassimServerSettings,
  MassimSimConfig,
} from './api';

/** The standard roles of the 2022 contest, already merged with the default role. */
export function standardRoles(): MassimRoleConfig[] {
  const basic = ['skip', 'move', 'rotate', 'adopt', 'detach', 'clear'];
  const building = [...basic, 'request', 'attach', 'connect', 'disconnect', 'submit'];
  const usual = { chance: 0.7, maxDistance: 1 };
  return [
    { name: 'default', vision: 5, actions: basic, speed: [1], clear: usual },
    { name: 'worker', vision: 5, actions: building, speed: [2, 1, 1, 0], clear: usual },
    { name: 'constructor', vision: 5, actions: building, speed: [1], clear: usual },
    { name: 'explorer', vision: 7, actions: [...basic, 'attach', 'survey'], speed: [3, 0], clear: usual },
    { name: 'digger', vision: 5, actions: basic, speed: [1, 0], clear: { chance: 1, maxDistance: 5 } },
  ];
}

/** The standard norm templates: two Carry and two Adopt variants. */
function standardNormSubjects(): MassimNormSubjectConfig[] {
  const template = (
    name: 'Carry' | 'Adopt',
    announcement: [number, number],
    duration: [number, number],
    punishment: [number, number],
    weight: number,
    option: { quantity?: [number, number]; playing?: number },
  ): MassimNormSubjectConfig => ({
    name,
    announcement,
    duration,
    punishment,
    weight,
    quantity: option.quantity ?? [0, 4],
    playing: option.playing ?? 100,
  });
  return [
    template('Carry', [5, 10], [5, 10], [10, 10], 10, { quantity: [0, 1] }),
    template('Carry', [10, 15], [10, 30], [2, 3], 15, { quantity: [2, 5] }),
    template('Adopt', [40, 50], [10, 30], [1, 3], 5, { playing: 0 }),
    template('Adopt', [40, 50], [20, 40], [2, 3], 15, { playing: 50 }),
  ];
}

/** Server settings as shipped, with launch after 5 s instead of waiting for ENTER. */
export function defaultServerSettings(): MassimServerSettings {
  return {
    tournamentMode: 'round-robin',
    teamsPerMatch: 2,
    launch: '5s',
    port: 12300,
    backlog: 10000,
    agentTimeout: 4000,
    resultPath: 'results',
    logLevel: 'normal',
    logPath: 'logs',
    replayPath: 'replays',
    maxPacketLength: 65536,
    waitBetweenSimulations: 5000,
  };
}

/** The first simulation of the contest's sample match: 20 agents per team on 70 x 70, 750 steps. */
export function sampleSimConfig(size: 'small' | 'large' = 'small'): MassimSimConfig {
  const large = size === 'large';
  return {
    steps: 750,
    randomSeed: 17,
    randomFail: 1,
    agentsPerTeam: large ? 40 : 20,
    clusterBounds: [1, 3],
    roles: standardRoles(),
    clearEnergyCost: 2,
    deactivatedDuration: 10,
    maxEnergy: 100,
    refreshEnergy: 50,
    stepRecharge: 1,
    clearDamage: [32, 16, 8, 4, 2, 1],
    attachLimit: 10,
    grid: {
      width: large ? 100 : 70,
      height: large ? 100 : 70,
      instructions: [{ kind: 'cave', chance: 0.6, iterations: 2, createLimit: 5, destroyLimit: 4 }],
      goals: { number: large ? 7 : 4, size: [1, 3], moveProbability: 0.1 },
      roleZones: { number: 5, size: [3, 5] },
    },
    blockTypes: [3, 3],
    dispensers: [5, 10],
    tasks: {
      size: large ? [2, 4] : [1, 4],
      concurrent: large ? 3 : 2,
      iterations: [5, 10],
      maxDuration: [100, 200],
    },
    events: { chance: 15, radius: [3, 5], warning: 5, create: [-3, 1], perimeter: 2 },
    regulation: { simultaneous: 1, chance: 15, subjects: standardNormSubjects() },
    absolutePosition: false,
  };
}

/** The contest's sample configuration: one match of two simulations between teams A and B. */
export function sampleMassimConfig(): MassimServerConfig {
  return {
    server: defaultServerSettings(),
    match: [sampleSimConfig('small'), sampleSimConfig('large')],
    teams: [
      { name: 'A', prefix: 'agent', password: '1' },
      { name: 'B', prefix: 'agent', password: '1' },
    ],
  };
}

/**
 * A one-simulation configuration of the given shape. Zones, dispensers and tasks are scaled from the sample
 * configuration to the grid's area, so a small playground map is as busy per cell as the contest's. The
 * cave is thinner than the contest's (a third of the cells are obstacles instead of about 60%), so that
 * simple first policies can move around.
 */
export const quickMassimConfig: CreateMassimQuickConfig = (setup: MassimQuickSetup = {}) => {
  const teams = setup.teams ?? ['A', 'B'];
  const width = setup.width ?? 40;
  const height = setup.height ?? 40;
  const scale = (width * height) / (70 * 70);
  const atLeast = (minimum: number, x: number) => Math.max(minimum, Math.round(x));
  const base = sampleSimConfig('small');
  const sim: MassimSimConfig = {
    ...base,
    steps: setup.steps ?? 200,
    agentsPerTeam: setup.agentsPerTeam ?? 5,
    grid: {
      ...base.grid,
      width,
      height,
      instructions: [{ kind: 'cave', chance: 0.5, iterations: 2, createLimit: 5, destroyLimit: 4 }],
      goals: { ...base.grid.goals, number: atLeast(2, 4 * scale) },
      roleZones: { number: atLeast(1, 5 * scale), size: scale < 0.5 ? [2, 4] : [3, 5] },
    },
    dispensers: [atLeast(1, 5 * scale), atLeast(2, 10 * scale)],
    tasks: { ...base.tasks, size: [1, 3], concurrent: atLeast(2, 3 * scale) },
  };
  delete sim.randomSeed;
  return {
    server: { ...defaultServerSettings(), teamsPerMatch: teams.length },
    match: [sim],
    teams: teams.map((name) => ({ name, prefix: 'agent', password: '1' })),
  };
};
