/**
 * Compiles one RDDL expression, for one grounding, to a JavaScript expression.
 *
 * Everything known before simulation is decided here: variables are bound to concrete objects, so every
 * fluent read becomes an array element (`s[17]`); non-fluents become constants and are folded away
 * (`CONNECTED(c1, c4) ^ running(c1)` is `false` or `s[0] === 1`); quantifiers and aggregations are
 * unrolled over the objects. When a quantified body starts with a boolean non-fluent that is mostly
 * false (a graph's edges, a grid's neighbours), only the objects for which it is true are visited, so
 * compiling a sum over a sparse graph costs its number of edges, not objects squared.
 *
 * Folding never removes a random draw that rddlsim would make, so with the same generator the compiled
 * code draws the same numbers in the same order as rddlsim; rddlsim's evaluation quirks are emitted only
 * when requested.
 */
import type { SourceLocation } from '../../errors';
import type { ArgTerm, Expr, PvarRef, Term, TypedVariable } from './ast';
import { numberUnderscores } from './ast';
import { determinant } from './matrix';
import type { ExprContext, PvarInfo } from './domain';
import type { FluentLayout, GroundedInstance } from './grounding';
import { drawnType, type PyRddlGymDistributionName } from './distribution-table';
import { canonicalFluentName } from './names';
import { constantLeaves, leavesUnder, memberPath } from './vector-shape';
import { rollStatements } from './roll';
import { javaDoubleToInt, javaRound, logGamma } from './runtime';
import { BOOL, INT, REAL, arithmeticType, describeType, sameType, type ValueType } from './value-types';

/** A problem found while compiling (an unsupported construct, a name that does not exist in the instance). */
export class CompileError extends Error {
  constructor(
    message: string,
    readonly location: SourceLocation,
  ) {
    super(message);
    this.name = 'CompileError';
  }
}

/** A compiled expression. */
export interface Code {
  /** JavaScript expression. Bools are JS booleans; numbers are numbers; enum and object values are symbol ids. */
  js: string;
  type: ValueType;
  /** The value, when known at compile time (never set for code that draws random numbers). */
  value?: boolean | number;
  /** Draws random numbers (so it must be evaluated exactly where and as often as rddlsim does). */
  random: boolean;
  /** With rddlsim's `*` quirk, a number-typed value may be a JS boolean (`false * 3.5` is `false`). */
  mayBeBool?: boolean;
  /** For a boolean read from an array: the stored 0/1 itself, which arithmetic can use directly. */
  asStored?: string;
}

/** Whether an expression holds a distribution that draws (all but KronDelta and DiracDelta). */
function draws(expr: Expr): boolean {
  if (expr.kind === 'distribution' && expr.name !== 'KronDelta' && expr.name !== 'DiracDelta') return true;
  switch (expr.kind) {
    case 'pvar':
      return expr.args.some((a) => (a.kind === 'pvar' && draws(a)) || (a.kind === 'expr' && draws(a.expr)));
    case 'unary':
      return draws(expr.operand);
    case 'binary':
      return draws(expr.left) || draws(expr.right);
    case 'quantifier':
    case 'aggregation':
      return draws(expr.body);
    case 'if':
      return draws(expr.condition) || draws(expr.then) || draws(expr.else);
    case 'switch':
      return draws(expr.subject as Expr) || expr.cases.some((c) => draws(c.body));
    case 'call':
      return expr.args.some(draws);
    case 'distribution':
      return expr.args.some(draws) || (expr.body !== undefined && draws(expr.body));
    case 'struct':
      return expr.members.some((m) => draws(m.value));
    default:
      return false;
  }
}

/** A quantified variable bound to one value (the grounding is fixed at compile time). */
interface Binding {
  /** Object name or enum value. */
  value: string;
  symbol: number;
  type: string;
  /**
   * Set (rddlsim quirks only) once a nested quantifier re-bound this variable: rddlsim then erases the
   * binding, or leaves the nested one in place, so later reads take the symbol from this temporary
   * (-1 when erased). Bindings are shared objects, so every scope that sees this variable sees the change.
   */
  runtime?: string;
}

type Env = ReadonlyMap<string, Binding>;

/** Above this many bindings for one quantifier or aggregation, compiling stops with an explanation. */
const MAX_UNROLL = 20_000_000;
/** Unrolled lists longer than this go into a helper function of statements instead of one expression. */
const INLINE_TERMS = 8;
/** Statements per helper function, so that every function stays small enough for the optimising compiler. */
const STATEMENTS_PER_HELPER = 400;

/** The arrays generated functions read and write, in parameter order. */
export const ARRAY_PARAMS = 's, a, ns, im, ob';

/** Where the generated code lives: helper functions, constant tables and source locations. */
export class ModuleBuilder {
  readonly helpers: string[] = [];
  readonly data: (Float64Array | Int32Array)[] = [];
  readonly locations: SourceLocation[] = [];
  readonly #locationIds = new Map<SourceLocation, number>();
  #names = 0;
  size = 0;

  name(prefix: string): string {
    return `${prefix}${this.#names++}`;
  }

  /** Index of a location in the table the runtime uses for error messages. */
  location(loc: SourceLocation): number {
    let id = this.#locationIds.get(loc);
    if (id === undefined) {
      id = this.locations.length;
      this.locations.push(loc);
      this.#locationIds.set(loc, id);
    }
    return id;
  }

  /** Adds a constant table; returns the JS name under which generated code sees it. */
  table(values: Float64Array | Int32Array): string {
    this.data.push(values);
    return `D[${this.data.length - 1}]`;
  }

  addFunction(source: string): void {
    this.helpers.push(source);
    this.size += source.length;
  }
}

/** Formats a constant as JavaScript source. */
export function literal(value: boolean | number): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '(-Infinity)';
  if (Object.is(value, -0)) return '(-0)';
  return value < 0 ? `(${value})` : String(value);
}

function constant(value: boolean | number, type: ValueType): Code {
  return { js: literal(value), type, value, random: false };
}

function isZeroValue(value: boolean | number | undefined): boolean {
  return value === 0 || value === false;
}

/** What the compiler knows about the surrounding statement. */
export interface ExprSite {
  context: ExprContext;
  /** While compiling state cpfs: which next-state groundings are already computed (others read as default). */
  computedState?: Uint8Array;
  /** Interm/derived groundings read by the expression (for evaluation order). */
  intermReads?: Set<number>;
  /** The slot the statement computes (its interm/derived grounding, next-state or observation index). */
  slot?: number;
  /**
   * For a vector-valued fluent's cpf: the member this statement computes (the statement of member 0 makes
   * the grounding's random draws; the others read them).
   */
  member?: VectorMember;
}

/** One member of a vector: its position among the vector's members, and its label. */
export interface VectorMember {
  index: number;
  label: string;
}

/** Compiles expressions of one grounded instance. */
export class ExpressionCompiler {
  #site: ExprSite = { context: 'reward' };
  /** Temporaries of the statement being compiled. */
  #temps = 0;
  /** Code the statement runs first: matrix operations computed whole, whose entries it and others read. */
  #prelude: { js: string; random: boolean }[] = [];
  /** pyRDDLGym's inverse/pinverse/cholesky results, by expression and binding of the other variables. */
  readonly #matrixResults = new Map<Expr, Map<string, { out: string; slot?: number; random: boolean }>>();
  readonly #guardIndexes = new Map<string, Map<string, string[][]>>();
  readonly #typeOfObject = new Map<string, string>();
  readonly #enumOfValue = new Map<string, string>();
  readonly #dense = new Map<string, string>();
  readonly #positions = new Map<string, Map<string, number>>();

  constructor(
    private readonly grounded: GroundedInstance,
    private readonly module: ModuleBuilder,
    private readonly quirks: boolean,
    private readonly posTables: Map<string, number>,
  ) {
    for (const [type, values] of grounded.typeValues) {
      const kind = grounded.domain.types.get(type)?.kind;
      for (const value of values) {
        if (kind === 'enum' && !this.#enumOfValue.has(value)) this.#enumOfValue.set(value, type);
        if (kind === 'object' && !this.#typeOfObject.has(value)) this.#typeOfObject.set(value, type);
      }
    }
  }

  /**
   * Compiles a whole statement's expression. Returns the code and the temporaries it needs declared.
   * `bindings` binds the cpf head's variables to one grounding.
   */
  compileStatement(
    expr: Expr,
    bindings: ReadonlyMap<string, { value: string; type: string }>,
    site: ExprSite,
  ): { code: Code; temps: string[] } {
    this.#site = site;
    this.#temps = 0;
    this.#prelude = [];
    const env = new Map<string, Binding>();
    for (const [name, { value, type }] of bindings) env.set(name, this.binding(value, type));
    let code = site.member ? this.compileMember(expr, env, site.member) : this.compile(expr, env);
    if (this.#prelude.length > 0) {
      // Computed whatever the expression's branches take (other statements read the tables), as
      // pyRDDLGym evaluates every operand; the value itself is then not a constant.
      code = {
        js: `(${this.#prelude.map((p) => p.js).join(', ')}, ${code.js})`,
        type: code.type,
        random: code.random || this.#prelude.some((p) => p.random),
        ...(code.mayBeBool ? { mayBeBool: true } : {}),
      };
    }
    return { code, temps: Array.from({ length: this.#temps }, (_, i) => `t${i}`) };
  }

  private binding(value: string, type: string): Binding {
    return { value, symbol: this.grounded.symbols.id(value), type };
  }

  private temp(): string {
    return `t${this.#temps++}`;
  }

  /** The number view of a value: bools as 0/1, number-valued enums as their number. */
  asNumber(code: Code): Code {
    if (code.type.kind === 'bool') {
      if (code.value !== undefined) return constant(code.value ? 1 : 0, INT);
      if (code.asStored) return { js: code.asStored, type: INT, random: code.random };
      return { js: `(${code.js} ? 1 : 0)`, type: INT, random: code.random };
    }
    if (code.type.kind === 'enum') {
      if (code.value !== undefined) {
        const n = Number(this.grounded.symbols.name(code.value as number).slice(1));
        return constant(n, INT);
      }
      return { js: `EI[${code.js}]`, type: INT, random: code.random };
    }
    if (code.mayBeBool) return { js: `(+${code.js})`, type: code.type, random: code.random };
    return code;
  }

  compile(expr: Expr, env: Env): Code {
    switch (expr.kind) {
      case 'bool':
        return constant(expr.value, BOOL);
      case 'number':
        return constant(expr.value, expr.isInt ? INT : REAL);
      case 'enum': {
        const type = this.#enumOfValue.get(expr.value);
        if (!type) throw new CompileError(`unknown enum value ${expr.value}`, expr.loc);
        return constant(this.grounded.symbols.id(expr.value), { kind: 'enum', name: type });
      }
      case 'object': {
        const type = this.#typeOfObject.get(expr.name);
        if (!type) throw new CompileError(`'${expr.name}' is not an object of this instance`, expr.loc);
        return constant(this.grounded.symbols.id(expr.name), { kind: 'object', name: type });
      }
      case 'variable': {
        const binding = env.get(expr.name);
        if (!binding) throw new CompileError(`unknown variable ${expr.name}`, expr.loc);
        if (binding.runtime) return this.runtimeVariable(expr.name, binding, expr.loc);
        return constant(binding.symbol, this.typeOfSymbol(binding));
      }
      case 'pvar':
        return this.compilePvar(expr, env);
      case 'unary': {
        const operand = this.compile(expr.operand, env);
        if (expr.op === '~') {
          if (operand.value !== undefined) return constant(!operand.value, BOOL);
          return { js: `!${operand.js}`, type: BOOL, random: operand.random };
        }
        // rddlsim reads -e as 0 - e (so -0.0 is 0.0 and ints stay ints).
        return this.arithmetic('-', constant(0, INT), operand);
      }
      case 'binary':
        return this.compileBinary(expr, env);
      case 'quantifier':
        return this.compileQuantifier(expr, env);
      case 'aggregation':
        return this.compileAggregation(expr, env);
      case 'if': {
        const condition = this.compile(expr.condition, env);
        if (condition.value !== undefined) return this.compile(condition.value ? expr.then : expr.else, env);
        const [a, b] = this.joinBranches([this.compile(expr.then, env), this.compile(expr.else, env)]);
        return {
          js: `(${condition.js} ? ${a!.js} : ${b!.js})`,
          type: a!.type,
          random: condition.random || a!.random || b!.random,
          mayBeBool: a!.mayBeBool || b!.mayBeBool,
        };
      }
      case 'switch':
        return this.compileSwitch(expr, env);
      case 'call':
        return this.compileCall(expr, env);
      case 'distribution':
        return this.compileDistribution(expr, env);
      case 'struct':
        throw new CompileError(
          `a vector < ... > is a value for a vector-valued fluent; read one member with .@label`,
          expr.loc,
        );
    }
  }

  // ---------------------------------------------------------------- vectors

  /**
   * One member of a vector-valued expression (the cpf of a vector-valued fluent): a vector literal gives
   * the member's own expression, a vector fluent its member's slot, `if` the member of the branch taken,
   * Multinomial and Dirichlet one draw of the whole vector (made by member 0's statement, in a table the
   * other members read).
   */
  private compileMember(expr: Expr, env: Env, member: VectorMember): Code {
    switch (expr.kind) {
      case 'struct': {
        // A nested member's path is its label in this literal, then its path inside that member's vector.
        const dot = member.label.indexOf('.');
        const head = dot < 0 ? member.label : member.label.slice(0, dot);
        const found = expr.members.find((m) => termLabel(m.label) === head);
        if (!found) throw new CompileError(`this vector gives no member ${head}`, expr.loc);
        if (dot < 0) return this.compile(found.value, env);
        const rest = member.label.slice(dot + 1);
        const inner = this.vectorLabels(found.value);
        if (!inner) {
          throw new CompileError(
            `member ${head} is a vector here (with member ${rest}), but this gives a scalar`,
            found.value.loc,
          );
        }
        const index = inner.indexOf(rest);
        if (index < 0) throw new CompileError(`this vector gives no member ${rest}`, found.value.loc);
        return this.compileMember(found.value, env, { index, label: rest });
      }
      case 'pvar': {
        // `v.@a` stands for a vector only when `@a` is a nested vector.
        if (expr.members && !this.vectorLabels(expr)) break;
        if (expr.isDefault) return this.vectorDefaultMember(expr, member);
        return this.compilePvar(expr, env, member.label);
      }
      case 'if': {
        const condition = this.compile(expr.condition, env);
        if (condition.value !== undefined)
          return this.compileMember(condition.value ? expr.then : expr.else, env, member);
        if (condition.random) {
          throw new CompileError(
            `not yet supported in simulation: a random condition choosing between vectors`,
            expr.condition.loc,
          );
        }
        const [a, b] = this.joinBranches([
          this.compileMember(expr.then, env, member),
          this.compileMember(expr.else, env, member),
        ]);
        return {
          js: `(${condition.js} ? ${a!.js} : ${b!.js})`,
          type: a!.type,
          random: a!.random || b!.random,
        };
      }
      case 'distribution':
        if (expr.name === 'Multinomial' || expr.name === 'Dirichlet')
          return this.vectorDraw(expr, env, member);
        break;
      case 'binary': {
        if (expr.op !== '+' && expr.op !== '-' && expr.op !== '*' && expr.op !== '/') break;
        // rddlsim applies arithmetic member by member, to two vectors with the same labels.
        this.sameLabels(expr.left, expr.right, expr.loc);
        const whole = this.quirks ? this.wholeOperands(expr, env, member) : undefined;
        if (whole) return whole;
        const left = this.compileMember(expr.left, env, member);
        const right = this.compileMember(expr.right, env, member);
        if (this.quirks && expr.op === '*' && (left.random || right.random)) {
          throw new CompileError(
            `not yet supported in simulation with rddlsim's quirks: * between random vectors`,
            expr.loc,
          );
        }
        return this.arithmetic(expr.op, left, right);
      }
    }
    throw new CompileError(
      `not yet supported in simulation: this vector expression (a vector-valued fluent's cpf can be a vector < ... >, Multinomial, Dirichlet, another vector fluent, or an if choosing among them)`,
      expr.loc,
    );
  }

  /**
   * The member labels of a vector-valued expression, or undefined for a scalar one (known from the
   * expression's form: a vector literal, a vector fluent or its default, Multinomial, Dirichlet, an `if`
   * or arithmetic over those).
   */
  private vectorLabels(expr: Expr): readonly string[] | undefined {
    switch (expr.kind) {
      case 'struct':
        return expr.members.flatMap((m) => {
          const label = termLabel(m.label) ?? '';
          const inner = this.vectorLabels(m.value);
          return inner ? inner.map((path) => `${label}.${path}`) : [label];
        });
      case 'pvar': {
        const vector = this.grounded.layouts.get(canonicalFluentName(expr.name))?.vector;
        if (!vector || !expr.members) return vector?.labels;
        // `v.@a` is a vector when `@a` is a nested vector: the leaves under it.
        const prefix = expr.members.map(termLabel);
        if (prefix.some((label) => label === undefined)) return undefined;
        const under = leavesUnder(vector, memberPath(prefix as string[]));
        return under && under.relative[0] !== '' ? under.relative : undefined;
      }
      case 'distribution':
        return expr.name === 'Multinomial' || expr.name === 'Dirichlet'
          ? this.grounded.typeValues.get(expr.typeName ?? '')
          : undefined;
      case 'if':
        return this.vectorLabels(expr.then) ?? this.vectorLabels(expr.else);
      case 'binary':
        return expr.op === '+' || expr.op === '-' || expr.op === '*' || expr.op === '/'
          ? (this.vectorLabels(expr.left) ?? this.vectorLabels(expr.right))
          : undefined;
      default:
        return undefined;
    }
  }

  /** The labels two vector operands share (rddlsim requires the same labels in the same order). */
  private sameLabels(left: Expr, right: Expr, loc: SourceLocation): readonly string[] {
    const a = this.vectorLabels(left);
    const b = this.vectorLabels(right);
    if (!a || !b) {
      throw new CompileError(
        `both operands must be vectors here (rddlsim has no vector-scalar operations)`,
        loc,
      );
    }
    if (a.length !== b.length || a.some((label, i) => label !== b[i])) {
      throw new CompileError(
        `these vectors have different members (${a.join(', ')} and ${b.join(', ')})`,
        loc,
      );
    }
    return a;
  }

  /** `v == w` / `v ~= w` over vectors: equal when every member is equal, as rddlsim compares them. */
  private vectorEquality(expr: Extract<Expr, { kind: 'binary' }>, env: Env): Code {
    const labels = this.sameLabels(expr.left, expr.right, expr.loc);
    const equal = labels.map((label, index) =>
      this.compare(
        '==',
        this.compileMember(expr.left, env, { index, label }),
        this.compileMember(expr.right, env, { index, label }),
      ),
    );
    const random = equal.some((c) => c.random);
    if (!random && equal.every((c) => c.value !== undefined)) {
      const all = equal.every((c) => c.value === true);
      return constant(expr.op === '==' ? all : !all, BOOL);
    }
    // Every member is computed first (member 0 makes any draw the others read), then compared.
    const temps = equal.map(() => this.temp());
    const assignments = equal.map((c, i) => `${temps[i]} = ${c.js}`);
    const all = `(${temps.join(' && ')})`;
    return {
      js: `(${assignments.join(', ')}, ${expr.op === '==' ? all : `!${all}`})`,
      type: BOOL,
      random,
    };
  }

  /** A member of a vector fluent's declared default (`v.default`). */
  private vectorDefaultMember(ref: PvarRef, member: VectorMember): Code {
    const layout = this.layoutOf(ref);
    const written = layout.info.default;
    const vector = layout.vector;
    const leaves = vector && written ? constantLeaves(vector.tree, written, layout.info.name) : undefined;
    const position = vector ? vector.labels.indexOf(member.label) : -1;
    const value = leaves && 'leaves' in leaves ? leaves.leaves[position] : undefined;
    if (!vector || !value || value.kind === 'struct')
      throw new CompileError(`'${layout.info.name}' has no default for member ${member.label}`, ref.loc);
    switch (value.kind) {
      case 'bool':
        return constant(value.value, BOOL);
      case 'int':
        return constant(value.value, INT);
      case 'real':
        return constant(value.value, REAL);
      default:
        return constant(this.grounded.symbols.id(value.value), vector.types[position]!);
    }
  }

  /** Tables holding the current grounding's Multinomial and Dirichlet draws, by expression. */
  readonly #vectorDraws = new Map<Expr, string>();
  /** Tables holding the current grounding's operands of vector arithmetic (see `wholeOperands`). */
  readonly #vectorOperands = new Map<Expr, { left: string; right: string; types: ValueType[][] }>();

  /**
   * Vector arithmetic whose operands draw random numbers, as rddlsim evaluates it: the whole left vector,
   * then the whole right one, then member by member. The first member's statement computes every member
   * of both operands into tables (in that order), and every member combines its pair from the tables.
   * Member by member (the left's first member, the right's first member, ...) would hand the same draws
   * to other members. Undefined where the operands draw nothing, or hold other than numbers.
   */
  private wholeOperands(
    expr: Extract<Expr, { kind: 'binary' }>,
    env: Env,
    member: VectorMember,
  ): Code | undefined {
    const op = expr.op as '+' | '-' | '*' | '/';
    const labels = this.vectorLabels(expr.left);
    const position = labels ? labels.indexOf(member.label) : -1;
    if (!labels || position < 0 || !(draws(expr.left) || draws(expr.right))) return undefined;
    const pair = (left: string, right: string, types: ValueType[][]) =>
      this.arithmetic(
        op,
        { js: `${left}[${position}]`, type: types[0]![position]!, random: false },
        { js: `${right}[${position}]`, type: types[1]![position]!, random: false },
      );
    if (member.index > 0) {
      const tables = this.#vectorOperands.get(expr);
      return tables ? pair(tables.left, tables.right, tables.types) : undefined;
    }
    const lefts = labels.map((label, index) => this.compileMember(expr.left, env, { index, label }));
    const rights = labels.map((label, index) => this.compileMember(expr.right, env, { index, label }));
    const numeric = (c: Code) => (c.type.kind === 'int' || c.type.kind === 'real') && !c.mayBeBool;
    if (!lefts.every(numeric) || !rights.every(numeric)) return undefined;
    const left = this.module.table(new Float64Array(labels.length));
    const right = this.module.table(new Float64Array(labels.length));
    const types = [lefts.map((c) => c.type), rights.map((c) => c.type)];
    this.#vectorOperands.set(expr, { left, right, types });
    const fill = [
      ...lefts.map((c, i) => `${left}[${i}] = ${c.js}`),
      ...rights.map((c, i) => `${right}[${i}] = ${c.js}`),
    ];
    const combined = pair(left, right, types);
    return { ...combined, js: `(${fill.join(', ')}, ${combined.js})`, random: true, value: undefined };
  }

  private vectorDraw(expr: Extract<Expr, { kind: 'distribution' }>, env: Env, member: VectorMember): Code {
    const typeName = expr.typeName ?? '';
    const values = this.grounded.typeValues.get(typeName);
    if (!values) throw new CompileError(`unknown type '${typeName}'`, expr.typeLoc ?? expr.loc);
    const position = values.indexOf(member.label);
    if (position < 0) {
      throw new CompileError(
        `${expr.name}(${typeName}, ...) has no member ${member.label} (its members are the values of ${typeName})`,
        expr.loc,
      );
    }
    const type = expr.name === 'Multinomial' ? INT : REAL;
    if (member.index > 0) {
      const table = this.#vectorDraws.get(expr);
      if (!table) throw new CompileError(`internal: ${expr.name} read before it was drawn`, expr.loc);
      return { js: `${table}[${position}]`, type, random: false };
    }
    const out = this.module.table(new Float64Array(values.length));
    this.#vectorDraws.set(expr, out);
    const loc = this.module.location(expr.loc);
    if (expr.name === 'Dirichlet') {
      const alpha = this.asNumber(this.compile(expr.args[0]!, env));
      return { js: `(diri(${alpha.js}, ${out}, ${loc}), ${out}[${position}])`, type, random: true };
    }
    const count = this.compile(expr.args[0]!, env);
    if (count.type.kind !== 'int') {
      throw new CompileError(
        `the count of Multinomial must be an int, but this is ${describeType(count.type)}`,
        expr.args[0]!.loc,
      );
    }
    const { assignments, probabilities, labels, cases } = this.discreteTables(expr, env, values, typeName);
    const members = this.module.table(
      Int32Array.from(labels, (symbol) => values.indexOf(this.grounded.symbols.name(symbol))),
    );
    return {
      js: `(${assignments.join(', ')}, mult(${probabilities}, ${cases}, ${members}, ${count.js}, ${out}, ${loc}), ${out}[${position}])`,
      type,
      random: true,
    };
  }

  /** A variable whose value rddlsim lost or replaced (see `Binding.runtime`). */
  private runtimeVariable(name: string, binding: Binding, loc: SourceLocation): Code {
    const message = JSON.stringify(
      `${name} has no value here: rddlsim erased it when a nested quantifier or aggregation re-bound ${name}`,
    );
    return {
      js: `(${binding.runtime} >= 0 ? ${binding.runtime} : fail(${message}, ${this.module.location(loc)}))`,
      type: this.typeOfSymbol(binding),
      random: false,
    };
  }

  private typeOfSymbol(binding: Binding): ValueType {
    const kind = this.grounded.domain.types.get(binding.type)?.kind;
    if (kind === 'enum' || binding.value.startsWith('@')) {
      return { kind: 'enum', name: binding.type || this.#enumOfValue.get(binding.value) || '' };
    }
    return { kind: 'object', name: binding.type || this.#typeOfObject.get(binding.value) || '' };
  }

  /** Makes if/switch alternatives agree: numbers of different kinds become numbers (int, or real if any). */
  private joinBranches(codes: Code[]): Code[] {
    const kinds = new Set(codes.map((c) => c.type.kind));
    if (kinds.size <= 1) return codes;
    const numeric = [...kinds].every((k) => k === 'bool' || k === 'int' || k === 'real');
    if (!numeric) return codes;
    const type = kinds.has('real') ? REAL : INT;
    return codes.map((c) => ({ ...this.asNumber(c), type }));
  }

  // ---------------------------------------------------------------- fluents

  private layoutOf(ref: PvarRef): FluentLayout {
    const layout = this.grounded.layouts.get(canonicalFluentName(ref.name));
    if (!layout) throw new CompileError(`unknown fluent '${ref.name}'`, ref.nameLoc);
    return layout;
  }

  private defaultCode(info: PvarInfo): Code {
    if (!info.default) throw new CompileError(`'${info.name}' has no default value`, info.decl.nameLoc);
    const d = info.default;
    switch (d.kind) {
      case 'bool':
        return constant(d.value, BOOL);
      case 'int':
        return constant(d.value, INT);
      case 'real':
        return constant(d.value, REAL);
      case 'enum':
      case 'object':
        return constant(this.grounded.symbols.id(d.value), info.range);
      case 'struct':
        throw new CompileError(`not yet supported in simulation: vector values`, info.decl.loc);
    }
  }

  /**
   * A fluent read. A vector-valued fluent is read one leaf at a time: the accesses written after the fluent
   * (`v(?x).@a`, `v.@pos.@x`), followed by `path`, the leaf's path below them (given by `compileMember`).
   */
  private compilePvar(ref: PvarRef, env: Env, path?: string): Code {
    const layout = this.layoutOf(ref);
    const info = layout.info;
    if (ref.isDefault) return this.defaultCode(info);
    const vector = layout.vector;
    if (ref.members && !vector)
      throw new CompileError(`'${info.name}' is not a vector: it has no members`, ref.loc);
    let member: Term | undefined;
    if (vector && (path !== undefined || (ref.members?.length ?? 0) > 1 || vector.labels[0]!.includes('.'))) {
      // A leaf of a nested vector: its path must be known before running.
      const labels = (ref.members ?? []).map((m) => memberLabel(m, env));
      const unknown = labels.indexOf(undefined);
      if (unknown >= 0) {
        throw new CompileError(
          `not yet supported in simulation: a computed member of a vector of vectors`,
          ref.members![unknown]!.loc,
        );
      }
      const full = memberPath([...(labels as string[]), ...(path ? [path] : [])]);
      // The member positions are the last parameter's (a map, so long vectors compile in linear time).
      if (!layout.paramPositions.at(-1)!.has(full)) {
        const under = full === '' ? undefined : leavesUnder(vector, full);
        throw new CompileError(
          under
            ? `'${info.name}.${full}' is a vector: read one member (${info.name}(...).${full}.${under.relative[0]})`
            : full === ''
              ? `'${info.name}' is a vector: read one member (${info.name}(...).${vector.labels[0]}), or assign it whole to another vector fluent`
              : `${full} is not a member of ${vector.typeName} (${vector.labels.join(', ')})`,
          ref.members?.at(-1)?.loc ?? ref.loc,
        );
      }
      member = full.startsWith('@')
        ? { kind: 'enum', value: full, loc: ref.loc }
        : { kind: 'object', name: full, loc: ref.loc };
    } else if (ref.members) {
      member = ref.members[0];
    }
    if (info.range.kind === 'struct' && !vector)
      throw new CompileError(`not yet supported in simulation: vector-valued fluents`, ref.loc);
    if (vector && !member) {
      throw new CompileError(
        `'${info.name}' is a vector: read one member (${info.name}(...).${vector.labels[0]}), or assign it whole to another vector fluent`,
        ref.loc,
      );
    }
    const args = member ? [...ref.args, member] : ref.args;
    let type = info.range;
    if (vector) {
      const known = memberLabel(member!, env);
      const m = known === undefined ? -1 : vector.labels.indexOf(known);
      if (known !== undefined && m < 0) {
        throw new CompileError(
          `${known} is not a member of ${vector.typeName} (${vector.labels.join(', ')})`,
          member!.loc,
        );
      }
      if (m < 0 && vector.types.some((t) => !sameType(t, vector.types[0]!))) {
        throw new CompileError(
          `not yet supported in simulation: a computed member of a vector whose members differ in type`,
          member!.loc,
        );
      }
      type = vector.types[Math.max(m, 0)]!;
    }
    let index = layout.offset;
    const dynamic: { code: Code; param: number }[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      const position = this.argumentPosition(arg, layout, i, env);
      if (typeof position === 'number') {
        // rddlsim looks the grounding up by its arguments; a value outside the parameter's type finds
        // nothing and reads as the default.
        if (position < 0) return this.defaultCode(info);
        index += position * layout.strides[i]!;
      } else {
        dynamic.push({ code: position, param: i });
      }
    }
    if (dynamic.length > 0) return this.dynamicRead(ref, layout, index, dynamic, type);
    return this.readAt(ref, layout, index, type);
  }

  /** A static position, or the code of a nested fluent giving a symbol at run time. */
  private argumentPosition(arg: ArgTerm, layout: FluentLayout, param: number, env: Env): number | Code {
    switch (arg.kind) {
      case 'variable': {
        const binding = env.get(arg.name);
        if (!binding) throw new CompileError(`unknown variable ${arg.name}`, arg.loc);
        if (binding.runtime) return this.runtimeVariable(arg.name, binding, arg.loc);
        return layout.paramPositions[param]!.get(binding.value) ?? -1;
      }
      case 'enum':
        return layout.paramPositions[param]!.get(arg.value) ?? -1;
      case 'object': {
        const position = layout.paramPositions[param]!.get(arg.name) ?? -1;
        if (position < 0) {
          throw new CompileError(
            param < layout.info.params.length
              ? `'${arg.name}' is not an object of type ${layout.info.params[param]}`
              : `'${arg.name}' is not a member of ${layout.vector?.typeName}`,
            arg.loc,
          );
        }
        return position;
      }
      case 'pvar': {
        const code = this.compilePvar(arg, env);
        if (code.value !== undefined)
          return layout.paramPositions[param]!.get(this.grounded.symbols.name(code.value as number)) ?? -1;
        return code;
      }
      case 'expr': {
        // pyRDDLGym's argmax_/argmin_/Discrete_ as an argument: a symbol at run time, as a nested fluent.
        const code = this.compile(arg.expr, env);
        if (code.value !== undefined)
          return layout.paramPositions[param]!.get(this.grounded.symbols.name(code.value as number)) ?? -1;
        return code;
      }
    }
  }

  private readAt(ref: PvarRef, layout: FluentLayout, index: number, type: ValueType): Code {
    const info = layout.info;
    const read = (array: string): Code =>
      type.kind === 'bool'
        ? { js: `(${array}[${index}] === 1)`, type, random: false, asStored: `${array}[${index}]` }
        : { js: `${array}[${index}]`, type, random: false };
    switch (layout.store) {
      case 'nonfluent': {
        const raw = this.grounded.nonFluentValues.get(layout, index);
        return constant(type.kind === 'bool' ? raw !== 0 : raw, type);
      }
      case 'state':
        if (ref.primed) {
          const computed = this.#site.computedState;
          if (computed && computed[index] !== 1) return this.defaultCode(info);
          return read('ns');
        }
        return read('s');
      case 'action':
        return read('a');
      case 'interm':
        this.#site.intermReads?.add(index);
        return read('im');
      case 'observ':
        return read('ob');
    }
  }

  /** A fluent read whose arguments come from nested fluents: positions are looked up at run time. */
  private dynamicRead(
    ref: PvarRef,
    layout: FluentLayout,
    staticIndex: number,
    dynamic: { code: Code; param: number }[],
    type: ValueType,
  ): Code {
    const info = layout.info;
    let array: string;
    switch (layout.store) {
      case 'nonfluent':
        array = this.denseNonFluent(layout, ref.loc);
        break;
      case 'state':
        array = ref.primed ? 'ns' : 's';
        break;
      case 'action':
        array = 'a';
        break;
      case 'interm':
        for (let i = 0; i < layout.count; i++) this.#site.intermReads?.add(layout.offset + i);
        array = 'im';
        break;
      case 'observ':
        array = 'ob';
        break;
    }
    // A computed argument or member outside its type names no slot of a vector: an error (rddlsim fails).
    const fallback = layout.vector
      ? `fail(${JSON.stringify(`this reads no member of '${info.name}': an argument or the member is outside its type`)}, ${this.module.location(ref.loc)})`
      : this.asNumber(this.defaultCode(info)).js;
    const name = this.module.name('r');
    const params = dynamic.map((_, i) => `i${i}`);
    const lines = dynamic.map(({ param }, i) => {
      const table = this.posTableName(this.paramType(layout, param, ref.loc));
      return `  const p${i} = ${table}[i${i}]; if (!(p${i} >= 0)) return ${fallback};`;
    });
    const offset = [
      String(staticIndex),
      ...dynamic.map(({ param }, i) => `p${i} * ${layout.strides[param]}`),
    ].join(' + ');
    this.module.addFunction(
      `function ${name}(X, ${params.join(', ')}) {\n${lines.join('\n')}\n  return X[${offset}];\n}`,
    );
    const call = `${name}(${array}, ${dynamic.map((d) => d.code.js).join(', ')})`;
    return {
      js: type.kind === 'bool' ? `(${call} === 1)` : call,
      type,
      random: dynamic.some((d) => d.code.random),
    };
  }

  /** The type a parameter ranges over; a vector's members are the values of its index type. */
  private paramType(layout: FluentLayout, param: number, loc: SourceLocation): string {
    if (param < layout.info.params.length) return layout.info.params[param]!;
    const decl = this.grounded.domain.types.get(layout.vector?.typeName ?? '')?.decl;
    if (decl?.kind === 'struct' && decl.indexType !== undefined) return decl.indexType;
    throw new CompileError(
      `not yet supported in simulation: a computed member of a vector with named members`,
      loc,
    );
  }

  private posTableName(type: string): string {
    const index = this.posTables.get(type);
    if (index === undefined) throw new Error(`no position table for ${type}`);
    return `POS[${index}]`;
  }

  /** A dense copy of a non-fluent, only for fluents read with run-time arguments. */
  private denseNonFluent(layout: FluentLayout, loc: SourceLocation): string {
    let name = this.#dense.get(layout.info.canonical);
    if (name) return name;
    if (layout.count > 5_000_000) {
      throw new CompileError(
        `'${layout.info.name}' is read with computed arguments, which needs all its ${layout.count.toLocaleString('en-US')} values in memory: too many`,
        loc,
      );
    }
    const values = new Float64Array(layout.count + layout.offset);
    for (let i = 0; i < layout.count; i++)
      values[layout.offset + i] = this.grounded.nonFluentValues.get(layout, layout.offset + i);
    name = this.module.table(values);
    this.#dense.set(layout.info.canonical, name);
    return name;
  }

  // ---------------------------------------------------------------- operators

  private compileBinary(expr: Extract<Expr, { kind: 'binary' }>, env: Env): Code {
    switch (expr.op) {
      case '^':
      case '|':
        return this.connective(
          expr.op,
          flatten(expr, expr.op).map((e) => () => this.compile(e, env)),
        );
      case '=>': {
        const left = this.compile(expr.left, env);
        const right = this.compile(expr.right, env);
        return this.implies(left, right);
      }
      case '<=>': {
        const left = this.compile(expr.left, env);
        const right = this.compile(expr.right, env);
        if (left.value !== undefined && right.value !== undefined)
          return constant(left.value === right.value, BOOL);
        return { js: `(${left.js} === ${right.js})`, type: BOOL, random: left.random || right.random };
      }
      case '==':
      case '~=':
        if (this.vectorLabels(expr.left) || this.vectorLabels(expr.right))
          return this.vectorEquality(expr, env);
        return this.compare(expr.op, this.compile(expr.left, env), this.compile(expr.right, env));
      case '<':
      case '<=':
      case '>':
      case '>=':
        return this.compare(expr.op, this.compile(expr.left, env), this.compile(expr.right, env));
      case '+':
      case '-':
      case '*':
      case '/':
        return this.arithmetic(expr.op, this.compile(expr.left, env), this.compile(expr.right, env));
    }
  }

  /**
   * `^` and `|` over operands compiled lazily (an operand after a deciding constant is never compiled,
   * as rddlsim never evaluates it). Constants are folded only when no random draw precedes them.
   */
  private connective(op: '^' | '|', operands: (() => Code)[]): Code {
    const decisive = op === '|';
    const kept: Code[] = [];
    for (const make of operands) {
      const code = make();
      if (code.value !== undefined) {
        if (code.value !== decisive) continue;
        if (kept.every((k) => !k.random)) return constant(decisive, BOOL);
        kept.push(code);
        break;
      }
      kept.push(code);
    }
    if (kept.length === 0) return constant(!decisive, BOOL);
    const random = kept.some((k) => k.random);
    // With quirks, even a lone random operand (the others folded away) is evaluated twice.
    if (kept.length === 1 && !(this.quirks && random)) return kept[0]!;
    const jsOp = op === '^' ? ' && ' : ' || ';
    const joined = `(${kept.map((k) => k.js).join(jsOp)})`;
    if (this.quirks && random) {
      // rddlsim first evaluates the operands looking for a deciding value, then evaluates them all again.
      return {
        js: `(${joined} ? ${op === '^' ? joined : 'true'} : ${op === '^' ? 'false' : joined})`,
        type: BOOL,
        random,
      };
    }
    return { js: joined, type: BOOL, random };
  }

  private implies(left: Code, right: Code): Code {
    const random = left.random || right.random;
    if (this.quirks && random) {
      // rddlsim evaluates both sides once looking for `false => ?` or `? => true`, then again.
      return {
        js: `(or2(!${left.js}, ${right.js}) ? true : (!${left.js} || ${right.js}))`,
        type: BOOL,
        random,
      };
    }
    if (left.value === false || right.value === true) {
      if (!random) return constant(true, BOOL);
    }
    if (left.value === true) return right;
    if (right.value === false) return { js: `!${left.js}`, type: BOOL, random };
    return { js: `(!${left.js} || ${right.js})`, type: BOOL, random };
  }

  private compare(op: string, left: Code, right: Code): Code {
    const symbolic = (c: Code) => c.type.kind === 'enum' || c.type.kind === 'object';
    const jsOp = op === '==' ? '===' : op === '~=' ? '!==' : op;
    if (symbolic(left) || symbolic(right)) {
      if (left.value !== undefined && right.value !== undefined) {
        return constant(op === '==' ? left.value === right.value : left.value !== right.value, BOOL);
      }
      return { js: `(${left.js} ${jsOp} ${right.js})`, type: BOOL, random: left.random || right.random };
    }
    if (left.type.kind === 'bool' && right.type.kind === 'bool' && (op === '==' || op === '~=')) {
      if (left.value !== undefined && right.value !== undefined) {
        return constant(op === '==' ? left.value === right.value : left.value !== right.value, BOOL);
      }
      return { js: `(${left.js} ${jsOp} ${right.js})`, type: BOOL, random: left.random || right.random };
    }
    const a = this.asNumber(left);
    const b = this.asNumber(right);
    if (a.value !== undefined && b.value !== undefined) {
      const x = a.value as number;
      const y = b.value as number;
      const result =
        op === '=='
          ? x === y
          : op === '~='
            ? x !== y
            : op === '<'
              ? x < y
              : op === '<='
                ? x <= y
                : op === '>'
                  ? x > y
                  : x >= y;
      return constant(result, BOOL);
    }
    return { js: `(${a.js} ${jsOp} ${b.js})`, type: BOOL, random: a.random || b.random };
  }

  /** `+ - * /` with rddlsim's typing: int op int is a 32-bit int (except `/`), anything with a real is real. */
  arithmetic(op: '+' | '-' | '*' | '/', left: Code, right: Code): Code {
    const type = arithmeticType(left.type, right.type, op);
    if (op === '*' && this.quirks) return this.quirkTimes(left, right, type);
    const a = this.asNumber(left);
    const b = this.asNumber(right);
    const random = a.random || b.random;
    if (a.value !== undefined && b.value !== undefined)
      return constant(applyArithmetic(op, a.value as number, b.value as number, type), type);
    if (type.kind === 'int') {
      if (op === '*') return { js: `Math.imul(${a.js}, ${b.js})`, type, random };
      return { js: `((${a.js} ${op} ${b.js}) | 0)`, type, random };
    }
    return { js: `(${a.js} ${op} ${b.js})`, type, random };
  }

  /**
   * rddlsim's `*`: it evaluates the left operand and returns it if it is zero (0, 0.0 or false, unconverted),
   * then the same for the right one, and only then evaluates both again and multiplies.
   */
  private quirkTimes(left: Code, right: Code, type: ValueType): Code {
    if (left.value !== undefined && isZeroValue(left.value)) return left;
    if (left.value !== undefined && right.value !== undefined) {
      if (isZeroValue(right.value)) return right;
      const a = this.asNumber(left).value as number;
      const b = this.asNumber(right).value as number;
      return constant(applyArithmetic('*', a, b, type), type);
    }
    const numeric = (c: Code) => (c.type.kind === 'enum' ? this.asNumber(c) : c);
    const a = numeric(left);
    const b = numeric(right);
    const mayBeBool = left.type.kind === 'bool' || right.type.kind === 'bool' || a.mayBeBool || b.mayBeBool;
    const mul = type.kind === 'int' ? 'qmuli' : 'qmul';
    if (!a.random && !b.random) return { js: `${mul}(${a.js}, ${b.js})`, type, random: false, mayBeBool };
    const t1 = this.temp();
    const t2 = this.temp();
    const product = type.kind === 'int' ? `Math.imul(+${a.js}, +${b.js})` : `((+${a.js}) * (+${b.js}))`;
    return {
      js: `(((${t1} = ${a.js}) === 0 || ${t1} === false) ? ${t1} : ((${t2} = ${b.js}) === 0 || ${t2} === false) ? ${t2} : ${product})`,
      type,
      random: true,
      mayBeBool,
    };
  }

  // ---------------------------------------------------------------- quantifiers and aggregations

  /** Every binding of the variables, first variable outermost (rddlsim's order). */
  private bindings(variables: TypedVariable[], env: Env, loc: SourceLocation): Env[] {
    const lists = variables.map((v) => {
      const values = this.grounded.typeValues.get(v.type);
      if (!values) throw new CompileError(`unknown type '${v.type}'`, v.typeLoc);
      return values.map((value) => this.binding(value, v.type));
    });
    const total = lists.reduce((n, l) => n * l.length, 1);
    if (total > MAX_UNROLL) {
      throw new CompileError(
        `too big to simulate: this ranges over ${total.toLocaleString('en-US')} combinations of ${variables.map((v) => v.name).join(', ')}`,
        loc,
      );
    }
    let envs: Map<string, Binding>[] = [new Map(env)];
    variables.forEach((variable, i) => {
      const next: Map<string, Binding>[] = [];
      for (const e of envs) {
        for (const binding of lists[i]!) {
          const extended = new Map(e);
          extended.set(variable.name, binding);
          next.push(extended);
        }
      }
      envs = next;
    });
    return envs;
  }

  /**
   * rddlsim keeps all variable bindings of an evaluation in one map. A nested quantifier or aggregation
   * that re-binds a variable removes it from the map when it finishes, which erases the outer binding;
   * a quantifier that stops early on a random body leaves its own last binding instead. Later reads of
   * the variable in the enclosing expression see that (or fail). Emulated only with quirks on.
   */
  private compileShadowing(
    expr: Extract<Expr, { kind: 'quantifier' | 'aggregation' }>,
    env: Env,
    compileNormally: () => Code,
  ): Code {
    const shadowed = expr.variables.filter((v) => env.has(v.name)).map((v) => env.get(v.name)!);
    const names = expr.variables.filter((v) => env.has(v.name)).map((v) => v.name);
    const temps = shadowed.map(() => this.temp());
    const unbind = temps.map((t) => `${t} = -1`).join(', ');
    let code: Code;
    if (expr.kind === 'quantifier') {
      const envs = this.bindings(expr.variables, env, expr.loc);
      const terms = envs.map((e) => this.compile(expr.body, e));
      const random = terms.some((t) => t.random);
      const forall = expr.quantifier === 'forall';
      if (random) {
        const op = forall ? ' && ' : ' || ';
        const assign = (e: Env) => names.map((name, k) => `${temps[k]} = ${e.get(name)!.symbol}`).join(', ');
        const chain = terms.map((t, i) => `(${assign(envs[i]!)}, ${t.js})`).join(op);
        code = { js: `(${chain}${op}(${unbind}, ${forall}))`, type: BOOL, random };
      } else {
        const result = this.temp();
        const inner = compileNormally();
        code = { ...inner, js: `((${result} = ${inner.js}), ${unbind}, ${result})` };
      }
    } else {
      const result = this.temp();
      const inner = compileNormally();
      code = { ...inner, js: `((${result} = ${inner.js}), ${unbind}, ${result})`, value: undefined };
    }
    shadowed.forEach((binding, k) => {
      binding.runtime = temps[k];
    });
    return code;
  }

  private compileQuantifier(
    expr: Extract<Expr, { kind: 'quantifier' }>,
    env: Env,
    shadowingDone = false,
  ): Code {
    if (this.quirks && !shadowingDone && expr.variables.some((v) => env.has(v.name))) {
      return this.compileShadowing(expr, env, () => this.compileQuantifier(expr, env, true));
    }
    const forall = expr.quantifier === 'forall';
    const guarded = this.guardedBindings(expr.variables, expr.body, env, forall ? 'forall' : 'exists');
    const envs = guarded?.envs ?? this.bindings(expr.variables, env, expr.loc);
    const body = guarded?.body ?? expr.body;
    const decisive = !forall;
    const terms: Code[] = [];
    for (const e of envs) {
      const code = this.compile(body, e);
      if (code.value !== undefined) {
        if (code.value !== decisive) continue;
        if (terms.every((t) => !t.random)) return constant(decisive, BOOL);
        terms.push(code);
        break;
      }
      terms.push(code);
    }
    if (terms.length === 0) return constant(!decisive, BOOL);
    if (terms.length === 1) return terms[0]!;
    const random = terms.some((t) => t.random);
    if (terms.length <= INLINE_TERMS) {
      return { js: `(${terms.map((t) => t.js).join(forall ? ' && ' : ' || ')})`, type: BOOL, random };
    }
    const statements = terms.map((t) => `if (${forall ? '!' : ''}${t.js}) return ${decisive};`);
    return { js: this.helperChain(statements, `return ${!decisive};`, 'q'), type: BOOL, random };
  }

  private compileAggregation(
    expr: Extract<Expr, { kind: 'aggregation' }>,
    env: Env,
    shadowingDone = false,
  ): Code {
    if (this.quirks && !shadowingDone && expr.variables.some((v) => env.has(v.name))) {
      return this.compileShadowing(expr, env, () => this.compileAggregation(expr, env, true));
    }
    const op = expr.op;
    if (op === 'argmin' || op === 'argmax') return this.compileArgExtreme(expr, env, op);
    if (op === 'det') return this.compileDet(expr, env);
    if (op === 'avg') return this.compileAverage(expr, env);
    if (op !== 'sum' && op !== 'prod' && op !== 'min' && op !== 'max') {
      throw new CompileError(`unknown aggregation '${op}' (use sum, prod, min or max)`, expr.opLoc);
    }
    const total = expr.variables.reduce((n, v) => n * (this.grounded.typeValues.get(v.type)?.length ?? 0), 1);
    const guarded =
      op === 'sum' && total > 1 ? this.guardedBindings(expr.variables, expr.body, env, 'sum') : undefined;
    const envs = guarded?.envs ?? this.bindings(expr.variables, env, expr.loc);
    const body = guarded?.body ?? expr.body;
    if (total === 0) {
      if (op === 'sum') return constant(0, INT);
      if (op === 'prod') return constant(1, INT);
      throw new CompileError(`${op} over no objects has no value`, expr.loc);
    }
    const terms = envs.map((e) => this.compile(body, e));
    if (total === 1) {
      // rddlsim starts from the first value unconverted, so one binding gives that value as it is.
      const single = terms[0]!;
      if (this.quirks || single.type.kind !== 'bool') return single;
      return { ...this.asNumber(single), type: INT };
    }
    let type: ValueType = terms.length ? terms[0]!.type : INT;
    for (const t of terms.slice(1))
      type =
        op === 'min' || op === 'max'
          ? minMaxType(type, t.type)
          : arithmeticType(type, t.type, op === 'sum' ? '+' : '*');
    if (guarded && type.kind === 'bool') type = INT;
    if (terms.length === 1 && guarded) return { ...this.asNumber(terms[0]!), type };
    if (type.kind === 'bool') type = INT;
    const numbers = terms.map((t) => this.asNumber(t));
    const random = numbers.some((t) => t.random);
    let dropped = guarded !== undefined && numbers.length < total;
    if (op === 'prod' && !random && numbers.some((t) => t.value !== undefined && t.value === 0)) {
      return constant(0, type);
    }
    let kept = numbers;
    if (op === 'sum') {
      kept = numbers.filter((t) => !(t.value === 0 && !Object.is(t.value, -0)));
      dropped ||= kept.length < numbers.length;
    }
    if (kept.length === 0) return constant(0, type);
    const int = type.kind === 'int';
    // Constants at the front are combined now: folding a prefix keeps the left-to-right order exactly.
    let prefix = 0;
    while (prefix < kept.length && kept[prefix]!.value !== undefined) prefix++;
    if (prefix > 1) {
      let folded = kept[0]!.value as number;
      for (let i = 1; i < prefix; i++) folded = combineValues(op, folded, kept[i]!.value as number, int);
      kept = [constant(folded, type), ...kept.slice(prefix)];
    }
    if (kept.length === 1 && kept[0]!.value !== undefined) {
      const value = kept[0]!.value as number;
      return constant(tail(dropped, int, op) ? value + 0 : value, type);
    }
    const combine = (acc: string, term: string): string => {
      switch (op) {
        case 'sum':
          return int ? `((${acc} + ${term}) | 0)` : `(${acc} + ${term})`;
        case 'prod':
          return int ? `Math.imul(${acc}, ${term})` : `(${acc} * ${term})`;
        default:
          return `Math.${op}(${acc}, ${term})`;
      }
    };
    // Folding constants together would change floating-point rounding, so constants stay in place.
    // A dropped +0 still turns a -0 total into +0, as rddlsim's addition of it would.
    const plusZero = tail(dropped, int, op) ? ' + 0' : '';
    if (kept.length <= INLINE_TERMS) {
      const js = kept.slice(1).reduce((acc, t) => combine(acc, t.js), kept[0]!.js);
      return { js: plusZero ? `(${js}${plusZero})` : js, type, random };
    }
    const statements = kept.slice(1).map((t) => `r = ${combine('r', t.js)};`);
    return { js: this.helperChain(statements, `return r${plusZero};`, 'g', kept[0]!.js), type, random };
  }

  /** pyRDDLGym's avg: the sum over every binding divided by how many there are, a real. */
  private compileAverage(expr: Extract<Expr, { kind: 'aggregation' }>, env: Env): Code {
    const total = expr.variables.reduce((n, v) => n * (this.grounded.typeValues.get(v.type)?.length ?? 0), 1);
    if (total === 0) throw new CompileError(`avg over no objects has no value`, expr.loc);
    const sum = this.asNumber(this.compileAggregation({ ...expr, op: 'sum' }, env, true));
    if (sum.value !== undefined) return constant((sum.value as number) / total, REAL);
    return { js: `((${sum.js}) / ${total})`, type: REAL, random: sum.random };
  }

  /**
   * pyRDDLGym's argmin/argmax over one variable: the first value (in the type's order) whose term is
   * strictly the smallest/largest. Constant terms are decided now; otherwise one helper function compares
   * the terms in order.
   */
  private compileArgExtreme(
    expr: Extract<Expr, { kind: 'aggregation' }>,
    env: Env,
    op: 'argmin' | 'argmax',
  ): Code {
    const variable = expr.variables[0]!;
    const envs = this.bindings([variable], env, expr.loc);
    if (envs.length === 0) throw new CompileError(`${op} over no values has no value`, expr.loc);
    const reference: Expr = { kind: 'variable', name: variable.name, loc: variable.loc };
    const values = envs.map((e) => this.compile(reference, e));
    const terms = envs.map((e) => this.asNumber(this.compile(expr.body, e)));
    const type = values[0]!.type;
    const better = op === 'argmin' ? (a: number, b: number) => a < b : (a: number, b: number) => a > b;
    if (terms.every((t) => t.value !== undefined)) {
      let best = 0;
      terms.forEach((t, i) => {
        if (better(t.value as number, terms[best]!.value as number)) best = i;
      });
      return values[best]!;
    }
    const comparison = op === 'argmin' ? '<' : '>';
    const statements = [
      `let b = ${terms[0]!.js}, r = ${values[0]!.js}, x;`,
      ...terms
        .slice(1)
        .map((t, i) => `x = ${t.js}; if (x ${comparison} b) { b = x; r = ${values[i + 1]!.js}; }`),
    ];
    const temps = this.#temps;
    const declare =
      temps > 0 ? `  let ${Array.from({ length: temps }, (_, i) => `t${i}`).join(', ')};\n` : '';
    const name = this.module.name('m');
    this.module.addFunction(
      `function ${name}(${ARRAY_PARAMS}) {\n${declare}  ${statements.join('\n  ')}\n  return r;\n}`,
    );
    return { js: `${name}(${ARRAY_PARAMS})`, type, random: terms.some((t) => t.random) };
  }

  /**
   * Emits statements into helper functions of bounded size (large functions are not optimised by the
   * engine): each helper runs its share and hands the accumulator `r` on. Returns the call expression.
   */
  private helperChain(statements: string[], ending: string, prefix: string, initial?: string): string {
    statements = rollStatements(statements, (values) => this.module.table(values));
    const temps = this.#temps;
    const declare =
      temps > 0 ? `  let ${Array.from({ length: temps }, (_, i) => `t${i}`).join(', ')};\n` : '';
    const chunks: string[][] = [];
    for (let i = 0; i < statements.length; i += STATEMENTS_PER_HELPER)
      chunks.push(statements.slice(i, i + STATEMENTS_PER_HELPER));
    const accumulating = initial !== undefined;
    let call = '';
    chunks.forEach((chunk, i) => {
      const name = this.module.name(prefix);
      const last = i === chunks.length - 1;
      const params = accumulating ? `${ARRAY_PARAMS}, r` : ARRAY_PARAMS;
      const end = last ? ending : accumulating ? 'return r;' : 'return undefined;';
      this.module.addFunction(
        `function ${name}(${params}) {\n${declare}  ${chunk.join('\n  ')}\n  ${end}\n}`,
      );
      const args = accumulating ? `${ARRAY_PARAMS}, ${i === 0 ? initial : call}` : ARRAY_PARAMS;
      if (accumulating) {
        call = `${name}(${args})`;
      } else {
        // Early-exit chains: a chunk returns undefined to continue with the next one.
        call = i === 0 ? `${name}(${args})` : `(${call} ?? ${name}(${args}))`;
      }
    });
    return call;
  }

  /**
   * The sparse-guard shortcut. For `sum`/`exists` whose body is `G` or `G ^ ...`, and `forall`
   * whose body is `G => ...`, where G is a boolean non-fluent that is false by default and mentions every
   * quantified variable: only bindings where G is true can contribute, so only those are visited (in the
   * same order). Returns undefined when the shortcut does not apply.
   */
  private guardedBindings(
    variables: TypedVariable[],
    body: Expr,
    env: Env,
    mode: 'sum' | 'exists' | 'forall',
  ): { envs: Env[]; body: Expr } | undefined {
    const guard = findGuard(body, mode);
    if (!guard) return undefined;
    const layout = this.grounded.layouts.get(canonicalFluentName(guard.name));
    if (!layout || layout.store !== 'nonfluent' || layout.info.range.kind !== 'bool' || guard.primed)
      return undefined;
    if (layout.info.default?.kind !== 'bool' || layout.info.default.value) return undefined;
    const names = variables.map((v) => v.name);
    if (new Set(names).size !== names.length) return undefined;
    const covered = new Set(
      guard.args
        .filter((a) => a.kind === 'variable' && names.includes(a.name))
        .map((a) => (a as { name: string }).name),
    );
    if (covered.size !== names.length) return undefined;
    if (guard.args.some((a) => a.kind === 'pvar' || a.kind === 'expr')) return undefined;
    // Pattern: each argument is fixed (outer variable or constant) or one of the quantified variables.
    const fixed: string[] = [];
    const freeParams: number[] = [];
    for (let i = 0; i < guard.args.length; i++) {
      const arg = guard.args[i]!;
      if (arg.kind === 'variable' && names.includes(arg.name)) {
        freeParams.push(i);
        fixed.push('*');
      } else if (arg.kind === 'variable') {
        const binding = env.get(arg.name);
        if (!binding) return undefined;
        fixed.push(binding.value);
      } else if (arg.kind === 'enum') {
        fixed.push(arg.value);
      } else if (arg.kind === 'object') {
        fixed.push(arg.name);
      }
    }
    const tuples = this.trueGroundings(layout, fixed);
    const envs: { env: Env; order: number[] }[] = [];
    for (const tuple of tuples) {
      // tuple: values of the guard's free parameters; map back to the quantified variables.
      const assignment = new Map<string, string>();
      let consistent = true;
      freeParams.forEach((param, k) => {
        const name = (guard.args[param] as { name: string }).name;
        const value = tuple[k]!;
        const previous = assignment.get(name);
        if (previous !== undefined && previous !== value) consistent = false;
        assignment.set(name, value);
      });
      if (!consistent) continue;
      const order: number[] = [];
      const extended = new Map(env);
      for (let i = 0; i < variables.length; i++) {
        const value = assignment.get(variables[i]!.name)!;
        const position = this.positionIn(variables[i]!.type, value);
        if (position < 0) {
          consistent = false;
          break;
        }
        order.push(position);
        extended.set(variables[i]!.name, this.binding(value, variables[i]!.type));
      }
      if (consistent) envs.push({ env: extended, order });
    }
    envs.sort((x, y) => {
      for (let i = 0; i < x.order.length; i++)
        if (x.order[i] !== y.order[i]) return x.order[i]! - y.order[i]!;
      return 0;
    });
    return { envs: envs.map((e) => e.env), body };
  }

  /** Position of a value in its type's list, -1 if it is not one of them. */
  private positionIn(type: string, value: string): number {
    let positions = this.#positions.get(type);
    if (!positions) {
      positions = new Map((this.grounded.typeValues.get(type) ?? []).map((v, i) => [v, i]));
      this.#positions.set(type, positions);
    }
    return positions.get(value) ?? -1;
  }

  /** True groundings of a boolean non-fluent matching a pattern ('*' = free), as tuples of the free values. */
  private trueGroundings(layout: FluentLayout, pattern: string[]): string[][] {
    const shape = pattern.map((p) => (p === '*' ? '*' : '=')).join('');
    const cacheKey = `${layout.info.canonical}|${shape}`;
    let index = this.#guardIndexes.get(cacheKey);
    if (!index) {
      index = new Map();
      for (const { args } of this.grounded.nonFluentValues.trueGroundings(layout)) {
        const fixedKey = pattern.map((p, i) => (p === '*' ? '' : args[i])).join('\u0000');
        let list = index.get(fixedKey);
        if (!list) index.set(fixedKey, (list = []));
        list.push(pattern.flatMap((p, i) => (p === '*' ? [args[i]!] : [])));
      }
      this.#guardIndexes.set(cacheKey, index);
    }
    return index.get(pattern.map((p) => (p === '*' ? '' : p)).join('\u0000')) ?? [];
  }

  // ---------------------------------------------------------------- switch, functions, distributions

  private compileSwitch(expr: Extract<Expr, { kind: 'switch' }>, env: Env): Code {
    const subject = this.compile(expr.subject, env);
    if (subject.type.kind !== 'enum' && subject.type.kind !== 'object') {
      throw new CompileError(
        `switch needs an enum or object value, not ${describeType(subject.type)}`,
        expr.subject.loc,
      );
    }
    // rddlsim takes `default` as soon as it reaches it; the language means it as the fallback.
    const cases = this.quirks
      ? expr.cases
      : [...expr.cases.filter((c) => c.value), ...expr.cases.filter((c) => !c.value)];
    const loc = this.module.location(expr.loc);
    const arms: { test?: Code; body: () => Code }[] = cases.map((c) => ({
      test: c.value ? this.compile(c.value, env) : undefined,
      body: () => this.compile(c.body, env),
    }));
    if (subject.value !== undefined && arms.every((arm) => !arm.test || arm.test.value !== undefined)) {
      const chosen = arms.find((arm) => !arm.test || arm.test.value === subject.value);
      if (!chosen) {
        throw new CompileError(
          `switch has no case for ${this.grounded.symbols.name(subject.value as number)} and no default`,
          expr.loc,
        );
      }
      return chosen.body();
    }
    const t = this.temp();
    const bodies = this.joinBranches(arms.map((arm) => arm.body()));
    let js = `fail("switch has no case for this value", ${loc})`;
    for (let i = arms.length - 1; i >= 0; i--) {
      const test = arms[i]!.test;
      js = test ? `(${t} === ${test.js} ? ${bodies[i]!.js} : ${js})` : bodies[i]!.js;
    }
    return {
      js: `((${t} = ${subject.js}), ${js})`,
      type: bodies[0]?.type ?? INT,
      random: subject.random || bodies.some((b) => b.random),
      mayBeBool: bodies.some((b) => b.mayBeBool),
    };
  }

  // ---------------------------------------------------------------- pyRDDLGym's matrix operations

  /**
   * The entries of a matrix into a new table, row-major: `body` with `row` bound to each value of `rows`
   * and `col` to each of `cols`. Returns the table's name, the code filling it and whether it draws.
   */
  private matrixEntries(
    body: Expr,
    env: Env,
    row: { name: string; type: string; values: readonly string[] },
    col: { name: string; type: string; values: readonly string[] },
  ): { table: string; fill: string[]; random: boolean; values?: Float64Array } {
    const n1 = row.values.length;
    const n2 = col.values.length;
    if (n1 * n2 > MAX_UNROLL) {
      throw new CompileError(
        `too big to simulate: this matrix has ${(n1 * n2).toLocaleString('en-US')} entries`,
        body.loc,
      );
    }
    const values = new Float64Array(n1 * n2);
    const table = this.module.table(values);
    const fill: string[] = [];
    let random = false;
    let constant = true;
    row.values.forEach((r, i) => {
      col.values.forEach((c, j) => {
        const inner = new Map(env);
        inner.set(row.name, this.binding(r, row.type));
        inner.set(col.name, this.binding(c, col.type));
        const entry = this.asNumber(this.compile(body, inner));
        random ||= entry.random;
        if (entry.value !== undefined) values[i * n2 + j] = entry.value as number;
        else {
          constant = false;
          fill.push(`${table}[${i * n2 + j}] = ${entry.js}`);
        }
      });
    });
    return { table, fill, random, ...(constant ? { values } : {}) };
  }

  /** A located error unless the matrix is square. */
  private requireSquare(
    what: string,
    rows: string,
    n1: number,
    cols: string,
    n2: number,
    loc: SourceLocation,
  ) {
    if (n1 !== n2) {
      throw new CompileError(
        `${what} needs a square matrix, but ${rows} has ${n1} values and ${cols} ${n2}` +
          (what === 'pinverse'
            ? ` (pyRDDLGym puts the ${n2}×${n1} pseudo-inverse where ${rows} and ${cols} stand, which only fits a square one)`
            : ''),
        loc,
      );
    }
  }

  /** pyRDDLGym's `det_{?r : t1, ?c : t2} e`: the determinant of the matrix of e, rows ?r, columns ?c. */
  private compileDet(expr: Extract<Expr, { kind: 'aggregation' }>, env: Env): Code {
    const [row, col] = expr.variables;
    if (!row || !col || expr.variables.length !== 2) {
      throw new CompileError(`det_{?r : rows, ?c : columns} takes two variables`, expr.opLoc);
    }
    const rows = this.grounded.typeValues.get(row.type);
    const cols = this.grounded.typeValues.get(col.type);
    if (!rows) throw new CompileError(`unknown type '${row.type}'`, row.typeLoc);
    if (!cols) throw new CompileError(`unknown type '${col.type}'`, col.typeLoc);
    this.requireSquare('det', row.type, rows.length, col.type, cols.length, expr.opLoc);
    const n = rows.length;
    const entries = this.matrixEntries(
      expr.body,
      env,
      { name: row.name, type: row.type, values: rows },
      { name: col.name, type: col.type, values: cols },
    );
    if (entries.values) return constant(determinant(entries.values, n), REAL);
    return {
      js: `(${entries.fill.join(', ')}, mdet(${entries.table}, ${n}))`,
      type: REAL,
      random: entries.random,
    };
  }

  /**
   * pyRDDLGym's `inverse[row=?r, col=?c][e]`, `pinverse[...]` and `cholesky[...]`: the matrix of e over the
   * values of ?r (rows) and ?c (columns) is computed whole once per binding of the other variables, by the
   * first statement that reads it (at that statement's start); the entry at the current ?r, ?c is the value.
   */
  private compileMatrixOperation(
    expr: Extract<Expr, { kind: 'call' }>,
    matrix: { row: { name: string; loc: SourceLocation }; col: { name: string; loc: SourceLocation } },
    env: Env,
  ): Code {
    const row = env.get(matrix.row.name);
    const col = env.get(matrix.col.name);
    if (!row) throw new CompileError(`${matrix.row.name} is not bound here`, matrix.row.loc);
    if (!col) throw new CompileError(`${matrix.col.name} is not bound here`, matrix.col.loc);
    const rows = this.grounded.typeValues.get(row.type) ?? [];
    const cols = this.grounded.typeValues.get(col.type) ?? [];
    this.requireSquare(expr.name, row.type, rows.length, col.type, cols.length, expr.nameLoc);
    const n = rows.length;
    const position = rows.indexOf(row.value) * n + cols.indexOf(col.value);
    const batch = [...env]
      .filter(([name]) => name !== matrix.row.name && name !== matrix.col.name)
      .map(([name, b]) => `${name}=${b.value}`)
      .sort()
      .join(',');
    let results = this.#matrixResults.get(expr);
    if (!results) this.#matrixResults.set(expr, (results = new Map()));
    const known = results.get(batch);
    if (known) {
      const slot = this.#site.slot;
      if (known.slot !== undefined && slot !== undefined && known.slot !== slot) {
        this.#site.intermReads?.add(known.slot);
      }
      return { js: `${known.out}[${position}]`, type: REAL, random: known.random };
    }
    const entries = this.matrixEntries(
      expr.args[0]!,
      env,
      { name: matrix.row.name, type: row.type, values: rows },
      { name: matrix.col.name, type: col.type, values: cols },
    );
    const out = this.module.table(new Float64Array(n * n));
    const fn = expr.name === 'inverse' ? 'minv' : expr.name === 'pinverse' ? 'mpinv' : 'mchol';
    const loc = this.module.location(expr.loc);
    const call = `${fn}(${entries.table}, ${n}, ${out}, ${loc})`;
    // A matrix of constants (non-fluents) is transformed once, the first time it is read.
    const flag = entries.values ? this.module.table(new Float64Array(1)) : undefined;
    this.#prelude.push({
      js: flag
        ? `(${flag}[0] === 1 || (${call}, ${flag}[0] = 1))`
        : `(${[...entries.fill, call].join(', ')})`,
      random: entries.random,
    });
    results.set(batch, {
      out,
      random: entries.random,
      ...(this.#site.slot !== undefined ? { slot: this.#site.slot } : {}),
    });
    return { js: `${out}[${position}]`, type: REAL, random: entries.random };
  }

  private compileCall(expr: Extract<Expr, { kind: 'call' }>, env: Env): Code {
    if (expr.matrix) return this.compileMatrixOperation(expr, expr.matrix, env);
    const args = expr.args.map((a) => this.asNumber(this.compile(a, env)));
    const random = args.some((a) => a.random);
    const known = args.every((a) => a.value !== undefined);
    const values = args.map((a) => a.value as number);
    const js = args.map((a) => a.js);
    const loc = this.module.location(expr.loc);
    const real = (f: (...x: number[]) => number, source: string): Code =>
      known ? constant(f(...values), REAL) : { js: source, type: REAL, random };
    const bothInt = args.every((a) => a.type.kind === 'int');
    switch (expr.name) {
      case 'div':
      case 'mod': {
        if (!bothInt) throw new CompileError(`${expr.name}[...] needs two integers`, expr.loc);
        if (known && values[1] !== 0)
          return constant(
            expr.name === 'div' ? (values[0]! / values[1]!) | 0 : (values[0]! % values[1]!) | 0,
            INT,
          );
        return {
          js: `${expr.name === 'div' ? 'idiv' : 'imod'}(${js[0]}, ${js[1]}, ${loc})`,
          type: INT,
          random,
        };
      }
      case 'min':
      case 'max': {
        const type = bothInt ? INT : REAL;
        if (known) return constant(Math[expr.name](values[0]!, values[1]!), type);
        return { js: `Math.${expr.name}(${js[0]}, ${js[1]})`, type, random };
      }
      case 'abs':
      case 'sgn': {
        const type = bothInt ? INT : REAL;
        const f = expr.name === 'abs' ? Math.abs : Math.sign;
        const wrap = (x: string) => (type.kind === 'int' && expr.name === 'abs' ? `(${x} | 0)` : x);
        if (known)
          return constant(
            type.kind === 'int' && expr.name === 'abs' ? f(values[0]!) | 0 : f(values[0]!),
            type,
          );
        return { js: wrap(`Math.${expr.name === 'abs' ? 'abs' : 'sign'}(${js[0]})`), type, random };
      }
      case 'round':
        return known ? constant(javaRound(values[0]!), INT) : { js: `jround(${js[0]})`, type: INT, random };
      case 'floor':
      case 'ceil':
        return known
          ? constant(javaDoubleToInt(Math[expr.name](values[0]!)), INT)
          : { js: `d2i(Math.${expr.name}(${js[0]}))`, type: INT, random };
      case 'pow':
        return real(Math.pow, `Math.pow(${js[0]}, ${js[1]})`);
      case 'log':
        return real((a, b) => Math.log(a!) / Math.log(b!), `(Math.log(${js[0]}) / Math.log(${js[1]}))`);
      case 'ln':
        return real(Math.log, `Math.log(${js[0]})`);
      case 'fmod':
        return real((a, b) => a! % b!, `((${js[0]}) % (${js[1]}))`);
      case 'hypot':
        return real(Math.hypot, `Math.hypot(${js[0]}, ${js[1]})`);
      case 'lngamma':
      case 'gamma': {
        // pyRDDLGym's: gamma is the exponential of lngamma, both for x > 0 (else a run-time error).
        const exp = expr.name === 'gamma';
        if (known && values[0]! > 0)
          return constant(exp ? Math.exp(logGamma(values[0]!)) : logGamma(values[0]!), REAL);
        const call = `lgam(${js[0]}, ${loc})`;
        return { js: exp ? `Math.exp(${call})` : call, type: REAL, random };
      }
      case 'cos':
      case 'sin':
      case 'tan':
      case 'acos':
      case 'asin':
      case 'atan':
      case 'cosh':
      case 'sinh':
      case 'tanh':
      case 'exp':
      case 'sqrt': {
        const name = expr.name;
        return real(Math[name], `Math.${name}(${js[0]})`);
      }
      default:
        throw new CompileError(`unknown function '${expr.name}'`, expr.nameLoc);
    }
  }

  /** Tables of pyRDDLGym's vectorised draws, by expression and grounding of the cpf's other variables. */
  readonly #vectorisedDraws = new Map<Expr, Map<string, string>>();

  /**
   * pyRDDLGym's `Dirichlet[?v](alpha(_))` and `Multinomial[?v](n, p(_))`, the whole cpf of a fluent with the
   * parameter ?v: the grounding whose ?v is the first value of its type draws the whole vector into a
   * table (one per grounding of the other variables); the others read their member from it.
   */
  private compileVectorised(expr: Extract<Expr, { kind: 'distribution' }>, env: Env): Code {
    const sampled = expr.sampled![0]!;
    const binding = env.get(sampled.name);
    if (!binding) throw new CompileError(`unknown variable ${sampled.name}`, sampled.loc);
    const values = this.grounded.typeValues.get(binding.type) ?? [];
    const position = values.indexOf(binding.value);
    const type = expr.name === 'Multinomial' ? INT : REAL;
    const outer = new Map(env);
    outer.delete(sampled.name);
    const batch = [...outer.values()].map((b) => b.value).join(',');
    let tables = this.#vectorisedDraws.get(expr);
    if (!tables) this.#vectorisedDraws.set(expr, (tables = new Map()));
    if (position > 0) {
      const table = tables.get(batch);
      if (!table) throw new CompileError(`internal: ${expr.name} read before it was drawn`, expr.loc);
      return { js: `${table}[${position}]`, type, random: false };
    }
    const out = this.module.table(new Float64Array(values.length));
    tables.set(batch, out);
    const loc = this.module.location(expr.loc);
    if (expr.name === 'MultivariateNormal' || expr.name === 'MultivariateStudent') {
      // The mean once per member (`_` its value), the covariance once per pair (`_` the row's, `_2` the
      // column's), row-major.
      const meanData = new Float64Array(values.length);
      const covData = new Float64Array(values.length * values.length);
      const mean = this.module.table(meanData);
      const cov = this.module.table(covData);
      const meanArg = numberUnderscores(expr.args[0]!).expr;
      const covArg = numberUnderscores(expr.args[1]!).expr;
      const fill: string[] = [];
      // Constant entries are written into the tables now, once.
      const put = (table: string, data: Float64Array, index: number, code: Code): boolean => {
        if (code.value !== undefined) {
          data[index] = code.value as number;
          return true;
        }
        fill.push(`${table}[${index}] = ${code.js}`);
        return false;
      };
      let fixed = 1;
      values.forEach((value, i) => {
        const inner = new Map(outer);
        inner.set('_', this.binding(value, binding.type));
        put(mean, meanData, i, this.asNumber(this.compile(meanArg, inner)));
        values.forEach((other, j) => {
          const pair = new Map(inner);
          pair.set('_2', this.binding(other, binding.type));
          if (!put(cov, covData, i * values.length + j, this.asNumber(this.compile(covArg, pair)))) fixed = 0;
        });
      });
      const draw =
        expr.name === 'MultivariateNormal'
          ? `vmvn(${mean}, ${cov}, ${out}, ${loc}, ${fixed})`
          : `vmvt(${mean}, ${cov}, ${this.asNumber(this.compile(expr.args[2]!, outer)).js}, ${out}, ${loc}, ${fixed})`;
      return { js: `(${[...fill, draw].join(', ')}, ${out}[0])`, type, random: true };
    }
    // The vector parameter once per member, `_` bound to the member's value.
    const parameters = this.module.table(new Float64Array(values.length));
    const vectorArg = expr.args[expr.args.length - 1]!;
    const assignments = values.map((value, i) => {
      const inner = new Map(outer);
      inner.set('_', this.binding(value, binding.type));
      return `${parameters}[${i}] = ${this.asNumber(this.compile(vectorArg, inner)).js}`;
    });
    if (expr.name === 'Dirichlet') {
      return {
        js: `(${assignments.join(', ')}, vdiri(${parameters}, ${out}, ${loc}), ${out}[0])`,
        type,
        random: true,
      };
    }
    const trials = this.compile(expr.args[0]!, outer);
    if (trials.type.kind !== 'int') {
      throw new CompileError(
        `the trials of Multinomial must be an int, but this is ${describeType(trials.type)}`,
        expr.args[0]!.loc,
      );
    }
    return {
      js: `(${assignments.join(', ')}, vmult(${parameters}, ${trials.js}, ${out}, ${loc}), ${out}[0])`,
      type,
      random: true,
    };
  }

  private compileDistribution(expr: Extract<Expr, { kind: 'distribution' }>, env: Env): Code {
    if (expr.sampled) return this.compileVectorised(expr, env);
    const loc = this.module.location(expr.loc);
    const numbers = () => expr.args.map((a) => this.asNumber(this.compile(a, env)));
    switch (expr.name) {
      case 'KronDelta':
      case 'DiracDelta':
        return this.compile(expr.args[0]!, env);
      case 'Bernoulli': {
        const [p] = numbers();
        // A constant probability is checked now, so the draw is inlined.
        if (p!.value !== undefined && (p!.value as number) >= 0 && (p!.value as number) <= 1) {
          return { js: `(U() < ${p!.js})`, type: drawnType(expr.name), random: true };
        }
        return { js: `bern(${p!.js}, ${loc})`, type: drawnType(expr.name), random: true };
      }
      case 'Uniform': {
        const [l, u] = numbers();
        return { js: `unif(${l!.js}, ${u!.js}, ${loc})`, type: drawnType(expr.name), random: true };
      }
      case 'Normal': {
        const [m, v] = numbers();
        return { js: `norm(${m!.js}, ${v!.js}, ${loc})`, type: drawnType(expr.name), random: true };
      }
      case 'Exponential': {
        const [m] = numbers();
        return { js: `expo(${m!.js}, ${loc})`, type: drawnType(expr.name), random: true };
      }
      case 'Poisson': {
        const [m] = numbers();
        return { js: `pois(${m!.js}, ${loc})`, type: drawnType(expr.name), random: true };
      }
      case 'Weibull':
      case 'Gamma': {
        const [shape, scale] = numbers();
        return {
          js: `${expr.name === 'Weibull' ? 'weib' : 'gam'}(${shape!.js}, ${scale!.js}, ${loc})`,
          type: drawnType(expr.name),
          random: true,
        };
      }
      case 'Discrete':
      case 'UnnormDiscrete':
        return this.compileDiscrete(expr, env, loc);
      case 'Multinomial':
      case 'Dirichlet':
        throw new CompileError(
          `${expr.name} draws a vector: it is the value of a vector-valued fluent (read its members with .@label)`,
          expr.loc,
        );
      case 'MultivariateNormal':
      case 'MultivariateStudent':
        throw new CompileError(
          `${expr.name}[?v](...) names the cpf parameter that receives the vector`,
          expr.loc,
        );
      default: {
        // pyRDDLGym's distributions of numbers, drawn by the runtime's `pyd` table.
        const name: PyRddlGymDistributionName = expr.name;
        const [a, b] = numbers();
        return {
          js: `pyd.${name}(${a!.js}, ${b?.js ?? '0'}, ${loc})`,
          type: drawnType(expr.name),
          random: true,
        };
      }
    }
  }

  private compileDiscrete(expr: Extract<Expr, { kind: 'distribution' }>, env: Env, loc: number): Code {
    const typeName = expr.typeName ?? '';
    const values = this.grounded.typeValues.get(typeName);
    const declared = this.grounded.domain.types.get(typeName);
    if (!values || !declared || (declared.kind !== 'enum' && declared.kind !== 'object')) {
      throw new CompileError(`unknown type '${typeName}'`, expr.typeLoc ?? expr.loc);
    }
    const { assignments, probabilities, labels, cases } = expr.body
      ? this.discreteOverValues(expr, env, values, typeName)
      : this.discreteTables(expr, env, values, typeName);
    const labelTable = this.module.table(labels);
    // UnnormDiscrete's weights are divided by their sum (pyRDDLGym); Discrete's must sum to 1 (rddlsim).
    const draw = expr.name === 'UnnormDiscrete' ? 'udisc' : 'disc';
    return {
      js: `(${assignments.join(', ')}, ${labelTable}[${draw}(${probabilities}, ${cases}, ${loc})])`,
      type: { kind: declared.kind, name: typeName },
      random: true,
    };
  }

  /**
   * pyRDDLGym's `Discrete_{?v : t} p(?v)`: one case per value of t in the type's order, its probability
   * the body with ?v bound to that value.
   */
  private discreteOverValues(
    expr: Extract<Expr, { kind: 'distribution' }>,
    env: Env,
    values: readonly string[],
    typeName: string,
  ): { assignments: string[]; probabilities: string; labels: Int32Array; cases: number } {
    const variable = expr.variables![0]!.name;
    const labels = Int32Array.from(values, (value) => this.grounded.symbols.id(value));
    const probabilities = this.module.table(new Float64Array(values.length));
    const assignments = values.map((value, i) => {
      const inner = new Map(env);
      inner.set(variable, this.binding(value, typeName));
      return `${probabilities}[${i}] = ${this.asNumber(this.compile(expr.body!, inner)).js}`;
    });
    return { assignments, probabilities, labels, cases: values.length };
  }

  /**
   * The cases of Discrete and Multinomial: a table their probabilities are written into (`otherwise` is 1
   * minus the others), the code writing them, and each case's label as a symbol.
   */
  private discreteTables(
    expr: Extract<Expr, { kind: 'distribution' }>,
    env: Env,
    values: readonly string[],
    typeName: string,
  ): { assignments: string[]; probabilities: string; labels: Int32Array; cases: number } {
    const cases = expr.cases ?? [];
    const labels = new Int32Array(cases.length);
    cases.forEach((c, i) => {
      const label = c.label.kind === 'enum' ? c.label.value : c.label.kind === 'object' ? c.label.name : '';
      if (!values.includes(label))
        throw new CompileError(`'${label}' is not a value of ${typeName}`, c.label.loc);
      labels[i] = this.grounded.symbols.id(label);
    });
    const probabilities = this.module.table(new Float64Array(cases.length));
    const assignments = cases.map((c, i) => {
      if (c.probability)
        return `${probabilities}[${i}] = ${this.asNumber(this.compile(c.probability, env)).js}`;
      if (expr.name === 'UnnormDiscrete')
        throw new CompileError(`UnnormDiscrete has no 'otherwise': give each case a weight`, c.loc);
      const others = cases
        .slice(0, i)
        .map((_, j) => ` - ${probabilities}[${j}]`)
        .join('');
      return `${probabilities}[${i}] = 1${others}`;
    });
    return { assignments, probabilities, labels, cases: cases.length };
  }
}

/** A member label written as a term (`@a`, `$o`), or undefined for other terms. */
function termLabel(term: Term): string | undefined {
  return term.kind === 'enum' ? term.value : term.kind === 'object' ? term.name : undefined;
}

/** The label a member access names when it is known before running: `.@a`, `.$o`, or a bound `.?v`. */
function memberLabel(term: Term, env: Env): string | undefined {
  if (term.kind === 'variable') {
    const binding = env.get(term.name);
    return binding && !binding.runtime ? binding.value : undefined;
  }
  return termLabel(term);
}

function flatten(expr: Expr, op: '^' | '|'): Expr[] {
  if (expr.kind === 'binary' && expr.op === op)
    return [...flatten(expr.left, op), ...flatten(expr.right, op)];
  return [expr];
}

/** The guard of a quantified body: `G ^ ...` / `G * ...` / `G` (sum, exists), `G => ...` (forall). */
function findGuard(body: Expr, mode: 'sum' | 'exists' | 'forall'): PvarRef | undefined {
  if (mode === 'forall') {
    if (body.kind === 'binary' && body.op === '=>' && body.left.kind === 'pvar') return body.left;
    return undefined;
  }
  if (body.kind === 'pvar') return body;
  if (body.kind === 'binary' && body.op === '^') {
    const first = flatten(body, '^')[0]!;
    if (first.kind === 'pvar') return first;
  }
  return undefined;
}

/** Whether a sum that skipped zero terms must still add +0 (a -0 total becomes +0 when any +0 is added). */
function tail(dropped: boolean, int: boolean, op: string): boolean {
  return dropped && !int && op === 'sum';
}

function combineValues(op: 'sum' | 'prod' | 'min' | 'max', a: number, b: number, int: boolean): number {
  switch (op) {
    case 'sum':
      return int ? (a + b) | 0 : a + b;
    case 'prod':
      return int ? Math.imul(a, b) : a * b;
    default:
      return Math[op](a, b);
  }
}

function minMaxType(a: ValueType, b: ValueType): ValueType {
  const intLike = (t: ValueType) => t.kind === 'int' || t.kind === 'bool';
  return intLike(a) && intLike(b) ? INT : REAL;
}

function applyArithmetic(op: '+' | '-' | '*' | '/', a: number, b: number, type: ValueType): number {
  if (op === '/') return a / b;
  if (type.kind === 'int') {
    if (op === '+') return (a + b) | 0;
    if (op === '-') return (a - b) | 0;
    return Math.imul(a, b);
  }
  return op === '+' ? a + b : op === '-' ? a - b : a * b;
}
