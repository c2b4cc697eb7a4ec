/**
 * Where in an RDDL text a position is: outside any block, or inside a section of a domain, non-fluents or
 * instance block (found by following braces from the start). Completion uses it to offer what fits there.
 */
import type { IToken } from 'chevrotain';

/** The section a position is in. */
export type SectionContext =
  | 'top'
  | 'domain'
  | 'types'
  | 'pvariables'
  | 'expression'
  | 'objects'
  | 'init-state'
  | 'non-fluents'
  | 'instance';

const EXPRESSION_SECTIONS = new Set([
  'cpfs',
  'cdfs',
  'reward',
  'action-preconditions',
  'state-action-constraints',
  'state-invariants',
  'terminate-when',
  'terminal',
]);

/** The section containing the tokens before index `before`, and how deep in braces it is. */
export function sectionAt(
  tokens: readonly IToken[],
  before: number,
): { section: SectionContext; depth: number } {
  // A stack of the keywords that opened each enclosing brace.
  const stack: string[] = [];
  let lastKeyword = 'top';
  let pendingExpression: string | undefined;
  for (let i = 0; i < before; i++) {
    const t = tokens[i]!;
    if (t.tokenType.name.startsWith('Kw_')) {
      lastKeyword = t.image;
      if (t.image === 'reward' || t.image === 'terminate-when' || t.image === 'terminal')
        pendingExpression = t.image;
    }
    if (t.image === ';' && pendingExpression && stack.length <= 1) pendingExpression = undefined;
    if (t.image === '{') stack.push(lastKeyword);
    if (t.image === '}') stack.pop();
  }
  if (pendingExpression) return { section: 'expression', depth: stack.length };
  const inner = stack[stack.length - 1];
  if (inner === undefined) return { section: 'top', depth: 0 };
  const outer = stack[0];
  if (EXPRESSION_SECTIONS.has(inner) || stack.some((k) => EXPRESSION_SECTIONS.has(k))) {
    return { section: 'expression', depth: stack.length };
  }
  switch (inner) {
    case 'types':
      return { section: 'types', depth: stack.length };
    case 'pvariables':
      return { section: 'pvariables', depth: stack.length };
    case 'objects':
      return { section: 'objects', depth: stack.length };
    case 'init-state':
      return { section: 'init-state', depth: stack.length };
    case 'non-fluents':
      // The block's own braces hold its header (domain = ..., objects); the inner list holds assignments.
      return { section: stack.length === 1 ? 'instance' : 'non-fluents', depth: stack.length };
    case 'domain':
      return { section: 'domain', depth: stack.length };
    case 'instance':
      return { section: 'instance', depth: stack.length };
    default:
      // Inside a pvariable's { kind, range, default } or an object list.
      if (stack.includes('pvariables')) return { section: 'pvariables', depth: stack.length };
      if (stack.includes('objects')) return { section: 'objects', depth: stack.length };
      return { section: outer === 'domain' ? 'domain' : 'instance', depth: stack.length };
  }
}
