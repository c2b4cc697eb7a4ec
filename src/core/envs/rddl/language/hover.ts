/**
 * Hover information at a position: a fluent's declaration (with the comment written above it), a type and
 * its values, an object's or enum value's type, a variable's type, and what distributions and functions
 * compute. Returns markdown for the editor.
 */
import type { RddlSource } from '../api';
import { canonicalFluentName } from '../names';
import { tokenAt, tokenRange, tokensOf, type TextPosition, type TextRange } from './cursor';
import { variablesInScope } from './scopes';
import { indexSymbols, objectsOfType } from './symbols';
import { RDDL_AGGREGATIONS, RDDL_DISTRIBUTIONS, RDDL_FUNCTIONS } from './vocabulary';

/** Hover content: markdown paragraphs and the text they describe. */
export interface HoverInfo {
  contents: string[];
  range: TextRange;
}

const KIND_EXPLANATIONS: Record<string, string> = {
  'state-fluent':
    "a state fluent: part of the state; its cpf gives the next value (written with a prime, x')",
  'non-fluent': 'a non-fluent: a constant of the instance, set in a non-fluents block',
  'action-fluent': 'an action fluent: chosen by the agent each step',
  'interm-fluent':
    'an interm fluent: computed during a step from the state and actions, before the next state',
  'derived-fluent': 'a derived fluent: computed from the state after each step',
  'observ-fluent': 'an observation: what the agent sees in a partially observed domain',
};

const code = (text: string) => ['```rddl', text, '```'].join('\n');

/** Hover information for the token at `position` in the text named `sourceName`, if any. */
export function hoverAt(
  sources: readonly RddlSource[],
  sourceName: string,
  position: TextPosition,
): HoverInfo | undefined {
  const text = sources.find((s) => s.name === sourceName)?.text ?? '';
  const tokens = tokensOf(text);
  const found = tokenAt(tokens, position);
  if (!found) return undefined;
  const { token, index: at } = found;
  const range = tokenRange(token);
  const next = tokens[at + 1]?.image;
  const kind = token.tokenType.name;
  const reply = (...contents: string[]): HoverInfo => ({ contents, range });

  if (kind.startsWith('Kw_')) {
    const distribution = RDDL_DISTRIBUTIONS[token.image];
    if (distribution) return reply(code(distribution.signature), distribution.doc);
    const aggregation = RDDL_AGGREGATIONS[token.image];
    if (aggregation) return reply(code(`${token.image}_{?x : type} expression`), aggregation);
    const explanation = KIND_EXPLANATIONS[token.image];
    return explanation ? reply(explanation) : undefined;
  }
  const symbols = indexSymbols(sources);
  if (kind === 'Variable') {
    const type = variablesInScope(tokens, at + 1, symbols).get(token.image);
    return reply(
      code(`${token.image} : ${type ?? '?'}`),
      type ? `a variable ranging over ${type}` : 'a variable',
    );
  }
  if (kind === 'EnumValue') {
    const type = symbols.enumValues.get(token.image);
    if (!type) return undefined;
    const values = [...symbols.enumValues].filter(([, t]) => t === type).map(([v]) => v);
    return reply(code(`${token.image} : ${type}`), `a value of enum ${type}: ${values.join(', ')}`);
  }
  if (kind !== 'Identifier') return undefined;
  if (next === '_' && RDDL_AGGREGATIONS[token.image]) {
    return reply(code(`${token.image}_{?x : type} expression`), RDDL_AGGREGATIONS[token.image]!);
  }
  if (next === '[' && RDDL_FUNCTIONS[token.image]) {
    const fn = RDDL_FUNCTIONS[token.image]!;
    return reply(code(fn.signature), fn.doc);
  }
  const pvariable = symbols.pvariables.get(canonicalFluentName(token.image.replace(/'$/, '')));
  if (pvariable && tokens[at - 1]?.image !== '$') {
    const primed = token.image.endsWith("'") ? ' — primed: its value at the next step' : '';
    return reply(
      code(pvariable.text),
      `${KIND_EXPLANATIONS[pvariable.decl.kind] ?? pvariable.decl.kind}${primed}`,
      ...(pvariable.doc ? [pvariable.doc] : []),
    );
  }
  // pyRDDLGym's distributions are names, not reserved words: one only where no fluent has the name.
  const distribution =
    (next === '(' || next === '_' || next === '[') && !pvariable
      ? RDDL_DISTRIBUTIONS[token.image]
      : undefined;
  if (distribution) return reply(code(distribution.signature), distribution.doc);
  const type = symbols.types.get(token.image);
  if (type) {
    const values =
      type.decl.kind === 'enum' || type.decl.kind === 'enum-range'
        ? [...symbols.enumValues].filter(([, t]) => t === token.image).map(([v]) => v)
        : objectsOfType(symbols, token.image);
    return reply(code(type.text), values.length ? `values: ${values.join(', ')}` : 'no objects listed yet');
  }
  const object = symbols.objects.get(token.image);
  if (object) return reply(code(`${token.image} : ${object.type}`), `an object of type ${object.type}`);
  return undefined;
}
