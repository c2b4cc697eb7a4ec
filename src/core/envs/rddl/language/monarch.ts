/**
 * Syntax highlighting data for the Monaco editor, as plain objects (core does not depend on Monaco): a
 * Monarch tokenizer and the language configuration (comments, brackets, auto-closing pairs). The editor
 * registers them with `monaco.languages.setMonarchTokensProvider` and `setLanguageConfiguration`.
 */
import { RDDL_BUILTIN_TYPES, RDDL_DISTRIBUTIONS, RDDL_KEYWORDS } from './vocabulary';

/** A Monarch rule: a regular expression and the token class (or a case table keyed on the matched word). */
export type MonarchRule = [RegExp, string | { cases: Record<string, string> }];

/** A Monarch language definition (the subset of Monaco's IMonarchLanguage that RDDL uses). */
export interface MonarchLanguage {
  defaultToken: string;
  tokenPostfix: string;
  keywords: readonly string[];
  typeKeywords: readonly string[];
  distributions: readonly string[];
  brackets: { open: string; close: string; token: string }[];
  tokenizer: Record<string, MonarchRule[]>;
}

/** Monarch definition for RDDL. Token classes: keyword, type, predefined (distributions), variable, ... */
export const RDDL_MONARCH: MonarchLanguage = {
  defaultToken: '',
  tokenPostfix: '.rddl',
  keywords: RDDL_KEYWORDS.filter((w) => !RDDL_BUILTIN_TYPES.includes(w)),
  typeKeywords: RDDL_BUILTIN_TYPES,
  distributions: Object.keys(RDDL_DISTRIBUTIONS),
  brackets: [
    { open: '{', close: '}', token: 'delimiter.curly' },
    { open: '[', close: ']', token: 'delimiter.square' },
    { open: '(', close: ')', token: 'delimiter.parenthesis' },
  ],
  tokenizer: {
    root: [
      [/\/\/.*$/, 'comment'],
      [/\?[A-Za-z0-9_-]*[A-Za-z0-9]/, 'variable'],
      [/@[A-Za-z0-9_-]*[A-Za-z0-9]/, 'constant'],
      [/\$[A-Za-z][A-Za-z0-9_-]*/, 'constant'],
      [/\d*\.\d+|\d+/, 'number'],
      [
        /[A-Za-z](?:[A-Za-z0-9_-]*[A-Za-z0-9])?'?/,
        {
          cases: {
            '@keywords': 'keyword',
            '@typeKeywords': 'type',
            '@distributions': 'predefined',
            '@default': 'identifier',
          },
        },
      ],
      [/<=>|=>|~=|<=|>=|==|[=<>^&|~+\-*/]/, 'operator'],
      [/[{}()[\]]/, '@brackets'],
      [/[;,.:_]/, 'delimiter'],
    ],
  },
};

/** Comments, brackets and pairs for Monaco's `setLanguageConfiguration`. */
export const RDDL_LANGUAGE_CONFIGURATION = {
  comments: { lineComment: '//' },
  brackets: [
    ['{', '}'],
    ['[', ']'],
    ['(', ')'],
  ] as [string, string][],
  autoClosingPairs: [
    { open: '{', close: '}' },
    { open: '[', close: ']' },
    { open: '(', close: ')' },
  ],
  surroundingPairs: [
    { open: '{', close: '}' },
    { open: '[', close: ']' },
    { open: '(', close: ')' },
  ],
  /** Names include `-` and a final prime, so double-click selects `REBOOT-PROB` and `running'`. */
  wordPattern: /[?@$]?[A-Za-z][A-Za-z0-9_-]*'?|-?\d*\.\d+|-?\d+/,
};
