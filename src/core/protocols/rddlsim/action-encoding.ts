/**
 * Turns what a policy returns into the `<action>` entries of an actions message, checking each against the
 * domain first: an unknown action name, a wrong number of arguments, an unknown object or a wrongly typed
 * value is reported before anything is sent, since the real server would silently ignore some of these
 * and kill the session over others.
 */
import type { FluentDecl, InstanceInfo } from '../../envs/rddl/api';
import { javaDoubleToString, javaIntegerToString } from './java-format';
import type { WireAction } from './messages';
import type { FluentValue, InstanceSummary } from './policy-api';

/** Why one returned action cannot be sent as it is. */
export interface ActionProblem {
  /** Position in the returned list (0 for a single action). */
  index: number;
  code: 'shape' | 'unknown-action' | 'not-an-action' | 'arity' | 'unknown-argument' | 'value-type';
  message: string;
}

/** The actions to send and what was wrong with the policy's answer. */
export interface EncodedActions {
  actions: WireAction[];
  problems: ActionProblem[];
  /** Entries left out because of a problem (only when not sending invalid actions). */
  dropped: number;
}

/** Options of `encodeActions`. */
export interface EncodeOptions {
  /** The instance to check against; without it only the shape is checked. */
  info?: InstanceInfo;
  /** Send actions with a domain problem anyway, to see what the server does (default false: drop them). */
  sendInvalid?: boolean;
}

/** Checks and encodes a policy's return value (one action, a list, or null/undefined/[] for noop). */
export function encodeActions(
  returned: unknown,
  { info, sendInvalid = false }: EncodeOptions = {},
): EncodedActions {
  const list =
    returned === null || returned === undefined ? [] : Array.isArray(returned) ? returned : [returned];
  const result: EncodedActions = { actions: [], problems: [], dropped: 0 };
  list.forEach((entry: unknown, index) => {
    const shaped = checkShape(entry, index);
    if ('problem' in shaped) {
      result.problems.push(shaped.problem);
      result.dropped++;
      return;
    }
    const problem = info ? checkAgainstDomain(shaped, index, info) : undefined;
    if (problem) result.problems.push(problem);
    if (problem && !sendInvalid) {
      result.dropped++;
      return;
    }
    const decl = info ? findAction(info, shaped.name) : undefined;
    result.actions.push({
      name: shaped.name,
      args: shaped.args,
      value: encodeValue(shaped.value, decl?.range),
    });
  });
  return result;
}

interface ShapedAction {
  name: string;
  args: string[];
  value: FluentValue;
}

function checkShape(entry: unknown, index: number): ShapedAction | { problem: ActionProblem } {
  const shape = (message: string) => ({ problem: { index, code: 'shape' as const, message } });
  if (typeof entry !== 'object' || entry === null)
    return shape(`action ${index} is ${describe(entry)}, not an object { name, args?, value? }`);
  const { name, args = [], value = true } = entry as { name?: unknown; args?: unknown; value?: unknown };
  if (typeof name !== 'string' || name === '')
    return shape(`action ${index} has no name (a non-empty string)`);
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string'))
    return shape(`the args of ${name} must be a list of strings, got ${describe(args)}`);
  if (
    typeof value !== 'boolean' &&
    typeof value !== 'string' &&
    !(typeof value === 'number' && Number.isFinite(value))
  )
    return shape(
      `the value of ${name} must be a boolean, a finite number or a string, got ${describe(value)}`,
    );
  return { name, args, value };
}

function checkAgainstDomain(
  action: ShapedAction,
  index: number,
  info: InstanceInfo,
): ActionProblem | undefined {
  const problem = (code: ActionProblem['code'], message: string): ActionProblem => ({ index, code, message });
  const decl = findAction(info, action.name);
  if (!decl) {
    const other = info.fluents.find((fluent) => canonical(fluent.name) === canonical(action.name));
    if (other) return problem('not-an-action', `${action.name} is a ${other.kind}, not an action fluent`);
    const known = actionFluents(info).map((fluent) => fluent.name);
    return problem(
      'unknown-action',
      `unknown action '${action.name}'; the actions are ${known.join(', ') || '(none)'}`,
    );
  }
  if (action.args.length !== decl.paramTypes.length) {
    const expected = decl.paramTypes.length ? `(${decl.paramTypes.join(', ')})` : 'no arguments';
    return problem('arity', `${decl.name} takes ${expected}, got ${action.args.length} argument(s)`);
  }
  for (let i = 0; i < action.args.length; i++) {
    const type = decl.paramTypes[i]!;
    const arg = action.args[i]!;
    const values = typeValues(info, type);
    const stored = arg.startsWith('$') ? arg.slice(1) : arg;
    if (!values.includes(stored)) {
      const hint = values.includes(`@${arg}`) ? ` (enum values need '@': '@${arg}')` : '';
      return problem('unknown-argument', `'${arg}' is not a ${type} (${preview(values)})${hint}`);
    }
  }
  return valueProblem(action, decl, info, index);
}

function valueProblem(
  action: ShapedAction,
  decl: FluentDecl,
  info: InstanceInfo,
  index: number,
): ActionProblem | undefined {
  const { value } = action;
  const wrong = (expected: string, hint = '') => ({
    index,
    code: 'value-type' as const,
    message: `${decl.name} takes ${expected}, got ${describe(value)}${hint}`,
  });
  switch (decl.range) {
    case 'bool':
      return typeof value === 'boolean' ? undefined : wrong('a boolean');
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= 2147483647
        ? undefined
        : wrong('an int (a whole number)');
    case 'real':
      return typeof value === 'number' ? undefined : wrong('a real number');
    default: {
      if (!info.types.some((type) => type.name === decl.range)) {
        // A vector (RDDL2 struct) type: the text rddlsim prints, `< @a: 1, @b: 2 >` (the simulator checks
        // the members).
        return typeof value === 'string' && value.trim().startsWith('<')
          ? undefined
          : wrong(`a ${decl.range} vector, written < @member: value, ... >`);
      }
      const values = typeValues(info, decl.range);
      if (typeof value === 'string' && values.includes(value.startsWith('$') ? value.slice(1) : value))
        return undefined;
      const hint =
        typeof value === 'string' && values.includes(`@${value}`)
          ? ` (enum values need '@': '@${value}')`
          : '';
      return wrong(`a ${decl.range} (${preview(values)})`, hint);
    }
  }
}

/** Wire text of a value, as rddlsim's Java client writes it (`true`, `2`, `0.5`, `1.0E-4`, `@high`). */
export function encodeValue(value: FluentValue, range?: string): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return value;
  if (range === 'real' || (range !== 'int' && !Number.isInteger(value))) return javaDoubleToString(value);
  return javaIntegerToString(value);
}

/** The instance facts a policy gets in `context.instance`. */
export function instanceSummary(info: InstanceInfo): InstanceSummary {
  const describeFluent = (fluent: FluentDecl) => ({
    name: fluent.name,
    params: fluent.paramTypes,
    range: fluent.range,
  });
  const objects: Record<string, string[]> = {};
  for (const type of info.types) objects[type.name] = [...type.values];
  return {
    domain: info.domain,
    instance: info.instance,
    horizon: info.horizon,
    terminateWhen: info.terminateWhen,
    discount: info.discount,
    maxNondefActions: info.maxNondefActions,
    partiallyObserved: info.partiallyObserved,
    actions: actionFluents(info).map((fluent) => ({
      ...describeFluent(fluent),
      default: fluent.default ?? false,
      ...(objects[fluent.range] ? { values: objects[fluent.range] } : {}),
    })),
    stateFluents: info.fluents.filter((fluent) => fluent.kind === 'state-fluent').map(describeFluent),
    observations: info.fluents.filter((fluent) => fluent.kind === 'observ-fluent').map(describeFluent),
    objects,
  };
}

function actionFluents(info: InstanceInfo): FluentDecl[] {
  return info.fluents.filter((fluent) => fluent.kind === 'action-fluent');
}

/** The action fluent a name denotes on the server: case-insensitive, `-` == `_`. */
function findAction(info: InstanceInfo, name: string): FluentDecl | undefined {
  const key = canonical(name);
  return actionFluents(info).find((fluent) => canonical(fluent.name) === key);
}

function canonical(name: string): string {
  return name.replace(/-/g, '_').toLowerCase();
}

function typeValues(info: InstanceInfo, type: string): string[] {
  return info.types.find((t) => t.name === type)?.values ?? [];
}

function preview(values: readonly string[]): string {
  if (values.length === 0) return 'none declared';
  return values.length <= 8
    ? values.join(', ')
    : `${values.slice(0, 8).join(', ')}, ... ${values.length} in all`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `a ${typeof value}`;
}
