/**
 * Which variables are bound at a position, found from the tokens around it: the parameters of the cpf
 * head the position belongs to, and every `?x : type` of the quantifiers and aggregations before it in
 * the same statement. An approximation of real scoping, good enough for completion and hover.
 */
import type { IToken } from 'chevrotain';
import { canonicalFluentName } from '../names';
import type { SymbolIndex } from './symbols';

/** Bound variables (with `?`) and their types, innermost binding last. */
export function variablesInScope(
  tokens: readonly IToken[],
  before: number,
  index: SymbolIndex,
): Map<string, string> {
  // The statement starts after the previous `;`, or after the `{` of the section it is in.
  let start = before;
  for (let depth = 0; start > 0; start--) {
    const image = tokens[start - 1]!.image;
    if (depth === 0 && image === ';') break;
    if (image === ')' || image === ']' || image === '}') depth++;
    else if (image === '(' || image === '[' || image === '{') {
      if (depth === 0 && image === '{') break;
      if (depth > 0) depth--;
    }
  }
  const scope = new Map<string, string>();
  // A cpf head: name'(?x, ?y) = ...
  const head = tokens[start];
  if (head?.tokenType.name === 'Identifier' && tokens[start + 1]?.image === '(') {
    const pvariable = index.pvariables.get(canonicalFluentName(head.image.replace(/'$/, '')));
    let param = 0;
    for (let i = start + 2; i < before && tokens[i]!.image !== ')'; i++) {
      if (tokens[i]!.tokenType.name === 'Variable') {
        const type = pvariable?.decl.params[param]?.type;
        if (type) scope.set(tokens[i]!.image, type);
        param++;
      }
    }
  }
  for (let i = start; i < before && i + 2 < tokens.length; i++) {
    if (
      tokens[i]!.tokenType.name === 'Variable' &&
      tokens[i + 1]?.image === ':' &&
      tokens[i + 2]?.tokenType.name === 'Identifier'
    ) {
      scope.set(tokens[i]!.image, tokens[i + 2]!.image);
    }
  }
  return scope;
}
