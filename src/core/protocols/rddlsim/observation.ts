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

/** The key of a grounding in `Observation.values`: `name`, or `name(a,b)`. */
export function fluentKey(name: string, args: readonly string[]): string {
  return args.length === 0 ? name : `${name}(${args.join(',')})`;
}

/** The observation a policy gets for a turn of round `round`. */
export function decodeObservation(turn: Turn, round: number): Observation {
  const fluents: ObservedFluent[] = (turn.fluents ?? []).map((fluent: WireFluent) => ({
    name: fluent.name,
    args: fluent.args,
    value: decodeFluentValue(fluent.value),
  }));
  const values: Record<string, FluentValue> = {};
  for (const fluent of fluents) values[fluentKey(fluent.name, fluent.args)] = fluent.value;
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
