/**
 * A running simulation of one compiled instance, with rddlsim's step semantics (research §2.9): set the
 * actions, count non-default ones against max-nondef-actions, check action preconditions and
 * state-action constraints, compute interm fluents, the next state and observations, the reward over
 * s, a and s', advance, recompute derived fluents, then check termination. State invariants are checked
 * after advancing unless rddlsim's quirks are on (its server never checks them).
 */
import type {
  GroundAction,
  FluentCapture,
  GroundFluent,
  IllegalAction,
  InstanceInfo,
  RddlSimulator,
  RddlValue,
  SimulationNotice,
  SimulatorOptions,
  VectorMemberValue,
  StepOutcome,
} from './api';
import type { ActionResolver } from './actions';
import type { CompiledFunctions, CompiledProgram, ConstraintInfo } from './compile';
import { RandomSource, type UniformGenerator } from './distributions';
import { groundingArgs, type FluentLayout, type GroundedInstance, type VectorShape } from './grounding';
import { createRuntime, RddlEvalError, type BoolTags } from './runtime';
import { Rng } from '../../random';
import { Well19937c } from './well19937c';
import { BOOL, wireValueType, type ValueType } from './value-types';
import { vectorText } from './vector-shape';

/** What a simulator shares with its model (all read-only). */
export interface SimulationPlan {
  info: InstanceInfo;
  grounded: GroundedInstance;
  program: CompiledProgram;
  resolver: ActionResolver;
  actionDefaults: Float64Array;
  /** Source texts by name, to quote a constraint that failed. */
  texts: ReadonlyMap<string, string>;
}

/** One listed grounding: where its value is and how it is named. */
interface ListedGrounding {
  name: string;
  args: string[];
  index: number;
  /** A vector-valued fluent's members, whose slots follow `index`. */
  vector?: VectorShape;
}

function listGroundings(layouts: FluentLayout[]): ListedGrounding[] {
  return layouts.flatMap((layout) => {
    const width = layout.vector?.labels.length ?? 1;
    return Array.from({ length: layout.count / width }, (_, i) => ({
      name: layout.info.name,
      args: groundingArgs(layout, i * width).slice(0, layout.info.params.length),
      index: layout.offset + i * width,
      ...(layout.vector ? { vector: layout.vector } : {}),
    }));
  });
}

/** Where each simulator's uniform numbers come from, and a direct function for the hot path. */
function createGenerator(options: SimulatorOptions): { generator: UniformGenerator; uniform: () => number } {
  if (options.generator === 'rddlsim') {
    const well = new Well19937c(options.seed);
    return { generator: well, uniform: () => well.nextDouble() };
  }
  const rng = new Rng(options.seed);
  const uniform = () => rng.nextFloat();
  return { generator: { nextDouble: uniform }, uniform };
}

/** A simulator over compiled code and flat arrays. */
export class CompiledSimulator implements RddlSimulator {
  readonly info: InstanceInfo;
  readonly #plan: SimulationPlan;
  readonly #functions: CompiledFunctions;
  readonly #quirks: boolean;
  #s: Float64Array;
  #ns: Float64Array;
  readonly #a: Float64Array;
  readonly #im: Float64Array;
  readonly #ob: Float64Array;
  readonly #boolTags: BoolTags;
  /** Action array positions set by the last step, to reset to their default before the next. */
  readonly #touched: number[] = [];
  #steps = 0;
  /** Rounds begun with `reset` (rddlsim's state is set up once per round, and keeps adding up). */
  #rounds = 0;
  /** Extra evaluations of the interm fluents before each step: rddlsim's, with its quirks (see `step`). */
  #intermRepeats = 0;
  readonly #repeatsInterm: boolean;
  #observed = false;
  #stepped = false;
  readonly #stateList: ListedGrounding[];
  readonly #observList: ListedGrounding[];
  readonly #internalList: ListedGrounding[];
  readonly #quotes = new Map<ConstraintInfo, string>();
  /** Whether any state or observation slot may hold a bool at run time (then its tag is captured too). */
  readonly #stateMayBeBool: boolean;
  readonly #observMayBeBool: boolean;
  readonly #copies = new CopySlab();
  /** Notices of the step under way, one per expression (a Discrete in a quantifier meets many groundings). */
  #notices: SimulationNotice[] = [];

  constructor(plan: SimulationPlan, options: SimulatorOptions) {
    this.#plan = plan;
    this.info = plan.info;
    this.#quirks = options.rddlsimQuirks ?? false;
    const { grounded, program } = plan;
    this.#repeatsInterm = this.#quirks && program.repeatsInterm;
    const { generator, uniform } = createGenerator(options);
    const random = new RandomSource(generator);
    const positions: Int32Array[] = [];
    const symbolCount = grounded.symbols.names.length;
    for (const [type, index] of program.positionTables) {
      const table = new Int32Array(symbolCount).fill(-1);
      (grounded.typeValues.get(type) ?? []).forEach((value, position) => {
        table[grounded.symbols.id(value)] = position;
      });
      positions[index] = table;
    }
    const enumIntegers = new Float64Array(symbolCount).fill(NaN);
    grounded.symbols.names.forEach((name, id) => {
      if (/^@-?\d+$/.test(name)) enumIntegers[id] = Number(name.slice(1));
    });
    this.#boolTags = {
      state: new Uint8Array(grounded.sizes.state),
      next: new Uint8Array(grounded.sizes.state),
      observ: new Uint8Array(grounded.sizes.observ),
    };
    const runtime = createRuntime(
      uniform,
      random,
      program.locations,
      {
        EI: enumIntegers,
        POS: positions,
        data: program.data,
        boolTags: this.#boolTags,
      },
      (notice) => this.notice(notice),
    );
    this.#functions = program.instantiate(runtime);
    this.#stateMayBeBool = program.stateMayBeBool.some((flag) => flag !== 0);
    this.#observMayBeBool = program.observMayBeBool.some((flag) => flag !== 0);
    this.#s = new Float64Array(grounded.sizes.state);
    this.#ns = new Float64Array(grounded.sizes.state);
    this.#a = new Float64Array(plan.actionDefaults);
    this.#im = new Float64Array(grounded.sizes.interm);
    this.#ob = new Float64Array(grounded.sizes.observ);
    const layoutsOf = (infos: { canonical: string }[]) =>
      infos.map((p) => grounded.layouts.get(p.canonical)!);
    this.#stateList = listGroundings(layoutsOf(grounded.stateWireOrder));
    this.#observList = listGroundings(layoutsOf(grounded.observWireOrder));
    this.#internalList = listGroundings(
      grounded.domain.pvariableList
        .filter((p) => p.kind === 'interm-fluent' || p.kind === 'derived-fluent')
        .map((p) => grounded.layouts.get(p.canonical)!),
    );
    this.restart();
  }

  reset(): void {
    this.#rounds++;
    // rddlsim appends the interm fluents' evaluation order to its list every time it sets up a round and
    // never clears it, so round k of a session evaluates every interm fluent k times per step; with a
    // random interm fluent, each evaluation draws again and the last one is kept.
    if (this.#repeatsInterm) this.#intermRepeats = this.#rounds - 1;
    this.restart();
  }

  private restart(): void {
    this.#s.set(this.#plan.grounded.initialState);
    this.#steps = 0;
    this.#observed = false;
    this.#stepped = false;
    this.#im.fill(0);
    this.#functions.derived(this.#s, this.#a, this.#ns, this.#im, this.#ob);
  }

  step(actions: readonly GroundAction[], options?: { nondefaultCount?: number }): StepOutcome {
    if (this.#notices.length > 0) this.#notices = [];
    const resolved = this.#setActions(actions, options);
    if (resolved) return resolved;
    const s = this.#s;
    const ns = this.#ns;
    const im = this.#im;
    const ob = this.#ob;
    const a = this.#a;
    let reward: number;
    try {
      const illegal = this.#brokenConstraint(s, ns, im, ob);
      if (illegal) return { kind: 'illegal', illegal };
      if (!this.#quirks && this.#steps === 0) {
        const initiallyViolated = this.#functions.invariants(s, a, ns, im, ob);
        if (initiallyViolated >= 0) return this.invariantError(initiallyViolated, 'the initial state');
      }
      for (let r = 0; r < this.#intermRepeats; r++) this.#functions.interm(s, a, ns, im, ob);
      reward = this.#functions.step(s, a, ns, im, ob);
      this.#s = ns;
      this.#ns = s;
      const tags = this.#boolTags;
      [tags.state, tags.next] = [tags.next, tags.state];
      this.#steps++;
      this.#observed = true;
      this.#stepped = true;
      this.#functions.derived(ns, a, s, im, ob);
      if (!this.#quirks) {
        const violated = this.#functions.invariants(ns, a, s, im, ob);
        if (violated >= 0) return this.invariantError(violated, 'the new state');
      }
      const terminated =
        (this.info.terminateWhen
          ? this.#functions.terminal(ns, a, s, im, ob)
          : this.#steps >= this.info.horizon) || this.#functions.terminations(ns, a, s, im, ob);
      const rewardType = wireValueType(this.#plan.program.rewardType);
      if (this.#notices.length === 0) return { kind: 'ok', reward, rewardType, terminated };
      return { kind: 'ok', reward, rewardType, terminated, notices: this.#notices };
    } catch (error) {
      if (error instanceof RddlEvalError)
        return { kind: 'error', message: error.message, location: error.location };
      if (error instanceof RangeError)
        return { kind: 'error', message: `simulation failed: ${error.message}` };
      throw error;
    }
  }

  /**
   * Sets the action array to `actions` (the rest at their defaults); an error or an `illegal` outcome when
   * an action cannot be resolved or there are more non-default actions than max-nondef-actions.
   */
  #setActions(
    actions: readonly GroundAction[],
    options?: { nondefaultCount?: number },
  ): StepOutcome | undefined {
    const a = this.#a;
    const defaults = this.#plan.actionDefaults;
    for (const index of this.#touched) a[index] = defaults[index]!;
    this.#touched.length = 0;
    let nondefault = 0;
    for (const action of actions) {
      const resolved = this.#plan.resolver.resolve(action);
      if (resolved.kind === 'error') return { kind: 'error', message: resolved.message };
      if (resolved.isDefault) continue;
      nondefault++;
      if (resolved.kind === 'apply') {
        const values = resolved.values;
        if (values) {
          for (let member = 0; member < values.length; member++) {
            a[resolved.index + member] = values[member]!;
            this.#touched.push(resolved.index + member);
          }
        } else {
          a[resolved.index] = resolved.value;
          this.#touched.push(resolved.index);
        }
      }
    }
    const counted = options?.nondefaultCount ?? nondefault;
    if (counted > this.info.maxNondefActions) {
      return {
        kind: 'illegal',
        illegal: {
          reason: 'max-nondef-actions',
          detail: `${counted} non-default actions, but max-nondef-actions is ${this.info.maxNondefActions}`,
        },
      };
    }
    return undefined;
  }

  /** The first action precondition or state-action constraint the set actions break in state `s`. */
  #brokenConstraint(
    s: Float64Array,
    ns: Float64Array,
    im: Float64Array,
    ob: Float64Array,
  ): IllegalAction | undefined {
    const violated = this.#functions.checkActions(s, this.#a, ns, im, ob);
    if (violated < 0) return undefined;
    const constraint = this.#plan.program.actionConstraints[violated]!;
    return {
      reason:
        constraint.kind === 'state-action-constraint' ? 'state-action-constraint' : 'action-precondition',
      detail: `${constraint.kind.replace(/-/g, ' ')} is false: ${this.quote(constraint)}`,
      location: constraint.location,
    };
  }

  /**
   * Which constraint `actions` break in a state given by its fluents' values (keyed `name` or
   * `name(arg1,arg2)`, as a policy's observation gives them), without stepping: the simulator's own state is
   * left as it was. What a client that sees the whole state (a fully observed instance) can tell of a round
   * a server ended early. Undefined when nothing is broken, or when the state cannot be set from the values
   * (a state fluent missing or of another type, vector-valued fluents, fluents whose type is only known at
   * run time), or the check itself fails.
   */
  illegalIn(
    state: Readonly<Record<string, RddlValue>>,
    actions: readonly GroundAction[],
    options?: { nondefaultCount?: number },
  ): IllegalAction | undefined {
    if (this.#stateMayBeBool) return undefined;
    const { grounded } = this.#plan;
    const s = new Float64Array(this.#s.length);
    for (const grounding of this.#stateList) {
      if (grounding.vector) return undefined;
      const key = grounding.args.length ? `${grounding.name}(${grounding.args.join(',')})` : grounding.name;
      const value = state[key];
      const type = grounded.initialStateTypes[grounding.index]!;
      let raw: number | undefined;
      if (type.kind === 'bool') raw = typeof value === 'boolean' ? Number(value) : undefined;
      else if (type.kind === 'int' || type.kind === 'real')
        raw = typeof value === 'number' ? value : undefined;
      else raw = typeof value === 'string' ? grounded.symbols.lookup(value) : undefined;
      if (raw === undefined) return undefined;
      s[grounding.index] = raw;
    }
    const ns = new Float64Array(s.length);
    const im = new Float64Array(this.#im.length);
    const ob = new Float64Array(this.#ob.length);
    const set = this.#setActions(actions, options);
    if (set) return set.kind === 'illegal' ? set.illegal : undefined;
    try {
      this.#functions.derived(s, this.#a, ns, im, ob);
      return this.#brokenConstraint(s, ns, im, ob);
    } catch {
      return undefined;
    }
  }

  private notice(notice: SimulationNotice): void {
    if (this.#notices.some((n) => n.kind === notice.kind && n.location === notice.location)) return;
    this.#notices.push(notice);
  }

  private invariantError(index: number, where: string): StepOutcome {
    const invariant = this.#plan.program.stateInvariants[index]!;
    return {
      kind: 'error',
      message: `state invariant is false in ${where}: ${this.quote(invariant)}`,
      location: invariant.location,
    };
  }

  /** The constraint's own text, trimmed to one line (computed once per constraint). */
  private quote(constraint: ConstraintInfo): string {
    let quoted = this.#quotes.get(constraint);
    if (quoted === undefined) {
      quoted = this.quoteSource(constraint);
      this.#quotes.set(constraint, quoted);
    }
    return quoted;
  }

  private quoteSource(constraint: ConstraintInfo): string {
    const { location } = constraint;
    const text = location.source !== undefined ? this.#plan.texts.get(location.source) : undefined;
    if (!text || location.offset === undefined) return `line ${location.line}`;
    const lines = text.split('\n');
    const end = location.endLine ?? location.line;
    const excerpt =
      end === location.line
        ? lines[location.line - 1]!.slice(location.column - 1, (location.endColumn ?? location.column) - 1)
        : lines.slice(location.line - 1, end).join(' ');
    // The constraint's own text, without the `;` that ends its statement.
    const oneLine = excerpt.replace(/\s+/g, ' ').trim().replace(/\s*;$/, '');
    return `${oneLine.length > 120 ? `${oneLine.slice(0, 117)}...` : oneLine} (line ${location.line})`;
  }

  stateFluents(): GroundFluent[] {
    return this.captureStateFluents().list();
  }

  captureStateFluents(): FluentCapture {
    const { program, grounded } = this.#plan;
    const stepped = this.#stepped;
    const dynamic = stepped && this.#stateMayBeBool;
    return new CapturedFluents(
      this,
      this.#stateList,
      this.#copies.copy(this.#s),
      stepped ? program.stateCpfTypes : grounded.initialStateTypes,
      dynamic ? program.stateMayBeBool : undefined,
      dynamic ? this.#boolTags.state.slice() : undefined,
    );
  }

  observations(): GroundFluent[] {
    return this.captureObservations().list();
  }

  captureObservations(): FluentCapture {
    if (!this.#observed) return NO_FLUENTS;
    const { observTypes, observMayBeBool } = this.#plan.program;
    const dynamic = this.#observMayBeBool;
    return new CapturedFluents(
      this,
      this.#observList,
      this.#copies.copy(this.#ob),
      observTypes,
      dynamic ? observMayBeBool : undefined,
      dynamic ? this.#boolTags.observ.slice() : undefined,
    );
  }

  /** The ground fluents of `groundings` with values from `values`, typed by `typeAt`. */
  listFluents(
    groundings: readonly ListedGrounding[],
    values: Float64Array,
    typeAt: (index: number) => ValueType,
  ): GroundFluent[] {
    return groundings.map((g) =>
      g.vector
        ? this.vectorFluent(g, g.vector, values, typeAt)
        : this.fluent(g, values[g.index]!, typeAt(g.index)),
    );
  }

  internalFluents(): GroundFluent[] {
    const types = this.#plan.program.intermTypes;
    return this.listFluents(this.#internalList, this.#im, (index) => types[index]!);
  }

  private fluent(grounding: ListedGrounding, raw: number, type: ValueType): GroundFluent {
    return {
      name: grounding.name,
      args: grounding.args.slice(),
      value: this.value(raw, type),
      valueType: wireValueType(type),
    };
  }

  /** A vector-valued grounding: its members from their slots, and its text as rddlsim prints it. */
  private vectorFluent(
    grounding: ListedGrounding,
    vector: VectorShape,
    values: Float64Array,
    typeAt: (index: number) => ValueType,
  ): GroundFluent {
    const members: VectorMemberValue[] = vector.labels.map((label, m) => {
      const type = typeAt(grounding.index + m);
      return { label, value: this.value(values[grounding.index + m]!, type), valueType: wireValueType(type) };
    });
    return {
      name: grounding.name,
      args: grounding.args.slice(),
      // rddlsim's text of a vector (its `STRUCT_VAL.toString`), objects with `$`.
      value: vectorText(members, (m) => (m.valueType === 'object' ? `$${String(m.value)}` : String(m.value))),
      valueType: 'vector',
      members,
    };
  }

  private value(raw: number, type: ValueType): RddlValue {
    switch (type.kind) {
      case 'bool':
        return raw !== 0;
      case 'int':
      case 'real':
        return raw;
      default:
        return this.#plan.grounded.symbols.name(raw);
    }
  }
}

/**
 * Fluent values copied at one moment (a turn), turned into ground fluents only when listed. A class, not
 * a closure: a session takes one per turn.
 */
class CapturedFluents implements FluentCapture {
  constructor(
    readonly simulator: CompiledSimulator,
    readonly groundings: readonly ListedGrounding[],
    readonly values: Float64Array,
    readonly types: readonly ValueType[],
    /** Which slots may hold a bool at run time, and the tags saying which do. */
    readonly mayBeBool: ArrayLike<boolean | number> | undefined,
    readonly tags: Uint8Array | undefined,
  ) {}

  list(): GroundFluent[] {
    const { types, mayBeBool, tags } = this;
    return this.simulator.listFluents(this.groundings, this.values, (index) =>
      mayBeBool?.[index] && tags?.[index] ? BOOL : types[index]!,
    );
  }
}

const NO_FLUENTS: FluentCapture = { list: () => [] };

/**
 * Copies of value arrays, cut from shared buffers: a session copies a state every turn, and a view on a
 * buffer costs much less than a buffer of its own. A buffer is freed once no copy in it is kept.
 */
class CopySlab {
  static readonly #bytes = 1 << 16;
  #buffer = new ArrayBuffer(CopySlab.#bytes);
  #used = 0;

  copy(values: Float64Array): Float64Array {
    const bytes = values.length * Float64Array.BYTES_PER_ELEMENT;
    if (bytes > CopySlab.#bytes / 4) return values.slice();
    if (this.#used + bytes > CopySlab.#bytes) {
      this.#buffer = new ArrayBuffer(CopySlab.#bytes);
      this.#used = 0;
    }
    const copy = new Float64Array(this.#buffer, this.#used, values.length);
    copy.set(values);
    this.#used += bytes;
    return copy;
  }
}
