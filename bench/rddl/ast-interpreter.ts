/**
 * A straightforward interpreter of a grounded RDDL instance: it walks the syntax tree of each cpf for every
 * grounding at every step, with variables in a map, the way rddlsim evaluates. It is the baseline the
 * benchmarks measure the compiled simulator against, and an independent reference for the compiler's
 * tests: with the same seed it draws the same numbers in the same order, so both must give identical
 * trajectories.
 */
import type { GroundAction } from '../../src/core/envs/rddl/api';
import type { ArgTerm, Expr, PvarRef } from '../../src/core/envs/rddl/ast';
import { RandomSource } from '../../src/core/envs/rddl/distributions';
import {
  constantToNumber,
  groundingArgs,
  type FluentLayout,
  type GroundedInstance,
} from '../../src/core/envs/rddl/grounding';
import { canonicalFluentName } from '../../src/core/envs/rddl/names';
import { Rng } from '../../src/core/random';

/** A value while interpreting: bools, numbers, and objects/enum values by name. */
type Value = boolean | number | string;
type Env = Map<string, string>;

const toNumber = (v: Value): number =>
  typeof v === 'boolean' ? (v ? 1 : 0) : typeof v === 'string' ? Number(v.slice(1)) : v;

/** Interprets one grounded instance with the language's semantics (no rddlsim quirks). */
export class AstInterpreter {
  readonly #grounded: GroundedInstance;
  readonly #random: RandomSource;
  #s: Float64Array;
  #ns: Float64Array;
  readonly #a: Float64Array;
  readonly #im: Float64Array;
  readonly #ob: Float64Array;
  readonly #actionDefaults: Float64Array;
  readonly #positions = new Map<string, Map<string, number>>();
  readonly #intermOrder: FluentLayout[];
  /** Which fluent a reference in the syntax tree names (looked up once). */
  readonly #layoutOf = new WeakMap<PvarRef, FluentLayout>();

  constructor(grounded: GroundedInstance, seed: number) {
    this.#grounded = grounded;
    const rng = new Rng(seed);
    this.#random = new RandomSource({ nextDouble: () => rng.nextFloat() });
    this.#s = new Float64Array(grounded.sizes.state);
    this.#ns = new Float64Array(grounded.sizes.state);
    this.#a = new Float64Array(grounded.sizes.action);
    this.#im = new Float64Array(grounded.sizes.interm);
    this.#ob = new Float64Array(grounded.sizes.observ);
    this.#actionDefaults = new Float64Array(grounded.sizes.action);
    for (const layout of grounded.layouts.values()) {
      if (layout.store === 'action' && layout.info.default) {
        this.#actionDefaults.fill(
          constantToNumber(layout.info.default, grounded.symbols),
          layout.offset,
          layout.offset + layout.count,
        );
      }
    }
    for (const [type, values] of grounded.typeValues)
      this.#positions.set(type, new Map(values.map((v, i) => [v, i])));
    this.#intermOrder = this.orderInterms();
    this.reset();
  }

  /** Interm fluents ordered so that each comes after the interm fluents its cpf mentions. */
  private orderInterms(): FluentLayout[] {
    const interms = [...this.#grounded.layouts.values()].filter((l) => l.info.kind === 'interm-fluent');
    const mentions = (expr: Expr, found: Set<string>): Set<string> => {
      JSON.stringify(expr, (key, value) => {
        if (value && typeof value === 'object' && value.kind === 'pvar')
          found.add(canonicalFluentName(value.name));
        return value;
      });
      return found;
    };
    const ordered: FluentLayout[] = [];
    const placed = new Set<string>();
    while (ordered.length < interms.length) {
      const next = interms.find(
        (l) =>
          !placed.has(l.info.canonical) &&
          [...mentions(this.#grounded.domain.cpfs.get(l.info.canonical)!.expr, new Set())].every(
            (name) =>
              placed.has(name) ||
              name === l.info.canonical ||
              !interms.some((i) => i.info.canonical === name),
          ),
      );
      if (!next) throw new Error('interm fluents depend on each other');
      placed.add(next.info.canonical);
      ordered.push(next);
    }
    return ordered;
  }

  reset(): void {
    this.#s.set(this.#grounded.initialState);
  }

  /** The current state as `name(arg,...)=value` for every grounding (objects and enum values by name). */
  stateFluents(): string[] {
    return this.#grounded.stateEvaluationOrder.flatMap((info) => {
      const layout = this.#grounded.layouts.get(info.canonical)!;
      return Array.from({ length: layout.count }, (_, i) => {
        const raw = this.#s[layout.offset + i]!;
        const kind = info.range.kind;
        const value =
          kind === 'bool'
            ? raw !== 0
            : kind === 'enum' || kind === 'object'
              ? this.#grounded.symbols.name(raw)
              : raw;
        return `${info.name}(${groundingArgs(layout, i).join(',')})=${value}`;
      });
    });
  }

  /** Applies the actions and advances one step; returns the reward. */
  step(actions: readonly GroundAction[]): number {
    this.#a.set(this.#actionDefaults);
    for (const action of actions) {
      const layout = this.#grounded.layouts.get(canonicalFluentName(action.name));
      if (!layout) continue;
      const index = this.index(layout, action.args);
      if (index >= 0)
        this.#a[index] = typeof action.value === 'boolean' ? (action.value ? 1 : 0) : Number(action.value);
    }
    const domain = this.#grounded.domain;
    for (const layout of this.#intermOrder) this.evaluateFluent(layout, this.#im);
    for (const info of this.#grounded.stateEvaluationOrder)
      this.evaluateFluent(this.#grounded.layouts.get(info.canonical)!, this.#ns);
    for (const info of this.#grounded.observEvaluationOrder)
      this.evaluateFluent(this.#grounded.layouts.get(info.canonical)!, this.#ob);
    const reward = toNumber(this.evaluate(domain.block.reward!, new Map()));
    [this.#s, this.#ns] = [this.#ns, this.#s];
    return reward;
  }

  private evaluateFluent(layout: FluentLayout, target: Float64Array): void {
    const cpf = this.#grounded.domain.cpfs.get(layout.info.canonical)!;
    const names = cpf.head.args.map((a) => (a.kind === 'variable' ? a.name : ''));
    for (let i = 0; i < layout.count; i++) {
      const args = groundingArgs(layout, i);
      const env: Env = new Map(names.map((name, p) => [name, args[p]!]));
      target[layout.offset + i] = this.store(this.evaluate(cpf.expr, env));
    }
  }

  private store(value: Value): number {
    if (typeof value === 'string') return this.#grounded.symbols.id(value);
    return toNumber(value);
  }

  private index(layout: FluentLayout, args: readonly string[]): number {
    let index = layout.offset;
    for (let i = 0; i < args.length; i++) {
      const position = this.#positions.get(layout.info.params[i]!)?.get(args[i]!);
      if (position === undefined) return -1;
      index += position * layout.strides[i]!;
    }
    return index;
  }

  private term(term: ArgTerm, env: Env): string {
    switch (term.kind) {
      case 'variable':
        return env.get(term.name)!;
      case 'enum':
        return term.value;
      case 'object':
        return term.name;
      case 'pvar':
        return String(this.evaluate(term, env));
      case 'expr':
        return String(this.evaluate(term.expr, env));
    }
  }

  private read(ref: PvarRef, env: Env): Value {
    let layout = this.#layoutOf.get(ref);
    if (!layout) {
      layout = this.#grounded.layouts.get(canonicalFluentName(ref.name))!;
      this.#layoutOf.set(ref, layout);
    }
    const info = layout.info;
    const fallback = (): Value => {
      const d = info.default!;
      return d.kind === 'struct' ? 0 : d.value;
    };
    if (ref.isDefault) return fallback();
    const index = this.index(
      layout,
      ref.args.map((arg) => this.term(arg, env)),
    );
    if (index < 0) return fallback();
    let raw: number;
    switch (layout.store) {
      case 'nonfluent':
        raw = this.#grounded.nonFluentValues.get(layout, index);
        break;
      case 'state':
        raw = ref.primed ? this.#ns[index]! : this.#s[index]!;
        break;
      case 'action':
        raw = this.#a[index]!;
        break;
      case 'interm':
        raw = this.#im[index]!;
        break;
      case 'observ':
        raw = this.#ob[index]!;
        break;
    }
    const kind = info.range.kind;
    if (kind === 'bool') return raw !== 0;
    if (kind === 'enum' || kind === 'object') return this.#grounded.symbols.name(raw);
    return raw;
  }

  /**
   * Calls `visit` with `env` bound to each combination of the variables (first outermost), in place, as
   * rddlsim does; stops when `visit` returns true. Restores the outer bindings afterwards.
   */
  private forEachBinding(variables: { name: string; type: string }[], env: Env, visit: () => boolean): void {
    const saved = variables.map((v) => env.get(v.name));
    const loop = (k: number): boolean => {
      if (k === variables.length) return visit();
      for (const value of this.#grounded.typeValues.get(variables[k]!.type)!) {
        env.set(variables[k]!.name, value);
        if (loop(k + 1)) return true;
      }
      return false;
    };
    loop(0);
    variables.forEach((v, i) => (saved[i] === undefined ? env.delete(v.name) : env.set(v.name, saved[i]!)));
  }

  evaluate(expr: Expr, env: Env): Value {
    switch (expr.kind) {
      case 'bool':
      case 'number':
        return expr.value;
      case 'enum':
        return expr.value;
      case 'object':
        return expr.name;
      case 'variable':
        return env.get(expr.name)!;
      case 'pvar':
        return this.read(expr, env);
      case 'unary':
        return expr.op === '~'
          ? !this.evaluate(expr.operand, env)
          : 0 - toNumber(this.evaluate(expr.operand, env));
      case 'binary': {
        const left = this.evaluate(expr.left, env);
        switch (expr.op) {
          case '^':
            return left === true && this.evaluate(expr.right, env) === true;
          case '|':
            return left === true || this.evaluate(expr.right, env) === true;
          case '=>':
            return left !== true || this.evaluate(expr.right, env) === true;
          case '<=>':
            return left === this.evaluate(expr.right, env);
        }
        const right = this.evaluate(expr.right, env);
        if (typeof left === 'string' || typeof right === 'string')
          return expr.op === '==' ? left === right : left !== right;
        const x = toNumber(left);
        const y = toNumber(right);
        switch (expr.op) {
          case '==':
            return x === y;
          case '~=':
            return x !== y;
          case '<':
            return x < y;
          case '<=':
            return x <= y;
          case '>':
            return x > y;
          case '>=':
            return x >= y;
          case '+':
            return x + y;
          case '-':
            return x - y;
          case '*':
            return x * y;
          case '/':
            return x / y;
        }
        return 0;
      }
      case 'quantifier': {
        const forall = expr.quantifier === 'forall';
        let result = forall;
        this.forEachBinding(expr.variables, env, () => {
          if ((this.evaluate(expr.body, env) === true) === forall) return false;
          result = !forall;
          return true;
        });
        return result;
      }
      case 'aggregation': {
        const values: number[] = [];
        this.forEachBinding(expr.variables, env, () => {
          values.push(toNumber(this.evaluate(expr.body, env)));
          return false;
        });
        if (expr.op === 'sum') return values.reduce((a, b) => a + b, 0);
        if (expr.op === 'prod') return values.reduce((a, b) => a * b, 1);
        return expr.op === 'min' ? Math.min(...values) : Math.max(...values);
      }
      case 'if':
        return this.evaluate(expr.condition, env) === true
          ? this.evaluate(expr.then, env)
          : this.evaluate(expr.else, env);
      case 'switch': {
        const subject = this.term(expr.subject, env);
        const chosen =
          expr.cases.find((c) => c.value && this.term(c.value, env) === subject) ??
          expr.cases.find((c) => !c.value);
        return this.evaluate(chosen!.body, env);
      }
      case 'call': {
        const args = expr.args.map((a) => toNumber(this.evaluate(a, env)));
        const [x, y] = [args[0]!, args[1]!];
        switch (expr.name) {
          case 'div':
            return Math.trunc(x / y);
          case 'mod':
            return x % y;
          case 'min':
            return Math.min(x, y);
          case 'max':
            return Math.max(x, y);
          case 'abs':
            return Math.abs(x);
          case 'sgn':
            return Math.sign(x);
          case 'round':
            return Math.round(x);
          case 'floor':
            return Math.floor(x);
          case 'ceil':
            return Math.ceil(x);
          case 'pow':
            return Math.pow(x, y);
          case 'log':
            return Math.log(x) / Math.log(y);
          case 'ln':
            return Math.log(x);
          default:
            return (Math as unknown as Record<string, (v: number) => number>)[expr.name]!(x);
        }
      }
      case 'distribution': {
        const args = () => expr.args.map((a) => toNumber(this.evaluate(a, env)));
        const r = this.#random;
        switch (expr.name) {
          case 'KronDelta':
          case 'DiracDelta':
            return this.evaluate(expr.args[0]!, env);
          case 'Bernoulli':
            return r.bernoulli(args()[0]!);
          case 'Uniform':
            return r.uniformBetween(...(args() as [number, number]));
          case 'Normal':
            return r.normal(...(args() as [number, number]));
          case 'Exponential':
            return r.exponential(args()[0]!);
          case 'Poisson':
            return r.poisson(args()[0]!);
          case 'Weibull':
            return r.weibull(...(args() as [number, number]));
          case 'Gamma':
            return r.gamma(...(args() as [number, number]));
          case 'Discrete': {
            const cases = expr.cases!;
            const probabilities = new Float64Array(cases.length);
            cases.forEach((c, i) => {
              if (c.probability) {
                probabilities[i] = toNumber(this.evaluate(c.probability, env));
              } else {
                let rest = 1;
                for (let j = 0; j < i; j++) rest -= probabilities[j]!;
                probabilities[i] = rest;
              }
            });
            const label = cases[r.discrete(probabilities, cases.length)]!.label;
            return label.kind === 'enum' ? label.value : label.kind === 'object' ? label.name : '';
          }
          default:
            throw new Error(`${expr.name} is not interpreted`);
        }
      }
      case 'struct':
        throw new Error('vector values are not interpreted');
    }
  }
}
