/**
 * The Wumpus cave: an MDP of Protoplay's own design in the style of the course's cave games. The agent
 * starts on the stairs (`S`) of a cave drawn as text, first spends its skill points (4) on agility and
 * fighting, then walks (`NORTH`, `EAST`, `SOUTH`, `WEST`) collecting gold (`G`) and climbs out with `EXIT`
 * on the stairs: the outcome is the gold brought out. Dice decide the risky parts:
 *
 * - a bridge (`B`): 1d6 + agility of 7 or more crosses it; 2 or less falls (the run ends with 0); in
 *   between, the agent hesitates and stays where it was;
 * - a wumpus (`W`): walking into it is a fight, 1d6 + fighting against 1d6 + 3: a win kills it (its cell
 *   becomes floor), a loss wounds the agent, who stays where it was; a second wound kills (outcome 0);
 * - a pit (`P`) kills; a wall (`X`) is bumped into.
 *
 * After `maxSteps` moves (100) the agent is lost in the dark (outcome 0). The percept is the map (gold
 * collected and wumpuses killed removed), the skill points, the free points left, and the history of every
 * action with its outcome (where the agent ended, what it collected or killed, what happened). Each
 * position is `[x, y]`, x the column and y the line, from 0 at the top left.
 */
import {
  DEFAULT_ENV_SETTINGS,
  type AisysEnvironment,
  type AisysEnvironmentClass,
  type EnvRandom,
  type JsonValue,
} from './api';
import { pythonRepr } from './python';

/** The default cave: one gold on the floor, one behind a bridge, one in a dead end the wumpus guards. */
export const DEFAULT_CAVE = [
  'XXXXXXXXX',
  'XS..B..GX',
  'X.XX.XXXX',
  'X.P..WG.X',
  'X.XX.XXXX',
  'XG..B...X',
  'XXXXXXXXX',
].join('\n');

/** The four moves and their steps. */
const MOVES: Readonly<Record<string, readonly [number, number]>> = {
  NORTH: [0, -1],
  EAST: [1, 0],
  SOUTH: [0, 1],
  WEST: [-1, 0],
};

/** What happened to the agent in one action. */
type Event =
  'moved' | 'bumped' | 'hesitated' | 'crossed' | 'fell' | 'fought' | 'wounded' | 'killed' | 'lost' | 'exited';

/** The outcome of an action, as the history shows it. */
export type CaveOutcome = {
  position: [number, number];
  event: Event;
  'collected-gold-at'?: [number, number];
  'killed-wumpus-at'?: [number, number];
};

/** A run of the cave. */
export type CaveState = {
  phase: 'skills' | 'explore';
  position: [number, number];
  agility: number;
  fighting: number;
  /** Cells whose gold was collected or whose wumpus was killed, as `x,y`. */
  cleared: string[];
  gold: number;
  wounds: number;
  steps: number;
  history: { action: JsonValue; outcome: CaveOutcome | { skills: { agility: number; fighting: number } } }[];
};

/** The cave's config: the map, the skill points to spend, the most moves. */
interface CaveConfig {
  map: string[];
  skillPoints: number;
  maxSteps: number;
}

function readConfig(config: JsonValue): CaveConfig {
  const given = config !== null && typeof config === 'object' && !Array.isArray(config) ? config : {};
  const map = (typeof given.map === 'string' ? given.map : DEFAULT_CAVE).split('\n');
  const number = (value: JsonValue | undefined, fallback: number) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
  return { map, skillPoints: number(given.skill_points, 4), maxSteps: number(given.max_steps, 100) };
}

const d6 = (random: EnvRandom) => 1 + random.nextInt(6);

/** The Wumpus cave with a JSON config `{map?, skill_points?, max_steps?}`. */
export function createWumpusCave(config: JsonValue): AisysEnvironment<CaveState> {
  const { map, skillPoints, maxSteps } = readConfig(config);
  const cell = (x: number, y: number) => map[y]?.[x] ?? 'X';
  const start = ((): [number, number] => {
    for (let y = 0; y < map.length; y++) {
      const x = map[y]!.indexOf('S');
      if (x >= 0) return [x, y];
    }
    return [1, 1];
  })();

  function percept(state: CaveState): JsonValue {
    const cleared = new Set(state.cleared);
    const shown = map.map((line, y) =>
      [...line].map((char, x) => (cleared.has(`${x},${y}`) ? '.' : char)).join(''),
    );
    return {
      map: shown.join('\n'),
      'skill-points': { agility: state.agility, fighting: state.fighting },
      'free-skill-points': state.phase === 'skills' ? skillPoints : 0,
      history: state.history as JsonValue,
    };
  }

  return {
    settings: { ...DEFAULT_ENV_SETTINGS, minRunsForFullyEvaluated: 20, canAbandonRuns: true },

    newRun: () => ({
      phase: 'skills',
      position: start,
      agility: 0,
      fighting: 0,
      cleared: [],
      gold: 0,
      wounds: 0,
      steps: 0,
      history: [],
    }),

    percept: (run) => percept(run.state),

    act(action, run, random, received) {
      const state = run.state;
      // The action as Python holds it, for the messages that show it.
      const shown = () => received?.repr() ?? pythonRepr(action);
      if (state.phase === 'skills') {
        const skills = readSkills(action, skillPoints);
        if (!skills)
          return {
            ok: false,
            message: `Bad action: ${shown()} (first spend your ${skillPoints} skill points: {"agility": a, "fighting": f})`,
          };
        return {
          ok: true,
          state: {
            ...state,
            phase: 'explore',
            ...skills,
            history: [...state.history, { action, outcome: { skills } }],
          },
          message: `Skills: agility ${skills.agility}, fighting ${skills.fighting}`,
        };
      }
      if (action === 'EXIT') {
        if (cell(...state.position) !== 'S')
          return { ok: false, message: 'You can only EXIT on the stairs (S)' };
        return finish(
          state,
          action,
          { position: state.position, event: 'exited' },
          state.gold,
          `You climbed out with ${state.gold} gold`,
        );
      }
      const move = typeof action === 'string' ? MOVES[action] : undefined;
      if (!move) return { ok: false, message: `Bad action: ${shown()}` };
      const [x, y] = [state.position[0] + move[0], state.position[1] + move[1]];
      const target = state.cleared.includes(`${x},${y}`) ? '.' : cell(x, y);
      const next: CaveState = { ...state, steps: state.steps + 1 };
      let outcome: CaveOutcome;
      let message: string;
      if (target === 'X') {
        outcome = { position: state.position, event: 'bumped' };
        message = 'You bumped into a wall';
      } else if (target === 'P') {
        return finish(
          next,
          action,
          { position: [x, y], event: 'fell' },
          0,
          'You fell into a pit \u2013 game over',
        );
      } else if (target === 'B') {
        const roll = d6(random) + state.agility;
        if (roll <= 2)
          return finish(
            next,
            action,
            { position: [x, y], event: 'fell' },
            0,
            `You slipped off the bridge (${roll}) \u2013 game over`,
          );
        if (roll < 7) {
          outcome = { position: state.position, event: 'hesitated' };
          message = `You did not dare to cross (${roll})`;
        } else {
          outcome = { position: [x, y], event: 'crossed' };
          message = `You crossed the bridge (${roll})`;
        }
      } else if (target === 'W') {
        const attack = d6(random) + state.fighting;
        const defence = d6(random) + 3;
        if (attack > defence) {
          next.cleared = [...state.cleared, `${x},${y}`];
          outcome = { position: state.position, event: 'killed', 'killed-wumpus-at': [x, y] };
          message = `You killed the wumpus (${attack} against ${defence})`;
        } else {
          next.wounds = state.wounds + 1;
          if (next.wounds >= 2)
            return finish(
              next,
              action,
              { position: state.position, event: 'wounded' },
              0,
              'The wumpus killed you \u2013 game over',
            );
          outcome = { position: state.position, event: 'wounded' };
          message = `The wumpus wounded you (${attack} against ${defence})`;
        }
      } else {
        outcome = { position: [x, y], event: 'moved' };
        message = '';
        if (target === 'G') {
          next.cleared = [...state.cleared, `${x},${y}`];
          next.gold = state.gold + 1;
          outcome['collected-gold-at'] = [x, y];
          message = `You collected gold (${next.gold} now)`;
        }
      }
      next.position = outcome.position;
      next.history = [...state.history, { action, outcome }];
      if (next.steps >= maxSteps)
        return finish(
          next,
          action,
          { ...outcome, event: 'lost' },
          0,
          `You got lost in the dark after ${maxSteps} moves`,
        );
      return { ok: true, state: next, ...(message ? { message } : {}), extra: outcome.event };
    },

    abandonOutcome: () => 0,
  };
}

/** The run ends: the history gets the last action, the outcome is the gold brought out (or 0). */
function finish(state: CaveState, action: JsonValue, outcome: CaveOutcome, gold: number, message: string) {
  return {
    ok: true as const,
    state: { ...state, position: outcome.position, history: [...state.history, { action, outcome }] },
    message,
    extra: outcome.event,
    outcome: gold,
  };
}

/**
 * The first action: `{agility, fighting}`, whole numbers from 0 adding up to at most the points
 * (undefined for anything else).
 */
function readSkills(action: JsonValue, points: number): { agility: number; fighting: number } | undefined {
  if (action === null || typeof action !== 'object' || Array.isArray(action)) return undefined;
  const { agility = 0, fighting = 0 } = action;
  if (!Number.isInteger(agility) || !Number.isInteger(fighting)) return undefined;
  const [a, f] = [agility as number, fighting as number];
  if (a < 0 || f < 0 || a + f > points) return undefined;
  return { agility: a, fighting: f };
}

/** The cave class. */
export const WUMPUS_CAVE_CLASS: AisysEnvironmentClass = {
  id: 'wumpus-cave',
  label: 'Wumpus cave',
  create: (config): AisysEnvironment => createWumpusCave(config),
};
