/**
 * The `.d.ts` text the policy editor loads for GAMA policies: the observation, the actions, the scavenger
 * an `act` call is about and the context, as global declarations.
 */
import { findScavengerScenario, SCAVENGER_ACTIONS } from '../../envs/scavenger';

const DECLARATIONS = `/**
 * What a scavenger sees, rotated so that it faces up; row 0 is the farthest ahead, the scavenger itself is
 * in the bottom row's centre. Legend (default): 0 empty, 1 resource, 2 another scavenger, 3 wall (and
 * outside the map), 4 the scavenger itself; 21 rows x 11 columns. RGB (an option): three planes (red,
 * green, blue) of 21 x 21 values from 0 to 255.
 */
type Observation = number[][] | number[][][];

/** The eight actions. Moves are relative to where the scavenger faces; move_back keeps the facing. */
type Action = ${SCAVENGER_ACTIONS.map((a) => `'${a}'`).join(' | ')};

/** The scavenger an act call is for. */
interface Scavenger {
  /** 'Scav. 1', 'Scav. 2'... */
  id: string;
  /** The number in the id. */
  number: number;
  /** The scenario GAMA announced (e.g. 'C_basic_single_entrance_region'). */
  scenario: string;
  /** The episode is over: this call's action is not carried out (a last chance to learn). */
  terminal: boolean;
  /** Kept for this scavenger across calls and episodes (one object per scavenger id). */
  memory: Record<string, any>;
}

/** What every call gets besides the observation. */
interface PolicyContext {
  /** Shared by every scavenger, kept across calls and episodes. */
  memory: Record<string, any>;
  /** A number in [0, 1), seeded with the session's seed: the same seed replays the same choices. */
  random(): number;
  /** Prints to the policy log, like console.log. */
  log(...values: unknown[]): void;
}

/**
 * The policy: export this function. The reward is the one earned by the scavenger's previous action
 * (5 per resource collected, else 0).
 */
declare function act(observation: Observation, reward: number, scavenger: Scavenger, context: PolicyContext): Action;
`;

/** The declarations for an environment (a scenario name or letter); the same for every scenario. */
export function gamaPolicyTypes(environment: string): string {
  const scenario = findScavengerScenario(environment);
  const header = scenario
    ? `// Scenario ${scenario.name}: ${scenario.description}\n`
    : '// GAMA scavengers\n';
  return header + DECLARATIONS;
}
