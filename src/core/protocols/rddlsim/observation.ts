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
 * value sent and parsed does. `captured` holds the fluents as they were when the turn was made.
 *
 * With `lazy`, `fluents` and `values` are worked out when first read, so a policy that never looks pays
 * nothing; they are then getters of the object's class, which a structured clone (a policy in a worker)
 * and `Object.keys` do not see (`JSON.stringify` does). Without it, a plain object with every value.
 */
export function directObservation(header: TurnHeader, captured: FluentCapture, lazy: boolean): Observation {
  if (lazy) return new LazyObservation(header, captured);
  return { ...header, ...decodeCaptured(captured) };
}

/** The decoded fluents of a turn. */
interface DecodedFluents {
  fluents: ObservedFluent[];
  values: Record<string, FluentValue>;
}

function decodeCaptured(captured: FluentCapture): DecodedFluents {
  const fluents: ObservedFluent[] = [];
  const values: Record<string, FluentValue> = {};
  for (const fluent of captured.list()) {
    const value = decodeFluentValue(formatFluentValue(fluent));
    fluents.push({ name: fluent.name, args: fluent.args, value });
    values[fluentKey(fluent.name, fluent.args)] = value;
  }
  return { fluents, values };
}

/** See `directObservation`: one per turn, as cheap to make as a plain object. */
class LazyObservation implements Observation {
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
  }

  get fluents(): ObservedFluent[] {
    return this.#decode().fluents;
  }

  set fluents(fluents: ObservedFluent[]) {
    this.#decode().fluents = fluents;
  }

  get values(): Record<string, FluentValue> {
    return this.#decode().values;
  }

  set values(values: Record<string, FluentValue>) {
    this.#decode().values = values;
  }

  /** JSON as of a plain observation. */
  toJSON(): Observation {
    return { ...this, fluents: this.fluents, values: this.values };
  }

  #decode(): DecodedFluents {
    if (!this.#decoded) {
      this.#decoded = decodeCaptured(this.#captured!);
      this.#captured = undefined;
    }
    return this.#decoded;
  }
}
