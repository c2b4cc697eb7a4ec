/**
 * The RDDL parser: chevrotain's embedded-actions parser building the syntax tree of `ast.ts` directly.
 *
 * The grammar is rddlsim's (JavaCUP) grammar rewritten for an LL parser. Binary operators get one rule per
 * precedence level, lowest first: `<=>`, `=>`, `|`, `^`/`&`, comparisons, `+ -`, `* /`, then the prefix
 * operators `~ - +`. `if`, quantifiers and aggregations have the lowest precedence of all in rddlsim, which
 * means their last operand extends as far to the right as possible (`sum_{?x : t} a + b` sums `a + b`);
 * here that falls out of parsing those operands as whole expressions.
 */
import {
  EmbeddedActionsParser,
  type IParserErrorMessageProvider,
  type IToken,
  type ParserMethod,
  type TokenType,
  tokenMatcher,
} from 'chevrotain';
import type { SourceLocation } from '../../errors';
import type {
  ArgTerm,
  Assignment,
  BinaryOp,
  Block,
  ConstValue,
  ConstraintDef,
  CpfDef,
  DiscreteCase,
  DomainBlock,
  Expr,
  HorizonSpec,
  InstanceBlock,
  MemberTerm,
  NonFluentsBlock,
  ObjectsDecl,
  PvarDecl,
  PvarKindKeyword,
  PvarRef,
  PyRddlGymDistributionName,
  RddlFile,
  SwitchCase,
  Term,
  TypeDecl,
  TypedVariable,
  VariableRef,
} from './ast';
import { isPyRddlGymDistribution, MATRIX_OPERATIONS } from './ast';
import { distributionArity, plainDistributions, type KeywordDistributionName } from './distribution-table';
import type { RddlDiagnostic, RddlSource } from './api';
import { canonicalFluentName } from './names';
import {
  ALL_TOKENS,
  Ampersand,
  And,
  Assign,
  BlockComment,
  Colon,
  Comma,
  Divide,
  Dollar,
  Dot,
  Equal,
  EnumValue,
  Equiv,
  ExponentLiteral,
  Greater,
  GreaterEqual,
  Identifier,
  Imply,
  IntegerLiteral,
  KEYWORDS as K,
  LBracket,
  LCurly,
  LParen,
  Less,
  LessEqual,
  Minus,
  Not,
  NotEqual,
  Or,
  Plus,
  Question,
  RBracket,
  RCurly,
  RParen,
  RealLiteral,
  Semicolon,
  Times,
  Underscore,
  TerminationWord,
  Variable,
  WhiteSpace,
  createRddlLexer,
  tokenize,
} from './lexer';

/** Words for tokens in error messages: "end of text" rather than chevrotain's EOF. */
function describeToken(token: IToken): string {
  if (token.tokenType.name === 'EOF') return 'the end of the text';
  return `'${token.image}'`;
}

function describeExpected(types: TokenType[]): string {
  const labels = [...new Set(types.map((t) => t.LABEL ?? t.name))];
  if (labels.length === 1) return labels[0]!;
  if (labels.length <= 6) return `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}`;
  return `${labels.slice(0, 6).join(', ')}, ...`;
}

const errorMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual }) {
    // Text after the last block: the top-level loop stopped, so what was really expected is a block.
    const wanted =
      expected.name === 'EOF' ? "'domain', 'non-fluents' or 'instance'" : (expected.LABEL ?? expected.name);
    return `expected ${wanted} but found ${describeToken(actual)}`;
  },
  buildNotAllInputParsedMessage({ firstRedundant }) {
    return `expected 'domain', 'non-fluents' or 'instance' but found ${describeToken(firstRedundant)}`;
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, actual }) {
    const firsts = expectedPathsPerAlt.flatMap((paths) =>
      paths.map((path) => path[0]).filter((t) => t !== undefined),
    );
    return `expected ${describeExpected(firsts as TokenType[])} but found ${describeToken(actual[0]!)}`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual }) {
    const firsts = expectedIterationPaths.map((path) => path[0]).filter((t) => t !== undefined);
    const labels = new Set(firsts.map((t) => t.LABEL ?? t.name));
    const what = labels.size === 1 ? describeExpected(firsts) : `of ${describeExpected(firsts)}`;
    return `expected at least one ${what} but found ${describeToken(actual[0]!)}`;
  },
};

const PVAR_KINDS: PvarKindKeyword[] = [
  'state-fluent',
  'non-fluent',
  'action-fluent',
  'interm-fluent',
  'derived-fluent',
  'observ-fluent',
];

/** rddlsim's distributions written `Name(a, b)`, whose names are keywords. */
const SIMPLE_DISTRIBUTIONS = plainDistributions('keyword');

const COMPARISON_TOKENS: [TokenType, BinaryOp][] = [
  [Equal, '=='],
  [NotEqual, '~='],
  [LessEqual, '<='],
  [Less, '<'],
  [GreaterEqual, '>='],
  [Greater, '>'],
];

const placeholderLoc: SourceLocation = { line: 1, column: 1 };

/** What a rule returns when error recovery skipped it: harmless placeholders, never undefined. */
const recoveredPvar = (): PvarRef => ({
  kind: 'pvar',
  name: '?',
  primed: false,
  args: [],
  nameLoc: placeholderLoc,
  loc: placeholderLoc,
});
const recoveredExpr = (): Expr => recoveredPvar();
const recoveredToken = (): IToken =>
  ({ image: '?', tokenType: Identifier, startOffset: 0, startLine: 1, startColumn: 1 }) as IToken;

/**
 * pyRDDLGym's `Discrete_{?v : t} p(?v)` and `UnnormDiscrete_{?v : t} w(?v)`: a distribution over the values
 * of the (first) variable's type. The checker reports a count of variables other than one.
 */
function overValues(
  name: 'Discrete' | 'UnnormDiscrete',
  keyword: SourceLocation,
  variables: TypedVariable[],
  body: Expr,
): Expr {
  return {
    kind: 'distribution',
    name,
    args: [],
    typeName: variables[0]?.type ?? '',
    typeLoc: variables[0]?.typeLoc ?? keyword,
    variables,
    body,
    loc: { ...keyword, endLine: body.loc.endLine, endColumn: body.loc.endColumn },
  };
}

function finite(x: number | undefined): number | undefined {
  return x !== undefined && Number.isFinite(x) ? x : undefined;
}

class RddlParser extends EmbeddedActionsParser {
  /** Name of the text being parsed, copied into every location. */
  source = '';
  /**
   * Canonical names of the fluents the text declares: `Beta(...)` is pyRDDLGym's distribution unless the
   * text declares a fluent of that name (rddlsim does not reserve the distribution names).
   */
  declaredFluents: ReadonlySet<string> = new Set();

  /**
   * Chevrotain's checks of the grammar (ambiguities, left recursion) run only when `validate` is set: they
   * cost more than building the parser, at every start of a command or worker, and the grammar does not
   * change at run time. `checkRddlGrammar` runs them in the tests.
   */
  constructor({ validate = false }: { validate?: boolean } = {}) {
    super(
      ALL_TOKENS.filter((t) => t !== WhiteSpace),
      {
        recoveryEnabled: true,
        maxLookahead: 3,
        errorMessageProvider: errorMessages,
        skipValidations: !validate,
      },
    );
    this.performSelfAnalysis();
  }

  loc(first: IToken, last: IToken = first): SourceLocation {
    // Tokens inserted by error recovery have no position: fall back to the other end, then to 1:1.
    const line = finite(first.startLine) ?? finite(last.startLine) ?? 1;
    const column = finite(first.startColumn) ?? finite(last.startColumn) ?? 1;
    return {
      source: this.source,
      line,
      column,
      endLine: finite(last.endLine) ?? line,
      endColumn: (finite(last.endColumn) ?? column - 1) + 1,
      offset: finite(first.startOffset) ?? finite(last.startOffset),
    };
  }

  span(from: SourceLocation, to: SourceLocation): SourceLocation {
    return { ...from, endLine: to.endLine, endColumn: to.endColumn };
  }

  // ---------------------------------------------------------------- files and blocks

  public file = this.RULE('file', (): Block[] => {
    const blocks: Block[] = [];
    this.MANY(() => {
      const block = this.OR([
        { ALT: () => this.SUBRULE(this.domainBlock) as Block },
        { ALT: () => this.SUBRULE(this.nonFluentsBlock) as Block },
        { ALT: () => this.SUBRULE(this.instanceBlock) as Block },
      ]);
      this.ACTION(() => {
        if (block) blocks.push(block);
      });
    });
    return blocks;
  });

  private domainBlock = this.RULE('domainBlock', (): DomainBlock => {
    const start = this.CONSUME(K.domain);
    const name = this.CONSUME(Identifier);
    this.CONSUME(LCurly);
    const block = this.ACTION((): DomainBlock => ({
      kind: 'domain',
      name: name.image,
      nameLoc: this.loc(name),
      requirements: [],
      types: [],
      pvariables: [],
      pvariableInsertionOrder: [],
      typeInsertionOrder: [],
      cpfs: [],
      actionPreconditions: [],
      stateActionConstraints: [],
      stateInvariants: [],
      terminations: [],
      objects: [],
      loc: this.loc(start),
    }));
    const pvariableSections: PvarDecl[][] = [];
    const typeSections: TypeDecl[][] = [];
    this.OPTION(() => {
      const requirements = this.SUBRULE(this.requirementsSection);
      this.ACTION(() => block.requirements.push(...requirements));
    });
    this.MANY(() => {
      this.OR([
        {
          ALT: () => {
            const types = this.SUBRULE(this.typesSection);
            this.ACTION(() => {
              block.types.push(...types);
              typeSections.push(types);
            });
          },
        },
        {
          ALT: () => {
            const pvariables = this.SUBRULE(this.pvariablesSection);
            this.ACTION(() => {
              block.pvariables.push(...pvariables);
              pvariableSections.push(pvariables);
            });
          },
        },
        {
          ALT: () => {
            const header = this.OR1([
              { ALT: () => this.CONSUME(K.cpfs) },
              { ALT: () => this.CONSUME(K.cdfs) },
            ]);
            const cpfs = this.SUBRULE(this.cpfsBody);
            this.ACTION(() => {
              block.cpfsKeyword = header.image as 'cpfs' | 'cdfs';
              block.cpfs.push(...cpfs);
            });
          },
        },
        {
          ALT: () => {
            const keyword = this.CONSUME(K.reward);
            this.CONSUME(Assign);
            const expr = this.SUBRULE(this.expression);
            const semi = this.CONSUME(Semicolon);
            this.ACTION(() => {
              block.reward = expr;
              block.rewardLoc = this.loc(keyword, semi);
            });
          },
        },
        {
          ALT: () => {
            this.CONSUME(K['state-action-constraints']);
            const list = this.SUBRULE(this.constraintList);
            this.ACTION(() => block.stateActionConstraints.push(...list));
          },
        },
        {
          ALT: () => {
            this.CONSUME(K['action-preconditions']);
            const list = this.SUBRULE1(this.constraintList);
            this.ACTION(() => block.actionPreconditions.push(...list));
          },
        },
        {
          ALT: () => {
            this.CONSUME(K['state-invariants']);
            const list = this.SUBRULE2(this.constraintList);
            this.ACTION(() => block.stateInvariants.push(...list));
          },
        },
        {
          // pyRDDLGym's `termination { c; ... };`
          ALT: () => {
            this.CONSUME(TerminationWord);
            const list = this.SUBRULE3(this.constraintList);
            this.ACTION(() => block.terminations.push(...list));
          },
        },
        {
          ALT: () => {
            const objects = this.SUBRULE(this.objectsSection);
            this.ACTION(() => block.objects.push(...objects));
          },
        },
      ]);
    });
    const end = this.CONSUME(RCurly);
    this.ACTION(() => {
      block.loc = this.span(block.loc, this.loc(end));
      block.pvariableInsertionOrder = pvariableSections.reverse().flat();
      block.typeInsertionOrder = typeSections.reverse().flat();
    });
    return block;
  });

  /** `{ item ... };`, the body of a section. An item may use the first occurrence of `{`, `}` and `;`. */
  private bracedList<T>(item: () => T): T[] {
    const items: T[] = [];
    this.CONSUME2(LCurly);
    this.MANY(() => {
      const next = item();
      this.ACTION(() => items.push(next));
    });
    this.CONSUME2(RCurly);
    this.CONSUME2(Semicolon);
    return items;
  }

  private requirementsSection = this.RULE(
    'requirementsSection',
    () => {
      const requirements: { name: string; loc: SourceLocation }[] = [];
      this.CONSUME(K.requirements);
      this.OPTION(() => this.CONSUME(Assign));
      this.CONSUME(LCurly);
      this.MANY_SEP({
        SEP: Comma,
        DEF: () => {
          const word = this.CONSUME(Identifier);
          this.ACTION(() => requirements.push({ name: word.image, loc: this.loc(word) }));
        },
      });
      this.CONSUME(RCurly);
      this.CONSUME(Semicolon);
      return requirements;
    },
    { recoveryValueFunc: () => [] },
  );

  private typesSection = this.RULE(
    'typesSection',
    (): TypeDecl[] => {
      this.CONSUME(K.types);
      return this.bracedList(() => this.SUBRULE(this.typeDecl));
    },
    { recoveryValueFunc: () => [] },
  );

  private typeDecl = this.RULE('typeDecl', (): TypeDecl => {
    const name = this.CONSUME(Identifier);
    this.CONSUME(Colon);
    const decl = this.OR([
      {
        ALT: (): TypeDecl => {
          this.CONSUME(K.object);
          return this.ACTION(() => ({ kind: 'object', name: name.image, loc: this.loc(name) }));
        },
      },
      {
        ALT: (): TypeDecl => {
          const parent = this.CONSUME1(Identifier);
          return this.ACTION(() => ({
            kind: 'object',
            name: name.image,
            parent: parent.image,
            parentLoc: this.loc(parent),
            loc: this.loc(name),
          }));
        },
      },
      {
        ALT: (): TypeDecl => {
          this.CONSUME(LCurly);
          const first = this.CONSUME(EnumValue);
          const decl = this.OR1([
            {
              ALT: (): TypeDecl => {
                this.CONSUME(Dot);
                this.CONSUME1(Dot);
                const last = this.CONSUME1(EnumValue);
                return this.ACTION(() => this.enumRange(name, first, last));
              },
            },
            {
              ALT: (): TypeDecl => {
                const values = this.ACTION(() => [{ value: first.image, loc: this.loc(first) }]);
                this.MANY(() => {
                  this.CONSUME(Comma);
                  const next = this.CONSUME2(EnumValue);
                  this.ACTION(() => values.push({ value: next.image, loc: this.loc(next) }));
                });
                return this.ACTION(() => ({ kind: 'enum', name: name.image, values, loc: this.loc(name) }));
              },
            },
          ]);
          this.CONSUME(RCurly);
          return decl;
        },
      },
      {
        ALT: (): TypeDecl => {
          this.CONSUME(LBracket);
          const index = this.CONSUME2(Identifier);
          this.CONSUME(RBracket);
          this.CONSUME(Less);
          this.CONSUME(Question);
          this.CONSUME1(Colon);
          const range = this.SUBRULE(this.typeSpec);
          this.CONSUME(Greater);
          return this.ACTION(() => ({
            kind: 'struct',
            name: name.image,
            indexType: index.image,
            members: [{ label: '?', range: range.image }],
            loc: this.loc(name),
          }));
        },
      },
      {
        ALT: (): TypeDecl => {
          this.CONSUME1(Less);
          const members: { label: string; range: string }[] = [];
          this.AT_LEAST_ONE_SEP({
            SEP: Comma,
            DEF: () => {
              const label = this.SUBRULE(this.constantName);
              this.CONSUME2(Colon);
              const range = this.SUBRULE1(this.typeSpec);
              this.ACTION(() => members.push({ label: label.value, range: range.image }));
            },
          });
          this.CONSUME1(Greater);
          return this.ACTION(() => ({ kind: 'struct', name: name.image, members, loc: this.loc(name) }));
        },
      },
    ]);
    const end = this.CONSUME(Semicolon);
    this.ACTION(() => {
      decl.loc = this.loc(name, end);
    });
    return decl;
  });

  private enumRange(name: IToken, first: IToken, last: IToken): TypeDecl {
    const from = Number(first.image.slice(1));
    const to = Number(last.image.slice(1));
    if (!Number.isInteger(from) || !Number.isInteger(to) || to < from) {
      this.extraErrors.push({
        severity: 'error',
        message: `an enum range needs integer bounds in increasing order, as in {@1 .. @5}`,
        location: this.loc(first, last),
      });
      return { kind: 'enum', name: name.image, values: [], loc: this.loc(name) };
    }
    return { kind: 'enum-range', name: name.image, from, to, loc: this.loc(name) };
  }

  /** Problems found while building nodes (not grammar errors), reported with the syntax errors. */
  extraErrors: RddlDiagnostic[] = [];

  private typeSpec = this.RULE(
    'typeSpec',
    (): IToken => {
      return this.OR([
        { ALT: () => this.CONSUME(Identifier) },
        { ALT: () => this.CONSUME(K.int) },
        { ALT: () => this.CONSUME(K.real) },
        { ALT: () => this.CONSUME(K.bool) },
      ]);
    },
    { recoveryValueFunc: recoveredToken },
  );

  private pvariablesSection = this.RULE(
    'pvariablesSection',
    (): PvarDecl[] => {
      this.CONSUME(K.pvariables);
      return this.bracedList(() => this.SUBRULE(this.pvarDecl));
    },
    { recoveryValueFunc: () => [] },
  );

  private pvarDecl = this.RULE('pvarDecl', (): PvarDecl => {
    const name = this.CONSUME(Identifier);
    const params: { type: string; loc: SourceLocation }[] = [];
    this.OPTION(() => {
      this.CONSUME(LParen);
      this.AT_LEAST_ONE_SEP({
        SEP: Comma,
        DEF: () => {
          const type = this.SUBRULE(this.typeSpec);
          this.ACTION(() => params.push({ type: type.image, loc: this.loc(type) }));
        },
      });
      this.CONSUME(RParen);
    });
    this.CONSUME(Colon);
    this.CONSUME(LCurly);
    const kind = this.OR(PVAR_KINDS.map((k) => ({ ALT: () => this.CONSUME(K[k]) })));
    this.CONSUME(Comma);
    const range = this.SUBRULE1(this.typeSpec);
    const decl = this.ACTION((): PvarDecl => ({
      name: name.image,
      nameLoc: this.loc(name),
      params,
      kind: kind.image as PvarKindKeyword,
      range: range.image,
      rangeLoc: this.loc(range),
      loc: this.loc(name),
    }));
    this.OPTION1(() => {
      this.CONSUME1(Comma);
      this.OR1([
        {
          ALT: () => {
            const keyword = this.CONSUME(K.default);
            this.CONSUME(Assign);
            const value = this.SUBRULE(this.constValue);
            this.ACTION(() => {
              decl.default = value.value;
              decl.defaultLoc = this.span(this.loc(keyword), value.loc);
            });
          },
        },
        {
          ALT: () => {
            this.CONSUME(K.level);
            this.CONSUME1(Assign);
            const level = this.CONSUME(IntegerLiteral);
            this.ACTION(() => {
              decl.level = Number(level.image);
            });
          },
        },
      ]);
    });
    this.CONSUME(RCurly);
    const end = this.CONSUME(Semicolon);
    this.ACTION(() => {
      decl.loc = this.loc(name, end);
    });
    return decl;
  });

  /** A constant in a declaration or assignment (rddlsim's RANGE_CONST). */
  private constValue = this.RULE(
    'constValue',
    (): { value: ConstValue; loc: SourceLocation } => {
      return this.OR([
        {
          ALT: () => {
            const t = this.CONSUME(K.true);
            return this.ACTION(() => ({
              value: { kind: 'bool', value: true } as ConstValue,
              loc: this.loc(t),
            }));
          },
        },
        {
          ALT: () => {
            const t = this.CONSUME(K.false);
            return this.ACTION(() => ({
              value: { kind: 'bool', value: false } as ConstValue,
              loc: this.loc(t),
            }));
          },
        },
        {
          ALT: () => {
            let minus: IToken | undefined;
            this.OPTION(() => {
              minus = this.CONSUME(Minus);
            });
            const number = this.SUBRULE(this.numberToken);
            return this.ACTION(() => {
              const sign = minus ? -1 : 1;
              const isInt = number.tokenType === IntegerLiteral;
              const value = sign * Number(number.image);
              return {
                value: (isInt ? { kind: 'int', value } : { kind: 'real', value }) as ConstValue,
                loc: this.loc(minus ?? number, number),
              };
            });
          },
        },
        {
          ALT: () => {
            const t = this.CONSUME(K['pos-inf']);
            return this.ACTION(() => ({
              value: { kind: 'real', value: Infinity } as ConstValue,
              loc: this.loc(t),
            }));
          },
        },
        {
          ALT: () => {
            const t = this.CONSUME(K['neg-inf']);
            return this.ACTION(() => ({
              value: { kind: 'real', value: -Infinity } as ConstValue,
              loc: this.loc(t),
            }));
          },
        },
        {
          ALT: () => {
            const c = this.SUBRULE(this.constantName);
            return this.ACTION(() => ({
              value: (c.value.startsWith('@')
                ? { kind: 'enum', value: c.value }
                : { kind: 'object', value: c.value }) as ConstValue,
              loc: c.loc,
            }));
          },
        },
        { ALT: () => this.structConstant(0) },
        { ALT: () => this.structConstant(1, [LParen, RParen]) },
        { ALT: () => this.structConstant(2, [LBracket, RBracket]) },
      ]);
    },
    {
      recoveryValueFunc: (): { value: ConstValue; loc: SourceLocation } => ({
        value: { kind: 'bool', value: false },
        loc: placeholderLoc,
      }),
    },
  );

  /**
   * `< ... >` as a constant, alone or in `( )` or `[ ]`. `idx` tells this rule's occurrences of the same
   * tokens apart, as chevrotain requires.
   */
  private structConstant(
    idx: number,
    brackets?: [TokenType, TokenType],
  ): { value: ConstValue; loc: SourceLocation } {
    const open = brackets ? this.consume(idx, brackets[0]) : undefined;
    const less = this.consume(idx, Less);
    const value = this.subrule(idx, this.structConst);
    const greater = this.consume(idx, Greater);
    const close = brackets ? this.consume(idx, brackets[1]) : greater;
    return this.ACTION(() => ({ value, loc: this.loc(open ?? less, close) }));
  }

  private structConst = this.RULE(
    'structConst',
    (): ConstValue => {
      return this.OR([
        {
          ALT: () => {
            this.CONSUME(Question);
            this.CONSUME(Colon);
            const inner = this.SUBRULE(this.constValue);
            return this.ACTION((): ConstValue => ({
              kind: 'struct',
              members: [{ label: '?', value: inner.value }],
              wildcard: true,
            }));
          },
        },
        {
          ALT: () => {
            const members: { label: string; value: ConstValue }[] = [];
            this.AT_LEAST_ONE_SEP({
              SEP: Comma,
              DEF: () => {
                const label = this.SUBRULE(this.constantName);
                this.CONSUME1(Colon);
                const value = this.SUBRULE1(this.constValue);
                this.ACTION(() => members.push({ label: label.value, value: value.value }));
              },
            });
            return this.ACTION((): ConstValue => ({ kind: 'struct', members }));
          },
        },
      ]);
    },
    { recoveryValueFunc: (): ConstValue => ({ kind: 'struct', members: [] }) },
  );

  /** `name`, `$name` or `@value` (rddlsim's LCONST); objects lose their `$`. */
  private constantName = this.RULE(
    'constantName',
    (): { value: string; loc: SourceLocation } => {
      return this.OR([
        {
          ALT: () => {
            const t = this.CONSUME(Identifier);
            return this.ACTION(() => ({ value: t.image, loc: this.loc(t) }));
          },
        },
        {
          ALT: () => {
            const dollar = this.CONSUME(Dollar);
            const t = this.CONSUME1(Identifier);
            return this.ACTION(() => ({ value: t.image, loc: this.loc(dollar, t) }));
          },
        },
        {
          ALT: () => {
            const t = this.CONSUME(EnumValue);
            return this.ACTION(() => ({ value: t.image, loc: this.loc(t) }));
          },
        },
      ]);
    },
    {
      recoveryValueFunc: (): { value: string; loc: SourceLocation } => ({ value: '?', loc: placeholderLoc }),
    },
  );

  private numberToken = this.RULE(
    'numberToken',
    (): IToken => {
      return this.OR([
        { ALT: () => this.CONSUME(IntegerLiteral) },
        { ALT: () => this.CONSUME(RealLiteral) },
        {
          ALT: () => {
            const t = this.CONSUME(ExponentLiteral);
            this.ACTION(() =>
              this.extraErrors.push({
                severity: 'error',
                message: `RDDL has no exponent notation: write ${t.image} as a plain number (e.g. ${Number(t.image).toFixed(1)})`,
                location: this.loc(t),
              }),
            );
            return t;
          },
        },
      ]);
    },
    { recoveryValueFunc: recoveredToken },
  );

  private cpfsBody = this.RULE(
    'cpfsBody',
    (): CpfDef[] =>
      this.bracedList(() => {
        const head = this.SUBRULE(this.pvarExpression);
        this.CONSUME(Assign);
        const expr = this.SUBRULE(this.expression);
        const end = this.CONSUME(Semicolon);
        return this.ACTION((): CpfDef => ({ head, expr, loc: this.span(head.loc, this.loc(end)) }));
      }),
    { recoveryValueFunc: () => [] },
  );

  private constraintList = this.RULE(
    'constraintList',
    (): ConstraintDef[] =>
      this.bracedList(() => {
        const expr = this.SUBRULE(this.expression);
        const end = this.CONSUME(Semicolon);
        return this.ACTION((): ConstraintDef => ({ expr, loc: this.span(expr.loc, this.loc(end)) }));
      }),
    { recoveryValueFunc: () => [] },
  );

  private objectsSection = this.RULE(
    'objectsSection',
    (): ObjectsDecl[] => {
      this.CONSUME(K.objects);
      return this.bracedList(() => {
        const type = this.CONSUME(Identifier);
        this.CONSUME(Colon);
        this.CONSUME1(LCurly);
        const objects: { name: string; loc: SourceLocation }[] = [];
        this.AT_LEAST_ONE_SEP({
          SEP: Comma,
          DEF: () => {
            const c = this.SUBRULE(this.constantName);
            this.ACTION(() => objects.push({ name: c.value, loc: c.loc }));
          },
        });
        this.CONSUME1(RCurly);
        const end = this.CONSUME(Semicolon);
        return this.ACTION((): ObjectsDecl => ({
          type: type.image,
          typeLoc: this.loc(type),
          objects,
          loc: this.loc(type, end),
        }));
      });
    },
    { recoveryValueFunc: () => [] },
  );

  private nonFluentsBlock = this.RULE('nonFluentsBlock', (): NonFluentsBlock => {
    const start = this.CONSUME(K['non-fluents']);
    const name = this.CONSUME(Identifier);
    this.CONSUME(LCurly);
    this.CONSUME(K.domain);
    this.CONSUME(Assign);
    const domain = this.CONSUME1(Identifier);
    this.CONSUME(Semicolon);
    let objects: ObjectsDecl[] = [];
    this.OPTION(() => {
      objects = this.SUBRULE(this.objectsSection);
    });
    let assignments: Assignment[] | undefined;
    this.OPTION1(() => {
      this.CONSUME1(K['non-fluents']);
      assignments = this.OR([
        {
          ALT: () => {
            return this.SUBRULE(this.bracedAssignments);
          },
        },
        {
          // rddlsim's form without braces: `non-fluents p = 1; q; ;`
          ALT: () => {
            const list = this.SUBRULE1(this.assignmentList);
            this.CONSUME2(Semicolon);
            return list;
          },
        },
      ]);
    });
    const end = this.CONSUME1(RCurly);
    this.ACTION(() => {
      // pyRDDLGym reads a block of only the domain (and objects), as its gym and arcade domains write it.
      if (assignments === undefined)
        this.extraWarnings.push({
          severity: 'warning',
          message:
            "rddlsim requires a 'non-fluents { ... };' section here, with at least one value (pyRDDLGym reads the block without it)",
          location: this.loc(end),
        });
    });
    return this.ACTION(() => ({
      kind: 'non-fluents',
      name: name.image,
      nameLoc: this.loc(name),
      domain: domain.image,
      domainLoc: this.loc(domain),
      objects,
      assignments: assignments ?? [],
      loc: this.loc(start, end),
    }));
  });

  /** `{ p = 1; q; };` */
  private bracedAssignments = this.RULE(
    'bracedAssignments',
    (): Assignment[] => this.bracedList(() => this.SUBRULE(this.assignment)),
    { recoveryValueFunc: () => [] },
  );

  private assignmentList = this.RULE(
    'assignmentList',
    (): Assignment[] => {
      const list: Assignment[] = [];
      this.MANY(() => {
        const assignment = this.SUBRULE(this.assignment);
        this.ACTION(() => list.push(assignment));
      });
      return list;
    },
    { recoveryValueFunc: () => [] },
  );

  private assignment = this.RULE('assignment', (): Assignment => {
    let negated: IToken | undefined;
    this.OPTION(() => {
      negated = this.CONSUME(Not);
    });
    const name = this.CONSUME(Identifier);
    const args: { value: string; loc: SourceLocation }[] = [];
    this.OPTION1(() => {
      this.CONSUME(LParen);
      this.AT_LEAST_ONE_SEP({
        SEP: Comma,
        DEF: () => {
          const c = this.SUBRULE(this.constantName);
          this.ACTION(() => args.push(c));
        },
      });
      this.CONSUME(RParen);
    });
    let value: { value: ConstValue; loc: SourceLocation } | undefined;
    this.OPTION2(() => {
      this.CONSUME(Assign);
      value = this.SUBRULE(this.constValue);
    });
    const end = this.CONSUME(Semicolon);
    return this.ACTION(() => {
      if (negated && value) {
        this.extraErrors.push({
          severity: 'error',
          message: `write either ~${name.image}(...) or ${name.image}(...) = value, not both`,
          location: this.loc(negated),
        });
      }
      return {
        name: name.image,
        nameLoc: this.loc(name),
        args,
        value: value?.value ?? { kind: 'bool', value: !negated },
        loc: this.loc(negated ?? name, end),
      };
    });
  });

  private instanceBlock = this.RULE('instanceBlock', (): InstanceBlock => {
    const start = this.CONSUME(K.instance);
    const name = this.CONSUME(Identifier);
    this.CONSUME(LCurly);
    this.CONSUME(K.domain);
    this.CONSUME(Assign);
    const domain = this.CONSUME1(Identifier);
    this.CONSUME(Semicolon);
    const block = this.ACTION((): InstanceBlock => ({
      kind: 'instance',
      name: name.image,
      nameLoc: this.loc(name),
      domain: domain.image,
      domainLoc: this.loc(domain),
      objects: [],
      nonFluentAssignments: [],
      initState: [],
      horizon: { kind: 'pos-inf' },
      horizonLoc: this.loc(start),
      discount: 1,
      loc: this.loc(start),
    }));
    this.OPTION(() => {
      this.CONSUME(K['non-fluents']);
      this.CONSUME1(Assign);
      const nf = this.CONSUME2(Identifier);
      this.CONSUME1(Semicolon);
      this.ACTION(() => {
        block.nonFluents = nf.image;
        block.nonFluentsLoc = this.loc(nf);
      });
    });
    this.OPTION1(() => {
      const objects = this.SUBRULE(this.objectsSection);
      this.ACTION(() => block.objects.push(...objects));
    });
    this.OPTION2(() => {
      // IPC 2018: non-fluent values inside the instance
      this.CONSUME1(K['non-fluents']);
      const list = this.SUBRULE(this.bracedAssignments);
      this.ACTION(() => block.nonFluentAssignments.push(...list));
    });
    this.OPTION3(() => {
      this.CONSUME(K['init-state']);
      const list = this.SUBRULE1(this.bracedAssignments);
      this.ACTION(() => block.initState.push(...list));
    });
    this.OPTION4(() => {
      this.CONSUME(K['max-nondef-actions']);
      this.CONSUME2(Assign);
      const value = this.OR([
        { ALT: () => this.CONSUME(IntegerLiteral) },
        { ALT: () => this.CONSUME(K['pos-inf']) },
      ]);
      this.CONSUME4(Semicolon);
      this.ACTION(() => {
        block.maxNondefActions = value.tokenType === IntegerLiteral ? Number(value.image) : 'pos-inf';
      });
    });
    const horizon = this.SUBRULE(this.horizonSpec);
    this.CONSUME5(Semicolon);
    this.CONSUME(K.discount);
    this.CONSUME3(Assign);
    const discount = this.SUBRULE(this.numberToken);
    this.CONSUME6(Semicolon);
    const end = this.CONSUME2(RCurly);
    this.ACTION(() => {
      block.horizon = horizon.spec;
      block.horizonLoc = horizon.loc;
      block.discount = Number(discount.image);
      if (discount.tokenType === IntegerLiteral) {
        this.extraWarnings.push({
          severity: 'warning',
          message: `rddlsim requires a real number here: write ${discount.image}.0`,
          location: this.loc(discount),
        });
      }
      block.loc = this.loc(start, end);
    });
    return block;
  });

  /** Advice that does not stop loading (e.g. forms rddlsim would reject). */
  extraWarnings: RddlDiagnostic[] = [];

  private horizonSpec = this.RULE(
    'horizonSpec',
    (): { spec: HorizonSpec; loc: SourceLocation } => {
      return this.OR([
        {
          ALT: () => {
            const keyword = this.CONSUME(K.horizon);
            this.CONSUME(Assign);
            return this.OR1([
              {
                ALT: () => {
                  const n = this.CONSUME(IntegerLiteral);
                  return this.ACTION(() => ({
                    spec: { kind: 'steps', steps: Number(n.image) } as HorizonSpec,
                    loc: this.loc(keyword, n),
                  }));
                },
              },
              {
                ALT: () => {
                  const t = this.CONSUME(K['pos-inf']);
                  return this.ACTION(() => ({
                    spec: { kind: 'pos-inf' } as HorizonSpec,
                    loc: this.loc(keyword, t),
                  }));
                },
              },
              {
                ALT: () => {
                  this.CONSUME(K['terminate-when']);
                  this.CONSUME(LParen);
                  const condition = this.SUBRULE(this.expression);
                  const close = this.CONSUME(RParen);
                  return this.ACTION(() => ({
                    spec: { kind: 'terminate-when', condition } as HorizonSpec,
                    loc: this.loc(keyword, close),
                  }));
                },
              },
            ]);
          },
        },
        {
          ALT: () => {
            const keyword = this.CONSUME(K.terminal);
            this.CONSUME1(Assign);
            const condition = this.SUBRULE1(this.expression);
            return this.ACTION(() => ({
              spec: { kind: 'terminal', condition } as HorizonSpec,
              loc: this.span(this.loc(keyword), condition.loc),
            }));
          },
        },
      ]);
    },
    {
      recoveryValueFunc: (): { spec: HorizonSpec; loc: SourceLocation } => ({
        spec: { kind: 'pos-inf' },
        loc: placeholderLoc,
      }),
    },
  );

  // ---------------------------------------------------------------- expressions

  public expression = this.RULE('expression', (): Expr => this.SUBRULE(this.equivExpr), {
    recoveryValueFunc: (): Expr => ({ kind: 'bool', value: false, loc: placeholderLoc }),
  });

  private binaryLevel(
    operand: () => Expr,
    operators: [TokenType, BinaryOp][],
    next: (idx: number) => Expr,
  ): Expr {
    let left = operand();
    this.MANY(() => {
      const opToken = this.OR(operators.map(([type]) => ({ ALT: () => this.CONSUME(type) })));
      const right = next(1);
      this.ACTION(() => {
        const op = operators.find(([type]) => type === opToken.tokenType)![1];
        left = {
          kind: 'binary',
          op,
          left,
          right,
          opLoc: this.loc(opToken),
          loc: this.span(left.loc, right.loc),
        };
      });
    });
    return left;
  }

  /**
   * One precedence level of left-associative binary operators, whose operands are the next level's rule.
   * `operand` is read when the rule is recorded, so a level may name a rule declared after it.
   */
  private binaryRule(
    name: string,
    operand: () => ParserMethod<[], Expr>,
    operators: [TokenType, BinaryOp][],
  ) {
    return this.RULE(
      name,
      (): Expr =>
        this.binaryLevel(
          () => this.SUBRULE(operand()),
          operators,
          () => this.SUBRULE1(operand()),
        ),
      { recoveryValueFunc: recoveredExpr },
    );
  }

  private equivExpr = this.binaryRule('equivExpr', () => this.implyExpr, [[Equiv, '<=>']]);
  private implyExpr = this.binaryRule('implyExpr', () => this.orExpr, [[Imply, '=>']]);
  private orExpr = this.binaryRule('orExpr', () => this.andExpr, [[Or, '|']]);
  private andExpr = this.binaryRule('andExpr', () => this.comparisonExpr, [
    [And, '^'],
    [Ampersand, '^'],
  ]);
  private comparisonExpr = this.binaryRule('comparisonExpr', () => this.additiveExpr, COMPARISON_TOKENS);
  private additiveExpr = this.binaryRule('additiveExpr', () => this.multiplicativeExpr, [
    [Plus, '+'],
    [Minus, '-'],
  ]);
  private multiplicativeExpr = this.binaryRule('multiplicativeExpr', () => this.unaryExpr, [
    [Times, '*'],
    [Divide, '/'],
  ]);

  private unaryExpr = this.RULE(
    'unaryExpr',
    (): Expr => {
      return this.OR([
        {
          ALT: () => {
            const op = this.OR1([{ ALT: () => this.CONSUME(Not) }, { ALT: () => this.CONSUME(Minus) }]);
            const operand = this.SUBRULE(this.unaryExpr);
            return this.ACTION((): Expr => ({
              kind: 'unary',
              op: op.tokenType === Not ? '~' : '-',
              operand,
              loc: this.span(this.loc(op), operand.loc),
            }));
          },
        },
        {
          ALT: () => {
            this.CONSUME(Plus);
            return this.SUBRULE2(this.unaryExpr);
          },
        },
        { ALT: () => this.SUBRULE(this.primaryExpr) },
      ]);
    },
    { recoveryValueFunc: recoveredExpr },
  );

  /** `?x`, `@e` and `$o`: the leaves an expression shares with pvariable arguments and vector members. */
  private leafAlternatives(): { ALT: () => Term }[] {
    return [
      {
        ALT: () => {
          const t = this.CONSUME(Variable);
          return this.ACTION((): Term => ({ kind: 'variable', name: t.image, loc: this.loc(t) }));
        },
      },
      {
        ALT: () => {
          const t = this.CONSUME(EnumValue);
          return this.ACTION((): Term => ({ kind: 'enum', value: t.image, loc: this.loc(t) }));
        },
      },
      {
        ALT: () => {
          const dollar = this.CONSUME(Dollar);
          const t = this.CONSUME(Identifier);
          return this.ACTION((): Term => ({ kind: 'object', name: t.image, loc: this.loc(dollar, t) }));
        },
      },
    ];
  }

  /** `( e )` or `[ e ]`: the inner expression, located with its brackets. */
  private grouped(open: TokenType, inner: () => Expr, close: TokenType): Expr {
    const openToken = this.CONSUME(open);
    const expr = inner();
    const closeToken = this.CONSUME(close);
    return this.ACTION((): Expr => ({ ...expr, loc: this.loc(openToken, closeToken) }));
  }

  private primaryExpr = this.RULE(
    'primaryExpr',
    (): Expr => {
      return this.OR([
        {
          // pyRDDLGym's external function call `$Name[?p, ...](f(...), ...)`: Python code, which this
          // simulator cannot run; read whole so the error is one, at the call.
          GATE: () => this.LA(3).tokenType === LBracket,
          IGNORE_AMBIGUITIES: true,
          ALT: () => {
            const dollar = this.CONSUME8(Dollar);
            const name = this.CONSUME8(Identifier);
            this.CONSUME8(LBracket);
            this.MANY_SEP8({ SEP: Comma, DEF: () => this.SUBRULE8(this.term) });
            let end = this.CONSUME8(RBracket);
            this.OPTION8(() => {
              this.CONSUME8(LParen);
              this.MANY_SEP9({ SEP: Comma, DEF: () => this.SUBRULE9(this.expression) });
              end = this.CONSUME8(RParen);
            });
            return this.ACTION((): Expr => {
              const loc = this.loc(dollar, end);
              this.extraErrors.push({
                severity: 'error',
                message: `$${name.image}[...] calls an external function: pyRDDLGym runs it as Python code, which this simulator cannot run`,
                location: loc,
              });
              return { kind: 'number', value: 0, isInt: false, loc };
            });
          },
        },
        ...this.leafAlternatives(),
        {
          ALT: () => {
            const t = this.CONSUME(K.true);
            return this.ACTION((): Expr => ({ kind: 'bool', value: true, loc: this.loc(t) }));
          },
        },
        {
          ALT: () => {
            const t = this.CONSUME(K.false);
            return this.ACTION((): Expr => ({ kind: 'bool', value: false, loc: this.loc(t) }));
          },
        },
        {
          ALT: () => {
            const t = this.SUBRULE(this.numberToken);
            return this.ACTION((): Expr => ({
              kind: 'number',
              value: Number(t.image),
              isInt: t.tokenType === IntegerLiteral,
              loc: this.loc(t),
            }));
          },
        },
        { ALT: () => this.grouped(LParen, () => this.SUBRULE(this.expression), RParen) },
        { ALT: () => this.grouped(LBracket, () => this.SUBRULE1(this.expression), RBracket) },
        { ALT: () => this.SUBRULE(this.ifExpr) },
        { ALT: () => this.SUBRULE(this.switchExpr) },
        { ALT: () => this.SUBRULE(this.quantifierExpr) },
        { ALT: () => this.SUBRULE(this.distributionExpr) },
        { ALT: () => this.SUBRULE(this.structExpr) },
        { ALT: () => this.SUBRULE(this.identifierExpr) },
      ]);
    },
    { recoveryValueFunc: recoveredExpr },
  );

  private ifExpr = this.RULE(
    'ifExpr',
    (): Expr => {
      const start = this.CONSUME(K.if);
      this.CONSUME(LParen);
      const condition = this.SUBRULE(this.expression);
      this.CONSUME(RParen);
      this.CONSUME(K.then);
      const thenExpr = this.SUBRULE1(this.expression);
      this.CONSUME(K.else);
      const elseExpr = this.SUBRULE2(this.expression);
      return this.ACTION((): Expr => ({
        kind: 'if',
        condition,
        then: thenExpr,
        else: elseExpr,
        loc: this.span(this.loc(start), elseExpr.loc),
      }));
    },
    { recoveryValueFunc: recoveredExpr },
  );

  private switchExpr = this.RULE(
    'switchExpr',
    (): Expr => {
      const start = this.CONSUME(K.switch);
      this.CONSUME(LParen);
      const subject = this.SUBRULE(this.term);
      this.CONSUME(RParen);
      this.CONSUME(LCurly);
      const cases: SwitchCase[] = [];
      this.AT_LEAST_ONE_SEP({
        SEP: Comma,
        DEF: () => {
          this.OR([
            {
              ALT: () => {
                const keyword = this.CONSUME(K.case);
                const value = this.SUBRULE1(this.term);
                this.CONSUME(Colon);
                const body = this.SUBRULE(this.expression);
                this.ACTION(() => cases.push({ value, body, loc: this.span(this.loc(keyword), body.loc) }));
              },
            },
            {
              ALT: () => {
                const keyword = this.CONSUME(K.default);
                this.CONSUME1(Colon);
                const body = this.SUBRULE1(this.expression);
                this.ACTION(() => cases.push({ body, loc: this.span(this.loc(keyword), body.loc) }));
              },
            },
          ]);
        },
      });
      const end = this.CONSUME(RCurly);
      return this.ACTION((): Expr => ({ kind: 'switch', subject, cases, loc: this.loc(start, end) }));
    },
    { recoveryValueFunc: recoveredExpr },
  );

  private quantifierExpr = this.RULE(
    'quantifierExpr',
    (): Expr => {
      const keyword = this.OR([{ ALT: () => this.CONSUME(K.forall) }, { ALT: () => this.CONSUME(K.exists) }]);
      const variables = this.SUBRULE(this.typedVariables);
      const body = this.SUBRULE(this.expression);
      return this.ACTION((): Expr => ({
        kind: 'quantifier',
        quantifier: keyword.image as 'forall' | 'exists',
        variables,
        body,
        loc: this.span(this.loc(keyword), body.loc),
      }));
    },
    { recoveryValueFunc: recoveredExpr },
  );

  /**
   * `name_{?x : t} body`: an aggregation (sum, argmax...: checked later), or pyRDDLGym's
   * `UnnormDiscrete_{?v : t} w(?v)`, which has the shape of one.
   */
  private namedOverVariables(name: IToken, variables: TypedVariable[], body: Expr): Expr {
    if (name.image === 'UnnormDiscrete') return overValues('UnnormDiscrete', this.loc(name), variables, body);
    return {
      kind: 'aggregation',
      op: name.image,
      opLoc: this.loc(name),
      variables,
      body,
      loc: this.span(this.loc(name), body.loc),
    };
  }

  /** `_{?x : t, ?y : u}` */
  private typedVariables = this.RULE(
    'typedVariables',
    (): TypedVariable[] => {
      const variables: TypedVariable[] = [];
      this.CONSUME(Underscore);
      this.CONSUME(LCurly);
      this.AT_LEAST_ONE_SEP({
        SEP: Comma,
        DEF: () => {
          const name = this.CONSUME(Variable);
          this.CONSUME(Colon);
          const type = this.CONSUME(Identifier);
          this.ACTION(() =>
            variables.push({
              name: name.image,
              type: type.image,
              loc: this.loc(name),
              typeLoc: this.loc(type),
            }),
          );
        },
      });
      this.CONSUME(RCurly);
      return variables;
    },
    { recoveryValueFunc: () => [] },
  );

  private distributionExpr = this.RULE(
    'distributionExpr',
    (): Expr => {
      return this.OR([
        {
          ALT: () => {
            const keyword = this.OR1(
              SIMPLE_DISTRIBUTIONS.map((name) => ({ ALT: () => this.CONSUME(K[name]) })),
            );
            this.CONSUME(LParen);
            const args = [this.SUBRULE(this.expression)];
            this.OPTION(() => {
              this.CONSUME(Comma);
              const second = this.SUBRULE1(this.expression);
              this.ACTION(() => args.push(second));
            });
            const close = this.CONSUME(RParen);
            return this.ACTION((): Expr => {
              const name = keyword.image as KeywordDistributionName;
              const arity = distributionArity(name);
              if (args.length !== arity) {
                this.extraErrors.push({
                  severity: 'error',
                  message: `${name} takes ${arity === 1 ? 'one parameter' : 'two parameters'}, not ${args.length}`,
                  location: this.loc(keyword, close),
                });
              }
              return { kind: 'distribution', name, args, loc: this.loc(keyword, close) };
            });
          },
        },
        {
          // pyRDDLGym's `Discrete_{?v : t} p(?v)`: each value's probability written once, over ?v.
          ALT: () => {
            const keyword = this.CONSUME5(K.Discrete);
            const variables = this.SUBRULE(this.typedVariables);
            const body = this.SUBRULE4(this.expression);
            return this.ACTION((): Expr => overValues('Discrete', this.loc(keyword), variables, body));
          },
        },
        {
          ALT: () =>
            this.typedDistribution(1, 'Discrete', () => ({
              args: [],
              cases: this.SUBRULE(this.discreteCases),
            })),
        },
        {
          ALT: () =>
            this.typedDistribution(2, 'Multinomial', () => {
              const count = this.SUBRULE2(this.expression);
              this.CONSUME4(Comma);
              return { args: [count], cases: this.SUBRULE1(this.discreteCases) };
            }),
        },
        {
          ALT: () =>
            this.typedDistribution(3, 'Dirichlet', () => ({ args: [this.SUBRULE3(this.expression)] })),
        },
        {
          // pyRDDLGym's vectorised `Dirichlet[?v](alpha(_))` and `Multinomial[?v](n, p(_))`.
          ALT: () => {
            const keyword = this.OR2([
              { ALT: () => this.CONSUME6(K.Dirichlet) },
              { ALT: () => this.CONSUME6(K.Multinomial) },
            ]);
            this.CONSUME6(LBracket);
            const sampled: VariableRef[] = [];
            this.MANY_SEP({
              SEP: Comma,
              DEF: () => {
                const v = this.CONSUME6(Variable);
                this.ACTION(() => sampled.push({ kind: 'variable', name: v.image, loc: this.loc(v) }));
              },
            });
            this.CONSUME6(RBracket);
            this.CONSUME6(LParen);
            const args: Expr[] = [];
            this.MANY_SEP1({
              SEP: Comma,
              DEF: () => {
                const arg = this.SUBRULE6(this.expression);
                this.ACTION(() => args.push(arg));
              },
            });
            const close = this.CONSUME6(RParen);
            return this.ACTION((): Expr => ({
              kind: 'distribution',
              name: keyword.image as 'Dirichlet' | 'Multinomial',
              args,
              sampled,
              loc: this.loc(keyword, close),
            }));
          },
        },
      ]);
    },
    { recoveryValueFunc: recoveredExpr },
  );

  /**
   * `Name(type, ...)`, a distribution over the values of a type; `body` parses what follows the type's comma.
   * `idx` tells this rule's occurrences of the same tokens apart, as chevrotain requires.
   */
  private typedDistribution(
    idx: number,
    name: 'Discrete' | 'Multinomial' | 'Dirichlet',
    body: () => { args: Expr[]; cases?: DiscreteCase[] },
  ): Expr {
    const keyword = this.consume(idx, K[name]);
    this.consume(idx, LParen);
    const type = this.consume(idx, Identifier);
    this.consume(idx, Comma);
    const { args, cases } = body();
    const close = this.consume(idx, RParen);
    return this.ACTION((): Expr => ({
      kind: 'distribution',
      name,
      args,
      typeName: type.image,
      typeLoc: this.loc(type),
      ...(cases ? { cases } : {}),
      loc: this.loc(keyword, close),
    }));
  }

  private discreteCases = this.RULE(
    'discreteCases',
    (): DiscreteCase[] => {
      const cases: DiscreteCase[] = [];
      this.AT_LEAST_ONE_SEP({
        SEP: Comma,
        DEF: () => {
          const label = this.SUBRULE(this.constantTerm);
          this.CONSUME(Colon);
          this.OR([
            {
              ALT: () => {
                const keyword = this.CONSUME(K.otherwise);
                this.ACTION(() => cases.push({ label, loc: this.span(label.loc, this.loc(keyword)) }));
              },
            },
            {
              ALT: () => {
                const probability = this.SUBRULE(this.expression);
                this.ACTION(() =>
                  cases.push({ label, probability, loc: this.span(label.loc, probability.loc) }),
                );
              },
            },
          ]);
        },
      });
      return cases;
    },
    { recoveryValueFunc: () => [] },
  );

  /** `name`, `$name` or `@value` as a term (labels of Discrete, struct members). */
  private constantTerm = this.RULE(
    'constantTerm',
    (): Term => {
      const c = this.SUBRULE(this.constantName);
      return this.ACTION((): Term =>
        c.value.startsWith('@')
          ? { kind: 'enum', value: c.value, loc: c.loc }
          : { kind: 'object', name: c.value, loc: c.loc },
      );
    },
    { recoveryValueFunc: recoveredPvar },
  );

  private structExpr = this.RULE(
    'structExpr',
    (): Expr => {
      const open = this.CONSUME(Less);
      const members: { label: Term; value: Expr }[] = [];
      this.AT_LEAST_ONE_SEP({
        SEP: Comma,
        DEF: () => {
          const label = this.SUBRULE(this.constantTerm);
          this.CONSUME(Colon);
          // Members are read without top-level comparisons: `>` closes the literal.
          const value = this.SUBRULE(this.additiveExpr);
          this.ACTION(() => members.push({ label, value }));
        },
      });
      const close = this.CONSUME(Greater);
      return this.ACTION((): Expr => ({ kind: 'struct', members, loc: this.loc(open, close) }));
    },
    { recoveryValueFunc: recoveredExpr },
  );

  /** Everything that starts with a name: a pvariable, a function call `f[..]` or an aggregation `sum_{..}`. */
  private identifierExpr = this.RULE(
    'identifierExpr',
    (): Expr => {
      const name = this.CONSUME(Identifier);
      return this.OR([
        {
          // pyRDDLGym's `MultivariateNormal[?v](mean(_), cov(_, _))` and
          // `MultivariateStudent[?v](mean(_), cov(_, _), df)` (rddlsim does not reserve the names).
          GATE: () =>
            (name.image === 'MultivariateNormal' || name.image === 'MultivariateStudent') &&
            !this.declaredFluents.has(canonicalFluentName(name.image)),
          IGNORE_AMBIGUITIES: true,
          ALT: () => {
            this.CONSUME3(LBracket);
            const sampled: VariableRef[] = [];
            this.MANY_SEP({
              SEP: Comma,
              DEF: () => {
                const v = this.CONSUME3(Variable);
                this.ACTION(() => sampled.push({ kind: 'variable', name: v.image, loc: this.loc(v) }));
              },
            });
            this.CONSUME3(RBracket);
            this.CONSUME3(LParen);
            const args: Expr[] = [];
            this.AT_LEAST_ONE_SEP2({
              SEP: Comma,
              DEF: () => {
                const arg = this.SUBRULE3(this.expression);
                this.ACTION(() => args.push(arg));
              },
            });
            const close = this.CONSUME3(RParen);
            return this.ACTION((): Expr => ({
              kind: 'distribution',
              name: name.image as 'MultivariateNormal' | 'MultivariateStudent',
              args,
              sampled,
              loc: this.loc(name, close),
            }));
          },
        },
        {
          // pyRDDLGym's `inverse[row=?r, col=?c][e]`, `pinverse[...][e]` and `cholesky[...][e]`.
          GATE: () =>
            (MATRIX_OPERATIONS as readonly string[]).includes(name.image) &&
            this.LA(2).image === 'row' &&
            this.LA(3).tokenType === Assign,
          IGNORE_AMBIGUITIES: true,
          ALT: () => {
            this.CONSUME4(LBracket);
            const rowWord = this.CONSUME4(Identifier);
            this.CONSUME4(Assign);
            const row = this.CONSUME4(Variable);
            this.CONSUME4(Comma);
            const colWord = this.CONSUME5(Identifier);
            this.CONSUME5(Assign);
            const col = this.CONSUME5(Variable);
            this.CONSUME4(RBracket);
            this.CONSUME5(LBracket);
            const body = this.SUBRULE4(this.expression);
            const close = this.CONSUME5(RBracket);
            return this.ACTION((): Expr => {
              for (const [word, expected] of [
                [rowWord, 'row'],
                [colWord, 'col'],
              ] as const) {
                if (word.image !== expected) {
                  this.extraErrors.push({
                    severity: 'error',
                    message: `${name.image}[row=?r, col=?c][...] names the row variable, then the column variable: expected '${expected}', found '${word.image}'`,
                    location: this.loc(word),
                  });
                }
              }
              return {
                kind: 'call',
                name: name.image,
                nameLoc: this.loc(name),
                args: [body],
                matrix: {
                  row: { kind: 'variable', name: row.image, loc: this.loc(row) },
                  col: { kind: 'variable', name: col.image, loc: this.loc(col) },
                },
                loc: this.loc(name, close),
              };
            });
          },
        },
        {
          ALT: () => {
            this.CONSUME(LBracket);
            const args: Expr[] = [];
            this.AT_LEAST_ONE_SEP({
              SEP: Comma,
              DEF: () => {
                const arg = this.SUBRULE(this.expression);
                this.ACTION(() => args.push(arg));
              },
            });
            const close = this.CONSUME(RBracket);
            return this.ACTION((): Expr => ({
              kind: 'call',
              name: name.image,
              nameLoc: this.loc(name),
              args,
              loc: this.loc(name, close),
            }));
          },
        },
        {
          ALT: () => {
            const variables = this.SUBRULE(this.typedVariables);
            const body = this.SUBRULE1(this.expression);
            return this.ACTION((): Expr => this.namedOverVariables(name, variables, body));
          },
        },
        {
          // pyRDDLGym's `UnnormDiscrete(t, @a : w, ...)`: Discrete's form, weights normalised by their sum.
          GATE: () =>
            name.image === 'UnnormDiscrete' && !this.declaredFluents.has(canonicalFluentName(name.image)),
          IGNORE_AMBIGUITIES: true,
          ALT: () => {
            this.CONSUME2(LParen);
            const type = this.CONSUME1(Identifier);
            this.CONSUME1(Comma);
            const cases = this.SUBRULE(this.discreteCases);
            const close = this.CONSUME2(RParen);
            return this.ACTION((): Expr => ({
              kind: 'distribution',
              name: 'UnnormDiscrete',
              args: [],
              typeName: type.image,
              typeLoc: this.loc(type),
              cases,
              loc: this.loc(name, close),
            }));
          },
        },
        {
          // pyRDDLGym's distributions (`Binomial(n, p)`): parameters are expressions, not fluent arguments.
          GATE: () =>
            isPyRddlGymDistribution(name.image) && !this.declaredFluents.has(canonicalFluentName(name.image)),
          IGNORE_AMBIGUITIES: true,
          ALT: () => {
            this.CONSUME1(LParen);
            const args: Expr[] = [];
            this.AT_LEAST_ONE_SEP1({
              SEP: Comma,
              DEF: () => {
                const arg = this.SUBRULE2(this.expression);
                this.ACTION(() => args.push(arg));
              },
            });
            const close = this.CONSUME1(RParen);
            return this.ACTION((): Expr => {
              const distribution = name.image as PyRddlGymDistributionName;
              const arity = distributionArity(distribution);
              if (args.length !== arity) {
                this.extraErrors.push({
                  severity: 'error',
                  message: `${distribution} takes ${arity === 1 ? 'one parameter' : 'two parameters'}, not ${args.length}`,
                  location: this.loc(name, close),
                });
              }
              return { kind: 'distribution', name: distribution, args, loc: this.loc(name, close) };
            });
          },
        },
        { ALT: () => this.SUBRULE(this.pvarRest, { ARGS: [name] }) },
      ]);
    },
    { recoveryValueFunc: recoveredExpr },
  );

  /** What follows a pvariable's name: arguments, member accesses, `.default` — all optional. */
  private pvarRest = this.RULE(
    'pvarRest',
    (name: IToken): PvarRef => {
      const args: ArgTerm[] = [];
      let end = name;
      this.OPTION(() => {
        this.CONSUME(LParen);
        this.AT_LEAST_ONE_SEP({
          SEP: Comma,
          DEF: () => {
            const arg = this.SUBRULE(this.argument);
            this.ACTION(() => args.push(arg));
          },
        });
        end = this.CONSUME(RParen);
      });
      const ref = this.ACTION((): PvarRef => {
        const primed = name.image.endsWith("'");
        return {
          kind: 'pvar',
          name: primed ? name.image.slice(0, -1) : name.image,
          primed,
          args,
          nameLoc: this.loc(name),
          loc: this.loc(name, end),
        };
      });
      this.MANY(() => {
        this.CONSUME(Dot);
        this.OR([
          {
            ALT: () => {
              const keyword = this.CONSUME(K.default);
              this.ACTION(() => {
                ref.isDefault = true;
                ref.loc = this.span(ref.loc, this.loc(keyword));
              });
            },
          },
          {
            ALT: () => {
              const member = this.SUBRULE(this.memberTerm);
              this.ACTION(() => {
                (ref.members ??= []).push(member);
                ref.loc = this.span(ref.loc, member.loc);
              });
            },
          },
        ]);
      });
      return ref;
    },
    { recoveryValueFunc: recoveredPvar },
  );

  private memberTerm = this.RULE(
    'memberTerm',
    (): MemberTerm => {
      return this.OR([
        ...this.leafAlternatives(),
        {
          ALT: () => {
            this.CONSUME(LParen);
            const p = this.SUBRULE(this.pvarExpression);
            this.CONSUME(RParen);
            return p;
          },
        },
        {
          ALT: () => {
            this.CONSUME(LBracket);
            const p = this.SUBRULE1(this.pvarExpression);
            this.CONSUME(RBracket);
            return p;
          },
        },
      ]);
    },
    { recoveryValueFunc: recoveredPvar },
  );

  /** A pvariable on its own (cpf heads, nested arguments). */
  private pvarExpression = this.RULE(
    'pvarExpression',
    (): PvarRef => {
      const name = this.CONSUME(Identifier);
      return this.SUBRULE(this.pvarRest, { ARGS: [name] });
    },
    { recoveryValueFunc: recoveredPvar },
  );

  /**
   * A pvariable's argument: a term, or pyRDDLGym's expression giving an object or enum value, which its
   * grammar allows there: `argmax_{?o : t} e`, `argmin_{...}`, `Discrete_{?v : t} p(?v)` and
   * `UnnormDiscrete_{...}` (`SIZE(Discrete_{?i : item} [P(?i)])`).
   */
  private argument = this.RULE(
    'argument',
    (): ArgTerm => {
      return this.OR([
        {
          // `Discrete_{?v : t} p(?v)`, as in an expression.
          GATE: () => this.LA(2).tokenType === Underscore,
          ALT: () => {
            const keyword = this.CONSUME(K.Discrete);
            const variables = this.SUBRULE(this.typedVariables);
            const body = this.SUBRULE(this.expression);
            return this.ACTION((): ArgTerm => {
              const expr = overValues('Discrete', this.loc(keyword), variables, body);
              return { kind: 'expr', expr, loc: expr.loc };
            });
          },
        },
        {
          // `argmax_{?o : t} e`, `argmin_{...}` and `UnnormDiscrete_{...}`, as in an expression.
          GATE: () =>
            this.LA(2).tokenType === Underscore &&
            ['argmax', 'argmin', 'UnnormDiscrete'].includes(this.LA(1).image) &&
            !this.declaredFluents.has(canonicalFluentName(this.LA(1).image)),
          IGNORE_AMBIGUITIES: true,
          ALT: () => {
            const name = this.CONSUME(Identifier);
            const variables = this.SUBRULE1(this.typedVariables);
            const body = this.SUBRULE1(this.expression);
            return this.ACTION((): ArgTerm => {
              const expr = this.namedOverVariables(name, variables, body);
              return { kind: 'expr', expr, loc: expr.loc };
            });
          },
        },
        { ALT: () => this.SUBRULE(this.term) },
      ]);
    },
    { recoveryValueFunc: (): ArgTerm => ({ kind: 'variable', name: '?', loc: placeholderLoc }) },
  );

  /** A pvariable argument or switch subject: `?x`, `@e`, `$o` or a nested pvariable. */
  private term = this.RULE(
    'term',
    (): Term => {
      return this.OR([
        ...this.leafAlternatives(),
        { ALT: () => this.SUBRULE(this.pvarExpression) },
        {
          // pyRDDLGym's `_` in `Dirichlet[?v](alpha(_))`: every value of the sampled type (checked there).
          ALT: () => {
            const t = this.CONSUME(Underscore);
            return this.ACTION((): Term => ({ kind: 'variable', name: '_', loc: this.loc(t) }));
          },
        },
      ]);
    },
    { recoveryValueFunc: (): Term => ({ kind: 'variable', name: '?', loc: placeholderLoc }) },
  );
}

let sharedParser: RddlParser | undefined;

/**
 * Builds the lexer and the parser with chevrotain's checks of the token definitions and of the grammar,
 * which the shared ones skip; throws chevrotain's description of the first problem found.
 */
export function checkRddlGrammar(): void {
  createRddlLexer({ validate: true });
  new RddlParser({ validate: true });
}

/** The parser is expensive to build (grammar analysis) and stateless between runs, so one is shared. */
function getParser(): RddlParser {
  sharedParser ??= new RddlParser();
  return sharedParser;
}

/**
 * Builds the shared parser now (a grammar analysis of some 80 ms), so that the first text parsed later
 * does not wait for it: for work that will parse RDDL soon (a recording's session-init task).
 */
export function prepareRddlParser(): void {
  getParser();
}

/** A parsed text: its blocks (possibly partial when there are errors) and every problem found. */
export interface ParsedRddl {
  file: RddlFile;
  diagnostics: RddlDiagnostic[];
}

/**
 * Parses one RDDL text. Never throws: syntax errors come back as diagnostics with line:column and what was
 * expected, and the blocks that could be read are still returned (the parser recovers after an error).
 */
/**
 * Canonical names declared as pvariables (`name : {`, `name(...) : {` followed by a fluent kind), read from
 * the tokens before parsing, so expressions can tell a fluent from a distribution of the same name.
 */
function declaredFluentNames(tokens: readonly IToken[]): Set<string> {
  const kinds = new Set(PVAR_KINDS.map((kind) => K[kind]));
  const names = new Set<string>();
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (!kinds.has(tokens[i + 2]!.tokenType) || tokens[i + 1]!.tokenType !== LCurly) continue;
    if (tokens[i]!.tokenType !== Colon) continue;
    // Back from the colon: the name, or a parameter list and then the name.
    let j = i - 1;
    if (tokens[j]?.tokenType === RParen) {
      while (j >= 0 && tokens[j]!.tokenType !== LParen) j--;
      j--;
    }
    const name = tokens[j];
    if (name && tokenMatcher(name, Identifier)) names.add(canonicalFluentName(name.image));
  }
  return names;
}

export function parseRddlText(source: RddlSource): ParsedRddl {
  const lexed = tokenize(source.text);
  const diagnostics: RddlDiagnostic[] = [];
  for (const error of lexed.errors) {
    diagnostics.push({
      severity: 'error',
      message: describeUnknownCharacters(error.text),
      location: {
        source: source.name,
        line: error.line,
        column: error.column,
        endLine: error.line,
        endColumn: error.column + error.length,
        offset: error.offset,
      },
    });
  }
  for (const comment of lexed.comments) {
    if (comment.tokenType === BlockComment) {
      diagnostics.push({
        severity: 'error',
        message: 'RDDL has only // line comments (rddlsim cannot read /* ... */)',
        location: {
          source: source.name,
          line: comment.startLine ?? 1,
          column: comment.startColumn ?? 1,
          endLine: comment.endLine,
          endColumn: (comment.endColumn ?? 0) + 1,
          offset: comment.startOffset,
        },
      });
    }
  }
  const parser = getParser();
  parser.source = source.name;
  parser.declaredFluents = declaredFluentNames(lexed.tokens);
  parser.extraErrors = [];
  parser.extraWarnings = [];
  parser.input = lexed.tokens;
  let blocks: Block[] = [];
  try {
    blocks = parser.file() ?? [];
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    diagnostics.push({
      severity: 'error',
      message: 'the text is nested too deeply to read (too many brackets inside each other)',
      location: { source: source.name, line: 1, column: 1 },
    });
  }
  for (const error of parser.errors) {
    const token = error.token;
    const previous = (error as { previousToken?: IToken }).previousToken;
    // A missing separator is reported right after the text it should follow, where it has to be typed.
    const missingSeparator =
      /^expected ';'/.test(error.message) && previous && Number.isFinite(previous.endLine);
    const atEnd = token.tokenType.name === 'EOF' || missingSeparator;
    const last = missingSeparator ? previous : lexed.tokens[lexed.tokens.length - 1];
    const anchor = atEnd && last ? last : token;
    diagnostics.push({
      severity: 'error',
      message: error.message + reservedWordNote(token, lexed.tokens),
      location: {
        source: source.name,
        line: (atEnd ? anchor.endLine : anchor.startLine) ?? 1,
        column: (atEnd ? (anchor.endColumn ?? 0) + 1 : anchor.startColumn) ?? 1,
        endLine: anchor.endLine ?? anchor.startLine ?? 1,
        endColumn: (anchor.endColumn ?? anchor.startColumn ?? 0) + 1,
        offset: atEnd ? (anchor.endOffset ?? 0) + 1 : anchor.startOffset,
      },
    });
  }
  diagnostics.push(...parser.extraErrors, ...parser.extraWarnings);
  diagnostics.sort(compareDiagnostics);
  return { file: { source: source.name, blocks: blocks.filter((b) => b !== undefined) }, diagnostics };
}

/** When a reserved word is used like a name (followed by `:`, `(` or `,`), say so. */
function reservedWordNote(token: IToken, tokens: IToken[]): string {
  if (!token.tokenType.name.startsWith('Kw_')) return '';
  const next = tokens[tokens.indexOf(token) + 1]?.image;
  if (next !== ':' && next !== '(' && next !== ',') return '';
  return ` ('${token.image}' is a reserved word and cannot be used as a name)`;
}

function describeUnknownCharacters(text: string): string {
  if (text.startsWith("'")) {
    return "unexpected ': a prime goes right after a state fluent's name, as in running'(?x)";
  }
  if (text.startsWith('!')) return "unexpected '!': RDDL writes negation as ~";
  if (text.startsWith('%')) return "unexpected '%': RDDL writes the remainder as mod[a, b]";
  return `unexpected character${text.length > 1 ? 's' : ''} '${text}'`;
}

/** Orders diagnostics by position. */
export function compareDiagnostics(a: RddlDiagnostic, b: RddlDiagnostic): number {
  return a.location.line - b.location.line || a.location.column - b.location.column;
}
