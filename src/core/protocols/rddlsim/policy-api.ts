/**
 * The policy-level API of the rddlsim adapter: what a policy's `act(observation, context)` receives and may
 * return. This file is self-contained (no imports) so the editor's `.d.ts` can be generated from it, and
 * `generatePolicyTypes` specialises it to a loaded domain.
 */

/** A fluent value: `true`/`false`, a number, an enum value with `@` (`@high`) or an object name (`c1`). */
export type FluentValue = boolean | number | string;

/** One grounding the server sent, with its value decoded. */
export interface ObservedFluent {
  /** Fluent name as the server spells it (`running`). */
  name: string;
  /** Objects (`c1`) or enum values (`@low`), in parameter order; empty for 0-ary fluents. */
  args: string[];
  value: FluentValue;
}

/** What the policy sees each turn. */
export interface Observation {
  /** round-num of the current round (1-based; a practice round shows the rounds counted so far). */
  round: number;
  /** turn-num within the round, from 1. */
  turn: number;
  /** Reward of the previous step (0 on turn 1). */
  reward: number;
  /** Milliseconds left in the session, as the server counts them. */
  timeLeft: number;
  /**
   * False on the first turn of a partially observed domain, when the server sends `<no-observed-fluents/>`
   * (observations only exist after an action).
   */
  observed: boolean;
  /** Every grounding sent: all state fluents (fully observed) or all observation fluents (POMDP). */
  fluents: ObservedFluent[];
  /** The same values keyed by `name` for 0-ary fluents and `name(arg1,arg2)` otherwise, e.g. `running(c1)`. */
  values: Record<string, FluentValue>;
}

/** One action to take: an action fluent grounding and its value. */
export interface Action {
  /** Action fluent name (`reboot`). */
  name: string;
  /** Objects or enum values, one per parameter; omit for 0-ary actions. */
  args?: string[];
  /** Defaults to `true` (the usual case of a boolean action). */
  value?: FluentValue;
}

/** What `act` returns: one action, several, or nothing (`null`, `undefined` or `[]` is a noop). */
export type Actions = Action | Action[] | null | undefined;

/** An action fluent of the instance. */
export interface ActionFluentInfo {
  name: string;
  /** Parameter type names, in order. */
  params: string[];
  /** `bool`, `int`, `real`, or an enum or object type name. */
  range: string;
  /** Value when the action is not taken. */
  default: FluentValue;
  /** The allowed values when the range is an enum or object type. */
  values?: string[];
}

/** A state, observation or non-action fluent of the instance. */
export interface FluentInfo {
  name: string;
  params: string[];
  range: string;
}

/** Static facts about the instance being played. */
export interface InstanceSummary {
  domain: string;
  instance: string;
  /** Steps per round; `Infinity` for `pos-inf`. Ignored by the server when `terminateWhen` is true. */
  horizon: number;
  terminateWhen: boolean;
  discount: number;
  /** How many actions may be non-default at once; `Infinity` when unlimited. */
  maxNondefActions: number;
  partiallyObserved: boolean;
  actions: ActionFluentInfo[];
  stateFluents: FluentInfo[];
  observations: FluentInfo[];
  /** Objects and enum values of every type, by type name. */
  objects: Record<string, string[]>;
}

/** What the policy gets besides the observation. */
export interface PolicyContext {
  /** Anything the policy keeps between turns; persists for the whole session. */
  memory: Record<string, unknown>;
  /** Uniform random number in [0, 1), seeded with the session's seed so runs repeat exactly. */
  random(): number;
  /** Prints to the session's log (like `console.log`). */
  log(...values: unknown[]): void;
  instance: InstanceSummary;
}

/** The function a policy exports. */
export type ActFunction = (observation: Observation, context: PolicyContext) => Actions | Promise<Actions>;
