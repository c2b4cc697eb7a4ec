/**
 * rddlsim's fluent ordering, replayed to find where it fails.
 *
 * Before a round, rddlsim's server builds a dependency graph: for every grounding of every interm,
 * observation and state fluent's cpf (and the reward) it walks the expression once to collect the fluents it
 * reads. That walk keeps the variables in one table, as evaluation does, so a nested quantifier or
 * aggregation that re-binds a variable removes it when it finishes. The walk also visits many operands twice
 * (first to see whether a constant operand decides the result, then to collect): an operand that reads the
 * erased variable after the nested one ran makes rddlsim stop with "No substitution ... for ?x", and its
 * server exits. With the `shadowed-variables` quirk on, loading fails at the same place with a located
 * message.
 *
 * The walk here follows rddlsim's rules for each construct (which operands it visits, in which order, and
 * when a constant operand stops it early); constant operands are evaluated by folding them as the compiler
 * does. Only cpfs that re-bind a variable can fail, so only those are walked.
 */
import type { CpfDef, Expr, Term, TypedVariable } from './ast';
import { CompileError, ExpressionCompiler, ModuleBuilder } from './compile-expr';
import type { ExprContext, PvarInfo } from './domain';
import { groundingArgs, type GroundedInstance } from './grounding';
import { canonicalFluentName } from './names';

type Bound = Map<string, { value: string; type: string }>;
/** Where collected fluents go: a set of ground names, or (for rddlsim's local sets) only whether any was. */
type Sink = Set<string> | { found: boolean };

class ErasedRead {
  constructor(
    readonly variable: string,
    readonly reader: Expr,
  ) {}
}

/** Returns rddlsim's ordering failure for this instance as a located error, or undefined when it orders. */
export function rddlsimOrderingFailure(grounded: GroundedInstance): CompileError | undefined {
  const domain = grounded.domain;
  const work: { info?: PvarInfo; cpf: CpfDef | undefined; expr: Expr; context: ExprContext }[] = [];
  const byLevel = domain.pvariableList
    // rddlsim keeps interm and derived fluents in one map ordered by level, then name.
    .filter((p) => p.kind === 'interm-fluent' || p.kind === 'derived-fluent')
    .sort((a, b) => (a.level ?? 0) - (b.level ?? 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const info of byLevel) {
    const cpf = domain.cpfs.get(info.canonical);
    const context = info.kind === 'derived-fluent' ? 'derived-cpf' : 'interm-cpf';
    if (cpf) work.push({ info, cpf, expr: cpf.expr, context });
  }
  for (const info of grounded.observEvaluationOrder) {
    const cpf = domain.cpfs.get(info.canonical);
    if (cpf) work.push({ info, cpf, expr: cpf.expr, context: 'observ-cpf' });
  }
  for (const info of grounded.stateEvaluationOrder) {
    const cpf = domain.cpfs.get(info.canonical);
    if (cpf) work.push({ info, cpf, expr: cpf.expr, context: 'state-cpf' });
  }
  const reward = domain.block.reward;
  if (reward) work.push({ cpf: undefined, expr: reward, context: 'reward' });

  let walker: Walker | undefined;
  for (const item of work) {
    const head = item.cpf?.head.args.map((a) => (a.kind === 'variable' ? a.name : '')) ?? [];
    if (!rebinds(item.expr, new Set(head.filter(Boolean)))) continue;
    walker ??= new Walker(grounded);
    const layout = item.info ? grounded.layouts.get(item.info.canonical) : undefined;
    const members = layout?.vector?.labels.length ?? 1;
    const count = layout ? layout.count : 1;
    for (let i = 0; i < count; i += members) {
      const args = layout ? groundingArgs(layout, i) : [];
      const subs: Bound = new Map();
      head.forEach((name, p) => {
        if (name) subs.set(name, { value: args[p]!, type: item.info!.params[p]! });
      });
      try {
        walker.run(item.expr, subs, item.context);
      } catch (error) {
        if (!(error instanceof ErasedRead)) throw error;
        const where = item.info
          ? `the parents of ${item.info.name}${item.info.kind === 'state-fluent' ? "'" : ''}${args.length ? `(${args.join(', ')})` : ''}`
          : 'the parents of the reward';
        return new CompileError(
          `rddlsim cannot order this domain's fluents: collecting ${where}, it reads ${error.variable} in ${describe(error.reader)} ` +
            `after a nested quantifier or aggregation re-bound and erased it ("No substitution for ${error.variable}"; ` +
            `rddlsim's server exits with "Could not derive legal fluent ordering"). Rename the inner ` +
            `variable, or play with the language's semantics, which scope it`,
          error.reader.loc,
        );
      }
    }
  }
  return undefined;
}

function describe(expr: Expr): string {
  if (expr.kind !== 'pvar') return 'an operand';
  const args = expr.args.map((a) =>
    a.kind === 'variable' ? a.name : a.kind === 'object' ? a.name : a.kind === 'enum' ? a.value : '...',
  );
  return `${expr.name}${expr.primed ? "'" : ''}(${args.join(', ')})`;
}

/** Whether a quantifier or aggregation inside `expr` binds a variable already bound around it. */
function rebinds(expr: Expr, bound: Set<string>): boolean {
  if (expr.kind === 'quantifier' || expr.kind === 'aggregation') {
    if (expr.variables.some((v) => bound.has(v.name))) return true;
    const inner = new Set(bound);
    for (const v of expr.variables) inner.add(v.name);
    return rebinds(expr.body, inner);
  }
  return children(expr).some((c) => rebinds(c, bound));
}

function children(expr: Expr): Expr[] {
  switch (expr.kind) {
    case 'pvar':
      return expr.args.filter((a) => a.kind === 'pvar');
    case 'unary':
      return [expr.operand];
    case 'binary':
      return [expr.left, expr.right];
    case 'quantifier':
    case 'aggregation':
      return [expr.body];
    case 'if':
      return [expr.condition, expr.then, expr.else];
    case 'switch':
      return [expr.subject as Expr, ...expr.cases.map((c) => c.body)];
    case 'call':
      return expr.args;
    case 'distribution':
      return [
        ...expr.args,
        ...(expr.body ? [expr.body] : []),
        ...(expr.cases ?? []).flatMap((c) =>
          c.probability ? [c.label as Expr, c.probability] : [c.label as Expr],
        ),
      ];
    case 'struct':
      return expr.members.map((m) => m.value);
    default:
      return [];
  }
}

/** Whether rddlsim considers the expression deterministic (no distribution inside). */
function deterministic(expr: Expr): boolean {
  if (expr.kind === 'distribution' && expr.name !== 'KronDelta' && expr.name !== 'DiracDelta') return false;
  return children(expr).every(deterministic);
}

function freeVariables(expr: Expr, bound: Set<string>, out: Set<string>): void {
  if (expr.kind === 'variable') {
    if (!bound.has(expr.name)) out.add(expr.name);
    return;
  }
  if (expr.kind === 'pvar') {
    for (const a of expr.args) if (a.kind === 'variable' && !bound.has(a.name)) out.add(a.name);
  }
  if (expr.kind === 'quantifier' || expr.kind === 'aggregation') {
    const inner = new Set(bound);
    for (const v of expr.variables) inner.add(v.name);
    freeVariables(expr.body, inner, out);
    return;
  }
  if (expr.kind === 'switch' && expr.subject.kind === 'variable' && !bound.has(expr.subject.name))
    out.add(expr.subject.name);
  for (const c of children(expr)) freeVariables(c, bound, out);
}

/** rddlsim's collectGFluents over one grounding, with its shared variable table. */
class Walker {
  readonly #compiler: ExpressionCompiler;
  #subs: Bound = new Map();
  #context: ExprContext = 'reward';
  readonly #atoms = new WeakMap<TypedVariable[], string[][]>();

  constructor(private readonly grounded: GroundedInstance) {
    const positions = new Map<string, number>();
    for (const type of grounded.typeValues.keys()) positions.set(type, positions.size);
    this.#compiler = new ExpressionCompiler(grounded, new ModuleBuilder(), false, positions);
  }

  run(expr: Expr, subs: Bound, context: ExprContext): void {
    this.#subs = subs;
    this.#context = context;
    this.collect(expr, new Set());
  }

  /** The value rddlsim's `sample` gives a state-independent deterministic operand, when it can fold it. */
  private sample(expr: Expr): boolean | number | undefined {
    const free = new Set<string>();
    freeVariables(expr, new Set(), free);
    for (const name of free) if (!this.#subs.has(name)) throw new ErasedRead(name, expr);
    try {
      const { code } = this.#compiler.compileStatement(expr, new Map(this.#subs), { context: this.#context });
      return code.value;
    } catch {
      return undefined;
    }
  }

  /** Whether collecting `expr` finds no fluent; collects into a local set, as rddlsim does. */
  private independent(expr: Expr): boolean {
    const local = { found: false };
    this.collect(expr, local);
    return !local.found;
  }

  private atoms(variables: TypedVariable[]): string[][] {
    const cached = this.#atoms.get(variables);
    if (cached) return cached;
    let result: string[][] = [[]];
    for (const v of variables) {
      const values = this.grounded.typeValues.get(v.type) ?? [];
      result = result.flatMap((prefix) => values.map((value) => [...prefix, value]));
    }
    this.#atoms.set(variables, result);
    return result;
  }

  private bind(variables: TypedVariable[], values: string[]): void {
    variables.forEach((v, i) => this.#subs.set(v.name, { value: values[i]!, type: v.type }));
  }

  private unbind(variables: TypedVariable[]): void {
    for (const v of variables) this.#subs.delete(v.name);
  }

  private term(term: Term, out: Sink, reader: Expr): string {
    if (term.kind === 'variable') {
      const bound = this.#subs.get(term.name);
      if (!bound) throw new ErasedRead(term.name, reader);
      return bound.value;
    }
    if (term.kind === 'pvar') {
      this.collect(term, out);
      return '?';
    }
    return term.kind === 'object' ? term.name : term.kind === 'enum' ? term.value : '';
  }

  collect(expr: Expr, out: Sink): void {
    switch (expr.kind) {
      case 'pvar': {
        const info = this.grounded.domain.pvariables.get(canonicalFluentName(expr.name));
        if (!info || info.kind === 'non-fluent') return;
        const args = expr.args.map((a) => this.term(a, out, expr));
        if (out instanceof Set) out.add(`${info.canonical}${expr.primed ? "'" : ''}(${args.join(',')})`);
        else out.found = true;
        return;
      }
      case 'quantifier':
      case 'aggregation': {
        const subs = this.atoms(expr.variables);
        const early =
          expr.kind === 'quantifier'
            ? expr.quantifier === 'forall'
              ? false
              : true
            : expr.op === 'prod'
              ? 0
              : undefined;
        if (early !== undefined) {
          for (const values of subs) {
            this.bind(expr.variables, values);
            if (this.independent(expr.body) && deterministic(expr.body)) {
              const value = this.sample(expr.body);
              if (value !== undefined && (early === 0 ? value === 0 || value === false : value === early)) {
                this.unbind(expr.variables);
                return;
              }
            }
          }
        }
        for (const values of subs) {
          this.bind(expr.variables, values);
          this.collect(expr.body, out);
        }
        this.unbind(expr.variables);
        return;
      }
      case 'binary': {
        const op = expr.op;
        if (op === '^' || op === '|') {
          const nodes = flatten(expr, op);
          let allIndependent = true;
          for (const node of nodes) {
            if (this.independent(node) && deterministic(node)) {
              const value = this.sample(node);
              if (value === (op === '|')) return;
            } else {
              allIndependent = false;
            }
          }
          if (allIndependent) return;
          for (const node of nodes) this.collect(node, out);
          return;
        }
        if (op === '=>' || op === '<=>') {
          const lhs =
            this.independent(expr.left) && deterministic(expr.left) ? this.sample(expr.left) : undefined;
          const rhs =
            this.independent(expr.right) && deterministic(expr.right) ? this.sample(expr.right) : undefined;
          if (lhs !== undefined && rhs !== undefined) return;
          if (op === '=>' && (lhs === false || rhs === true)) return;
          this.collect(expr.left, out);
          this.collect(expr.right, out);
          return;
        }
        if (op === '+' || op === '-' || op === '*' || op === '/') {
          const left =
            this.independent(expr.left) && deterministic(expr.left) ? this.sample(expr.left) : undefined;
          const right =
            this.independent(expr.right) && deterministic(expr.right) ? this.sample(expr.right) : undefined;
          const zero = (v: unknown) => v === 0 || v === false;
          if (op === '*' && (zero(left) || zero(right))) return;
          if (left === undefined) this.collect(expr.left, out);
          if (right === undefined) this.collect(expr.right, out);
          return;
        }
        this.collect(expr.left, out);
        this.collect(expr.right, out);
        return;
      }
      case 'if': {
        // rddlsim collects the test once, into a set of its own that it then adds.
        const test = out instanceof Set ? new Set<string>() : { found: false };
        this.collect(expr.condition, test);
        const found = test instanceof Set ? test.size > 0 : test.found;
        if (test instanceof Set) for (const f of test) (out as Set<string>).add(f);
        else if (found) (out as { found: boolean }).found = true;
        const outcome = !found && deterministic(expr.condition) ? this.sample(expr.condition) : undefined;
        if (outcome === undefined || outcome === true) this.collect(expr.then, out);
        if (outcome === undefined || outcome === false) this.collect(expr.else, out);
        return;
      }
      case 'switch':
        if (expr.subject.kind === 'pvar') this.collect(expr.subject, out);
        for (const c of expr.cases) this.collect(c.body, out);
        return;
      default:
        for (const c of children(expr)) this.collect(c, out);
    }
  }
}

/** rddlsim flattens a chain of the same connective into one node with every operand. */
function flatten(expr: Expr, op: '^' | '|'): Expr[] {
  if (expr.kind === 'binary' && expr.op === op)
    return [...flatten(expr.left, op), ...flatten(expr.right, op)];
  return [expr];
}
