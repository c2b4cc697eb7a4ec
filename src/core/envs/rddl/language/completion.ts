/**
 * Completion candidates at a position: the fluent, type, object, enum value and variable names that fit
 * there, plus keywords, functions, distributions and block templates. Returns editor-neutral items; the
 * Monaco binding maps the kinds to its own.
 */
import type { IToken } from 'chevrotain';
import type { RddlSource } from '../api';
import { sectionAt } from './context';
import { tokenIndexAfter, tokensOf, type TextPosition } from './cursor';
import { variablesInScope } from './scopes';
import { indexSymbols, type SymbolIndex } from './symbols';
import { RDDL_AGGREGATIONS, RDDL_DISTRIBUTIONS, RDDL_FUNCTIONS } from './vocabulary';

/** What a completion item names. */
export type CompletionKind =
  | 'fluent'
  | 'type'
  | 'object'
  | 'enum-value'
  | 'variable'
  | 'keyword'
  | 'function'
  | 'distribution'
  | 'snippet';

/** One candidate. */
export interface CompletionItem {
  label: string;
  kind: CompletionKind;
  /** Short type information shown beside the label. */
  detail?: string;
  /** Longer explanation (markdown). */
  documentation?: string;
  /** Text to insert instead of the label; with `snippet`, in Monaco snippet syntax (`${1:name}`). */
  insertText?: string;
  snippet?: boolean;
}

/** The candidates and the start of the word they replace (up to the cursor). */
export interface CompletionResult {
  items: CompletionItem[];
  replaceFrom: TextPosition;
}

const FLUENT_KINDS = [
  'state-fluent',
  'non-fluent',
  'action-fluent',
  'interm-fluent',
  'derived-fluent',
  'observ-fluent',
];
const EXPRESSION_KEYWORDS = ['if', 'then', 'else', 'switch', 'case', 'default', 'true', 'false', 'otherwise'];
const BLOCK_SNIPPETS: CompletionItem[] = [
  {
    label: 'domain',
    kind: 'snippet',
    detail: 'domain block',
    insertText:
      'domain ${1:name} {\n\ttypes {\n\t\t${2:thing} : object;\n\t};\n\tpvariables {\n\t\t$0\n\t};\n\tcpfs {\n\t};\n\treward = 0;\n}',
    snippet: true,
  },
  {
    label: 'non-fluents',
    kind: 'snippet',
    detail: 'non-fluents block',
    insertText:
      'non-fluents ${1:name} {\n\tdomain = ${2:domain};\n\tobjects {\n\t\t$0\n\t};\n\tnon-fluents {\n\t};\n}',
    snippet: true,
  },
  {
    label: 'instance',
    kind: 'snippet',
    detail: 'instance block',
    insertText:
      'instance ${1:name} {\n\tdomain = ${2:domain};\n\tinit-state {\n\t\t$0\n\t};\n\tmax-nondef-actions = 1;\n\thorizon = 40;\n\tdiscount = 1.0;\n}',
    snippet: true,
  },
];

function fluentItem(index: SymbolIndex, canonical: string, primed = false): CompletionItem {
  const symbol = index.pvariables.get(canonical)!;
  const decl = symbol.decl;
  const params = decl.params.map((p) => p.type).join(', ');
  return {
    label: `${decl.name}${primed ? "'" : ''}`,
    kind: 'fluent',
    detail: `${decl.kind} ${decl.range}${params ? ` (${params})` : ''}`,
    documentation: ['```rddl', symbol.text, '```', ...(symbol.doc ? ['', symbol.doc] : [])].join('\n'),
  };
}

function typeItems(index: SymbolIndex, withBuiltins: boolean): CompletionItem[] {
  const items: CompletionItem[] = [...index.types.values()].map(({ decl, text }) => ({
    label: decl.name,
    kind: 'type' as const,
    detail:
      decl.kind === 'object'
        ? decl.parent
          ? `object type, subtype of ${decl.parent}`
          : 'object type'
        : `${decl.kind} type`,
    documentation: ['```rddl', text, '```'].join('\n'),
  }));
  if (withBuiltins)
    for (const t of ['bool', 'int', 'real'])
      items.push({ label: t, kind: 'keyword', detail: 'built-in type' });
  return items;
}

function objectItems(index: SymbolIndex, withDollar: boolean): CompletionItem[] {
  return [...index.objects].map(([name, { type }]) => ({
    label: withDollar ? `$${name}` : name,
    kind: 'object' as const,
    detail: `object of ${type}`,
  }));
}

/** After `@`: enum values, and the labels of vector members (`v.@pos.@x`). */
function enumItems(index: SymbolIndex): CompletionItem[] {
  const values = [...index.enumValues].map(([value, type]) => ({
    label: value,
    kind: 'enum-value' as const,
    detail: `value of ${type}`,
  }));
  const members = [...index.memberLabels]
    .filter(([label]) => !index.enumValues.has(label))
    .map(([label, types]) => ({
      label,
      kind: 'enum-value' as const,
      detail: `member of ${types.join(', ')}`,
    }));
  return [...values, ...members];
}

function expressionItems(index: SymbolIndex, primedStates: boolean): CompletionItem[] {
  const items: CompletionItem[] = [];
  for (const canonical of index.pvariables.keys()) {
    items.push(fluentItem(index, canonical));
    if (primedStates && index.pvariables.get(canonical)!.decl.kind === 'state-fluent') {
      items.push(fluentItem(index, canonical, true));
    }
  }
  for (const [name, { signature, doc, insertText }] of Object.entries(RDDL_FUNCTIONS)) {
    items.push({
      label: name,
      kind: 'function',
      detail: signature,
      documentation: doc,
      insertText: insertText ?? `${name}[$1]`,
      snippet: true,
    });
  }
  for (const [name, { signature, doc, insertText }] of Object.entries(RDDL_DISTRIBUTIONS)) {
    items.push({
      label: name,
      kind: 'distribution',
      detail: signature,
      documentation: doc,
      insertText: insertText ?? `${name}($1)`,
      snippet: true,
    });
  }
  for (const [name, doc] of Object.entries(RDDL_AGGREGATIONS)) {
    items.push({
      label: `${name}_`,
      kind: 'keyword',
      detail: `${name}_{?x : type} expression`,
      documentation: doc,
      insertText: `${name}_{?\${1:x} : \${2:type}} $0`,
      snippet: true,
    });
  }
  for (const word of EXPRESSION_KEYWORDS) items.push({ label: word, kind: 'keyword' });
  return items;
}

/** Candidates for completing the word that ends at `position` in the text named `sourceName`. */
export function completionsAt(
  sources: readonly RddlSource[],
  sourceName: string,
  position: TextPosition,
): CompletionResult {
  const text = sources.find((s) => s.name === sourceName)?.text ?? '';
  const lineText = text.split('\n')[position.line - 1] ?? '';
  const prefix = /[?@$]?[A-Za-z0-9_'-]*$/.exec(lineText.slice(0, position.column - 1))?.[0] ?? '';
  const replaceFrom = { line: position.line, column: position.column - prefix.length };
  const index = indexSymbols(sources);
  const tokens = tokensOf(text);
  const before = tokenIndexAfter(tokens, replaceFrom);
  const previous = tokens[before - 1];
  const beforePrevious = tokens[before - 2];
  const { section } = sectionAt(tokens, before);

  const result = (items: CompletionItem[]): CompletionResult => ({ items, replaceFrom });
  if (prefix.startsWith('?')) {
    const scope = variablesInScope(tokens, before, index);
    return result([...scope].map(([name, type]) => ({ label: name, kind: 'variable', detail: type })));
  }
  if (prefix.startsWith('@')) return result(enumItems(index));
  if (prefix.startsWith('$')) return result(objectItems(index, true));
  // `?x : ` in a quantifier, and parameter and range types of declarations.
  if (previous?.image === ':' && beforePrevious?.tokenType.name === 'Variable')
    return result(typeItems(index, false));
  switch (section) {
    case 'top':
      return result(BLOCK_SNIPPETS);
    case 'types':
      return result(
        previous?.image === ':' ? [{ label: 'object', kind: 'keyword' }, ...typeItems(index, false)] : [],
      );
    case 'pvariables': {
      const open = innermostOpen(tokens, before);
      if (open === '(') return result(typeItems(index, false));
      if (open !== '{') return result([]);
      if (previous?.image === '{') {
        return result(FLUENT_KINDS.map((k) => ({ label: k, kind: 'keyword' as const })));
      }
      if (previous?.image === ',' && beforePrevious && FLUENT_KINDS.includes(beforePrevious.image)) {
        return result(typeItems(index, true));
      }
      if (previous?.image === ',')
        return result(['default', 'level'].map((k) => ({ label: k, kind: 'keyword' as const })));
      return result([]);
    }
    case 'objects':
      return result(previous?.image === '{' || previous?.image === ';' ? typeItems(index, false) : []);
    case 'init-state':
    case 'non-fluents': {
      const kind = section === 'init-state' ? 'state-fluent' : 'non-fluent';
      if (previous?.image === '(' || previous?.image === ',')
        return result([...objectItems(index, false), ...enumItems(index)]);
      if (previous?.image === '=')
        return result([
          { label: 'true', kind: 'keyword' },
          { label: 'false', kind: 'keyword' },
          ...enumItems(index),
          ...objectItems(index, false),
        ]);
      return result(
        [...index.pvariables.keys()]
          .filter((c) => index.pvariables.get(c)!.decl.kind === kind)
          .map((c) => fluentItem(index, c)),
      );
    }
    case 'instance': {
      if (previous?.image === '=' && beforePrevious?.image === 'domain') {
        return result(
          index.blocks.filter((b) => b.kind === 'domain').map((b) => ({ label: b.name, kind: 'keyword' })),
        );
      }
      if (previous?.image === '=' && beforePrevious?.image === 'non-fluents') {
        return result(
          index.blocks
            .filter((b) => b.kind === 'non-fluents')
            .map((b) => ({ label: b.name, kind: 'keyword' })),
        );
      }
      return result(
        [
          'domain',
          'non-fluents',
          'objects',
          'init-state',
          'max-nondef-actions',
          'horizon',
          'terminate-when',
          'discount',
          'pos-inf',
        ].map((label) => ({ label, kind: 'keyword' as const })),
      );
    }
    case 'domain':
      return result(
        [
          'requirements',
          'types',
          'pvariables',
          'cpfs',
          'reward',
          'action-preconditions',
          'state-invariants',
          'objects',
        ].map((label) => ({
          label,
          kind: 'keyword' as const,
        })),
      );
    case 'expression': {
      const scope = variablesInScope(tokens, before, index);
      const variables: CompletionItem[] = [...scope].map(([name, type]) => ({
        label: name,
        kind: 'variable',
        detail: type,
      }));
      const inCpfs = tokens
        .slice(0, before)
        .some((t) => t.image === 'cpfs' || t.image === 'cdfs' || t.image === 'reward');
      return result([
        ...variables,
        ...expressionItems(index, inCpfs),
        ...enumItems(index),
        ...objectItems(index, true),
      ]);
    }
  }
}

/** The nearest bracket opened before `before` and not closed yet. */
function innermostOpen(tokens: readonly IToken[], before: number): string | undefined {
  let depth = 0;
  for (let i = before - 1; i >= 0; i--) {
    const image = tokens[i]!.image;
    if (image === ')' || image === '}' || image === ']') depth++;
    else if (image === '(' || image === '{' || image === '[') {
      if (depth === 0) return image;
      depth--;
    }
  }
  return undefined;
}
