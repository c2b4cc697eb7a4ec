/**
 * Compiles a grounded instance to one JavaScript module (built with `new Function`, which works in Node and
 * in Web Workers alike unless a Content-Security-Policy forbids it). The module has one statement per
 * grounded fluent, in the order rddlsim evaluates them: interm fluents in dependency order (with rddlsim's
 * quirks, in rddlsim's own order of its dependency graph), next state in rddlsim's fluent order,
 * observations, then the reward. State lives in flat Float64Arrays; statements
 * are split into functions of bounded size so the engine optimises each of them.
 */
import type { SourceLocation } from '../../errors';
import type { Expr } from './ast';
import type { ExprContext, PvarInfo } from './domain';
import { ARRAY_PARAMS, CompileError, ExpressionCompiler, ModuleBuilder, type Code } from './compile-expr';
import { rddlsimIntermOrder, rddlsimOrderingFailure } from './rddlsim-ordering';
import { groundingArgs, type FluentLayout, type GroundedInstance } from './grounding';
import { rollStatements } from './roll';
import type { CompiledRuntime } from './runtime';
import type { ValueType } from './value-types';

/** Source text of generated functions is cut into pieces of about this many characters. */
const CHUNK_CHARS = 12_000;
/** Refuse to build programs larger than this (characters of generated source). */
const MAX_SOURCE_CHARS = 256_000_000;

/** The functions of a compiled instance; each takes the state arrays `(s, a, ns, im, ob)`. */
export interface CompiledFunctions {
  /** Interm fluents, next state and observations; returns the reward. */
  step(s: Float64Array, a: Float64Array, ns: Float64Array, im: Float64Array, ob: Float64Array): number;
  /** The interm fluents alone (what `step` computes first); does nothing unless `repeatsInterm`. */
  interm(s: Float64Array, a: Float64Array, ns: Float64Array, im: Float64Array, ob: Float64Array): void;
  /** Index of the first false precondition or state-action constraint, or -1. */
  checkActions(
    s: Float64Array,
    a: Float64Array,
    ns: Float64Array,
    im: Float64Array,
    ob: Float64Array,
  ): number;
  /** Recomputes derived fluents from the state. */
  derived(s: Float64Array, a: Float64Array, ns: Float64Array, im: Float64Array, ob: Float64Array): void;
  /** The terminate-when (or IPC 2018 terminal) condition on the current state. */
  terminal(s: Float64Array, a: Float64Array, ns: Float64Array, im: Float64Array, ob: Float64Array): boolean;
  /** Whether any of the domain's `termination` conditions (pyRDDLGym's) holds in the current state. */
  terminations(
    s: Float64Array,
    a: Float64Array,
    ns: Float64Array,
    im: Float64Array,
    ob: Float64Array,
  ): boolean;
  /** Index of the first false state invariant, or -1. */
  invariants(s: Float64Array, a: Float64Array, ns: Float64Array, im: Float64Array, ob: Float64Array): number;
}

/** A constraint as the simulator reports it when false. */
export interface ConstraintInfo {
  kind: 'action-precondition' | 'state-action-constraint' | 'state-invariant';
  location: SourceLocation;
}

/** A compiled instance, ready to be instantiated with a runtime (one per simulator). */
export interface CompiledProgram {
  instantiate(runtime: CompiledRuntime): CompiledFunctions;
  locations: SourceLocation[];
  data: (Float64Array | Int32Array)[];
  /** Per object/enum type: its index in the position tables. */
  positionTables: Map<string, number>;
  /** Value type of each state grounding once its cpf has run. */
  stateCpfTypes: ValueType[];
  /** Value type of each interm/derived grounding and each observation grounding. */
  intermTypes: ValueType[];
  observTypes: ValueType[];
  rewardType: ValueType;
  /** 1 for groundings whose value may be a boolean at run time (rddlsim's `*` quirk); see `boolTags`. */
  stateMayBeBool: Uint8Array;
  observMayBeBool: Uint8Array;
  actionConstraints: ConstraintInfo[];
  stateInvariants: ConstraintInfo[];
  /** Characters of generated source (for the benchmarks' memory figures). */
  sourceSize: number;
  /**
   * With rddlsim's quirks, whether an interm fluent draws random numbers: rddlsim then evaluates the interm
   * fluents once per round begun so far in the session (see `rddlsimIntermOrder`), which shifts every
   * later draw.
   */
  repeatsInterm: boolean;
}

/** Options that change the generated code. */
export interface CompileOptions {
  /** Reproduce rddlsim's evaluation quirks. */
  quirks: boolean;
}

interface Statement {
  source: string;
}

/** Compiles a grounded instance; throws CompileError (with a location) for what cannot be simulated. */
export function compileProgram(grounded: GroundedInstance, options: CompileOptions): CompiledProgram {
  if (options.quirks) {
    // rddlsim orders the fluents before it simulates; where that fails, its server exits.
    const failure = rddlsimOrderingFailure(grounded);
    if (failure) throw failure;
  }
  const module = new ModuleBuilder();
  const positionTables = new Map<string, number>();
  for (const type of grounded.typeValues.keys()) positionTables.set(type, positionTables.size);
  const compiler = new ExpressionCompiler(grounded, module, options.quirks, positionTables);
  const domain = grounded.domain;
  const layoutOf = (info: PvarInfo) => grounded.layouts.get(info.canonical)!;
  const cpfOf = (info: PvarInfo) => {
    const cpf = domain.cpfs.get(info.canonical);
    if (!cpf) throw new CompileError(`${info.kind} '${info.name}' has no cpf`, info.decl.nameLoc);
    return cpf;
  };

  const stateCpfTypes: ValueType[] = new Array(grounded.sizes.state);
  const intermTypes: ValueType[] = new Array(grounded.sizes.interm);
  const observTypes: ValueType[] = new Array(grounded.sizes.observ);

  /** Compiles `info`'s cpf for every grounding, handing each compiled statement to `emit`. */
  const eachGrounding = (
    info: PvarInfo,
    context: ExprContext,
    emit: (index: number, code: Code, temps: string[], reads: Set<number>) => void,
    computedState?: Uint8Array,
  ) => {
    const layout = layoutOf(info);
    const cpf = cpfOf(info);
    const variables = cpf.head.args.map((arg) => (arg.kind === 'variable' ? arg.name : ''));
    const members = layout.vector?.labels.length ?? 1;
    // pyRDDLGym's Dirichlet[?v](...) / Multinomial[?v](...): per grounding of the other parameters, the
    // first grounding draws the vector the others read.
    const sampledAt =
      cpf.expr.kind === 'distribution' && cpf.expr.sampled
        ? variables.indexOf(cpf.expr.sampled[0]?.name ?? '')
        : -1;
    const firstOfBatch = new Map<string, number>();
    for (let i = 0; i < layout.count; i++) {
      const args = groundingArgs(layout, i);
      const bindings = new Map(
        variables.map((name, p) => [name, { value: args[p]!, type: info.params[p]! }]),
      );
      const reads = new Set<number>();
      if (sampledAt >= 0) {
        const batch = args.filter((_, p) => p !== sampledAt).join(',');
        const first = firstOfBatch.get(batch);
        if (first === undefined) firstOfBatch.set(batch, i);
        else reads.add(layout.offset + first);
      }
      // A vector's members are adjacent slots; member 0's statement makes the draws the others read.
      const memberIndex = i % members;
      if (memberIndex > 0) reads.add(layout.offset + i - memberIndex);
      const { code, temps } = compiler.compileStatement(cpf.expr, bindings, {
        context,
        computedState,
        intermReads: reads,
        slot: layout.offset + i,
        ...(layout.vector
          ? { member: { index: memberIndex, label: layout.vector.labels[memberIndex]! } }
          : {}),
      });
      emit(layout.offset + i, code, temps, reads);
      computedState?.fill(1, layout.offset + i, layout.offset + i + 1);
    }
  };
  const store = (array: string, index: number, code: Code, temps: string[]): Statement => {
    let body: string;
    const tags = array === 'ns' ? 'next' : array === 'ob' ? 'observ' : undefined;
    if (code.mayBeBool && tags) {
      // rddlsim's `*` may hand back `false` unconverted: the stored value then is a boolean.
      dynamicTypes[tags][index] = 1;
      body = `const v = ${code.js}; ${array}[${index}] = +v; BT.${tags}[${index}] = typeof v === 'boolean' ? 1 : 0;`;
    } else {
      body = `${array}[${index}] = ${storedValue(compiler, code)};`;
    }
    return {
      source:
        temps.length || code.mayBeBool
          ? `{ ${temps.length ? `let ${temps.join(', ')}; ` : ''}${body} }`
          : body,
    };
  };
  const dynamicTypes = {
    next: new Uint8Array(grounded.sizes.state),
    observ: new Uint8Array(grounded.sizes.observ),
  };

  // Interm fluents, then derived fluents, each in dependency order.
  const interms = domain.pvariableList.filter((p) => p.kind === 'interm-fluent');
  const deriveds = domain.pvariableList.filter((p) => p.kind === 'derived-fluent');
  /** Each interm and derived grounding's statement, by slot (to reorder them as rddlsim does). */
  const statementAt = new Map<number, Statement>();
  const remember = (index: number, statement: Statement) => {
    statementAt.set(index, statement);
    return statement;
  };
  const orderedStatements = (infos: PvarInfo[], context: ExprContext): Statement[] => {
    const nodes: DependencyNode[] = [];
    infos.forEach((info, declarationIndex) =>
      eachGrounding(info, context, (index, code, temps, reads) => {
        intermTypes[index] = code.type;
        nodes.push({
          index,
          priority: [info.level ?? 0, declarationIndex, index],
          reads,
          statement: remember(index, store('im', index, code, temps)),
          label: `${info.name}${describeArgs(layoutOf(info), index)}`,
          location: cpfOf(info).loc,
        });
      }),
    );
    return dependencyOrder(nodes).map((n) => n.statement);
  };
  let intermStatements = orderedStatements(interms, 'interm-cpf');
  // rddlsim evaluates the interm groundings in the order of its dependency graph; only random draws can
  // tell one valid order from another, so the order is computed only when an interm fluent draws.
  const rddlsimOrder = options.quirks ? rddlsimIntermOrder(grounded) : undefined;
  if (rddlsimOrder) {
    const ordered = rddlsimOrder.map((slot) => statementAt.get(slot));
    if (ordered.length === intermStatements.length && ordered.every((st) => st !== undefined))
      intermStatements = ordered as Statement[];
  }
  const derivedStatements = orderedStatements(deriveds, 'derived-cpf');

  const computedState = new Uint8Array(grounded.sizes.state);
  const stateStatements: Statement[] = [];
  for (const info of grounded.stateEvaluationOrder) {
    eachGrounding(
      info,
      'state-cpf',
      (index, code, temps) => {
        stateCpfTypes[index] = code.type;
        stateStatements.push(store('ns', index, code, temps));
      },
      computedState,
    );
  }
  const observStatements: Statement[] = [];
  for (const info of grounded.observEvaluationOrder) {
    eachGrounding(info, 'observ-cpf', (index, code, temps) => {
      observTypes[index] = code.type;
      observStatements.push(store('ob', index, code, temps));
    });
  }

  const noBindings = new Map<string, { value: string; type: string }>();
  const compileAlone = (expr: Expr, context: ExprContext) =>
    compiler.compileStatement(expr, noBindings, { context });
  const reward = domain.block.reward;
  if (!reward) throw new CompileError(`the domain has no reward`, domain.block.nameLoc);
  const rewardCode = compileAlone(reward, 'reward');
  const rewardValue = compiler.asNumber(rewardCode.code).js;

  const actionConstraints: ConstraintInfo[] = [];
  const constraintStatements: Statement[] = [];
  const constraintGroups = [
    { list: domain.block.actionPreconditions, kind: 'action-precondition' as const },
    { list: domain.block.stateActionConstraints, kind: 'state-action-constraint' as const },
  ];
  for (const { list, kind } of constraintGroups) {
    for (const constraint of list) {
      const { code, temps } = compileAlone(constraint.expr, 'precondition');
      const index = actionConstraints.length;
      actionConstraints.push({ kind, location: constraint.loc });
      if (code.value === true) continue;
      const test = `if (!${code.js}) return ${index};`;
      constraintStatements.push({ source: temps.length ? `{ let ${temps.join(', ')}; ${test} }` : test });
    }
  }
  const stateInvariants: ConstraintInfo[] = [];
  const invariantStatements: Statement[] = [];
  for (const invariant of domain.block.stateInvariants) {
    const { code, temps } = compileAlone(invariant.expr, 'invariant');
    const index = stateInvariants.length;
    stateInvariants.push({ kind: 'state-invariant', location: invariant.loc });
    if (code.value === true) continue;
    const test = `if (!${code.js}) return ${index};`;
    invariantStatements.push({ source: temps.length ? `{ let ${temps.join(', ')}; ${test} }` : test });
  }
  const terminationStatements: Statement[] = [];
  for (const termination of domain.block.terminations) {
    const { code, temps } = compileAlone(termination.expr, 'terminal');
    if (code.value === false) continue;
    const test = `if (${code.js}) return true;`;
    terminationStatements.push({ source: temps.length ? `{ let ${temps.join(', ')}; ${test} }` : test });
  }
  const horizon = grounded.instance.horizon;
  const terminalCode =
    horizon.kind === 'terminate-when' || horizon.kind === 'terminal'
      ? compileAlone(horizon.condition, 'terminal')
      : undefined;

  const sections: string[] = [];
  const section = (name: string, statements: Statement[], ending: string) => {
    const chunkNames: string[] = [];
    let current: string[] = [];
    let size = 0;
    const flush = () => {
      if (current.length === 0) return;
      const chunk = module.name('c');
      chunkNames.push(chunk);
      sections.push(`function ${chunk}(${ARRAY_PARAMS}) {\n  ${current.join('\n  ')}\n  return -1;\n}`);
      current = [];
      size = 0;
    };
    for (const source of rollStatements(
      statements.map((st) => st.source),
      (values) => module.table(values),
    )) {
      current.push(source);
      size += source.length;
      if (size > CHUNK_CHARS) flush();
    }
    flush();
    // Constraint chunks return the index of a false constraint, -1 when all hold.
    const calls = chunkNames.map((chunk) =>
      ending === 'constraints'
        ? `  { const k = ${chunk}(${ARRAY_PARAMS}); if (k >= 0) return k; }`
        : `  ${chunk}(${ARRAY_PARAMS});`,
    );
    const tail = ending === 'constraints' ? '  return -1;' : ending;
    sections.push(`function ${name}(${ARRAY_PARAMS}) {\n${calls.join('\n')}\n${tail}\n}`);
  };
  // Only a program that repeats its interm fluents (see `repeatsInterm`) needs them as a function of their
  // own; the others keep one function for the whole step.
  const repeatsInterm = rddlsimOrder !== undefined;
  if (repeatsInterm) section('interm', intermStatements, '');
  section(
    'intermAndNext',
    [...(repeatsInterm ? [] : intermStatements), ...stateStatements, ...observStatements],
    '',
  );
  section('checkActions', constraintStatements, 'constraints');
  section('invariants', invariantStatements, 'constraints');
  section('derived', derivedStatements, '');
  const temps = (list: string[]) => (list.length ? `  let ${list.join(', ')};\n` : '');
  sections.push(
    `function reward(${ARRAY_PARAMS}) {\n${temps(rewardCode.temps)}  return ${rewardValue};\n}`,
    `function step(${ARRAY_PARAMS}) {\n${repeatsInterm ? `  interm(${ARRAY_PARAMS});\n` : ''}  intermAndNext(${ARRAY_PARAMS});\n  return reward(${ARRAY_PARAMS});\n}`,
    ...(repeatsInterm ? [] : ['function interm() {}']),
    `function terminal(${ARRAY_PARAMS}) {\n${terminalCode ? `${temps(terminalCode.temps)}  return ${terminalCode.code.js};` : '  return false;'}\n}`,
    `function terminations(${ARRAY_PARAMS}) {\n${terminationStatements.map((t) => `  ${t.source}\n`).join('')}  return false;\n}`,
  );
  const source = [
    '"use strict";',
    'const { U, bern, unif, norm, expo, pois, weib, gam, pyd, disc, udisc, mult, diri, vmult, vdiri, vmvn, vmvt, mdet, minv, mpinv, mchol, lgam, idiv, imod, jround, d2i, qmul, qmuli, or2, fail, EI, POS } = rt;',
    'const D = rt.data;',
    'const BT = rt.boolTags;',
    ...module.helpers,
    ...sections,
    'return { step, interm, checkActions, derived, terminal, terminations, invariants };',
  ].join('\n');
  if (source.length > MAX_SOURCE_CHARS) {
    throw new CompileError(
      `this instance is too big to compile (${Math.round(source.length / 1e6)} million characters of code)`,
      grounded.instance.nameLoc,
    );
  }
  // The generated text is built only from numbers, fixed helper names and the escaped message above,
  // never from names in the RDDL text, so no RDDL input can inject code.
  const factory = new Function('rt', source) as (rt: CompiledRuntime) => CompiledFunctions;
  return {
    instantiate: factory,
    locations: module.locations,
    data: module.data,
    positionTables,
    stateCpfTypes,
    intermTypes,
    observTypes,
    rewardType: rewardCode.code.type,
    stateMayBeBool: dynamicTypes.next,
    observMayBeBool: dynamicTypes.observ,
    actionConstraints,
    stateInvariants,
    sourceSize: source.length,
    repeatsInterm,
  };
}

/** The number stored for a value: bools as 0/1, numbers as they are, enum and object values as symbols. */
function storedValue(compiler: ExpressionCompiler, code: Code): string {
  if (code.type.kind === 'bool')
    return code.value !== undefined ? (code.value ? '1' : '0') : `${code.js} ? 1 : 0`;
  if (code.type.kind === 'int' || code.type.kind === 'real') return compiler.asNumber(code).js;
  return code.js;
}

function describeArgs(layout: FluentLayout, index: number): string {
  const args = groundingArgs(layout, index - layout.offset);
  return args.length ? `(${args.join(', ')})` : '';
}

interface DependencyNode {
  index: number;
  priority: number[];
  reads: Set<number>;
  statement: Statement;
  label: string;
  location: SourceLocation;
}

/**
 * Orders groundings so that each comes after those it reads (depth-first, visiting in priority order so
 * independent fluents keep level, declaration and grounding order). A cycle is reported with its path.
 */
function dependencyOrder(nodes: DependencyNode[]): DependencyNode[] {
  const byIndex = new Map(nodes.map((n) => [n.index, n]));
  const sorted = [...nodes].sort((x, y) => {
    for (let i = 0; i < x.priority.length; i++)
      if (x.priority[i] !== y.priority[i]) return x.priority[i]! - y.priority[i]!;
    return 0;
  });
  const state = new Map<number, 1 | 2>();
  const result: DependencyNode[] = [];
  for (const root of sorted) {
    if (state.has(root.index)) continue;
    const stack: { node: DependencyNode; pending: number[] }[] = [{ node: root, pending: [...root.reads] }];
    state.set(root.index, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const next = top.pending.pop();
      if (next === undefined) {
        stack.pop();
        state.set(top.node.index, 2);
        result.push(top.node);
        continue;
      }
      const dependency = byIndex.get(next);
      if (!dependency) continue;
      const mark = state.get(next);
      if (mark === 2) continue;
      if (mark === 1) {
        const from = stack.findIndex((frame) => frame.node.index === next);
        const path = [...stack.slice(from).map((frame) => frame.node.label), dependency.label];
        throw new CompileError(
          `these fluents depend on each other in a cycle: ${path.join(' -> ')}`,
          dependency.location,
        );
      }
      state.set(next, 1);
      stack.push({ node: dependency, pending: [...dependency.reads] });
    }
  }
  return result;
}
