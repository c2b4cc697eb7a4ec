/**
 * The contract between the RDDL environment and everything that uses it (the rddlsim host, the command line,
 * the playground's state panel and editor). Implementation lives beside this file; consumers import types
 * from here and functions from `./index`.
 */
import type { SourceLocation } from '../../errors';

/** A fluent value at run time: bools, numbers, enum values as `@name`, objects as bare names (no `$`). */
export type RddlValue = boolean | number | string;

/**
 * The run-time type of a value. rddlsim does not coerce values to the declared range (an int default on a
 * real fluent stays an int), and the wire format depends on it (`1` vs `1.0`), so values carry their type.
 */
export type RddlValueType = 'bool' | 'int' | 'real' | 'enum' | 'object' | 'vector';

/** The kinds of pvariable RDDL declares. */
export type FluentKind =
  'state-fluent' | 'non-fluent' | 'action-fluent' | 'interm-fluent' | 'derived-fluent' | 'observ-fluent';

/** One pvariable declaration, as written in the domain. */
export interface FluentDecl {
  /** Name as declared (`REBOOT-PROB`, `running`). */
  name: string;
  kind: FluentKind;
  /** Parameter type names, in order (empty for 0-ary fluents). */
  paramTypes: string[];
  /** `bool`, `int`, `real`, or the name of an enum or object type. */
  range: string;
  /** Declared default (state, non and action fluents). */
  default?: RddlValue;
  /** `level = N` of interm/derived fluents, when given. */
  level?: number;
  location?: SourceLocation;
}

/** A type of the domain with its values in declaration order (objects merged domain, non-fluents, instance). */
export interface TypeInfo {
  name: string;
  kind: 'object' | 'enum';
  /** Parent object type for subtypes. */
  parent?: string;
  /** Object names (no `$`) or enum values (with `@`), including those of subtypes for object types. */
  values: string[];
}

/** One grounding of a fluent with its value. */
export interface GroundFluent {
  name: string;
  /** Objects without `$`, enum values with `@`. */
  args: string[];
  /** For a vector (`valueType` `'vector'`): its text as rddlsim prints it, `< @a: 1, @b: 0.5 >`. */
  value: RddlValue;
  valueType: RddlValueType;
  /** The members of a vector-valued (RDDL2) fluent, in order. */
  members?: VectorMemberValue[];
}

/** One member of a vector value: its label (enum values with `@`, objects without `$`) and value. */
export interface VectorMemberValue {
  label: string;
  value: RddlValue;
  valueType: RddlValueType;
}

/** Static facts about a loaded instance. */
export interface InstanceInfo {
  domain: string;
  instance: string;
  nonFluents?: string;
  /** Steps per round; `Infinity` for `pos-inf`. Ignored by the rddlsim server when `terminateWhen` is set. */
  horizon: number;
  /** True when the instance uses `terminate-when (...)` instead of a numeric horizon. */
  terminateWhen: boolean;
  discount: number;
  /** `Infinity` when unlimited. */
  maxNondefActions: number;
  /** True iff the domain declares observ-fluents (rddlsim's rule). */
  partiallyObserved: boolean;
  fluents: FluentDecl[];
  types: TypeInfo[];
}

/** An action to apply: an action fluent grounding and its value, already resolved to the domain's terms. */
export interface GroundAction {
  /** Fluent name; matched case-insensitively with `-` == `_`, as rddlsim does. */
  name: string;
  args: string[];
  value: RddlValue;
}

/** Why a joint action was refused before simulating (rddlsim then ends the round without reward). */
export interface IllegalAction {
  reason: 'max-nondef-actions' | 'action-precondition' | 'state-action-constraint';
  /** Human-readable detail: how many actions, or which constraint (with its location). */
  detail: string;
  location?: SourceLocation;
}

/**
 * The outcome of one step. `terminated` is true when the round ends after this step as rddlsim's server
 * ends it: the horizon is reached, or, for instances with `terminate-when`, the condition holds in the new
 * state (the horizon is then ignored).
 */
export type StepOutcome =
  | {
      kind: 'ok';
      reward: number;
      rewardType: RddlValueType;
      terminated: boolean;
      /** What the step met that rddlsim lets pass silently; absent when nothing. */
      notices?: SimulationNotice[];
    }
  | { kind: 'illegal'; illegal: IllegalAction }
  | { kind: 'error'; message: string; location?: SourceLocation };

/**
 * Something a step met that rddlsim accepts without a word, but that the domain's author should hear of:
 * a `Discrete` case whose probability is negative (rddlsim only checks that the probabilities sum to 1,
 * and samples on). Each expression is reported once per step.
 */
export interface SimulationNotice {
  kind: 'negative-probability';
  message: string;
  location?: SourceLocation;
}

/** Options for a simulator. */
export interface SimulatorOptions {
  /** PRNG seed; the same seed and actions give the same trajectory. */
  seed: number;
  /** Reproduce rddlsim's evaluation quirks (double sampling under `^ | => *`, ...). Default false. */
  rddlsimQuirks?: boolean;
  /**
   * Where random numbers come from. `'protoplay'` (default): the project's seeded `Rng`. `'rddlsim'`: the
   * WELL19937c generator seeded as rddlsim's server seeds a session (server seed + session number - 1);
   * with `rddlsimQuirks` too, a session draws the same numbers as the real server and replays its
   * trajectories.
   */
  generator?: 'protoplay' | 'rddlsim';
}

/**
 * A running simulation of one instance. Stateful for speed: `reset` starts a round, `step` advances it.
 * Fluent lists are in rddlsim's order (see research: HashMap order of state fluent names, groundings in
 * object order) so an emulated server can send what the real one sends.
 */
export interface RddlSimulator {
  readonly info: InstanceInfo;
  /**
   * Starts a new round from the instance's initial state. A simulator is one session: with rddlsim's
   * quirks, round k (the k-th `reset`) evaluates random interm fluents k times per step, as rddlsim does.
   */
  reset(): void;
  /**
   * Checks and applies one joint action. Actions equal to their default are ignored. `nondefaultCount`
   * overrides the count checked against max-nondef-actions (rddlsim counts entries it could not apply).
   */
  step(actions: readonly GroundAction[], options?: { nondefaultCount?: number }): StepOutcome;
  /** Every grounding of every state fluent (defaults included). */
  stateFluents(): GroundFluent[];
  /** Observation fluents sampled by the last step (POMDP); empty before the first step of a round. */
  observations(): GroundFluent[];
  /**
   * `stateFluents()` as they are now, listed only when asked (the values are copied now, so later steps do
   * not change them): a caller that may never look pays little.
   */
  captureStateFluents?(): FluentCapture;
  /** `observations()` as they are now, listed only when asked (see `captureStateFluents`). */
  captureObservations?(): FluentCapture;
  /** Interm and derived fluents after the last step, for the world view (never on the wire). */
  internalFluents(): GroundFluent[];
  /**
   * The constraint `actions` break in the state the values give (keyed `name` or `name(arg1,arg2)`),
   * without stepping; undefined when none is, or when the state cannot be set from them.
   */
  illegalIn?(
    state: Readonly<Record<string, RddlValue>>,
    actions: readonly GroundAction[],
    options?: { nondefaultCount?: number },
  ): IllegalAction | undefined;
}

/** Fluents as they were at one moment, listed when asked. */
export interface FluentCapture {
  list(): GroundFluent[];
}

/** A parsed and grounded instance, ready to simulate. */
export interface RddlModel {
  readonly info: InstanceInfo;
  /** Finds a pvariable by name, case-insensitively with `-` == `_`. */
  findFluent(name: string): FluentDecl | undefined;
  /** The objects or enum values of a type (with subtypes), or undefined for an unknown type. */
  typeValues(type: string): readonly string[] | undefined;
  createSimulator(options: SimulatorOptions): RddlSimulator;
}

/** A problem found while parsing or checking RDDL text. */
export interface RddlDiagnostic {
  severity: 'error' | 'warning';
  message: string;
  location: SourceLocation;
}

/** An RDDL source file given by name and text. */
export interface RddlSource {
  name: string;
  text: string;
}
