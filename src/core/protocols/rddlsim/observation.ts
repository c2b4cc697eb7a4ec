/** Turns `<turn>` messages into what a policy sees. */
import { parseJavaDouble } from './java-format';
import type { Turn, WireFluent } from './messages';
import type { FluentValue, Observation, ObservedFluent } from './policy-api';

/**
 * Decodes a fluent value from its wire text. The text alone decides, which is exact for RDDL: identifiers
 * cannot start with a digit and `true`/`false` are reserved, so `true`/`false` is a bool, a number is a
 * number, anything else (`@enum`, object name) stays a string. It also follows the value's run-time type
 * when rddlsim stores a bool in a real fluent.
 */
export function decodeFluentValue(text: string): FluentValue {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (/^-?(?:[0-9]|Infinity|NaN)/.test(text)) {
    const number = parseJavaDouble(text);
    if (number !== undefined) return number;
  }
  return text;
}

const NO_FLUENTS: readonly WireFluent[] = [];

/** The key of a grounding in `Observation.values`: `name`, or `name(a,b)`. */
export function fluentKey(name: string, args: readonly string[]): string {
  if (args.length === 0) return name;
  let key = name + '(' + args[0]!;
  for (let i = 1; i < args.length; i++) key += ',' + args[i]!;
  return key + ')';
}

/** The observation a policy gets for a turn of round `round`. */
export function decodeObservation(turn: Turn, round: number): Observation {
  const fluents: ObservedFluent[] = [];
  const values: Record<string, FluentValue> = {};
  for (const fluent of turn.fluents ?? NO_FLUENTS) {
    const value = decodeFluentValue(fluent.value);
    fluents.push({ name: fluent.name, args: fluent.args, value });
    values[fluentKey(fluent.name, fluent.args)] = value;
  }
  return {
    round,
    turn: turn.turnNum,
    reward: turn.immediateReward,
    timeLeft: turn.timeLeft,
    observed: turn.fluents !== null,
    fluents,
    values,
  };
}
