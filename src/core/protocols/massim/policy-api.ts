/**
 * What a MASSim team policy sees and returns: `act(percept, agent, team)` is called for every agent of the
 * team at every step, and returns that agent's action. Self-contained on purpose (no imports), so the
 * editor can load this file as the policy's type declarations.
 *
 * Coordinates are relative to the agent: x grows to the east, y to the south, the agent is at (0, 0). The
 * grid wraps around (a torus), and agents never learn absolute positions (unless the server is configured
 * with `absolutePosition`).
 */

/** A compass direction: north (y - 1), south (y + 1), east (x + 1), west (x - 1). */
export type MassimDirection = 'n' | 's' | 'e' | 'w';

/** A rotation: clockwise or counter-clockwise, by 90 degrees around the agent. */
export type MassimRotation = 'cw' | 'ccw';

/** A number as an action parameter (sent as it is; the server reads every parameter as a string). */
export type MassimCoordinate = number | string;

/**
 * The action an agent performs. Parameters go in `p`, always an array (`[]` when there are none): the real
 * server stops reading an agent's connection for good when `p` is missing. Unknown types fail with
 * `failed_role`; a role only allows some types (see the sim-start `roles`).
 */
export type MassimPolicyAction =
  /** Do nothing (always `success`, unless the random failure hits). */
  | { type: 'skip'; p?: [] }
  /**
   * Move one cell per direction, in order, with everything attached; as many cells as the role's speed for
   * the number of attached things allows (`partial_success` when stopped early, `failed_path` when blocked
   * at once, `failed_parameter` for a bad direction).
   */
  | { type: 'move'; p: MassimDirection[] }
  /** Attach the thing (block, obstacle, teammate) on the adjacent cell in that direction. */
  | { type: 'attach'; p: [direction: MassimDirection] }
  /** Detach the thing directly attached on the adjacent cell in that direction. */
  | { type: 'detach'; p: [direction: MassimDirection] }
  /** Rotate the agent with everything attached (fails when any rotated cell is blocked). */
  | { type: 'rotate'; p: [rotation: MassimRotation] }
  /**
   * Connect a block of mine at (x, y) with a block of `agent` at its own (x, y); both agents must name each
   * other in the same step.
   */
  | { type: 'connect'; p: [agent: string, x: MassimCoordinate, y: MassimCoordinate] }
  /** Separate two directly attached things of my cluster, at (x1, y1) and (x2, y2). */
  | {
      type: 'disconnect';
      p: [x1: MassimCoordinate, y1: MassimCoordinate, x2: MassimCoordinate, y2: MassimCoordinate];
    }
  /** Ask the dispenser on the adjacent cell in that direction for a block (the cell must be free). */
  | { type: 'request'; p: [direction: MassimDirection] }
  /** Submit a task while standing in a goal zone with the required blocks attached at their positions. */
  | { type: 'submit'; p: [task: string] }
  /**
   * Clear the obstacle or block at (x, y) (within the role's `clear.maxDistance`); costs energy; damages
   * agents on that cell when cleared from farther than 1.
   */
  | { type: 'clear'; p: [x: MassimCoordinate, y: MassimCoordinate] }
  /**
   * `survey dispenser|goal|role`: distance to the nearest one (a `surveyed` event next step);
   * `survey x y`: name, role and energy of an agent in vision.
   */
  | {
      type: 'survey';
      p: [target: 'dispenser' | 'goal' | 'role'] | [x: MassimCoordinate, y: MassimCoordinate];
    }
  /** Take on a role while standing in a role zone (`adapt` is the server's alias). */
  | { type: 'adopt' | 'adapt'; p: [role: string] };

/** Every action type. */
export type MassimPolicyActionType = MassimPolicyAction['type'];

/** How an action ended, as `lastActionResult` reports it in the next percept. */
export type MassimActionResultName =
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

/** A role, as listed in the sim-start percept. */
export interface MassimRoleInfo {
  name: string;
  /** How far (Manhattan distance) an agent in this role sees. */
  vision: number;
  /** The action types this role may use. */
  actions: string[];
  /** Cells per move, indexed by the number of attached things (the last entry for more). */
  speed: number[];
  clear: {
    /** Probability that a clear does not fail at random. */
    chance: number;
    /** Farthest distance of a clear target. */
    maxDistance: number;
  };
}

/** The facts of a simulation, from its sim-start message. */
export interface MassimSimulationInfo {
  /** This agent's name. */
  name: string;
  team: string;
  /** Agents per team. */
  teamSize: number;
  /** Steps in this simulation (numbered from 0). */
  steps: number;
  roles: MassimRoleInfo[];
}

/**
 * Something in vision. `details`: the team for entities, the block type (`b0`, `b1`...) for blocks and
 * dispensers, `""` for obstacles, `clear` / `ci` (imminent) / `cp` (perimeter) for clear-event markers.
 */
export interface MassimThingPercept {
  x: number;
  y: number;
  type: 'entity' | 'block' | 'dispenser' | 'obstacle' | 'marker';
  details: string;
}

/** A block a task needs at (x, y) relative to the submitting agent. */
export interface MassimRequirementPercept {
  x: number;
  y: number;
  /** The block type. */
  type: string;
  details: string;
}

/** An active task. */
export interface MassimTaskInfo {
  name: string;
  /** The last step in which it can be submitted. */
  deadline: number;
  reward: number;
  /** Sorted by x, then y. */
  requirements: MassimRequirementPercept[];
}

/** An announced (from `start`) or active norm; breaking it costs `punishment` energy per step. */
export interface MassimNormInfo {
  name: string;
  start: number;
  until: number;
  punishment: number;
  /** At most `quantity` blocks (`name: "any"`, type block) or agents in role `name` (type role). */
  requirements: { type: 'block' | 'role'; name: string; quantity: number }[];
}

/** Something that happened to the agent in the previous step. */
export type MassimEventInfo =
  | { type: 'surveyed'; target: 'dispenser' | 'goal' | 'role'; distance: number }
  | { type: 'surveyed'; target: 'agent'; name: string; role: string; energy: number }
  | { type: 'hit'; damage: number; origin: [number, number] };

/** What the agent perceives at a step (the request-action percept). */
export interface MassimStepPerceptInfo {
  /** The team's score so far. */
  score: number;
  energy: number;
  /** A deactivated agent's actions fail with `failed_status` until it recovers. */
  deactivated: boolean;
  /** The agent's current role. */
  role: string;
  /** What was executed in the previous step: `no_action` when no action arrived in time; `""` at step 0. */
  lastAction: string;
  /** Parameters of the previous action, as strings. */
  lastActionParams: string[];
  /** Result of the previous action; `""` at step 0. */
  lastActionResult: MassimActionResultName | '';
  /** Everything in vision, the agent itself included at (0, 0). */
  things: MassimThingPercept[];
  /** Positions of visible things attached to some agent (not only this one), the agent excluded. */
  attached: [number, number][];
  /** Visible goal zone cells (submit there). */
  goalZones: [number, number][];
  /** Visible role zone cells (adopt there). */
  roleZones: [number, number][];
  tasks: MassimTaskInfo[];
  norms: MassimNormInfo[];
  /** Names of the norms the agent was punished for at this step. */
  violations: string[];
  events: MassimEventInfo[];
  /** Only with the server option `absolutePosition`. */
  absolutePosition?: [number, number];
}

/** The agent an `act` call is about, with memory kept for it across steps and simulations. */
export interface MassimAgentContext {
  /** Account name, e.g. `agentA1`. */
  readonly name: string;
  readonly team: string;
  /** The step to act in (from 0). */
  readonly step: number;
  /**
   * The current simulation's facts; undefined when the server never sent them (the real server can lose the
   * sim-start it re-sends after a reconnection).
   */
  readonly simulation: MassimSimulationInfo | undefined;
  /** Epoch milliseconds by which the action must arrive; later ones are dropped (the agent does nothing). */
  readonly deadline: number;
  /** Anything this agent wants to remember; kept between calls. */
  memory: Record<string, unknown>;
}

/** The team, with memory shared by all of its agents. */
export interface MassimTeamContext {
  readonly name: string;
  /** The team's agents in this simulation. */
  readonly agents: readonly string[];
  /** Anything the team wants to share between its agents; kept between calls. */
  memory: Record<string, unknown>;
}

/** A team policy: one function deciding every agent's action, called once per agent per step. */
export type MassimAct = (
  percept: MassimStepPerceptInfo,
  agent: MassimAgentContext,
  team: MassimTeamContext,
) => MassimPolicyAction | Promise<MassimPolicyAction>;
