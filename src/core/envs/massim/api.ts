/**
 * The contract between the MASSim 2022 "Agents Assemble III" scenario and everything that uses it: the
 * MASSim protocol host (which owns ids, deadlines, sockets and message framing), the command line, the
 * world view and the policy typings. The scenario knows nothing about the wire: it turns a configuration and
 * a seed into a world, hands out the exact JSON objects the real server puts inside its messages, and
 * executes one joint action per step. Types live here; functions are exported from `./index`.
 *
 * Step cycle as the real server runs it, and as `MassimSimulation` exposes it:
 * 1. `createSimulation` builds the world and runs the preparation of step 0 (markers, norms, tasks, energy,
 *    clear events); `currentStep` is 0.
 * 2. The host sends `simStartPercept(agent)` once per agent, then for the current step
 *    `requestActionPercept(agent)` to every agent and collects actions until all answered or the deadline.
 * 3. `step(actions)` executes the joint action of `currentStep` and prepares the next step; `currentStep`
 *    grows by one. After `steps` calls `isFinished` is true and `simEndContent(agent)` gives the final result.
 */

/** A JSON value as `JSON.parse` returns it; configurations arrive in this form before validation. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** An inclusive integer range `[lower, upper]`, as the real configuration writes bounds. */
export type Bounds = readonly [number, number];

// ---------------------------------------------------------------------------------------------------------
// Configuration (the real server's file format)
// ---------------------------------------------------------------------------------------------------------

/** The `server` block of a configuration file; the scenario ignores it, the protocol host needs it. */
export interface MassimServerSettings {
  tournamentMode: 'round-robin' | 'manual' | 'random';
  teamsPerMatch: number;
  /** `"key"` (start on ENTER), `"<n>s"` (after n seconds) or `"HH:mm"`. */
  launch: string;
  port: number;
  backlog: number;
  /** Milliseconds an agent has to answer a request-action. */
  agentTimeout: number;
  resultPath: string;
  /** `debug`, `normal`, `error` or `critical` (anything else counts as `normal`). */
  logLevel: string;
  logPath: string;
  replayPath: string;
  /** Frames longer than this many bytes are discarded by the server's receive loop. */
  maxPacketLength: number;
  /** Pause after every simulation (also after the last one) in milliseconds; the real default is 0. */
  waitBetweenSimulations: number;
}

/** A team that can log in: accounts are `prefix + name + i` for i = 1..(largest team size over all sims). */
export interface MassimTeamAccount {
  name: string;
  prefix: string;
  password: string;
}

/** One role as configured, already merged with the default role (the first one) as the real server does. */
export interface MassimRoleConfig {
  name: string;
  /** Manhattan radius of what an agent in this role perceives. */
  vision: number;
  /** Allowed action types. Later roles get the default role's actions added to their own. */
  actions: readonly string[];
  /** Cells per move, indexed by the number of things in the agent's attached cluster (last entry for more). */
  speed: readonly number[];
  clear: {
    /** Probability in [0, 1] that a `clear` does not fail with `failed_random`. */
    chance: number;
    /** Largest Manhattan distance of a `clear` target. */
    maxDistance: number;
  };
}

/**
 * One instruction of the obstacle generator, in configuration order: `["cave", chance, iterations,
 * createLimit, destroyLimit]`, `["line-border", width]` or `["ragged-border", width]`.
 */
export type MassimGridInstruction =
  | { kind: 'cave'; chance: number; iterations: number; createLimit: number; destroyLimit: number }
  | { kind: 'line-border'; width: number }
  | { kind: 'ragged-border'; width: number };

/** The `grid` block of a simulation. */
export interface MassimGridConfig {
  width: number;
  height: number;
  instructions: readonly MassimGridInstruction[];
  goals: { number: number; size: Bounds; moveProbability: number };
  roleZones: { number: number; size: Bounds };
  /** A bitmap map file named by the configuration; recorded, but maps are generated (see the scenario notes). */
  file?: string;
}

/** One norm template of the `regulation` block. */
export interface MassimNormSubjectConfig {
  /** `Carry`, `Adopt`, or the real server's undocumented `RoleIndividual`. */
  name: 'Carry' | 'Adopt' | 'RoleIndividual';
  announcement: Bounds;
  duration: Bounds;
  punishment: Bounds;
  weight: number;
  /** Carry: bounds of the allowed number of attached things (default [0, 4]). */
  quantity: Bounds;
  /** Adopt: percentage of the largest team's count of the chosen role that is allowed (default 100). */
  playing: number;
}

/** One simulation of a match (an element of the configuration's `match` array), validated and completed. */
export interface MassimSimConfig {
  /** Ignored by the real server (the simulation name is generated); kept for display. */
  id?: string;
  steps: number;
  /** The configured seed, if any; `createSimulation` uses it when no seed is given. */
  randomSeed?: number;
  /** Percentage of actions that fail with `failed_random`. */
  randomFail: number;
  /** Agents per team: the sum of the `entities` counts (their names are ignored, as by the real server). */
  agentsPerTeam: number;
  clusterBounds: Bounds;
  /** Roles in configuration order; the first is the default role every agent starts with. */
  roles: readonly MassimRoleConfig[];
  clearEnergyCost: number;
  deactivatedDuration: number;
  maxEnergy: number;
  refreshEnergy: number;
  stepRecharge: number;
  /** Energy lost by an entity hit by a clear from distance d is `clearDamage[d]` (last entry beyond). */
  clearDamage: readonly number[];
  attachLimit: number;
  grid: MassimGridConfig;
  /** How many block types (`b0`, `b1`, ...) are drawn. */
  blockTypes: Bounds;
  /** Dispensers per block type. */
  dispensers: Bounds;
  tasks: { size: Bounds; concurrent: number; iterations: Bounds; maxDuration: Bounds };
  events: { chance: number; radius: Bounds; warning: number; create: Bounds; perimeter: number };
  regulation: { simultaneous: number; chance: number; subjects: readonly MassimNormSubjectConfig[] };
  /** When true, request-action percepts carry `absolutePosition`. */
  absolutePosition: boolean;
  /** Path of a setup script as written in the configuration; the host reads it and passes its text. */
  setup?: string;
}

/** A whole configuration file: server settings, the simulations of each match, and the teams. */
export interface MassimServerConfig {
  server: MassimServerSettings;
  match: readonly MassimSimConfig[];
  teams: readonly MassimTeamAccount[];
  /** `manual-mode`: the team names of each match, for `tournamentMode: "manual"`. */
  manualMode?: readonly (readonly string[])[];
}

/**
 * Reads the text of an included file for the `"$(relative/path.json)"` syntax. The parser resolves the
 * written path against the directory of the including file (as the real server does) and passes the result,
 * normalised with `/` separators (e.g. `conf/sim/roles/standard.json` for `"$(roles/standard.json)"` inside
 * `conf/sim/sim1.json`). Returns the text, or undefined when there is no such file.
 */
export type MassimIncludeReader = (path: string) => string | undefined;

/** Options of `parseMassimConfig`. */
export interface MassimConfigParseOptions {
  /** Name of the text, for error locations and include resolution (e.g. `SampleConfig.json`). */
  source?: string;
  /** Resolves `"$(...)"` includes; without it, an include is a located error. */
  readInclude?: MassimIncludeReader;
}

/**
 * Parses a real server configuration file (with includes resolved), filling the keys the real server treats
 * as optional. Throws a `ProtoplayError` with a location for invalid JSON or a missing/ill-typed key.
 */
export type ParseMassimConfig = (text: string, options?: MassimConfigParseOptions) => MassimServerConfig;

/**
 * Validates and completes one simulation object (an element of `match`) that is already JSON. Throws a
 * `ProtoplayError` naming the key path (e.g. `match[0].grid.width`) when something is missing or ill-typed.
 */
export type ParseMassimSimConfig = (json: JsonValue, path?: string) => MassimSimConfig;

/** Quick configurations for the playground and the command line (`--teams --agents --steps --grid`). */
export interface MassimQuickSetup {
  /** Team names, default `["A", "B"]`. */
  teams?: readonly string[];
  /** Agents per team, default 5. */
  agentsPerTeam?: number;
  /** Default 200. */
  steps?: number;
  /** Default 40 x 40. */
  width?: number;
  height?: number;
}

/** Builds a complete configuration (default scenario keys, teams with prefix `agent` and password `1`). */
export type CreateMassimQuickConfig = (setup?: MassimQuickSetup) => MassimServerConfig;

/**
 * The account names of a team: `prefix + team + i` for i = 1..(largest `agentsPerTeam` over all simulations);
 * a simulation with fewer agents uses the first ones.
 */
export type MassimAccountNames = (config: MassimServerConfig, team: MassimTeamAccount) => string[];

// ---------------------------------------------------------------------------------------------------------
// Percepts: the exact JSON objects of the real server's messages (same keys, same value types)
// ---------------------------------------------------------------------------------------------------------

/** A role as sent in sim-start (`roles` lists every configured role). */
export interface MassimRolePercept {
  vision: number;
  name: string;
  clear: { chance: number; maxDistance: number };
  actions: string[];
  speed: number[];
}

/** `content.percept` of sim-start. */
export interface MassimSimStartPercept {
  /** Agents per team in this simulation. */
  teamSize: number;
  roles: MassimRolePercept[];
  name: string;
  team: string;
  steps: number;
}

/** The kinds of things an agent perceives. */
export type MassimThingType = 'entity' | 'block' | 'dispenser' | 'obstacle' | 'marker';

/**
 * A thing in vision, relative to the agent. `details`: team name for entities, block type for blocks and
 * dispensers, `""` for obstacles, `clear` / `ci` (imminent) / `cp` (perimeter) for markers.
 */
export interface MassimThing {
  x: number;
  y: number;
  details: string;
  type: MassimThingType;
}

/** A requirement of a task: a block of `type` at (x, y) relative to the submitting agent; `details` is "". */
export interface MassimTaskRequirement {
  x: number;
  y: number;
  details: string;
  type: string;
}

/** An active task. */
export interface MassimTaskPercept {
  reward: number;
  /** Sorted by x, then y. */
  requirements: MassimTaskRequirement[];
  name: string;
  /** Last step in which it can be submitted. */
  deadline: number;
}

/** A norm requirement: at most `quantity` of `name` (`any` block, or a role name). */
export interface MassimNormRequirement {
  quantity: number;
  name: string;
  type: 'block' | 'role';
}

/** An announced or active norm. The real server sends no `level` key (its documentation shows one). */
export interface MassimNormPercept {
  requirements: MassimNormRequirement[];
  punishment: number;
  name: string;
  start: number;
  until: number;
}

/** Events delivered in the percept after the step that caused them. */
export type MassimEventPercept =
  | { distance: number; type: 'surveyed'; target: 'dispenser' | 'goal' | 'role' }
  | { role: string; name: string; type: 'surveyed'; target: 'agent'; energy: number }
  | { damage: number; origin: [number, number]; type: 'hit' };

/** `content.percept` of request-action. Key order follows the real server's output where it matters. */
export interface MassimStepPercept {
  lastActionParams: string[];
  /** Only present when the simulation's `absolutePosition` is true. */
  absolutePosition?: [number, number];
  role: string;
  /** Names of the norms this agent was punished for in this step. */
  violations: string[];
  deactivated: boolean;
  /** Visible goal zone cells, relative. */
  goalZones: [number, number][];
  roleZones: [number, number][];
  /** Team score so far. */
  score: number;
  /** As sent (`"fly"`, `"adapt"` stay as they are); `no_action` after a timeout; `""` at step 0. */
  lastAction: string;
  norms: MassimNormPercept[];
  /** Everything visible, the agent itself included at (0, 0). */
  things: MassimThing[];
  /** Visible attachables that are attached (transitively) to some entity, other than the agent itself. */
  attached: [number, number][];
  /** `""` at step 0; otherwise one of `MassimActionResult`. */
  lastActionResult: string;
  tasks: MassimTaskPercept[];
  events: MassimEventPercept[];
  energy: number;
}

/** Numbers for texts, the same number for the same text (the transcript store's `PhraseBook` is one). */
export interface MassimPhraseBook {
  intern(text: string): number;
}

/**
 * Where a percept's JSON text is written: a sequence of phrase numbers of one book, whose texts joined give
 * the text. A transcript can keep such a message as the numbers alone.
 */
export interface MassimPhraseOutput {
  readonly book: MassimPhraseBook;
  push(phrase: number): void;
}

/** `content` of sim-end without `time` (the host adds it). */
export interface MassimSimEndContent {
  score: number;
  /** 1-based; teams with equal scores still get distinct ranks, as the real server does. */
  ranking: number;
}

// ---------------------------------------------------------------------------------------------------------
// Actions
// ---------------------------------------------------------------------------------------------------------

/** Every action type the scenario knows (`adapt` is the real server's alias of `adopt`). */
export type MassimActionType =
  | 'skip'
  | 'move'
  | 'attach'
  | 'detach'
  | 'rotate'
  | 'connect'
  | 'disconnect'
  | 'request'
  | 'submit'
  | 'clear'
  | 'survey'
  | 'adopt'
  | 'adapt';

/**
 * An agent's action as the protocol host decoded it: `type` as sent (an unknown type fails with
 * `failed_role`), `p` with every element already converted to a string (numbers → `"1"`, null → `""`).
 */
export interface MassimAction {
  type: string;
  p: readonly string[];
}

/** Every result an action can have. */
export type MassimActionResult =
  | 'success'
  | 'partial_success'
  | 'failed'
  | 'failed_parameter'
  | 'failed_path'
  | 'failed_target'
  | 'failed_blocked'
  | 'failed_partner'
  | 'failed_role'
  | 'failed_random'
  | 'failed_status'
  | 'failed_location'
  | 'failed_resources';

/**
 * The joint action of one step. An agent that is missing (or mapped to undefined) did not answer in time:
 * it performs `no_action`, which succeeds unless the agent is deactivated or the random failure hits.
 */
export type MassimJointAction = ReadonlyMap<string, MassimAction | undefined>;

// ---------------------------------------------------------------------------------------------------------
// The simulation
// ---------------------------------------------------------------------------------------------------------

/** A team in this simulation with its agents, in account order (`agentA1`, `agentA2`, ...). */
export interface MassimTeam {
  name: string;
  agents: readonly string[];
}

/** Options of `createSimulation`. */
/** See `MassimSimulationOptions.semantics`. */
export type MassimSemantics = 'protoplay' | 'massim';

export interface MassimSimulationOptions {
  /** PRNG seed; defaults to the configuration's `randomSeed`, else 0. Same seed + actions = same run. */
  seed?: number;
  /**
   * Whose random numbers: `protoplay` (default) draws from Protoplay's generator; `massim` draws from
   * `java.util.Random` in the real MASSim 2022 server's order, so a configuration and seed give the real
   * server's world: obstacles, zones, agents' start cells, dispensers, tasks, norms and clear events (see
   * docs/massim-scenario.md for what stays different).
   */
  semantics?: MassimSemantics;
  /**
   * The teams of this match, in order; agents are `prefix + name + i` for i = 1..agentsPerTeam.
   * Defaults to teams A and B with prefix `agent`.
   */
  teams?: readonly Pick<MassimTeamAccount, 'name' | 'prefix'>[];
  /**
   * The text of a setup script run after map generation (the real server's `setup` file: `move`, `add`,
   * `create task`, `attach`, `terrain` commands, one per line). Malformed lines are located errors.
   */
  setup?: string;
}

/** A clear area as the world view draws it. */
export interface MassimClearArea {
  x: number;
  y: number;
  radius: number;
  /** Steps until it fires: it fires while step `snapshot.step + stepsLeft` is prepared. */
  stepsLeft: number;
}

/** A zone (Manhattan diamond) in absolute coordinates. */
export interface MassimZone {
  x: number;
  y: number;
  radius: number;
}

/** An entity in the world snapshot. */
export interface MassimEntitySnapshot {
  name: string;
  team: string;
  x: number;
  y: number;
  role: string;
  energy: number;
  deactivated: boolean;
  vision: number;
  /** What was executed in the last step, as in the percept. */
  action: string;
  actionParams: readonly string[];
  actionResult: string;
}

/** Something that happened during the last step, for the world view and the timeline. */
export type MassimWorldEvent =
  | { type: 'task completed'; task: string; team: string; agent: string; reward: number }
  | { type: 'clear event'; x: number; y: number; radius: number }
  | { type: 'norm violated'; norm: string; agent: string; punishment: number };

/**
 * The world after a step (or after the preparation of step 0), compact enough to take every step.
 * Coordinates are absolute (0 ≤ x < width, 0 ≤ y < height); cells are `y * width + x`.
 */
export interface MassimWorldSnapshot {
  /** The step whose percepts this world produces (0 before any action; `steps` when finished). */
  step: number;
  /**
   * Obstacle cells in ascending order. Consecutive snapshots share the same array while obstacles do not
   * change (read-only).
   */
  obstacles: readonly number[];
  blocks: { x: number; y: number; type: string }[];
  dispensers: { x: number; y: number; type: string }[];
  goalZones: MassimZone[];
  roleZones: MassimZone[];
  entities: MassimEntitySnapshot[];
  /** Attachment links between attachables, as cell pairs `[x1, y1, x2, y2]`. */
  attachments: [number, number, number, number][];
  /** Announced clear areas with their markers' geometry. */
  clearAreas: MassimClearArea[];
  /** Markers of this step (what agents see). */
  markers: { x: number; y: number; type: 'clear' | 'ci' | 'cp' }[];
  scores: Record<string, number>;
  tasks: MassimTaskPercept[];
  norms: MassimNormPercept[];
  violations: { norm: string; agent: string }[];
  /** What happened while executing the previous step and preparing this one. */
  events: MassimWorldEvent[];
}

/** The parts of a simulation that do not change, for the world view. */
export interface MassimWorldStatic {
  width: number;
  height: number;
  steps: number;
  teams: readonly MassimTeam[];
  blockTypes: readonly string[];
  maxEnergy: number;
  roles: readonly MassimRoleConfig[];
}

/** A running simulation. Stateful for speed; all randomness comes from one seeded generator. */
export interface MassimSimulation {
  readonly config: MassimSimConfig;
  readonly seed: number;
  /** Teams in match order with their agent names. */
  readonly teams: readonly MassimTeam[];
  /** Every agent of every team, team by team. */
  readonly agents: readonly string[];
  /** Total number of steps. */
  readonly steps: number;
  /** The step whose percepts are current and whose actions `step` executes next. */
  readonly currentStep: number;
  /** True after `steps` calls to `step`. */
  readonly isFinished: boolean;
  /** The team of an agent, or undefined for a name that is not in this simulation. */
  teamOf(agent: string): string | undefined;
  /** The sim-start percept of an agent (the same object every time, as the real server re-sends it). */
  simStartPercept(agent: string): MassimSimStartPercept;
  /**
   * The request-action percept of an agent for `currentStep`. The simulation never changes it afterwards, so
   * the caller may keep it; it must not change it either, since `tasks` and `norms` are shared by all agents
   * of a step.
   */
  requestActionPercept(agent: string): MassimStepPercept;
  /**
   * Writes the JSON text of `requestActionPercept(agent)` as phrases: exactly what `JSON.stringify` makes of
   * that object, several times faster and without building it.
   */
  writeRequestActionPercept(agent: string, out: MassimPhraseOutput): void;
  /** Executes the joint action of `currentStep`, then prepares the next step. Throws once finished. */
  step(actions: MassimJointAction): void;
  /** Team scores in match order. */
  scores(): { team: string; score: number }[];
  /** The sim-end content of an agent (valid at any time; the host sends it once `isFinished`). */
  simEndContent(agent: string): MassimSimEndContent;
  /** The world as the world view draws it. */
  snapshot(): MassimWorldSnapshot;
  /** What never changes during the simulation. */
  staticInfo(): MassimWorldStatic;
}

/** Creates a simulation from one element of a configuration's `match` list. */
export type CreateMassimSimulation = (
  config: MassimSimConfig,
  options?: MassimSimulationOptions,
) => MassimSimulation;

/**
 * A deliberate decision about a real-server quirk, shown in the UI's scenario notes.
 * `faithful`: reproduced as the real server does it; `simplified`: behaves differently in a way agents
 * cannot observe (or can only observe as different random draws); `fixed`: the real server's crash or
 * undefined behaviour replaced by a sane one.
 */
export interface MassimScenarioNote {
  id: string;
  title: string;
  decision: 'faithful' | 'simplified' | 'fixed';
  text: string;
}
