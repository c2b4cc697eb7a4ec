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
 *
 * The same graph decides the order in which rddlsim evaluates the groundings of interm fluents
 * (`rddlsimIntermOrder`): a depth-first sort whose visiting order follows Java's hash order of the ground
 * fluents' names, so it depends on object names.
 */
import type { ArgTerm, CpfDef, Expr, TypedVariable } from './ast';
import { CompileError, ExpressionCompiler, ModuleBuilder } from './compile-expr';
import type { ExprContext, PvarInfo } from './domain';
import { groundingArgs, rddlsimPvariableOrder, type GroundedInstance } from './grounding';
import { canonicalFluentName } from './names';
import { javaHashMapLayout, javaStringHashCode, javaStringKeyOrder } from '../../java/hash-map-order';

type Bound = Map<string, { value: string; type: string }>;

/** A ground fluent rddlsim collects as a parent: its `Pair` of fluent name and arguments. */
interface Parent {
  /** Equality as rddlsim's `Pair.equals` has it: canonical name, prime, arguments. */
  key: string;
  /** Its name in rddlsim's dependency graph: the fluent as written in the expression, `$` before objects. */
  name: string;
  /** `Pair.hashCode()`: the fluent name's hash minus the argument list's. */
  hash: number;
}

/** rddlsim's `HashSet<Pair>` of parents: each pair once, in insertion order (the hash order comes later). */
class Parents {
  readonly byKey = new Map<string, Parent>();
  add(parent: Parent): void {
    if (!this.byKey.has(parent.key)) this.byKey.set(parent.key, parent);
  }
  /** The pairs as Java iterates the set, for a table of `capacity` buckets (and its capacity after). */
  javaOrder(capacity: number): { keys: Parent[]; capacity: number } {
    return javaHashMapLayout(
      [...this.byKey.values()].map((p) => ({ key: p, hashCode: p.hash })),
      capacity,
    );
  }
}

/** Where collected fluents go: rddlsim's set of parents, or (for its local sets) only whether any was. */
type Sink = Parents | { found: boolean };

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
      return expr.args.flatMap((a) => (a.kind === 'pvar' ? [a] : a.kind === 'expr' ? [a.expr] : []));
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

  run(expr: Expr, subs: Bound, context: ExprContext, into: Parents = new Parents()): Parents {
    this.#subs = subs;
    this.#context = context;
    this.collect(expr, into);
    return into;
  }

  /** The value rddlsim's `sample` gives a state-independent deterministic operand, when it can fold it. */
  private sample(expr: Expr): boolean | number | undefined {
    const direct = this.nonFluentValue(expr);
    if (direct !== undefined) return direct;
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

  /**
   * A boolean or numeric non-fluent read with bound variables and constants, looked up directly (the
   * commonest folded operand, met once per grounding of a quantifier: compiling each would be slow).
   */
  private nonFluentValue(expr: Expr): boolean | number | undefined {
    if (expr.kind !== 'pvar' || expr.members || expr.isDefault) return undefined;
    const info = this.grounded.domain.pvariables.get(canonicalFluentName(expr.name));
    if (!info || info.kind !== 'non-fluent') return undefined;
    const kind = info.range.kind;
    if (kind !== 'bool' && kind !== 'int' && kind !== 'real') return undefined;
    const layout = this.grounded.layouts.get(info.canonical);
    if (!layout || layout.vector || expr.args.length !== layout.strides.length) return undefined;
    let index = layout.offset;
    for (let i = 0; i < expr.args.length; i++) {
      const arg = expr.args[i]!;
      const value =
        arg.kind === 'variable'
          ? this.#subs.get(arg.name)?.value
          : arg.kind === 'object'
            ? arg.name
            : arg.kind === 'enum'
              ? arg.value
              : undefined;
      const position = value === undefined ? undefined : layout.paramPositions[i]!.get(value);
      if (position === undefined) return undefined;
      index += position * layout.strides[i]!;
    }
    const value = this.grounded.nonFluentValues.get(layout, index);
    return kind === 'bool' ? value !== 0 : value;
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

  private term(term: ArgTerm, out: Sink, reader: Expr): string {
    if (term.kind === 'variable') {
      const bound = this.#subs.get(term.name);
      if (!bound) throw new ErasedRead(term.name, reader);
      return bound.value;
    }
    if (term.kind === 'pvar') {
      this.collect(term, out);
      return '?';
    }
    if (term.kind === 'expr') {
      // pyRDDLGym's expression argument (rddlsim reads none): what it reads, and an unknown grounding.
      this.collect(term.expr, out);
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
        if (out instanceof Parents) out.add(parentOf(info, expr, args));
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
        // rddlsim collects the test once, into a set of its own that it then adds (in that set's order).
        const test = out instanceof Parents ? new Parents() : { found: false };
        this.collect(expr.condition, test);
        const found = test instanceof Parents ? test.byKey.size > 0 : test.found;
        if (test instanceof Parents) for (const f of test.javaOrder(16).keys) (out as Parents).add(f);
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

/** The `Pair` rddlsim collects for a fluent read with these (ground) arguments. */
function parentOf(info: PvarInfo, ref: Extract<Expr, { kind: 'pvar' }>, args: string[]): Parent {
  // PVAR_NAME hashes its canonical name (plus 1 when primed); a list hashes its elements (31 * h + e);
  // an object hashes its name without `$`, an enum value its text with `@`.
  let listHash = 1;
  for (const arg of args) listHash = (Math.imul(31, listHash) + javaStringHashCode(arg)) | 0;
  const nameHash = (javaStringHashCode(info.canonical) + (ref.primed ? 1 : 0)) | 0;
  return {
    key: `${info.canonical}${ref.primed ? "'" : ''}(${args.join(',')})`,
    name: `${ref.name}${ref.primed ? "'" : ''}${groundText(args)}`,
    hash: (nameHash - listHash) | 0,
  };
}

/** The arguments of a ground fluent as rddlsim's graph names them: `($a, $b)`, enum values as written. */
function groundText(args: readonly string[]): string {
  return args.length ? `(${args.map((a) => (a.startsWith('@') ? a : `$${a}`)).join(', ')})` : '';
}

/**
 * The order in which rddlsim evaluates the groundings of interm fluents, as their slots (a vector's
 * members one after the other); undefined when no interm fluent draws random numbers (any order that respects the
 * dependencies then gives the same values).
 *
 * Before each round rddlsim builds a graph of ground fluents, with an edge from each fluent a cpf reads to
 * the fluent it defines: nodes are added for the actions, then the interm and derived fluents (by level,
 * then name; each grounding's parents in the hash order of its parent set, a set that is cleared and
 * reused, so it keeps its grown table), the observations, the current and next state, the reward and a
 * few labels of the graph's levels. Its topological sort starts a depth-first search at every node in the
 * iteration order of a `HashMap` of the node names and visits children in the order of a `HashSet` of
 * names; a node goes in front of everything found after it. The interm groundings are evaluated in that
 * order.
 */
export function rddlsimIntermOrder(grounded: GroundedInstance): number[] | undefined {
  const domain = grounded.domain;
  const stochastic = domain.pvariableList.some((info) => {
    if (info.kind !== 'interm-fluent') return false;
    const cpf = domain.cpfs.get(info.canonical);
    return cpf !== undefined && !deterministic(cpf.expr);
  });
  if (!stochastic) return undefined;

  const walker = new Walker(grounded);
  const nodes: string[] = [];
  const known = new Set<string>();
  const addNode = (name: string) => {
    if (known.has(name)) return;
    known.add(name);
    nodes.push(name);
  };
  const children = new Map<string, Set<string>>();
  const addLink = (from: string, to: string) => {
    addNode(from);
    addNode(to);
    let set = children.get(from);
    if (!set) children.set(from, (set = new Set()));
    set.add(to);
  };
  const childOrder = (node: string) => javaStringKeyOrder([...(children.get(node) ?? [])]);
  let parentCapacity = 16;
  /** Each grounding of `info`: its slot, its name in the graph, and its parents in rddlsim's order. */
  const eachGrounding = (
    info: PvarInfo,
    context: ExprContext,
    visit: (slots: number[], args: string[], parents: Parent[]) => void,
  ) => {
    const layout = grounded.layouts.get(info.canonical);
    const cpf = domain.cpfs.get(info.canonical);
    if (!layout || !cpf) return;
    const head = cpf.head.args.map((a) => (a.kind === 'variable' ? a.name : ''));
    const members = layout.vector?.labels.length ?? 1;
    for (let i = 0; i < layout.count; i += members) {
      const args = groundingArgs(layout, i).slice(0, info.params.length);
      const subs: Bound = new Map();
      head.forEach((name, p) => {
        if (name) subs.set(name, { value: args[p]!, type: info.params[p]! });
      });
      const ordered = walker.run(cpf.expr, subs, context).javaOrder(parentCapacity);
      parentCapacity = ordered.capacity;
      visit(
        Array.from({ length: members }, (_, m) => layout.offset + i + m),
        args,
        ordered.keys,
      );
    }
  };

  const pvarOrder = rddlsimPvariableOrder(domain);
  for (const info of pvarOrder) {
    if (info.kind !== 'action-fluent') continue;
    const layout = grounded.layouts.get(info.canonical);
    if (!layout) continue;
    const members = layout.vector?.labels.length ?? 1;
    for (let i = 0; i < layout.count; i += members)
      addNode(`${info.name}${groundText(groundingArgs(layout, i).slice(0, info.params.length))}`);
  }
  const intermSlots = new Map<string, number[]>();
  const intermLike = domain.pvariableList
    .filter((p) => p.kind === 'interm-fluent' || p.kind === 'derived-fluent')
    .sort((a, b) => (a.level ?? -1) - (b.level ?? -1) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const info of intermLike) {
    const context = info.kind === 'derived-fluent' ? 'derived-cpf' : 'interm-cpf';
    eachGrounding(info, context, (slots, args, parents) => {
      const name = `${info.name}${groundText(args)}`;
      if (info.kind === 'interm-fluent') intermSlots.set(name, slots);
      addNode(name);
      for (const parent of parents) addLink(parent.name, name);
    });
  }
  let observed = false;
  for (const info of grounded.observEvaluationOrder) {
    eachGrounding(info, 'observ-cpf', (_slots, args, parents) => {
      const name = `${info.name}${groundText(args)}`;
      observed = true;
      addNode(name);
      for (const parent of parents) addLink(parent.name, name);
    });
  }
  for (const info of grounded.stateEvaluationOrder) {
    eachGrounding(info, 'state-cpf', (_slots, args, parents) => {
      const primed = `${info.name}'${groundText(args)}`;
      addNode(`${info.name}${groundText(args)}`);
      addNode(primed);
      for (const parent of parents) addLink(parent.name, primed);
    });
  }
  addNode('Reward Function');
  const reward = domain.block.reward;
  if (reward) {
    const ordered = walker.run(reward, new Map(), 'reward').javaOrder(parentCapacity);
    for (const parent of ordered.keys) addLink(parent.name, 'Reward Function');
  }
  // The labels of the graph's levels, linked in a chain.
  addNode('Current State and Actions');
  let previous = 'Current State and Actions';
  for (const level of [...new Set(intermLike.map((p) => p.level ?? -1))].sort((a, b) => a - b)) {
    const label = `Intermediate @ Level ${level}`;
    addLink(previous, label);
    previous = label;
  }
  if (observed) {
    addNode('Observations');
    addLink(previous, 'Observations');
    previous = 'Observations';
  }
  addNode('Next State and Reward');
  addLink(previous, 'Next State and Reward');

  // rddlsim copies the node map into another HashMap (to sort nodes by a depth that is always 0) and
  // starts a search at each of its keys in turn.
  const roots = javaStringKeyOrder(javaStringKeyOrder(nodes));
  const visited = new Set<string>();
  const finished: string[] = [];
  for (const root of roots) {
    if (visited.has(root)) continue;
    visited.add(root);
    const stack = [{ node: root, next: 0, list: childOrder(root) }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const child = top.list[top.next++];
      if (child === undefined) {
        finished.push(top.node);
        stack.pop();
      } else if (!visited.has(child)) {
        visited.add(child);
        stack.push({ node: child, next: 0, list: childOrder(child) });
      }
    }
  }
  const order: number[] = [];
  for (let i = finished.length - 1; i >= 0; i--) {
    const slots = intermSlots.get(finished[i]!);
    if (slots) order.push(...slots);
  }
  return order;
}
