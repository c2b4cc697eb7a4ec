/**
 * A starting policy for an RDDL instance the playground has no sample for (a domain opened or pasted, or a
 * built-in one without a heuristic): it lists the domain's action fluents with their types, and plays one
 * grounding of each in turn, written against the editor's generated types so it compiles as it is and a
 * wrong name or object is an editor error. The learner replaces the choice with their own reasoning.
 */
import type { FluentDecl, InstanceInfo, RddlValue } from '../../envs/rddl/api';

/** The first line of every starting policy; names the domain it was generated for. */
export const STARTER_POLICY_MARK = '// Starting policy for the RDDL domain ';

/** The domain a starting policy was generated for, or undefined when the code is not one. */
export function starterPolicyDomain(code: string): string | undefined {
  if (!code.startsWith(STARTER_POLICY_MARK)) return undefined;
  return code.slice(STARTER_POLICY_MARK.length).split(/[\s(]/, 1)[0] || undefined;
}

/** A literal of a value in TypeScript. */
const literal = (value: RddlValue | string): string => JSON.stringify(value);

/** A value of the action's range other than its default, so taking it is an action; undefined if none. */
function nonDefaultValue(action: FluentDecl, info: InstanceInfo): RddlValue | undefined {
  const fallback = action.default;
  switch (action.range) {
    case 'bool':
      return fallback !== true;
    case 'int':
    case 'real':
      return typeof fallback === 'number' && fallback !== 0 ? 0 : 1;
    default: {
      const values = info.types.find((type) => type.name === action.range)?.values ?? [];
      return values.find((value) => value !== fallback) ?? values[0];
    }
  }
}

/** How the declaration of an action reads in the comment (`reboot(computer): bool, default false`). */
function describeAction(action: FluentDecl): string {
  const params = action.paramTypes.length ? `(${action.paramTypes.join(', ')})` : '';
  const fallback = action.default === undefined ? '' : `, default ${String(action.default)}`;
  return `${action.name}${params}: ${action.range}${fallback}`;
}

/** One grounding of each action fluent, with a non-default value, as TypeScript object literals. */
function exampleActions(info: InstanceInfo, actions: readonly FluentDecl[]): string[] {
  return actions.flatMap((action) => {
    const args = action.paramTypes.map((type) => info.types.find((t) => t.name === type)?.values[0]);
    const value = nonDefaultValue(action, info);
    if (args.some((arg) => arg === undefined) || value === undefined) return [];
    const argsField = args.length ? `, args: [${args.map((arg) => literal(arg!)).join(', ')}]` : '';
    return [`{ name: ${literal(action.name)}${argsField}, value: ${literal(value)} }`];
  });
}

/** The starting policy of an instance, in TypeScript at the policy level. */
export function starterPolicy(info: InstanceInfo): string {
  const actions = info.fluents.filter((fluent) => fluent.kind === 'action-fluent');
  const examples = exampleActions(info, actions);
  const limit = Number.isFinite(info.maxNondefActions)
    ? `at most ${info.maxNondefActions} taken per step`
    : 'any number taken per step';
  const lines = [
    `${STARTER_POLICY_MARK}${info.domain} (instance ${info.instance}), generated from its action fluents.`,
    '// Replace the choice in act() with your own reasoning; the editor knows every name and object.',
    '//',
    `// Action fluents (${limit}):`,
    ...(actions.length ? actions.map((a) => `//   ${describeAction(a)}`) : ['//   (none)']),
    '',
    '// One grounding of each action, with a value other than its default.',
    `const ACTIONS: Action[] = [${examples.length ? '\n' + examples.map((e) => `  ${e},`).join('\n') + '\n' : ''}];`,
    '',
    'export function act(observation: Observation, context: PolicyContext): Actions {',
    '  // One action per step, each in turn; null does nothing (the baseline to beat).',
    '  if (ACTIONS.length === 0) return null;',
    '  return ACTIONS[(observation.turn - 1) % ACTIONS.length]!;',
    '}',
    '',
  ];
  return lines.join('\n');
}
