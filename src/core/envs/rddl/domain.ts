/**
 * The checked form of a domain block: its types, pvariables and cpfs resolved by name, and every problem a
 * learner can fix before running anything (unknown fluents, wrong arity, type mismatches, missing cpfs,
 * fluents read where they have no value yet). Problems are collected as diagnostics, never thrown.
 */
import type { SourceLocation } from '../../errors';
import type { FluentKind, RddlDiagnostic } from './api';
import type {
  ArgTerm,
  ConstValue,
  CpfDef,
  DomainBlock,
  Expr,
  PvarDecl,
  PvarRef,
  Term,
  TypeDecl,
} from './ast';
import { distributionParameters, drawnType } from './distribution-table';
import { numberUnderscores } from './ast';
import { canonicalFluentName, didYouMean } from './names';
import {
  BOOL,
  INT,
  REAL,
  arithmeticType,
  describeType,
  isNumeric,
  sameType,
  type ValueType,
} from './value-types';

/** An object, enum or RDDL2 struct type of a domain. */
export interface DomainType {
  name: string;
  kind: 'object' | 'enum' | 'struct';
  /** Parent object type, for subtypes. */
  parent?: string;
  /** Enum values in declaration order (with `@`). */
  values?: string[];
  decl: TypeDecl;
}

/** A resolved pvariable declaration. */
export interface PvarInfo {
  /** As declared. */
  name: string;
  canonical: string;
  kind: FluentKind;
  params: string[];
  range: ValueType;
  default?: ConstValue;
  level?: number;
  decl: PvarDecl;
}

/** A checked domain. */
export interface Domain {
  name: string;
  block: DomainBlock;
  types: Map<string, DomainType>;
  /** By canonical name. */
  pvariables: Map<string, PvarInfo>;
  /** In declaration order. */
  pvariableList: PvarInfo[];
  /** By canonical name of the defined fluent (state fluents' cpfs are keyed without the prime). */
  cpfs: Map<string, CpfDef>;
  /** True iff the domain declares observ-fluents (how rddlsim decides). */
  partiallyObserved: boolean;
}

const KIND_OF_KEYWORD: Record<PvarDecl['kind'], FluentKind> = {
  'state-fluent': 'state-fluent',
  'non-fluent': 'non-fluent',
  'action-fluent': 'action-fluent',
  'interm-fluent': 'interm-fluent',
  'derived-fluent': 'derived-fluent',
  'observ-fluent': 'observ-fluent',
};

const KNOWN_REQUIREMENTS = new Set([
  'concurrent',
  'continuous',
  'integer-valued',
  'multivalued',
  'intermediate-nodes',
  'constrained-state',
  'cpf-deterministic',
  'reward-deterministic',
  'partially-observed',
  'preconditions',
]);

/** Built-in functions written in square brackets, with their number of arguments. */
export const FUNCTION_ARITY: Readonly<Record<string, number>> = {
  div: 2,
  mod: 2,
  min: 2,
  max: 2,
  pow: 2,
  log: 2,
  // pyRDDLGym's; rddlsim has neither.
  fmod: 2,
  hypot: 2,
  gamma: 1,
  lngamma: 1,
  abs: 1,
  sgn: 1,
  round: 1,
  floor: 1,
  ceil: 1,
  cos: 1,
  sin: 1,
  tan: 1,
  acos: 1,
  asin: 1,
  atan: 1,
  cosh: 1,
  sinh: 1,
  tanh: 1,
  exp: 1,
  ln: 1,
  sqrt: 1,
};

/** The four aggregations rddlsim knows. */
export const AGGREGATIONS = ['sum', 'prod', 'min', 'max'] as const;

/** Where an expression is evaluated, which decides which fluents already have a value there. */
export type ExprContext =
  | 'state-cpf'
  | 'interm-cpf'
  | 'derived-cpf'
  | 'observ-cpf'
  | 'reward'
  | 'precondition'
  | 'invariant'
  | 'terminal';

const CONTEXT_WORDS: Record<ExprContext, string> = {
  'state-cpf': 'a state fluent cpf',
  'interm-cpf': 'an interm fluent cpf',
  'derived-cpf': 'a derived fluent cpf',
  'observ-cpf': 'an observation cpf',
  reward: 'the reward',
  precondition: 'an action precondition',
  invariant: 'a state invariant',
  terminal: 'the termination condition',
};

/** Which kinds of fluents may be read in each context (beyond state and non-fluents, always readable). */
const READABLE: Record<ExprContext, { primed: boolean; action: boolean; interm: boolean; observ: boolean }> =
  {
    'state-cpf': { primed: true, action: true, interm: true, observ: false },
    'interm-cpf': { primed: false, action: true, interm: true, observ: false },
    'derived-cpf': { primed: false, action: false, interm: false, observ: false },
    'observ-cpf': { primed: true, action: true, interm: true, observ: false },
    reward: { primed: true, action: true, interm: true, observ: true },
    precondition: { primed: false, action: true, interm: false, observ: false },
    invariant: { primed: false, action: false, interm: false, observ: false },
    terminal: { primed: false, action: false, interm: false, observ: false },
  };

/** Reports problems with their location. */
export class DiagnosticSink {
  readonly diagnostics: RddlDiagnostic[] = [];
  error(message: string, location: SourceLocation): void {
    this.diagnostics.push({ severity: 'error', message, location });
  }
  warning(message: string, location: SourceLocation): void {
    this.diagnostics.push({ severity: 'warning', message, location });
  }
}

/** The range type of a pvariable or `undefined` (reported) when the type name is unknown. */
function resolveRange(name: string, types: Map<string, DomainType>): ValueType | undefined {
  if (name === 'bool') return BOOL;
  if (name === 'int') return INT;
  if (name === 'real') return REAL;
  const type = types.get(name);
  if (!type) return undefined;
  return { kind: type.kind, name };
}

/**
 * How a domain is checked. With `rddlsim` set, what rddlsim's simulator runs although the types do not
 * fit (it checks no types) is accepted with a located warning and simulated as rddlsim evaluates it:
 *
 * - a bool, int or real fluent whose default is an object (`PREV(c) : { non-fluent, int, default = c1 }`)
 *   holds objects, so it is read as a fluent of that object's type;
 * - an int fluent whose cpf gives a real holds the real unconverted, so it is read as real;
 * - a cpf head with fewer parameters than its fluent (`randDir' = ...` for `randDir(t)`) is evaluated
 *   anew for every grounding, the missing parameters bound to nothing the body reads.
 *
 * Without it these are located errors that say so.
 */
export interface DomainOptions {
  /** The instance's objects by name with their type: set for rddlsim's semantics. */
  rddlsim?: { objectTypes: ReadonlyMap<string, string> };
}

/** Appended to an error rddlsim's semantics would turn into a warning. */
export const RDDLSIM_RUNS_IT = 'rddlsim checks no types and runs it, and so does `--semantics rddlsim`';

/** Builds and checks a domain. */
export function buildDomain(
  block: DomainBlock,
  options: DomainOptions = {},
): { domain: Domain; diagnostics: RddlDiagnostic[] } {
  const sink = new DiagnosticSink();
  const types = collectTypes(block, sink);
  const { pvariables, pvariableList } = collectPvariables(block, types, sink, options);
  for (const requirement of block.requirements) {
    if (!KNOWN_REQUIREMENTS.has(requirement.name)) {
      sink.warning(`unrecognized requirement '${requirement.name}' (rddlsim ignores it)`, requirement.loc);
    }
  }
  const deterministic = block.requirements.some((r) => r.name === 'cpf-deterministic');
  if (block.cpfsKeyword === 'cdfs' && !deterministic) {
    sink.error(`'cdfs' needs the requirement cpf-deterministic (or write 'cpfs')`, block.loc);
  } else if (block.cpfsKeyword === 'cpfs' && deterministic) {
    sink.error(`with the requirement cpf-deterministic the section is written 'cdfs'`, block.loc);
  }
  const domain: Domain = {
    name: block.name,
    block,
    types,
    pvariables,
    pvariableList,
    cpfs: new Map(),
    partiallyObserved: pvariableList.some((p) => p.kind === 'observ-fluent'),
  };
  const checker = new ExpressionChecker(domain, sink, options);
  checker.checkCpfs();
  if (block.reward) {
    const type = checker.check(block.reward, new Map(), 'reward');
    if (type && !isNumeric(type)) {
      sink.error(`the reward must be a number, not ${describeType(type)}`, block.reward.loc);
    } else if (type?.kind === 'bool') {
      sink.warning(`the reward is a boolean: rddlsim's server fails on a boolean reward`, block.reward.loc);
    }
  } else {
    sink.error(`the domain has no reward (add: reward = ...;)`, block.nameLoc);
  }
  const constraintGroups: [typeof block.actionPreconditions, ExprContext][] = [
    [block.actionPreconditions, 'precondition'],
    [block.stateActionConstraints, 'precondition'],
    [block.stateInvariants, 'invariant'],
    [block.terminations, 'terminal'],
  ];
  for (const [list, context] of constraintGroups) {
    for (const constraint of list) {
      const type = checker.check(constraint.expr, new Map(), context);
      if (type && type.kind !== 'bool') {
        sink.error(
          `a constraint must be a boolean expression, not ${describeType(type)}`,
          constraint.expr.loc,
        );
      }
    }
  }
  return { domain, diagnostics: sink.diagnostics };
}

function collectTypes(block: DomainBlock, sink: DiagnosticSink): Map<string, DomainType> {
  const types = new Map<string, DomainType>();
  for (const decl of block.types) {
    if (types.has(decl.name)) {
      sink.error(`type '${decl.name}' is declared twice`, decl.loc);
      continue;
    }
    if (decl.kind === 'object') {
      types.set(decl.name, { name: decl.name, kind: 'object', parent: decl.parent, decl });
    } else if (decl.kind === 'enum' || decl.kind === 'enum-range') {
      const values =
        decl.kind === 'enum'
          ? decl.values.map((v) => v.value)
          : Array.from({ length: decl.to - decl.from + 1 }, (_, i) => `@${decl.from + i}`);
      const seen = new Set<string>();
      if (decl.kind === 'enum') {
        for (const value of decl.values) {
          if (seen.has(value.value))
            sink.error(`enum value ${value.value} appears twice in '${decl.name}'`, value.loc);
          seen.add(value.value);
        }
      }
      types.set(decl.name, { name: decl.name, kind: 'enum', values, decl });
    } else {
      types.set(decl.name, { name: decl.name, kind: 'struct', decl });
    }
  }
  for (const type of types.values()) {
    if (type.decl.kind !== 'object' || !type.parent) continue;
    const parent = types.get(type.parent);
    if (!parent) {
      sink.error(
        `unknown parent type '${type.parent}'${didYouMean(type.parent, types.keys())}`,
        type.decl.parentLoc ?? type.decl.loc,
      );
      type.parent = undefined;
    } else if (parent.kind !== 'object') {
      sink.error(
        `'${type.name}' can only extend an object type, and '${parent.name}' is ${parent.kind}`,
        type.decl.loc,
      );
      type.parent = undefined;
    }
  }
  for (const type of types.values()) {
    const visited = new Set<string>([type.name]);
    let current = type.parent;
    while (current) {
      if (visited.has(current)) {
        sink.error(`type '${type.name}' is its own ancestor`, type.decl.loc);
        type.parent = undefined;
        break;
      }
      visited.add(current);
      current = types.get(current)?.parent;
    }
  }
  return types;
}

function collectPvariables(
  block: DomainBlock,
  types: Map<string, DomainType>,
  sink: DiagnosticSink,
  options: DomainOptions,
): { pvariables: Map<string, PvarInfo>; pvariableList: PvarInfo[] } {
  const pvariables = new Map<string, PvarInfo>();
  const pvariableList: PvarInfo[] = [];
  for (const decl of block.pvariables) {
    const canonical = canonicalFluentName(decl.name);
    const previous = pvariables.get(canonical);
    if (previous) {
      sink.error(
        previous.name === decl.name
          ? `pvariable '${decl.name}' is declared twice`
          : `'${decl.name}' and '${previous.name}' name the same pvariable (names ignore case and read - as _)`,
        decl.nameLoc,
      );
      continue;
    }
    const kind = KIND_OF_KEYWORD[decl.kind];
    for (const param of decl.params) {
      const type = types.get(param.type);
      if (!type) {
        sink.error(
          param.type === 'int' || param.type === 'real' || param.type === 'bool'
            ? `parameters must be object or enum types, not ${param.type}`
            : `unknown type '${param.type}'${didYouMean(param.type, types.keys())}`,
          param.loc,
        );
      } else if (type.kind === 'struct') {
        sink.error(
          `parameters must be object or enum types, and '${param.type}' is a vector type`,
          param.loc,
        );
      }
    }
    let range = resolveRange(decl.range, types);
    if (!range) {
      sink.error(`unknown type '${decl.range}'${didYouMean(decl.range, types.keys())}`, decl.rangeLoc);
      range = BOOL;
    }
    const needsDefault = kind === 'state-fluent' || kind === 'non-fluent' || kind === 'action-fluent';
    if (needsDefault && !decl.default) {
      sink.error(
        `${decl.kind} '${decl.name}' needs a default value ({ ${decl.kind}, ${decl.range}, default = ... })`,
        decl.loc,
      );
    } else if (!needsDefault && decl.default) {
      sink.error(`${decl.kind} '${decl.name}' cannot have a default value`, decl.defaultLoc ?? decl.loc);
    }
    if (decl.level !== undefined && kind !== 'interm-fluent' && kind !== 'derived-fluent') {
      sink.error(`only interm and derived fluents have a level`, decl.loc);
    }
    const objectDefault = decl.default?.kind === 'object' ? decl.default.value : undefined;
    if (
      objectDefault !== undefined &&
      (range.kind === 'bool' || range.kind === 'int' || range.kind === 'real')
    ) {
      const objectType = options.rddlsim?.objectTypes.get(objectDefault);
      if (objectType !== undefined && types.get(objectType)?.kind === 'object') {
        sink.warning(
          `'${decl.name}' is declared ${range.kind} but its default ${objectDefault} is an object: rddlsim checks no types and runs it, so '${decl.name}' is simulated as holding objects of type ${objectType}`,
          decl.defaultLoc ?? decl.loc,
        );
        range = { kind: 'object', name: objectType };
      } else {
        sink.error(
          `the default of '${decl.name}' must be ${range.kind === 'bool' ? 'true or false' : range.kind === 'int' ? 'an integer' : 'a number'}, but the object ${objectDefault} was given (${RDDLSIM_RUNS_IT})`,
          decl.defaultLoc ?? decl.loc,
        );
      }
    } else if (decl.default)
      checkConstant(
        decl.default,
        range,
        types,
        sink,
        decl.defaultLoc ?? decl.loc,
        `the default of '${decl.name}'`,
      );
    const info: PvarInfo = {
      name: decl.name,
      canonical,
      kind,
      params: decl.params.map((p) => p.type),
      range,
      default: decl.default,
      level: decl.level,
      decl,
    };
    pvariables.set(canonical, info);
    pvariableList.push(info);
  }
  return { pvariables, pvariableList };
}

/**
 * Checks that a written constant fits a range. Objects are only checked for their form here (which objects
 * exist is known per instance). An int for a real range is accepted and stays an int, as in rddlsim.
 */
export function checkConstant(
  value: ConstValue,
  range: ValueType,
  types: Map<string, DomainType>,
  sink: DiagnosticSink,
  location: SourceLocation,
  what: string,
): boolean {
  const fail = (expected: string) => {
    sink.error(`${what} must be ${expected}, but ${describeConstant(value)} was given`, location);
    return false;
  };
  switch (range.kind) {
    case 'bool':
      return value.kind === 'bool' || fail('true or false');
    case 'int':
      return value.kind === 'int' || fail('an integer');
    case 'real':
      return value.kind === 'real' || value.kind === 'int' || fail('a number');
    case 'enum': {
      const values = types.get(range.name)?.values ?? [];
      if (value.kind !== 'enum') return fail(`a value of ${range.name} (${values.join(', ')})`);
      if (!values.includes(value.value)) {
        sink.error(
          `${value.value} is not a value of ${range.name} (${values.join(', ')})${didYouMean(value.value, values)}`,
          location,
        );
        return false;
      }
      return true;
    }
    case 'object':
      return value.kind === 'object' || fail(`an object of type ${range.name}`);
    case 'struct':
      return value.kind === 'struct' || fail(`a vector value of type ${range.name}`);
  }
}

/** A constant as written. */
export function describeConstant(value: ConstValue): string {
  switch (value.kind) {
    case 'bool':
    case 'int':
    case 'enum':
    case 'object':
      return String(value.value);
    case 'real':
      return Number.isInteger(value.value) ? value.value.toFixed(1) : String(value.value);
    case 'struct':
      return '<...>';
  }
}

/**
 * The parameters of pyRDDLGym's vectorised draws: what each is called, how it is written, and how many `_`
 * it reads (one for a vector over ?v's values, two for a matrix, none for a number per draw).
 */
interface VectorisedParameter {
  what: string;
  written: string;
  underscores: number;
  integer?: boolean;
}
const VECTORISED_FORMS = {
  Dirichlet: { parameters: [{ what: 'alpha', written: 'alpha(_)', underscores: 1 }] },
  Multinomial: {
    parameters: [
      { what: 'trials', written: 'trials', underscores: 0, integer: true },
      { what: 'probability', written: 'p(_)', underscores: 1 },
    ],
  },
  MultivariateNormal: {
    parameters: [
      { what: 'mean', written: 'mean(_)', underscores: 1 },
      { what: 'covariance', written: 'cov(_, _)', underscores: 2 },
    ],
  },
  MultivariateStudent: {
    parameters: [
      { what: 'mean', written: 'mean(_)', underscores: 1 },
      { what: 'covariance', written: 'cov(_, _)', underscores: 2 },
      { what: 'degrees of freedom', written: 'df', underscores: 0 },
    ],
  },
} as const satisfies Record<string, { parameters: readonly VectorisedParameter[] }>;

/** Variables in scope: `?x` -> its type name. */
type Scope = Map<string, string>;

/** Type-checks expressions against a domain and reports what a learner must fix. */
export class ExpressionChecker {
  /** The whole expression of the cpf being checked (pyRDDLGym's vectorised draws must be exactly it). */
  private cpfRoot: Expr | undefined;

  constructor(
    private readonly domain: Domain,
    private readonly sink: DiagnosticSink,
    private readonly options: DomainOptions = {},
  ) {}

  /** Checks every cpf head and body, and that each fluent that needs one has exactly one cpf. */
  checkCpfs(): void {
    const { domain, sink } = this;
    // Fluents whose cpf has the wrong number of parameters (reported there, not as missing).
    const misfit = new Set<string>();
    for (const cpf of domain.block.cpfs) {
      const head = cpf.head;
      const info = domain.pvariables.get(canonicalFluentName(head.name));
      if (!info) {
        sink.error(
          `cpf for unknown fluent '${head.name}'${didYouMean(
            head.name,
            domain.pvariableList.map((p) => p.name),
          )}`,
          head.nameLoc,
        );
        continue;
      }
      if (info.kind === 'non-fluent' || info.kind === 'action-fluent') {
        sink.error(
          `'${info.name}' is a ${info.kind}: only state, interm, derived and observ fluents have cpfs`,
          head.nameLoc,
        );
        continue;
      }
      if (info.kind === 'state-fluent' && !head.primed) {
        sink.error(`a state fluent's cpf defines its next value: write ${head.name}'`, head.nameLoc);
        continue;
      }
      if (info.kind !== 'state-fluent' && head.primed) {
        sink.error(`only state fluents are primed; write ${head.name} without '`, head.nameLoc);
        continue;
      }
      if (domain.cpfs.has(info.canonical)) {
        sink.error(`'${info.name}' has two cpfs`, head.nameLoc);
        continue;
      }
      const scope: Scope = new Map();
      let defined = cpf;
      if (head.args.length < info.params.length && this.options.rddlsim) {
        sink.warning(
          `'${info.name}' takes ${info.params.length} parameter${info.params.length === 1 ? '' : 's'}, but its cpf has ${head.args.length}: rddlsim runs it, evaluating the cpf anew for each grounding of '${info.name}'`,
          head.loc,
        );
        // Variables no expression can name (a written one starts with ?), so the body cannot read them.
        const unbound = info.params
          .slice(head.args.length)
          .map((_, i): Term => ({ kind: 'variable', name: `?${head.args.length + i + 1}`, loc: head.loc }));
        defined = { ...cpf, head: { ...head, args: [...head.args, ...unbound] } };
      } else if (head.args.length !== info.params.length) {
        misfit.add(info.canonical);
        sink.error(
          `'${info.name}' takes ${info.params.length} parameter${info.params.length === 1 ? '' : 's'}, but its cpf has ${head.args.length}${head.args.length < info.params.length ? ' (rddlsim runs it, evaluating the cpf anew for each grounding, and so does `--semantics rddlsim`)' : ''}`,
          head.loc,
        );
        continue;
      }
      let headOk = true;
      defined.head.args.forEach((arg, i) => {
        if (arg.kind !== 'variable') {
          sink.error(`the parameters of a cpf head must be variables such as ?x`, arg.loc);
          headOk = false;
        } else if (scope.has(arg.name)) {
          sink.error(`${arg.name} appears twice in the cpf head`, arg.loc);
          headOk = false;
        } else {
          scope.set(arg.name, info.params[i]!);
        }
      });
      if (!headOk) continue;
      domain.cpfs.set(info.canonical, defined);
      const context: ExprContext =
        info.kind === 'state-fluent'
          ? 'state-cpf'
          : info.kind === 'interm-fluent'
            ? 'interm-cpf'
            : info.kind === 'derived-fluent'
              ? 'derived-cpf'
              : 'observ-cpf';
      this.cpfRoot = cpf.expr;
      const type = this.check(cpf.expr, scope, context);
      this.cpfRoot = undefined;
      if (type) this.checkAssignable(type, info, cpf.expr.loc);
    }
    for (const info of domain.pvariableList) {
      if (info.kind === 'non-fluent' || info.kind === 'action-fluent') continue;
      if (!domain.cpfs.has(info.canonical) && !misfit.has(info.canonical)) {
        const head = `${info.name}${info.kind === 'state-fluent' ? "'" : ''}${info.params.length ? `(${info.params.map((_, i) => `?p${i + 1}`).join(', ')})` : ''}`;
        sink.error(`${info.kind} '${info.name}' has no cpf (add ${head} = ...; to cpfs)`, info.decl.nameLoc);
      }
    }
  }

  private checkAssignable(type: ValueType, info: PvarInfo, location: SourceLocation): void {
    const range = info.range;
    const ok =
      range.kind === 'real'
        ? isNumeric(type)
        : range.kind === 'int'
          ? type.kind === 'int' || type.kind === 'bool'
          : range.kind === 'bool'
            ? type.kind === 'bool'
            : range.kind === type.kind &&
              (type.kind !== 'enum' || sameType(range, type) || !('name' in type) || type.name === '');
    if (!ok && range.kind === 'int' && type.kind === 'real') {
      if (this.options.rddlsim) {
        this.sink.warning(
          `'${info.name}' is int, but its cpf gives real: rddlsim runs it and keeps the real unconverted, so '${info.name}' is simulated as real`,
          location,
        );
        info.range = type;
      } else {
        this.sink.error(
          `'${info.name}' is int, but its cpf gives real (rddlsim keeps the real unconverted and runs it, and so does \`--semantics rddlsim\`)`,
          location,
        );
      }
      return;
    }
    if (!ok) {
      // Multinomial and Dirichlet give a vector over their type, which no declaration names.
      const given =
        type.kind === 'struct' && this.domain.types.get(type.name)?.kind !== 'struct'
          ? `a vector over ${type.name}`
          : describeType(type);
      this.sink.error(`'${info.name}' is ${describeType(range)}, but its cpf gives ${given}`, location);
    }
  }

  /** The static type of `expr`, or undefined when it could not be typed (an error was reported). */
  check(expr: Expr, scope: Scope, context: ExprContext): ValueType | undefined {
    const { sink } = this;
    switch (expr.kind) {
      case 'variable': {
        const typeName = scope.get(expr.name);
        if (!typeName && expr.name === '_') {
          sink.error(
            `_ stands for every value of the sampled type, only in the parameters of a vectorised draw (Dirichlet[?v](...), Multinomial[?v](...), MultivariateNormal[?v](...), MultivariateStudent[?v](...))`,
            expr.loc,
          );
          return undefined;
        }
        if (!typeName) {
          const names = [...scope.keys()].filter((name) => name !== '_');
          sink.error(`unknown variable ${expr.name}${didYouMean(expr.name, names)}`, expr.loc);
          return undefined;
        }
        return this.typeOfName(typeName);
      }
      case 'enum': {
        const owner = [...this.domain.types.values()].find(
          (t) => t.kind === 'enum' && t.values!.includes(expr.value),
        );
        if (!owner) {
          const all = [...this.domain.types.values()].flatMap((t) => t.values ?? []);
          sink.error(`unknown enum value ${expr.value}${didYouMean(expr.value, all)}`, expr.loc);
          return undefined;
        }
        return { kind: 'enum', name: owner.name };
      }
      case 'object':
        // Which objects exist is decided by the instance; the grounder checks the name.
        return { kind: 'object', name: '' };
      case 'bool':
        return BOOL;
      case 'number':
        return expr.isInt ? INT : REAL;
      case 'pvar':
        return this.checkPvar(expr, scope, context);
      case 'unary': {
        const operand = this.check(expr.operand, scope, context);
        if (!operand) return undefined;
        if (expr.op === '~') {
          if (operand.kind !== 'bool')
            return this.mismatch(`~ needs a boolean, not ${describeType(operand)}`, expr.operand.loc);
          return BOOL;
        }
        if (!this.isArithmetic(operand)) {
          return this.mismatch(`unary - needs a number, not ${describeType(operand)}`, expr.operand.loc);
        }
        return arithmeticType(INT, operand, '-');
      }
      case 'binary':
        return this.checkBinary(expr, scope, context);
      case 'quantifier': {
        const inner = this.bind(expr.variables, scope);
        if (!inner) return undefined;
        const body = this.check(expr.body, inner, context);
        if (body && body.kind !== 'bool') {
          return this.mismatch(
            `${expr.quantifier} needs a boolean body, not ${describeType(body)}`,
            expr.body.loc,
          );
        }
        return BOOL;
      }
      case 'aggregation': {
        if (expr.op === 'argmin' || expr.op === 'argmax') return this.checkArgExtreme(expr, scope, context);
        if (expr.op === 'det') return this.checkDet(expr, scope, context);
        if (!(AGGREGATIONS as readonly string[]).includes(expr.op) && expr.op !== 'avg') {
          sink.error(
            `unknown aggregation '${expr.op}' (use sum, prod, min or max, or pyRDDLGym's avg, argmin, argmax and det)`,
            expr.opLoc,
          );
          return undefined;
        }
        const inner = this.bind(expr.variables, scope);
        if (!inner) return undefined;
        const body = this.check(expr.body, inner, context);
        if (!body) return undefined;
        if (!this.isArithmetic(body)) {
          return this.mismatch(`${expr.op} needs a numeric body, not ${describeType(body)}`, expr.body.loc);
        }
        // pyRDDLGym's avg: the sum divided by the number of bindings, a real.
        if (expr.op === 'avg') return REAL;
        return arithmeticType(body, body, '+');
      }
      case 'if': {
        const condition = this.check(expr.condition, scope, context);
        if (condition && condition.kind !== 'bool') {
          this.mismatch(
            `the condition of if must be a boolean, not ${describeType(condition)}`,
            expr.condition.loc,
          );
        }
        const a = this.check(expr.then, scope, context);
        const b = this.check(expr.else, scope, context);
        if (!a || !b) return a ?? b;
        return this.join(a, b, expr.else.loc, 'the branches of this if');
      }
      case 'switch':
        return this.checkSwitch(expr, scope, context);
      case 'call':
        return this.checkCall(expr, scope, context);
      case 'distribution':
        return this.checkDistribution(expr, scope, context);
      case 'struct':
        for (const member of expr.members) this.check(member.value, scope, context);
        return undefined;
    }
  }

  private mismatch(message: string, location: SourceLocation): undefined {
    this.sink.error(message, location);
    return undefined;
  }

  private typeOfName(typeName: string): ValueType | undefined {
    const type = this.domain.types.get(typeName);
    if (!type) return undefined;
    return { kind: type.kind, name: typeName };
  }

  /** Numbers, bools, and enums whose values are all integers (`@1 .. @5`). */
  private isArithmetic(type: ValueType): boolean {
    if (isNumeric(type)) return true;
    if (type.kind !== 'enum') return false;
    const values = this.domain.types.get(type.name)?.values ?? [];
    return values.length > 0 && values.every((v) => /^@-?\d+$/.test(v));
  }

  /** The common type of two alternatives (if branches, switch cases). */
  private join(a: ValueType, b: ValueType, location: SourceLocation, what: string): ValueType | undefined {
    if (isNumeric(a) && isNumeric(b)) {
      if (a.kind === b.kind) return a;
      return a.kind === 'real' || b.kind === 'real' ? REAL : INT;
    }
    if (a.kind === b.kind) return a;
    return this.mismatch(
      `${what} have different types (${describeType(a)} and ${describeType(b)})`,
      location,
    );
  }

  /**
   * pyRDDLGym's `argmin_{?x : t} e` and `argmax_{?x : t} e`: the value of t (an enum value or object) whose
   * numeric `e` is smallest or largest, the first such in t's order on a tie. One variable only.
   */
  private checkArgExtreme(
    expr: Extract<Expr, { kind: 'aggregation' }>,
    scope: Scope,
    context: ExprContext,
  ): ValueType | undefined {
    if (expr.variables.length !== 1) {
      return this.mismatch(
        `${expr.op} ranges over one variable (${expr.op}_{?x : type} ...), not ${expr.variables.length}`,
        expr.opLoc,
      );
    }
    const inner = this.bind(expr.variables, scope);
    if (!inner) return undefined;
    const body = this.check(expr.body, inner, context);
    if (!body) return undefined;
    if (!this.isArithmetic(body)) {
      return this.mismatch(`${expr.op} needs a numeric body, not ${describeType(body)}`, expr.body.loc);
    }
    const type = this.domain.types.get(expr.variables[0]!.type)!;
    return { kind: type.kind === 'enum' ? 'enum' : 'object', name: type.name };
  }

  /**
   * pyRDDLGym's vectorised `Dirichlet[?v](alpha(_))`, `Multinomial[?v](n, p(_))`,
   * `MultivariateNormal[?v](mean(_), cov(_, _))` and `MultivariateStudent[?v](mean(_), cov(_, _), df)`: the
   * whole cpf of a fluent with a parameter ?v, whose groundings over ?v receive one joint draw per grounding
   * of the others. In the vector parameters `_` stands for each value of ?v's type (in a covariance, the
   * first `_` for the row, the second for the column); ?v itself is not readable.
   */
  private checkVectorised(
    expr: Extract<Expr, { kind: 'distribution' }>,
    scope: Scope,
    context: ExprContext,
  ): ValueType | undefined {
    const name = expr.name;
    const sampled = expr.sampled ?? [];
    if (expr !== this.cpfRoot) {
      return this.mismatch(
        `${name}[?v](...) samples a vector into the cpf's fluent: it must be the whole cpf, not part of an expression`,
        expr.loc,
      );
    }
    if (sampled.length !== 1) {
      return this.mismatch(`${name}[...] names one variable of the cpf, not ${sampled.length}`, expr.loc);
    }
    const variable = sampled[0]!;
    const typeName = scope.get(variable.name);
    if (!typeName) {
      return this.mismatch(
        `${variable.name} is not a parameter of this cpf: ${name}[?v] names the parameter that receives the vector`,
        variable.loc,
      );
    }
    const form = VECTORISED_FORMS[name as keyof typeof VECTORISED_FORMS];
    if (expr.args.length !== form.parameters.length) {
      return this.mismatch(
        `${name}[?v] takes ${['one parameter', 'two parameters', 'three parameters'][form.parameters.length - 1]}, ${form.parameters
          .map((p) => p.written)
          .join(', ')
          .replace(/, ([^,]*)$/, ' and $1')}, not ${expr.args.length}`,
        expr.loc,
      );
    }
    // The parameters are read per grounding of the other variables: ?v is not bound there, `_` is.
    const outer = new Map(scope);
    outer.delete(variable.name);
    let result: ValueType | undefined = name === 'Multinomial' ? INT : REAL;
    form.parameters.forEach((parameter: VectorisedParameter, i) => {
      const arg = expr.args[i]!;
      const { expr: numbered, count } = numberUnderscores(arg);
      // Dirichlet's alpha and Multinomial's p may be one number for every member (unlike in pyRDDLGym).
      const allowed =
        (name === 'Dirichlet' || name === 'Multinomial') && parameter.underscores === 1
          ? [0, 1]
          : [parameter.underscores];
      if (!allowed.includes(count)) {
        result = this.mismatch(
          parameter.underscores === 0
            ? `the ${parameter.what} of ${name}[?v] is one number per draw: it cannot read _ (found ${count})`
            : `the ${parameter.what} of ${name}[?v] is a ${parameter.underscores === 1 ? 'vector' : 'matrix'} over ${variable.name}'s values: write _ ${parameter.underscores === 1 ? 'once' : 'twice'} in it, as ${parameter.written}${parameter.underscores === 2 ? ' (row, then column)' : ''}, not ${count === 1 ? 'once' : `${count} times`}`,
          arg.loc,
        );
        return;
      }
      const members = new Map(outer);
      if (count >= 1) members.set('_', typeName);
      if (count >= 2) members.set('_2', typeName);
      const type = this.check(numbered, members, context);
      if (type && type.kind !== 'int' && type.kind !== 'real') {
        result = this.mismatch(
          parameter.underscores === 0
            ? `the ${parameter.what} of ${name} must be a number, not ${describeType(type)}`
            : `the ${parameter.what} of each ${parameter.underscores === 1 ? 'member' : 'entry'} must be a number, not ${describeType(type)}`,
          arg.loc,
        );
      } else if (type && parameter.integer && type.kind !== 'int') {
        result = this.mismatch(
          `the ${parameter.what} of ${name} must be an int, not ${describeType(type)}`,
          arg.loc,
        );
      }
    });
    return result;
  }

  /**
   * pyRDDLGym's `Discrete_{?v : t} p(?v)` and `UnnormDiscrete_{?v : t} w(?v)`: one variable over an enum or
   * object type, a numeric body; the value drawn is one of the type's.
   */
  private checkDiscreteOver(
    expr: Extract<Expr, { kind: 'distribution' }>,
    scope: Scope,
    context: ExprContext,
  ): ValueType | undefined {
    const variables = expr.variables ?? [];
    if (variables.length !== 1) {
      return this.mismatch(
        `${expr.name}_{?v : type} draws over one variable, not ${variables.length}`,
        expr.loc,
      );
    }
    const inner = this.bind(variables, scope);
    if (!inner) return undefined;
    const body = this.check(expr.body!, inner, context);
    if (body && body.kind !== 'int' && body.kind !== 'real') {
      this.mismatch(
        `the ${expr.name === 'Discrete' ? 'probability' : 'weight'} of each value must be a number, not ${describeType(body)}`,
        expr.body!.loc,
      );
    }
    const type = this.domain.types.get(variables[0]!.type)!;
    return { kind: type.kind === 'enum' ? 'enum' : 'object', name: type.name };
  }

  private bind(
    variables: { name: string; type: string; loc: SourceLocation; typeLoc: SourceLocation }[],
    scope: Scope,
  ): Scope | undefined {
    const inner = new Map(scope);
    for (const variable of variables) {
      const type = this.domain.types.get(variable.type);
      if (!type || type.kind === 'struct') {
        this.sink.error(
          type
            ? `variables range over object or enum types, and '${variable.type}' is a vector type`
            : `unknown type '${variable.type}'${didYouMean(variable.type, this.domain.types.keys())}`,
          variable.typeLoc,
        );
        return undefined;
      }
      if (scope.has(variable.name)) {
        this.sink.warning(
          `${variable.name} is already bound outside; it is rebound here (rddlsim loses the outer value after this expression)`,
          variable.loc,
        );
      }
      inner.set(variable.name, variable.type);
    }
    return inner;
  }

  private checkPvar(ref: PvarRef, scope: Scope, context: ExprContext): ValueType | undefined {
    const { sink, domain } = this;
    const info = domain.pvariables.get(canonicalFluentName(ref.name));
    if (!info) {
      const hint = /-\d/.test(ref.name)
        ? ` ('${ref.name}' is read as one name because names may contain '-': put spaces around a minus sign)`
        : didYouMean(
            ref.name,
            domain.pvariableList.map((p) => p.name),
          );
      sink.error(`unknown fluent '${ref.name}'${hint}`, ref.nameLoc);
      for (const arg of ref.args) {
        if (arg.kind === 'pvar') this.checkPvar(arg, scope, context);
        else if (arg.kind === 'expr') this.check(arg.expr, scope, context);
      }
      return undefined;
    }
    if (ref.isDefault) return info.range;
    if (ref.args.length !== info.params.length) {
      sink.error(
        `'${info.name}' takes ${info.params.length} argument${info.params.length === 1 ? '' : 's'}, but ${ref.args.length} ${ref.args.length === 1 ? 'is' : 'are'} given`,
        ref.loc,
      );
      return undefined;
    }
    ref.args.forEach((arg, i) => this.checkArgument(arg, info, i, scope, context));
    const readable = READABLE[context];
    const where = CONTEXT_WORDS[context];
    if (ref.primed) {
      if (info.kind !== 'state-fluent') {
        sink.error(`only state fluents have a next value: write ${ref.name} without '`, ref.nameLoc);
      } else if (!readable.primed) {
        sink.error(`next-state values (${ref.name}') are not known yet in ${where}`, ref.nameLoc);
      } else if (context === 'state-cpf') {
        sink.warning(
          `a state fluent's cpf reads another next-state value (${ref.name}'): its value depends on rddlsim's evaluation order; an interm-fluent is the reliable way`,
          ref.nameLoc,
        );
      }
    }
    if (info.kind === 'action-fluent' && !readable.action) {
      sink.error(`action fluents cannot be read in ${where}`, ref.nameLoc);
    } else if (info.kind === 'interm-fluent' && !readable.interm) {
      sink.error(`interm fluents have no value yet in ${where}`, ref.nameLoc);
    } else if (info.kind === 'observ-fluent' && !readable.observ) {
      sink.error(`observation fluents are computed last; they cannot be read in ${where}`, ref.nameLoc);
    }
    if (ref.members) return undefined;
    return info.range;
  }

  private checkArgument(
    arg: ArgTerm,
    info: PvarInfo,
    index: number,
    scope: Scope,
    context: ExprContext,
  ): void {
    const expected = info.params[index]!;
    const expectedType = this.domain.types.get(expected);
    const where = `argument ${index + 1} of '${info.name}'`;
    switch (arg.kind) {
      case 'variable': {
        const actual = scope.get(arg.name);
        if (!actual) {
          this.check(arg, scope, context);
        } else if (expectedType && !this.related(actual, expected)) {
          this.sink.error(`${where} is a ${expected}, but ${arg.name} is a ${actual}`, arg.loc);
        }
        return;
      }
      case 'enum':
        if (expectedType?.kind === 'enum' && !expectedType.values!.includes(arg.value)) {
          this.sink.error(
            `${arg.value} is not a value of ${expected} (${expectedType.values!.join(', ')})${didYouMean(arg.value, expectedType.values!)}`,
            arg.loc,
          );
        } else if (expectedType && expectedType.kind !== 'enum') {
          this.sink.error(`${where} is a ${expected} object, not an enum value`, arg.loc);
        }
        return;
      case 'object':
        if (expectedType?.kind === 'enum')
          this.sink.error(`${where} is an enum value of ${expected} (@...)`, arg.loc);
        return;
      case 'pvar': {
        const type = this.checkPvar(arg, scope, context);
        if (type && expectedType && type.kind !== 'enum' && type.kind !== 'object') {
          const holdsObjects =
            this.domain.pvariables.get(canonicalFluentName(arg.name))?.default?.kind === 'object';
          this.sink.error(
            `${where} must be a ${expected}, but '${arg.name}' gives ${describeType(type)}${holdsObjects ? ` (its default is an object: ${RDDLSIM_RUNS_IT})` : ''}`,
            arg.loc,
          );
        } else if (type && expectedType && 'name' in type && !this.related(type.name, expected)) {
          this.sink.error(`${where} is a ${expected}, but '${arg.name}' gives a ${type.name}`, arg.loc);
        }
        return;
      }
      case 'expr': {
        const type = this.check(arg.expr, scope, context);
        if (!type || !expectedType) return;
        if (type.kind !== 'enum' && type.kind !== 'object')
          this.sink.error(
            `${where} must be a ${expected}, but this expression gives ${describeType(type)}`,
            arg.loc,
          );
        else if (!this.related(type.name, expected))
          this.sink.error(`${where} is a ${expected}, but this expression gives a ${type.name}`, arg.loc);
        return;
      }
    }
  }

  /** Same type, or one is an ancestor of the other (a value of the parent type may be a child). */
  private related(a: string, b: string): boolean {
    const ancestors = (name: string) => {
      const result = new Set<string>();
      for (let t: string | undefined = name; t && !result.has(t); t = this.domain.types.get(t)?.parent)
        result.add(t);
      return result;
    };
    return ancestors(a).has(b) || ancestors(b).has(a);
  }

  private checkBinary(
    expr: Extract<Expr, { kind: 'binary' }>,
    scope: Scope,
    context: ExprContext,
  ): ValueType | undefined {
    const left = this.check(expr.left, scope, context);
    const right = this.check(expr.right, scope, context);
    if (!left || !right)
      return expr.op === '+' || expr.op === '-' || expr.op === '*' || expr.op === '/' ? undefined : BOOL;
    switch (expr.op) {
      case '^':
      case '|':
      case '=>':
      case '<=>':
        for (const [side, type] of [
          [expr.left, left],
          [expr.right, right],
        ] as const) {
          if (type.kind !== 'bool')
            this.mismatch(`${expr.op} needs booleans, but this is ${describeType(type)}`, side.loc);
        }
        return BOOL;
      case '==':
      case '~=':
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const symbolic = (t: ValueType) => t.kind === 'enum' || t.kind === 'object';
        if (symbolic(left) || symbolic(right)) {
          if (!symbolic(left) || !symbolic(right)) {
            return this.mismatch(
              `cannot compare ${describeType(left)} with ${describeType(right)}: enum and object values only compare with each other`,
              expr.opLoc,
            );
          }
          if (expr.op !== '==' && expr.op !== '~=') {
            return this.mismatch(
              `enum and object values only compare with == and ~=, not ${expr.op}`,
              expr.opLoc,
            );
          }
          return BOOL;
        }
        if (left.kind === 'struct' || right.kind === 'struct') return BOOL;
        return BOOL;
      }
      default: {
        // Two vectors combine member by member (the simulator checks that their members match).
        if (left.kind === 'struct' && right.kind === 'struct') return left;
        for (const [side, type] of [
          [expr.left, left],
          [expr.right, right],
        ] as const) {
          if (!this.isArithmetic(type)) {
            return this.mismatch(`${expr.op} needs numbers, but this is ${describeType(type)}`, side.loc);
          }
        }
        return arithmeticType(left, right, expr.op);
      }
    }
  }

  private checkSwitch(
    expr: Extract<Expr, { kind: 'switch' }>,
    scope: Scope,
    context: ExprContext,
  ): ValueType | undefined {
    const subject = this.check(expr.subject, scope, context);
    if (subject && subject.kind !== 'enum' && subject.kind !== 'object') {
      this.mismatch(`switch needs an enum or object value, not ${describeType(subject)}`, expr.subject.loc);
    }
    let result: ValueType | undefined;
    let defaults = 0;
    for (const c of expr.cases) {
      if (c.value) {
        const caseType = this.check(c.value, scope, context);
        if (subject?.kind === 'enum' && caseType?.kind === 'enum' && c.value.kind === 'enum') {
          const values = this.domain.types.get(subject.name)?.values ?? [];
          if (!values.includes(c.value.value)) {
            this.sink.error(
              `${c.value.value} is not a value of ${subject.name} (${values.join(', ')})`,
              c.value.loc,
            );
          }
        }
      } else {
        defaults++;
        if (defaults > 1) this.sink.error(`switch has more than one default`, c.loc);
      }
      const body = this.check(c.body, scope, context);
      if (body) result = result ? this.join(result, body, c.body.loc, 'the cases of this switch') : body;
    }
    const firstDefault = expr.cases.findIndex((c) => !c.value);
    if (firstDefault >= 0 && firstDefault < expr.cases.length - 1) {
      this.sink.warning(
        `default is not the last case: rddlsim takes default as soon as it reaches it, so the cases after it are never used there`,
        expr.cases[firstDefault]!.loc,
      );
    }
    return result;
  }

  /** The number of values of an enum type, or undefined for an object type (known per instance). */
  private enumSize(typeName: string): number | undefined {
    const type = this.domain.types.get(typeName);
    return type?.kind === 'enum' ? (type.values?.length ?? 0) : undefined;
  }

  /** A located error when two enum types (whose sizes the domain fixes) have different sizes. */
  private checkSquare(what: string, rows: string, cols: string, location: SourceLocation): boolean {
    const n1 = this.enumSize(rows);
    const n2 = this.enumSize(cols);
    if (n1 !== undefined && n2 !== undefined && n1 !== n2) {
      this.sink.error(
        `${what} needs a square matrix, but ${rows} has ${n1} values and ${cols} ${n2}`,
        location,
      );
      return false;
    }
    return true;
  }

  /**
   * pyRDDLGym's `det_{?r : t1, ?c : t2} e`: the determinant of the matrix whose entry at row ?r, column ?c
   * is e (a number); the types must have as many values (checked here for enums, per instance for objects).
   */
  private checkDet(
    expr: Extract<Expr, { kind: 'aggregation' }>,
    scope: Scope,
    context: ExprContext,
  ): ValueType | undefined {
    if (expr.variables.length !== 2) {
      return this.mismatch(
        `det_{?r : rows, ?c : columns} takes two variables, the row's and the column's, not ${expr.variables.length}`,
        expr.opLoc,
      );
    }
    const inner = this.bind(expr.variables, scope);
    if (!inner) return undefined;
    this.checkSquare('det', expr.variables[0]!.type, expr.variables[1]!.type, expr.opLoc);
    const body = this.check(expr.body, inner, context);
    if (body && !this.isArithmetic(body)) {
      return this.mismatch(`det needs a numeric body, not ${describeType(body)}`, expr.body.loc);
    }
    return REAL;
  }

  /**
   * pyRDDLGym's `inverse[row=?r, col=?c][e]`, `pinverse[...]` and `cholesky[...]`: ?r and ?c are bound
   * outside (the cpf's parameters or an enclosing aggregation's variables); e is read as a matrix with ?r
   * over the rows and ?c over the columns, and the result's entry at the current ?r, ?c is the value.
   */
  private checkMatrixOperation(
    expr: Extract<Expr, { kind: 'call' }>,
    matrix: { row: { name: string; loc: SourceLocation }; col: { name: string; loc: SourceLocation } },
    scope: Scope,
    context: ExprContext,
  ): ValueType | undefined {
    const types: string[] = [];
    for (const variable of [matrix.row, matrix.col]) {
      const type = scope.get(variable.name);
      if (!type || variable.name === '_') {
        return this.mismatch(
          `${variable.name} is not bound here: ${expr.name}[row=?r, col=?c] names variables of the cpf (or of an enclosing aggregation) that receive the result's rows and columns`,
          variable.loc,
        );
      }
      types.push(type);
    }
    if (matrix.row.name === matrix.col.name) {
      return this.mismatch(
        `the row and column variables of ${expr.name} must differ, not both ${matrix.row.name}`,
        matrix.col.loc,
      );
    }
    this.checkSquare(expr.name, types[0]!, types[1]!, expr.nameLoc);
    const body = this.check(expr.args[0]!, scope, context);
    if (body && !this.isArithmetic(body)) {
      return this.mismatch(
        `${expr.name} needs a numeric matrix, not ${describeType(body)}`,
        expr.args[0]!.loc,
      );
    }
    return REAL;
  }

  private checkCall(
    expr: Extract<Expr, { kind: 'call' }>,
    scope: Scope,
    context: ExprContext,
  ): ValueType | undefined {
    if (expr.matrix) return this.checkMatrixOperation(expr, expr.matrix, scope, context);
    const args = expr.args.map((a) => this.check(a, scope, context));
    const arity = FUNCTION_ARITY[expr.name];
    if (arity === undefined) {
      this.sink.error(
        `unknown function '${expr.name}'${didYouMean(expr.name, Object.keys(FUNCTION_ARITY))}`,
        expr.nameLoc,
      );
      return undefined;
    }
    if (args.length !== arity) {
      return this.mismatch(
        `${expr.name}[...] takes ${arity} argument${arity === 1 ? '' : 's'}, not ${args.length}`,
        expr.loc,
      );
    }
    if (args.some((a) => !a)) return undefined;
    const types = args as ValueType[];
    for (let i = 0; i < types.length; i++) {
      const t = types[i]!;
      if (t.kind !== 'int' && t.kind !== 'real') {
        return this.mismatch(
          `${expr.name}[...] needs numbers (rddlsim rejects ${describeType(t)} here)`,
          expr.args[i]!.loc,
        );
      }
    }
    switch (expr.name) {
      case 'div':
      case 'mod':
        if (types.some((t) => t.kind !== 'int'))
          return this.mismatch(`${expr.name}[...] needs two integers`, expr.loc);
        return INT;
      case 'min':
      case 'max':
        return types.every((t) => t.kind === 'int') ? INT : REAL;
      case 'abs':
      case 'sgn':
        return types[0]!.kind === 'int' ? INT : REAL;
      case 'round':
      case 'floor':
      case 'ceil':
        return INT;
      default:
        return REAL;
    }
  }

  private checkDistribution(
    expr: Extract<Expr, { kind: 'distribution' }>,
    scope: Scope,
    context: ExprContext,
  ): ValueType | undefined {
    if (expr.sampled) return this.checkVectorised(expr, scope, context);
    const args = expr.args.map((a) => this.check(a, scope, context));
    const numericArgs = () => {
      args.forEach((t, i) => {
        if (t && t.kind !== 'int' && t.kind !== 'real') {
          this.mismatch(
            `the parameters of ${expr.name} must be numbers, not ${describeType(t)}`,
            expr.args[i]!.loc,
          );
        }
      });
    };
    switch (expr.name) {
      case 'KronDelta': {
        const t = args[0];
        if (t && t.kind !== 'int' && t.kind !== 'bool' && t.kind !== 'enum') {
          return this.mismatch(
            `KronDelta takes an int, bool or enum value, not ${describeType(t)}${t.kind === 'real' ? ' (use DiracDelta for reals)' : ''}`,
            expr.loc,
          );
        }
        return t;
      }
      case 'DiracDelta': {
        const t = args[0];
        if (t && t.kind !== 'real') {
          return this.mismatch(
            `DiracDelta takes a real value, not ${describeType(t)}${t.kind === 'int' || t.kind === 'bool' ? ' (use KronDelta, or write the number as a real such as 1.0)' : ''}`,
            expr.loc,
          );
        }
        return REAL;
      }
      case 'Discrete':
      case 'UnnormDiscrete':
      case 'Multinomial': {
        if (expr.variables) return this.checkDiscreteOver(expr, scope, context);
        if (expr.name === 'Multinomial' && args[0] && args[0].kind !== 'int') {
          this.mismatch(`the count of Multinomial must be an int`, expr.args[0]!.loc);
        }
        const type = this.domain.types.get(expr.typeName ?? '');
        if (!type || (type.kind !== 'enum' && type.kind !== 'object')) {
          this.sink.error(
            type
              ? `${expr.name} draws values of an enum or object type, and '${expr.typeName}' is a vector type`
              : `unknown type '${expr.typeName}'${didYouMean(expr.typeName ?? '', this.domain.types.keys())}`,
            expr.typeLoc ?? expr.loc,
          );
          return undefined;
        }
        const cases = expr.cases ?? [];
        cases.forEach((c, i) => {
          if (c.label.kind === 'enum' && type.kind === 'enum' && !type.values!.includes(c.label.value)) {
            this.sink.error(
              `${c.label.value} is not a value of ${type.name} (${type.values!.join(', ')})`,
              c.label.loc,
            );
          } else if (c.label.kind === 'enum' && type.kind === 'object') {
            this.sink.error(
              `${type.name} is an object type: its labels are object names, not enum values`,
              c.label.loc,
            );
          }
          if (c.probability) {
            const p = this.check(c.probability, scope, context);
            if (p && p.kind !== 'int' && p.kind !== 'real') {
              this.mismatch(`a probability must be a number, not ${describeType(p)}`, c.probability.loc);
            }
          } else if (expr.name === 'UnnormDiscrete') {
            this.sink.error(
              `UnnormDiscrete has no 'otherwise': its weights are divided by their sum, so give each a weight`,
              c.loc,
            );
          } else if (i !== cases.length - 1) {
            this.sink.error(`only the last case can be 'otherwise'`, c.loc);
          }
        });
        if (expr.name === 'Multinomial') return { kind: 'struct', name: type.name };
        return { kind: type.kind, name: type.name };
      }
      case 'Dirichlet': {
        numericArgs();
        const type = this.domain.types.get(expr.typeName ?? '');
        if (!type || (type.kind !== 'enum' && type.kind !== 'object')) {
          this.sink.error(`unknown type '${expr.typeName}'`, expr.typeLoc ?? expr.loc);
          return undefined;
        }
        return { kind: 'struct', name: type.name };
      }
      case 'MultivariateNormal':
      case 'MultivariateStudent':
        // Only ever written as a vectorised draw (`[?v]`), which is checked as the whole cpf.
        return undefined;
      default: {
        // A distribution of numbers (the table says which parameter must be an int and what it draws).
        numericArgs();
        distributionParameters(expr.name).forEach(({ name, kind }, i) => {
          const t = args[i];
          if (kind === 'int' && t && t.kind !== 'int' && t.kind !== 'bool') {
            this.mismatch(
              `the ${name} of ${expr.name} must be an int, not ${describeType(t)}`,
              expr.args[i]!.loc,
            );
          }
        });
        return drawnType(expr.name);
      }
    }
  }
}
