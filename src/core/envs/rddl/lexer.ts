/**
 * RDDL tokens as rddlsim's lexer defines them: `//` comments, names that may contain `-` and end in a prime
 * (`running'`), `?var`, `@enum`, `$obj`, integers and `\d*\.\d+` reals, and reserved words that cannot be used
 * as names. Two forms rddlsim rejects are still recognised, so a learner gets an explanation instead of a
 * confusing "unexpected token": `/* *\/` block comments and exponent literals such as `1e3`.
 */
import { createToken, Lexer, type IToken, type TokenType } from 'chevrotain';
import { RESERVED_WORDS, type ReservedWord } from './reserved-words';

/** Names: a letter, then letters, digits, `-` or `_`, not ending in `-` or `_`, optionally primed. */
export const Identifier = createToken({
  name: 'Identifier',
  label: 'a name',
  pattern: /[A-Za-z](?:[A-Za-z0-9_-]*[A-Za-z0-9])?'?/,
});
/** Typed variables such as `?x`. */
export const Variable = createToken({
  name: 'Variable',
  label: 'a variable (?x)',
  pattern: /\?[A-Za-z0-9_-]*[A-Za-z0-9]/,
});
/** Enum values such as `@high` or `@3`. */
export const EnumValue = createToken({
  name: 'EnumValue',
  label: 'an enum value (@v)',
  pattern: /@[A-Za-z0-9_-]*[A-Za-z0-9]/,
});
/** Not RDDL (rddlsim has no exponent form); recognised only to explain the error. */
export const ExponentLiteral = createToken({
  name: 'ExponentLiteral',
  label: 'a number with an exponent',
  pattern: /\d*\.?\d+[eE][+-]?\d+/,
});
export const RealLiteral = createToken({ name: 'RealLiteral', label: 'a real number', pattern: /\d*\.\d+/ });
export const IntegerLiteral = createToken({ name: 'IntegerLiteral', label: 'an integer', pattern: /\d+/ });

export const WhiteSpace = createToken({
  name: 'WhiteSpace',
  pattern: /[ \t\r\n\b\f]+/,
  group: Lexer.SKIPPED,
});
export const LineComment = createToken({ name: 'LineComment', pattern: /\/\/[^\r\n]*/, group: 'comments' });
/** Not RDDL; recognised only to explain the error. */
export const BlockComment = createToken({
  name: 'BlockComment',
  pattern: /\/\*(?:[^*]|\*(?!\/))*(?:\*\/)?/,
  group: 'comments',
  line_breaks: true,
});

function keywordTokenName(word: string): string {
  return `Kw_${word.replace(/-/g, '_')}`;
}

/** Keyword token types by spelling. A keyword only matches as a whole name (`interval` is a name). */
export const KEYWORDS: Readonly<Record<ReservedWord, TokenType>> = Object.fromEntries(
  RESERVED_WORDS.map((word) => [
    word,
    createToken({
      name: keywordTokenName(word),
      label: `'${word}'`,
      pattern: new RegExp(word.replace(/-/g, '\\-')),
      longer_alt: Identifier,
    }),
  ]),
) as Record<ReservedWord, TokenType>;

function symbol(name: string, image: string): TokenType {
  const escaped = image.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return createToken({ name, label: `'${image}'`, pattern: new RegExp(escaped) });
}

export const Equiv = symbol('Equiv', '<=>');
export const Imply = symbol('Imply', '=>');
export const NotEqual = symbol('NotEqual', '~=');
export const LessEqual = symbol('LessEqual', '<=');
export const GreaterEqual = symbol('GreaterEqual', '>=');
export const Equal = symbol('Equal', '==');
export const Less = symbol('Less', '<');
export const Greater = symbol('Greater', '>');
export const Assign = symbol('Assign', '=');
export const And = symbol('And', '^');
export const Ampersand = symbol('Ampersand', '&');
export const Or = symbol('Or', '|');
export const Not = symbol('Not', '~');
export const Plus = symbol('Plus', '+');
export const Minus = symbol('Minus', '-');
export const Times = symbol('Times', '*');
export const Divide = symbol('Divide', '/');
export const LParen = symbol('LParen', '(');
export const RParen = symbol('RParen', ')');
export const LCurly = symbol('LCurly', '{');
export const RCurly = symbol('RCurly', '}');
export const LBracket = symbol('LBracket', '[');
export const RBracket = symbol('RBracket', ']');
export const Dot = symbol('Dot', '.');
export const Comma = symbol('Comma', ',');
export const Underscore = symbol('Underscore', '_');
export const Colon = symbol('Colon', ':');
export const Semicolon = symbol('Semicolon', ';');
export const Dollar = symbol('Dollar', '$');
export const Question = symbol('Question', '?');

/**
 * pyRDDLGym's `termination` section header. rddlsim does not reserve the word, so the token is also an
 * `Identifier` (its category) and names a fluent anywhere a name may stand.
 */
export const TerminationWord = createToken({
  name: 'TerminationWord',
  label: "'termination'",
  pattern: /termination/,
  longer_alt: Identifier,
  categories: [Identifier],
});

/** Reserved words sorted longest first, so `non-fluents` is tried before `non-fluent`. */
const keywordsLongestFirst = [...RESERVED_WORDS].sort((a, b) => b.length - a.length).map((w) => KEYWORDS[w]);

/** All token types in matching order. */
export const ALL_TOKENS: TokenType[] = [
  WhiteSpace,
  BlockComment,
  LineComment,
  ExponentLiteral,
  RealLiteral,
  IntegerLiteral,
  Variable,
  EnumValue,
  ...keywordsLongestFirst,
  TerminationWord,
  Identifier,
  Equiv,
  Imply,
  NotEqual,
  LessEqual,
  GreaterEqual,
  Equal,
  Less,
  Greater,
  Assign,
  And,
  Ampersand,
  Or,
  Not,
  Plus,
  Minus,
  Times,
  Divide,
  LParen,
  RParen,
  LCurly,
  RCurly,
  LBracket,
  RBracket,
  Dot,
  Comma,
  Underscore,
  Colon,
  Semicolon,
  Dollar,
  Question,
];

/**
 * Builds the RDDL lexer. Checking the token definitions costs more than building (a noticeable part of a
 * command's start-up), and they do not change at run time: `checkRddlGrammar` (parser.ts) checks them in
 * the tests instead.
 */
export function createRddlLexer({ validate = false }: { validate?: boolean } = {}): Lexer {
  return new Lexer(ALL_TOKENS, {
    positionTracking: 'full',
    ensureOptimizations: false,
    skipValidations: !validate,
  });
}

/**
 * The RDDL lexer (stateless; safe to share), built on first use: building it analyses every token's
 * pattern, which a command that never reads RDDL (or not before it listens) should not pay at start-up.
 */
let sharedLexer: Lexer | undefined;
function rddlLexer(): Lexer {
  sharedLexer ??= createRddlLexer();
  return sharedLexer;
}

/** The result of tokenising one text. */
export interface LexResult {
  tokens: IToken[];
  comments: IToken[];
  /** Characters that start no token: offset and length of each run. */
  errors: { offset: number; line: number; column: number; length: number; text: string }[];
}

/** Splits a text into tokens, comments (kept for folding and highlighting) and unknown characters. */
export function tokenize(text: string): LexResult {
  const result = rddlLexer().tokenize(text);
  return {
    tokens: result.tokens,
    comments: result.groups['comments'] ?? [],
    errors: result.errors.map((e) => ({
      offset: e.offset,
      line: e.line ?? 1,
      column: e.column ?? 1,
      length: e.length,
      text: text.slice(e.offset, e.offset + e.length),
    })),
  };
}
