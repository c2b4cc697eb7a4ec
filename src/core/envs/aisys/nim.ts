/**
 * Nim as the course server's public example environment plays it: a heap of 10 objects (or 9 to 11 with
 * `random_start`: a heap the agent can always win from); the agent and the server's opponent take 1, 2 or
 * 3 in turn, and whoever takes the last one wins (outcome 1; a loss is 0). The opponent is random, or with
 * `strong` takes `remaining % 4` (the winning move) and a random number only when no move wins.
 *
 * The percept is the bare number of objects left. An action is anything Python's `int()` accepts (`2`,
 * `"2"`, `2.7`, `true`); everything else is rejected with the example's messages, and the run waits for
 * a better action. Abandoning a run loses it.
 */
import {
  DEFAULT_ENV_SETTINGS,
  EnvironmentCrash,
  type AisysEnvironment,
  type AisysEnvironmentClass,
  type JsonValue,
} from './api';
import { pythonInt, pythonRepr, pythonStringRepr, pythonTruthy } from './python';

/** A run of Nim: what is left of the heap and what it started with. */
export type NimState = { remaining: number; initial: number };

/** The example's own message when the opponent takes the last object (with an en dash). */
const LOST = ' \u2013 you lost.';

/**
 * A config value as the Python plugin reads it (`config['strong']`): a missing key or a config that is not
 * an object raises, which the server reports as a crash of the request that needed it.
 */
function configFlag(config: JsonValue, key: string): boolean {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new EnvironmentCrash('TypeError', `the environment config is not an object: ${pythonRepr(config)}`);
  }
  if (!Object.hasOwn(config, key)) throw new EnvironmentCrash('KeyError', pythonStringRepr(key));
  return pythonTruthy(config[key]);
}

/** Nim with a JSON config `{"strong": bool, "random_start": bool}`. */
export function createNim(config: JsonValue): AisysEnvironment<NimState> {
  return {
    settings: { ...DEFAULT_ENV_SETTINGS, minRunsForFullyEvaluated: 10, canAbandonRuns: true },

    newRun(random) {
      const size = configFlag(config, 'random_start') ? 9 + random.nextInt(3) : 10;
      return { remaining: size, initial: size };
    },

    percept: (run) => run.state.remaining,

    act(action, run, random, received) {
      const { remaining, initial } = run.state;
      const move = pythonInt(action);
      if (!move.ok) {
        // The action as Python holds it: `[100000.0]`, not `[100000]`.
        const shown = received?.repr() ?? pythonRepr(action);
        if (move.error === 'ValueError') return { ok: false, message: `Invalid action: ${shown}` };
        if (move.error === 'TypeError')
          return { ok: false, message: `Invalid action (expected a string, got ${shown})` };
        throw new EnvironmentCrash('OverflowError', 'cannot convert float infinity to integer');
      }
      const taken = move.value;
      if (taken > 3 || taken < 1) return { ok: false, message: 'You have to remove 1, 2, or 3 objects' };
      if (taken > remaining)
        return {
          ok: false,
          message: `You tried to take ${taken} objects, but only ${remaining} are remaining`,
        };
      const left = remaining - taken;
      if (left === 0)
        return {
          ok: true,
          state: { remaining: 0, initial },
          message: 'Congratulations, you won!',
          outcome: 1,
        };
      const reply = configFlag(config, 'strong')
        ? left % 4 || 1 + random.nextInt(3)
        : 1 + random.nextInt(Math.min(left, 3));
      const after = left - reply;
      return {
        ok: true,
        state: { remaining: after, initial },
        message: `Opponent removed ${reply}${after === 0 ? LOST : ''}`,
        extra: reply,
        ...(after === 0 ? { outcome: 0 } : {}),
      };
    },

    abandonOutcome: () => 0,
  };
}

/** The Nim class, under its own id and the real example plugin's name. */
export const NIM_CLASS: AisysEnvironmentClass = {
  id: 'nim',
  aliases: ['simple_nim.environment:Environment'],
  label: 'Nim',
  create: (config): AisysEnvironment => createNim(config),
};
