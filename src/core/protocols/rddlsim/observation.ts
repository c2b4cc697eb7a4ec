/** Turns `<turn>` messages into what a policy sees. */
import type { FluentCapture } from '../../envs/rddl/api';
import { parseJavaDouble } from './java-format';
import type { Turn, WireFluent } from './messages';
import type { FluentValue, Observation, ObservedFluent } from './policy-api';
import { formatFluentValue } from './wire-fluents';

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

/** A turn's fields besides its fluents. */
export type TurnHeader = Omit<Observation, 'fluents' | 'values'>;

/**
 * The observation of a turn read straight from the simulator, equal to what `decodeObservation` makes of
 * the `<turn>` the server would write: each value goes through its wire text, so it reads exactly as a
 * value sent and parsed does. `fluents` and `values` are worked out when first read; they are own
 * properties, so copies, JSON and structured clones (a policy in a worker) see them. A policy that never
 * looks pays nothing. `captured` must hold the fluents as they were when the turn was made.
 */
export function directObservation(header: TurnHeader, captured: FluentCapture): Observation {
  return new DirectObservation(header, captured) as unknown as Observation;
}

/** The decoded fluents of a turn, worked out once. */
interface DecodedFluents {
  fluents: ObservedFluent[];
  values: Record<string, FluentValue>;
}

/** See `directObservation`. One per turn, so no closure is made per instance. */
class DirectObservation {
  readonly round: number;
  readonly turn: number;
  readonly reward: number;
  readonly timeLeft: number;
  readonly observed: boolean;
  #captured: FluentCapture | undefined;
  #decoded: DecodedFluents | undefined;

  constructor(header: TurnHeader, captured: FluentCapture) {
    this.round = header.round;
    this.turn = header.turn;
    this.reward = header.reward;
    this.timeLeft = header.timeLeft;
    this.observed = header.observed;
    this.#captured = captured;
    Object.defineProperties(this, DirectObservation.#accessors);
  }

  static #decode(observation: DirectObservation): DecodedFluents {
    if (observation.#decoded) return observation.#decoded;
    const fluents: ObservedFluent[] = [];
    const values: Record<string, FluentValue> = {};
    for (const fluent of observation.#captured!.list()) {
      const value = decodeFluentValue(formatFluentValue(fluent));
      fluents.push({ name: fluent.name, args: fluent.args, value });
      values[fluentKey(fluent.name, fluent.args)] = value;
    }
    observation.#captured = undefined;
    observation.#decoded = { fluents, values };
    return observation.#decoded;
  }

  /** Own enumerable accessors, shared by every instance; a policy may still assign its own values. */
  static readonly #accessors: PropertyDescriptorMap = {
    fluents: {
      enumerable: true,
      configurable: true,
      get(this: DirectObservation) {
        return DirectObservation.#decode(this).fluents;
      },
      set(this: DirectObservation, value: unknown) {
        Object.defineProperty(this, 'fluents', {
          value,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      },
    },
    values: {
      enumerable: true,
      configurable: true,
      get(this: DirectObservation) {
        return DirectObservation.#decode(this).values;
      },
      set(this: DirectObservation, value: unknown) {
        Object.defineProperty(this, 'values', {
          value,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      },
    },
  };
}
