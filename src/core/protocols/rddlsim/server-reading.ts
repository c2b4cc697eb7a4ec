/**
 * How the real rddlsim server reads client messages, down to its failures. It looks fields up anywhere
 * below the root (`getElementsByTagName`) and takes each match's first child node value verbatim; an empty
 * element anywhere in such a list is a NullPointerException. What happens after a failure depends on where
 * the server was (see `host.ts`), so readers report the failure and the host decides.
 */
import type { FluentDecl, GroundAction, RddlModel, RddlValue } from '../../envs/rddl/api';
import { parseJavaBoolean, parseJavaDouble, parseJavaInt, javaTrim } from './java-format';
import type { WireAction } from './messages';
import { descendantElements, firstChildValue, type XmlElement } from './xml';

/** A field list as `getTextValue` returns it, or the exception it throws. */
type FieldList = { ok: true; values: (string | null)[] } | { ok: false; reason: string };

/** `getTextValue(element, name)`: every descendant's first child value; an element without child throws. */
function readFieldList(element: XmlElement, name: string): FieldList {
  const values: (string | null)[] = [];
  for (const match of descendantElements(element, name)) {
    const value = firstChildValue(match);
    if (value === undefined) return { ok: false, reason: `<${name}> is empty (NullPointerException)` };
    values.push(value);
  }
  return { ok: true, values };
}

/** What the server takes from a `<session-request>`, or why it gives up (it then closes the connection). */
export type SessionRequestReading =
  | {
      ok: true;
      problemName: string;
      clientName: string | null;
      inputLanguage: 'rddl' | 'pddl';
      noHeader: boolean;
    }
  | { ok: false; reason: string };

/** Reads a session-request as `processXMLSessionRequest` does, in its order. */
export function readSessionRequest(root: XmlElement): SessionRequestReading {
  if (root.name !== 'session-request')
    return { ok: false, reason: `the root is <${root.name}>, not <session-request>` };
  const problem = readFieldList(root, 'problem-name');
  if (!problem.ok) return problem;
  if (problem.values.length === 0) return { ok: false, reason: 'there is no <problem-name>' };
  const client = readFieldList(root, 'client-name');
  if (!client.ok) return client;
  if (client.values.length === 0) return { ok: false, reason: 'there is no <client-name>' };
  const language = readFieldList(root, 'input-language');
  if (!language.ok) return language;
  const [languageText] = language.values;
  if (languageText === null)
    return { ok: false, reason: '<input-language> holds no text (NullPointerException)' };
  const problemName = problem.values[0];
  if (problemName === null || problemName === undefined)
    return { ok: false, reason: '<problem-name> holds no text (NullPointerException)' };
  return {
    ok: true,
    problemName,
    clientName: client.values[0] ?? null,
    inputLanguage: languageText !== undefined && javaTrim(languageText) === 'pddl' ? 'pddl' : 'rddl',
    noHeader: descendantElements(root, 'no-header').length > 0,
  };
}

/** Whether a round-request asks for a counted round, as a monitoring server reads it. */
export type ExecutePolicyReading = { ok: true; execute: boolean } | { ok: false; reason: string };

/** `execute-policy` in monitor mode: `yes` (trimmed) counts the round; missing or anything else is practice. */
export function readExecutePolicy(root: XmlElement): ExecutePolicyReading {
  const list = readFieldList(root, 'execute-policy');
  if (!list.ok) return list;
  const [first] = list.values;
  if (first === null) return { ok: false, reason: '<execute-policy> holds no text (NullPointerException)' };
  return { ok: true, execute: first !== undefined && javaTrim(first) === 'yes' };
}

/** One action as parsed, before the server applies it. */
export interface ParsedAction {
  decl: FluentDecl;
  /** Arguments as the server stores them: `$` stripped from objects, enum values with `@`. */
  args: string[];
  value: RddlValue;
}

/** The outcome of reading and applying an `<actions>` message, in the real server's terms. */
export type ActionsReading =
  /** Parsing failed: the server terminates the trial and closes the connection. */
  | { kind: 'terminate'; reason: string }
  /** A non-action fluent named with its default value: `System.exit(1)`, the whole server dies. */
  | { kind: 'exit'; reason: string }
  /** The action cannot be set (state fluent with a non-default value...): the round ends at once. */
  | { kind: 'not-applicable'; reason: string }
  | {
      kind: 'actions';
      /** Non-default actions the simulator applies (duplicates resolved: the last non-default wins). */
      actions: GroundAction[];
      /** Non-default entries, counted against max-nondef-actions, including ignored ones. */
      nondefaultCount: number;
      /** Entries the server stores where nothing reads them: wrong arity or unknown objects. */
      ignored: { name: string; args: string[]; reason: string }[];
    };

/**
 * Reads `<actions>` as `processXMLAction` does, then applies them as `State.setPVariables` does: names are
 * matched case-insensitively with `-` == `_`, values parsed by the fluent's declared range, defaults
 * dropped, non-action fluents failing in the server's particular ways.
 */
export function readActions(root: XmlElement, model: RddlModel): ActionsReading {
  const parsed: ParsedAction[] = [];
  for (const element of descendantElements(root, 'action')) {
    const action = parseAction(element, model);
    if ('reason' in action) return { kind: 'terminate', reason: action.reason };
    parsed.push(action);
  }
  return applyActions(parsed, model);
}

/**
 * Reads actions as the server reads the `<actions>` message a client writes for them, without writing it:
 * each action's name, arguments and value are the texts its elements would hold. Only for texts that
 * stand for themselves in XML, as those of actions checked against the domain do (names, objects, enum
 * values, numbers, booleans: no markup, no surrounding white space, none empty).
 */
export function readWireActions(actions: readonly WireAction[], model: RddlModel): ActionsReading {
  const parsed: ParsedAction[] = [];
  for (const action of actions) {
    const fields = parseActionFields([action.name], action.args, [action.value], model);
    if ('reason' in fields) return { kind: 'terminate', reason: fields.reason };
    parsed.push(fields);
  }
  return applyActions(parsed, model);
}

function parseAction(element: XmlElement, model: RddlModel): ParsedAction | { reason: string } {
  const names = readFieldList(element, 'action-name');
  if (!names.ok) return names;
  const args = readFieldList(element, 'action-arg');
  if (!args.ok) return args;
  const values = readFieldList(element, 'action-value');
  if (!values.ok) return values;
  return parseActionFields(names.values, args.values, values.values, model);
}

/** One action from the texts of its `<action-name>`, `<action-arg>` and `<action-value>` elements. */
function parseActionFields(
  names: readonly (string | null)[],
  args: readonly (string | null)[],
  values: readonly (string | null)[],
  model: RddlModel,
): ParsedAction | { reason: string } {
  if (names.length === 0) return { reason: 'an <action> has no <action-name> (IndexOutOfBoundsException)' };
  const storedArgs: string[] = [];
  for (const arg of args) {
    if (arg === null) return { reason: '<action-arg> holds no text (NullPointerException)' };
    if (arg === '' || arg === '$')
      return { reason: `empty object name '${arg}' (StringIndexOutOfBoundsException)` };
    storedArgs.push(arg.startsWith('@') ? arg : stripDollar(arg));
  }
  if (values.length === 0) return { reason: 'an <action> has no <action-value> (IndexOutOfBoundsException)' };
  const name = names[0];
  if (name === null || name === undefined)
    return { reason: '<action-name> holds no text (NullPointerException)' };
  const decl = name.endsWith("'") ? undefined : model.findFluent(name);
  if (!decl) return { reason: `no pvariable is named '${name}' (NullPointerException)` };
  const value = parseValue(values[0] ?? null, decl);
  if ('reason' in value) return value;
  return { decl, args: storedArgs, value: value.value };
}

/** `Server.getValue`: the text read by the declared range of the named fluent. */
function parseValue(text: string | null, decl: FluentDecl): { value: RddlValue } | { reason: string } {
  switch (decl.range) {
    case 'int': {
      const value = text === null ? undefined : parseJavaInt(text);
      return value === undefined
        ? { reason: `'${text}' is not an int for ${decl.name} (NumberFormatException)` }
        : { value };
    }
    case 'bool':
      return { value: text !== null && parseJavaBoolean(text) };
    case 'real': {
      const value = text === null ? undefined : parseJavaDouble(text);
      return value === undefined
        ? { reason: `'${text}' is not a real for ${decl.name} (NumberFormatException)` }
        : { value };
    }
    default:
      if (text === null)
        return { reason: `<action-value> of ${decl.name} holds no text (NullPointerException)` };
      if (text.startsWith('@')) return { value: text };
      if (text === '' || text === '$')
        return { reason: `empty object name '${text}' (StringIndexOutOfBoundsException)` };
      return { value: stripDollar(text) };
  }
}

/** `State.setPVariables` on the action fluents, plus the arity and object checks that decide what is read. */
function applyActions(parsed: readonly ParsedAction[], model: RddlModel): ActionsReading {
  const applied = new Map<string, GroundAction>();
  const ignored: { name: string; args: string[]; reason: string }[] = [];
  let nondefaultCount = 0;
  let notAnAction: string | undefined;
  for (const { decl, args, value } of parsed) {
    const isAction = decl.kind === 'action-fluent';
    if (!isAction) notAnAction ??= decl.name;
    const hasDefault = isAction || decl.kind === 'state-fluent' || decl.kind === 'non-fluent';
    // An action with no scalar default is vector-valued: rddlsim reads the value's text as an object name,
    // which never equals its default vector, so it always counts (the simulator then reads the text).
    const vectorAction = isAction && decl.default === undefined;
    if (vectorAction || (hasDefault && decl.default !== undefined && !javaEquals(decl.default, value))) {
      if (!isAction)
        return {
          kind: 'not-applicable',
          reason: `${decl.name} is a ${decl.kind}, not an action (NullPointerException)`,
        };
      nondefaultCount++;
      const problem = argumentProblem(decl, args, model);
      if (problem) ignored.push({ name: decl.name, args, reason: problem });
      else applied.set(`${decl.name}(${args.join(',')})`, { name: decl.name, args, value });
    } else if (decl.kind === 'observ-fluent') {
      return {
        kind: 'not-applicable',
        reason: `${decl.name} is an observ-fluent, not an action (NullPointerException)`,
      };
    }
  }
  if (notAnAction !== undefined)
    return {
      kind: 'exit',
      reason: `'${notAnAction}' is not an action fluent ("FATAL ERROR: '${notAnAction}' not defined")`,
    };
  return { kind: 'actions', actions: [...applied.values()], nondefaultCount, ignored };
}

/** Why a grounding matches none the simulator reads, or undefined when it is one. */
function argumentProblem(decl: FluentDecl, args: readonly string[], model: RddlModel): string | undefined {
  if (args.length !== decl.paramTypes.length)
    return `${decl.name} takes ${decl.paramTypes.length} argument(s), got ${args.length}`;
  for (let i = 0; i < args.length; i++) {
    const type = decl.paramTypes[i]!;
    if (!model.typeValues(type)?.includes(args[i]!)) return `'${args[i]}' is not a ${type}`;
  }
  return undefined;
}

/** Java's `equals` between a default and a parsed value of the same range (Double.equals is Object.is). */
function javaEquals(a: RddlValue, b: RddlValue): boolean {
  return typeof a === 'number' && typeof b === 'number' ? Object.is(a, b) : a === b;
}

function stripDollar(name: string): string {
  return name.startsWith('$') ? name.slice(1) : name;
}
