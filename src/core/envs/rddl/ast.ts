/**
 * The RDDL syntax tree: what the parser produces from one text, before any name is resolved. Every node
 * carries the location of its text so that later stages (checker, grounder, compiler, simulator) can point
 * a learner at the exact place of a problem.
 */
import type { SourceLocation } from '../../errors';
import {
  DISTRIBUTIONS,
  isDistributionName,
  type DistributionName,
  type DistributionSpec,
  type PyRddlGymDistributionName,
} from './distribution-table';

/** A `?var`, `@enum` or `$object` term, or a nested pvariable used as an argument. */
export type Term = VariableRef | EnumLiteral | ObjectLiteral | PvarRef;

/** A pvariable's argument: a term, or pyRDDLGym's expression giving an object or enum value. */
export type ArgTerm = Term | ExprTerm;

/**
 * pyRDDLGym's argument that is an expression giving an object or enum value: `argmax_{?o : t} e`,
 * `argmin_{...}`, `Discrete_{?v : t} p(?v)` or `UnnormDiscrete_{...}` (`SIZE(Discrete_{?i : item} P(?i))`).
 */
export interface ExprTerm {
  kind: 'expr';
  expr: Expr;
  loc: SourceLocation;
}

/** An expression of the language (rddlsim §2.6 and the distributions of §2.7). */
export type Expr =
  | VariableRef
  | EnumLiteral
  | ObjectLiteral
  | PvarRef
  | BoolLiteral
  | NumberLiteral
  | UnaryExpr
  | BinaryExpr
  | QuantifierExpr
  | AggregationExpr
  | IfExpr
  | SwitchExpr
  | FunctionCall
  | DistributionExpr
  | StructLiteral;

/** `?x`. */
export interface VariableRef {
  kind: 'variable';
  /** With the leading `?`. */
  name: string;
  loc: SourceLocation;
}

/** `@value`. */
export interface EnumLiteral {
  kind: 'enum';
  /** With the leading `@`. */
  value: string;
  loc: SourceLocation;
}

/** `$object` (the `$` is not part of the name). */
export interface ObjectLiteral {
  kind: 'object';
  name: string;
  loc: SourceLocation;
}

/** A member access step after a pvariable: `.@m`, `.?v`, `.$o`, `.(p(..))`. */
export type MemberTerm = Term;

/** A pvariable reference `name'(t1, ...)`, optionally with vector member accesses or `.default`. */
export interface PvarRef {
  kind: 'pvar';
  /** As written, without the prime. */
  name: string;
  primed: boolean;
  args: ArgTerm[];
  /** RDDL2 vector member accesses, in order. */
  members?: MemberTerm[];
  /** `name.default`: the pvariable's declared default. */
  isDefault?: boolean;
  /** Location of the name alone (for hover and "unknown fluent" messages). */
  nameLoc: SourceLocation;
  loc: SourceLocation;
}

export interface BoolLiteral {
  kind: 'bool';
  value: boolean;
  loc: SourceLocation;
}

/** An integer or real literal; `isInt` keeps the written form (`1` is int, `1.0` is real). */
export interface NumberLiteral {
  kind: 'number';
  value: number;
  isInt: boolean;
  loc: SourceLocation;
}

/** `~e`, `-e` (unary plus is dropped by the parser, as rddlsim does). */
export interface UnaryExpr {
  kind: 'unary';
  op: '~' | '-';
  operand: Expr;
  loc: SourceLocation;
}

/** Binary operators. `&` is read as `^`. */
export type BinaryOp =
  '<=>' | '=>' | '|' | '^' | '==' | '~=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/';

export interface BinaryExpr {
  kind: 'binary';
  op: BinaryOp;
  left: Expr;
  right: Expr;
  /** Location of the operator itself. */
  opLoc: SourceLocation;
  loc: SourceLocation;
}

/** `?x : type` in a quantifier or aggregation. */
export interface TypedVariable {
  name: string;
  type: string;
  loc: SourceLocation;
  typeLoc: SourceLocation;
}

export interface QuantifierExpr {
  kind: 'quantifier';
  quantifier: 'forall' | 'exists';
  variables: TypedVariable[];
  body: Expr;
  loc: SourceLocation;
}

/** `sum_{...}`, `prod_{...}`, `min_{...}`, `max_{...}` (any other name is reported by the checker). */
export interface AggregationExpr {
  kind: 'aggregation';
  op: string;
  opLoc: SourceLocation;
  variables: TypedVariable[];
  body: Expr;
  loc: SourceLocation;
}

export interface IfExpr {
  kind: 'if';
  condition: Expr;
  then: Expr;
  else: Expr;
  loc: SourceLocation;
}

/** One `case TERM : EXPR` or `default : EXPR` (then `value` is undefined). */
export interface SwitchCase {
  value?: Term;
  body: Expr;
  loc: SourceLocation;
}

export interface SwitchExpr {
  kind: 'switch';
  subject: Term;
  cases: SwitchCase[];
  loc: SourceLocation;
}

/** `name[e1, ...]`: built-in functions in square brackets. */
export interface FunctionCall {
  kind: 'call';
  name: string;
  nameLoc: SourceLocation;
  args: Expr[];
  /**
   * pyRDDLGym's `inverse[row=?r, col=?c][e]` (and `pinverse`, `cholesky`): `args` is `[e]`, the matrix whose
   * rows are ?r's values and columns ?c's; the result's entry at the current ?r, ?c is the value.
   */
  matrix?: { row: VariableRef; col: VariableRef };
  loc: SourceLocation;
}

/** pyRDDLGym's matrix operations that give a matrix, written `op[row=?r, col=?c][e]`. */
export const MATRIX_OPERATIONS = ['inverse', 'pinverse', 'cholesky'] as const;

/** A label and its probability in `Discrete`/`Multinomial`; `probability` undefined means `otherwise`. */
export interface DiscreteCase {
  label: Term;
  probability?: Expr;
  loc: SourceLocation;
}

/** Names of the distributions (`distribution-table.ts`: the one list). */
export type { DistributionName, PyRddlGymDistributionName } from './distribution-table';

/** True for a distribution of pyRDDLGym written `Name(a, b)` (rddlsim does not reserve its name). */
export function isPyRddlGymDistribution(name: string): name is PyRddlGymDistributionName {
  if (!isDistributionName(name)) return false;
  const spec: DistributionSpec = DISTRIBUTIONS[name];
  return spec.reading === 'name' && spec.parameters !== 'typed';
}

export interface DistributionExpr {
  kind: 'distribution';
  name: DistributionName;
  /** Numeric parameters in order (for Multinomial: the count; for Dirichlet: alpha). */
  args: Expr[];
  /** Type named by Discrete, UnnormDiscrete, Multinomial and Dirichlet. */
  typeName?: string;
  typeLoc?: SourceLocation;
  cases?: DiscreteCase[];
  /**
   * pyRDDLGym's `Discrete_{?v : t} e` and `UnnormDiscrete_{?v : t} e`: the variable (one, checked later)
   * and `body`, the probability or weight of each value of `t` with `?v` bound to it.
   */
  variables?: TypedVariable[];
  body?: Expr;
  /**
   * pyRDDLGym's vectorised `Dirichlet[?v](alpha(_))`, `Multinomial[?v](n, p(_))`,
   * `MultivariateNormal[?v](mean(_), cov(_, _))` and `MultivariateStudent[?v](mean(_), cov(_, _), df)`: the
   * cpf variable that receives the vector's members (one, checked later). In `args`, `_` is a variable
   * standing for each value of its type (in a covariance, the first `_` the row, the second the column).
   */
  sampled?: VariableRef[];
  loc: SourceLocation;
}

/** RDDL2 vector literal `< @a : e1, @b : e2 >`. */
export interface StructLiteral {
  kind: 'struct';
  members: { label: Term; value: Expr }[];
  loc: SourceLocation;
}

/** A constant written in declarations, non-fluents and init-state blocks. */
export type ConstValue =
  | { kind: 'bool'; value: boolean }
  | { kind: 'int'; value: number }
  | { kind: 'real'; value: number }
  | { kind: 'enum'; value: string }
  | { kind: 'object'; value: string }
  | { kind: 'struct'; members: { label: string; value: ConstValue }[]; wildcard?: boolean };

/** A type declaration inside `types { ... }`. */
export type TypeDecl =
  | { kind: 'object'; name: string; parent?: string; parentLoc?: SourceLocation; loc: SourceLocation }
  | { kind: 'enum'; name: string; values: { value: string; loc: SourceLocation }[]; loc: SourceLocation }
  | {
      kind: 'enum-range';
      name: string;
      from: number;
      to: number;
      loc: SourceLocation;
    }
  | {
      kind: 'struct';
      name: string;
      /** `[t] <? : range>`: members are the values of `indexType`. */
      indexType?: string;
      members: { label: string; range: string }[];
      loc: SourceLocation;
    };

/** Pvariable kinds as written. */
export type PvarKindKeyword =
  'state-fluent' | 'non-fluent' | 'action-fluent' | 'interm-fluent' | 'derived-fluent' | 'observ-fluent';

/** `name(t1, ...) : { kind, range, default = c | level = n };` */
export interface PvarDecl {
  name: string;
  nameLoc: SourceLocation;
  params: { type: string; loc: SourceLocation }[];
  kind: PvarKindKeyword;
  range: string;
  rangeLoc: SourceLocation;
  default?: ConstValue;
  defaultLoc?: SourceLocation;
  level?: number;
  loc: SourceLocation;
}

/** `head = expr;` in cpfs/cdfs. */
export interface CpfDef {
  head: PvarRef;
  expr: Expr;
  loc: SourceLocation;
}

/** A constraint line in action-preconditions, state-action-constraints or state-invariants. */
export interface ConstraintDef {
  expr: Expr;
  loc: SourceLocation;
}

/** `t : {a, b, c};` in an objects section. */
export interface ObjectsDecl {
  type: string;
  typeLoc: SourceLocation;
  objects: { name: string; loc: SourceLocation }[];
  loc: SourceLocation;
}

/** `p(a, b);`, `~p(a);`, `p(a) = 3;` in init-state and non-fluents lists. */
export interface Assignment {
  name: string;
  nameLoc: SourceLocation;
  args: { value: string; loc: SourceLocation }[];
  value: ConstValue;
  loc: SourceLocation;
}

/** A section of a domain, in source order (rddlsim allows any order and repetition). */
export interface DomainBlock {
  kind: 'domain';
  name: string;
  nameLoc: SourceLocation;
  requirements: { name: string; loc: SourceLocation }[];
  types: TypeDecl[];
  pvariables: PvarDecl[];
  /**
   * Declarations in the order rddlsim inserts them into its pvariable table: sections in reverse source
   * order, declarations within a section in source order (its grammar appends each section's list after
   * the lists of the sections that follow it).
   */
  pvariableInsertionOrder: PvarDecl[];
  /** Type declarations in rddlsim's insertion order (sections reversed, as for pvariables). */
  typeInsertionOrder: TypeDecl[];
  cpfs: CpfDef[];
  /** `cpfs` or `cdfs` (last header seen). */
  cpfsKeyword?: 'cpfs' | 'cdfs';
  reward?: Expr;
  rewardLoc?: SourceLocation;
  actionPreconditions: ConstraintDef[];
  stateActionConstraints: ConstraintDef[];
  stateInvariants: ConstraintDef[];
  /** pyRDDLGym's `termination { ... };`: the round ends in a state where any of these holds. */
  terminations: ConstraintDef[];
  objects: ObjectsDecl[];
  loc: SourceLocation;
}

export interface NonFluentsBlock {
  kind: 'non-fluents';
  name: string;
  nameLoc: SourceLocation;
  domain: string;
  domainLoc: SourceLocation;
  objects: ObjectsDecl[];
  assignments: Assignment[];
  loc: SourceLocation;
}

/** How a round ends. */
export type HorizonSpec =
  | { kind: 'steps'; steps: number }
  | { kind: 'pos-inf' }
  | { kind: 'terminate-when'; condition: Expr }
  /** IPC 2018 form `terminal = expr;`. */
  | { kind: 'terminal'; condition: Expr };

export interface InstanceBlock {
  kind: 'instance';
  name: string;
  nameLoc: SourceLocation;
  domain: string;
  domainLoc: SourceLocation;
  nonFluents?: string;
  nonFluentsLoc?: SourceLocation;
  objects: ObjectsDecl[];
  /** IPC 2018 form: non-fluent values inside the instance. */
  nonFluentAssignments: Assignment[];
  initState: Assignment[];
  /** Undefined when not written (unlimited). */
  maxNondefActions?: number | 'pos-inf';
  horizon: HorizonSpec;
  horizonLoc: SourceLocation;
  discount: number;
  loc: SourceLocation;
}

/** One top-level block. */
export type Block = DomainBlock | NonFluentsBlock | InstanceBlock;

/** Everything parsed from one text. */
export interface RddlFile {
  source: string;
  blocks: Block[];
}

const numberedUnderscores = new WeakMap<Expr, { expr: Expr; count: number }>();

/**
 * A copy of `expr` whose `_` variables are numbered in reading order: the first stays `_`, the k-th
 * becomes `_k` (`cov(_, _)` reads as `cov(_, _2)`, row then column). `count` is how many there are.
 * The same expression gives the same copy (the checker and the compiler see one tree).
 */
export function numberUnderscores(expr: Expr): { expr: Expr; count: number } {
  const known = numberedUnderscores.get(expr);
  if (known) return known;
  const found: VariableRef[] = [];
  const copy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(copy);
    if (!node || typeof node !== 'object') return node;
    const record = node as Record<string, unknown>;
    if (record.kind === 'variable' && record.name === '_') {
      const variable = { ...(record as unknown as VariableRef) };
      found.push(variable);
      return variable;
    }
    // Locations are shared, not copied.
    if (typeof record.line === 'number' && typeof record.column === 'number') return node;
    return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, copy(value)]));
  };
  const result = { expr: copy(expr) as Expr, count: found.length };
  found
    .sort((a, b) => a.loc.line - b.loc.line || a.loc.column - b.loc.column)
    .forEach((variable, i) => {
      if (i > 0) variable.name = `_${i + 1}`;
    });
  numberedUnderscores.set(expr, result);
  return result;
}
