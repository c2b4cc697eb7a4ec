/**
 * Reading a request body as the real server does: with pydantic v2 models in lax mode. Unknown fields are
 * ignored; strings must be strings; integers may come as `"3"`, `" 3.0 "` or `true`; booleans as
 * `"yes"`, `"off"`, `1` or `0.0`. The server reports only the first problem, in field order, as
 * `Malformed request body in field ('actions', 0, 'run'): 'Input should be a valid string'`.
 *
 * pydantic tells a JSON int from a float, which `JSON.parse` does not: an int of any size is an integer,
 * a float only within 64 bits (`1e19` is refused as too large, `1e400` as not finite). Where that matters
 * (a number at or past 2^53, or not finite), a reader asks for Python's reading of the body
 * (`NEEDS_PYTHON_READING`) and is called again with it (`exact`).
 */
import { pythonIntText, pythonRepr, pythonStringRepr } from '../../envs/aisys/python';
import { PythonFloat } from './python-json';
import { pythonJsonOf, type PythonJson } from './python-loads';
import type {
  AisysAction,
  AisysActionV0,
  AisysRequest,
  AisysRequestV0,
  JsonValue,
  ProtocolVersion,
} from './messages';

/** Where a problem is: field names and list positions from the body's root. */
export type SchemaLocation = readonly (string | number)[];

/** A reading: the value, or the first problem (pydantic's `loc` and `msg`). */
export type SchemaReading<T> = { ok: true; value: T } | { ok: false; loc: SchemaLocation; msg: string };

/**
 * Reads one value, with Python's reading of it when the body was read so (`exact`); a problem's `loc` is
 * relative to the value (the model or list holding it prefixes its key on the way out), so reading a sound
 * body builds no locations at all.
 */
type Reader<T> = (value: JsonValue, exact?: PythonJson) => SchemaReading<T>;

/**
 * The problem a reader reports when the value is a number JavaScript cannot tell exactly and no Python
 * reading was given: the caller reads the body again with one.
 */
export const NEEDS_PYTHON_READING = 'a number only Python reads exactly';

/** Whether JavaScript's number is the one Python read, whatever the body wrote (int or float). */
const isPlainNumber = (value: number) => Number.isFinite(value) && Math.abs(value) < 2 ** 53;

/** 2^63: pydantic reads a float as an integer only strictly between -2^63 and 2^63. */
const INT64_LIMIT = 2 ** 63;

/** A model field: required, or with a default used when the key is absent. */
interface FieldSpec<T> {
  read: Reader<T>;
  default?: () => T;
}

const fail = <T>(msg: string, loc: SchemaLocation = []): SchemaReading<T> => ({ ok: false, loc, msg });

/** A problem of a part, located from the value holding it. */
const within = <T>(key: string | number, problem: { loc: SchemaLocation; msg: string }): SchemaReading<T> =>
  fail(problem.msg, [key, ...problem.loc]);

const readString: Reader<string> = (value) =>
  typeof value === 'string' ? { ok: true, value } : fail('Input should be a valid string');

/** A decimal integer in a string: surrounding whitespace, a sign, single underscores and `.000` allowed. */
const INTEGER_TEXT = /^[+-]?\d(?:_?\d)*(?:\.0+)?$/;

const readInteger: Reader<number> = (value, exact) => {
  if (typeof value === 'boolean') return { ok: true, value: value ? 1 : 0 };
  if (typeof value === 'number') {
    // A JSON int: any size.
    if (typeof exact === 'bigint') return { ok: true, value: Number(exact) };
    let x = value;
    if (exact instanceof PythonFloat) x = exact.value;
    else if (!isPlainNumber(value)) return fail(NEEDS_PYTHON_READING);
    if (!Number.isFinite(x)) return fail('Input should be a finite number');
    if (!Number.isInteger(x))
      return fail('Input should be a valid integer, got a number with a fractional part');
    if (Math.abs(x) >= INT64_LIMIT)
      return fail('Unable to parse input string as an integer, exceeded maximum size');
    return { ok: true, value: x + 0 };
  }
  if (typeof value === 'string') {
    const text = value.trim();
    if (INTEGER_TEXT.test(text)) return { ok: true, value: Number(text.replaceAll('_', '')) + 0 };
    return fail('Input should be a valid integer, unable to parse string as an integer');
  }
  return fail('Input should be a valid integer');
};

const TRUE_WORDS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_WORDS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

const readBoolean: Reader<boolean> = (value, exact) => {
  if (typeof value === 'boolean') return { ok: true, value };
  const unreadable = 'Input should be a valid boolean, unable to interpret input';
  if (typeof value === 'number') {
    if (exact === undefined && !isPlainNumber(value)) return fail(NEEDS_PYTHON_READING);
    if (value === 0 || value === 1) return { ok: true, value: value === 1 };
    // Numbers other than 0 and 1 that are 64-bit integers cannot be interpreted; others are no booleans.
    const int64 =
      typeof exact === 'bigint'
        ? exact >= -(2n ** 63n) && exact < 2n ** 63n
        : Number.isInteger(value) && Math.abs(value) < INT64_LIMIT;
    return fail(int64 ? unreadable : 'Input should be a valid boolean');
  }
  if (typeof value === 'string') {
    const word = value.toLowerCase();
    if (TRUE_WORDS.has(word)) return { ok: true, value: true };
    if (FALSE_WORDS.has(word)) return { ok: true, value: false };
    return fail(unreadable);
  }
  return fail('Input should be a valid boolean');
};

const readAny: Reader<JsonValue> = (value) => ({ ok: true, value });

function listOf<T>(item: Reader<T>): Reader<T[]> {
  return (value, exact) => {
    if (!Array.isArray(value)) return fail('Input should be a valid list');
    const items: T[] = [];
    for (let i = 0; i < value.length; i++) {
      const reading = item(value[i]!, Array.isArray(exact) ? exact[i] : undefined);
      if (!reading.ok) return within(i, reading);
      items.push(reading.value);
    }
    return { ok: true, value: items };
  };
}

/** A pydantic model: fields read in declaration order, the first problem wins; other keys are ignored. */
function model<T>(name: string, fields: { [K in keyof T]: FieldSpec<T[K]> }): Reader<T> {
  const keys = Object.keys(fields) as (keyof T & string)[];
  return (value, exact) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return fail(`Input should be a valid dictionary or instance of ${name}`);
    const result = {} as T;
    for (const key of keys) {
      const field = fields[key];
      if (!Object.hasOwn(value, key)) {
        if (!field.default) return fail('Field required', [key]);
        result[key] = field.default();
        continue;
      }
      const reading = field.read(value[key]!, exact instanceof Map ? exact.get(key) : undefined);
      if (!reading.ok) return within(key, reading);
      result[key] = reading.value;
    }
    return { ok: true, value: result };
  };
}

const readActionV1Fields = model<AisysAction>('ActionV1', {
  action: { read: readAny },
  run: { read: readString },
  act_no: { read: readInteger },
});

/** An action, keeping the digits of an action number past 2^53 for the server's messages. */
const readActionV1: Reader<AisysAction> = (value, exact) => {
  const reading = readActionV1Fields(value, exact);
  if (reading.ok && !Number.isSafeInteger(reading.value.act_no)) {
    const written = (value as Record<string, JsonValue>).act_no;
    const python = exact instanceof Map ? exact.get('act_no') : undefined;
    exactActionNumbers.set(reading.value, exactIntegerText(written!, python, reading.value.act_no));
  }
  return reading;
};

/** The action numbers JavaScript's numbers do not hold exactly, as Python holds them (decimal digits). */
const exactActionNumbers = new WeakMap<AisysAction, string>();

/** The digits of an integer pydantic read from `value`: a JSON int's own, a string's, a float's value. */
function exactIntegerText(value: JsonValue, python: PythonJson | undefined, read: number): string {
  if (typeof python === 'bigint') return python.toString();
  if (typeof value === 'string') {
    const digits = value.trim().replaceAll('_', '').replace(/\.0+$/, '');
    return BigInt(digits.startsWith('+') ? digits.slice(1) : digits).toString();
  }
  return pythonIntText(read);
}

/**
 * An action number as the server prints it (`Wrong action number N`): every digit Python read, also past
 * what a JavaScript number holds.
 */
export function actionNumberText(action: AisysAction): string {
  return exactActionNumbers.get(action) ?? pythonIntText(action.act_no);
}

const readRequestV1 = model<AisysRequest>('RequestV1', {
  agent: { read: readString },
  pwd: { read: readString },
  actions: { read: listOf(readActionV1), default: () => [] },
  parallel_runs: { read: readBoolean, default: () => true },
  to_abandon: { read: listOf(readString), default: () => [] },
  client: { read: readString, default: () => '' },
});

/**
 * A version 0 run id, `"<run>#<action number>"`, checked with the server's `re.match('^[0-9]+#[0-9]+$')`
 * (where `$` also matches before a final newline).
 */
const readRunIdV0: Reader<string> = (value) => {
  const text = readString(value);
  if (!text.ok) return text;
  return /^[0-9]+#[0-9]+\n?$/.test(text.value) ? text : fail('Assertion failed, ');
};

const readActionV0 = model<AisysActionV0>('ActionV0', {
  run: { read: readRunIdV0 },
  action: { read: readAny },
});

const readRequestV0 = model<AisysRequestV0>('RequestV0', {
  agent: { read: readString },
  pwd: { read: readString },
  actions: { read: listOf(readActionV0), default: () => [] },
  single_request: { read: readBoolean, default: () => false },
});

/** The body of the admin's `makeenv`. */
export interface MakeEnvRequest {
  env_class: string;
  display_name: string;
  config: JsonValue;
  display_group: string;
  overwrite: boolean;
}

const readMakeEnv = model<MakeEnvRequest>('MakeEnvRequest', {
  env_class: { read: readString },
  display_name: { read: readString },
  config: { read: readAny },
  display_group: { read: readString, default: () => '' },
  overwrite: { read: readBoolean, default: () => false },
});

/**
 * Reads a `makeenv` body; `exactly` gives Python's reading of it, asked for when a number needs it (by
 * default the numbers as JavaScript read them).
 */
export function readMakeEnvBody(
  body: JsonValue,
  exactly: () => PythonJson = () => pythonJsonOf(body),
): SchemaReading<MakeEnvRequest> {
  const reading = readMakeEnv(body);
  return !reading.ok && reading.msg === NEEDS_PYTHON_READING ? readMakeEnv(body, exactly()) : reading;
}

/** Reads a version 1 body (with Python's reading of it, when there is one). */
export function readRequestBody(body: JsonValue, exact?: PythonJson): SchemaReading<AisysRequest> {
  return (exact === undefined ? readPlainRequestV1(body) : undefined) ?? readRequestV1(body, exact);
}

/**
 * A version 1 body as clients write it (every field of its own type: strings, a list of actions with
 * integer numbers, a boolean), read as `readRequestV1` reads it without its step-by-step readings: what a
 * recording's thousands of requests cost to check. Undefined for anything else (then read step by step,
 * which finds what is wrong, or what the server would make of it).
 */
function readPlainRequestV1(body: JsonValue): { ok: true; value: AisysRequest } | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { agent, pwd } = body;
  if (typeof agent !== 'string' || typeof pwd !== 'string' || !Object.hasOwn(body, 'agent')) return undefined;
  if (!Object.hasOwn(body, 'pwd')) return undefined;
  const sent = Object.hasOwn(body, 'actions') ? body.actions : [];
  const parallel = Object.hasOwn(body, 'parallel_runs') ? body.parallel_runs : true;
  const abandoned = Object.hasOwn(body, 'to_abandon') ? body.to_abandon : [];
  const client = Object.hasOwn(body, 'client') ? body.client : '';
  if (!Array.isArray(sent) || typeof parallel !== 'boolean' || !Array.isArray(abandoned)) return undefined;
  if (typeof client !== 'string') return undefined;
  const actions: AisysAction[] = [];
  for (const item of sent) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
    const { run, act_no } = item;
    if (!Object.hasOwn(item, 'action') || typeof run !== 'string' || !Object.hasOwn(item, 'run'))
      return undefined;
    if (typeof act_no !== 'number' || !Number.isSafeInteger(act_no) || !Object.hasOwn(item, 'act_no'))
      return undefined;
    actions.push({ action: item.action!, run, act_no: act_no + 0 });
  }
  const to_abandon: string[] = [];
  for (const run of abandoned) {
    if (typeof run !== 'string') return undefined;
    to_abandon.push(run);
  }
  return { ok: true, value: { agent, pwd, actions, parallel_runs: parallel, to_abandon, client } };
}

/** Reads a version 0 body (with Python's reading of it, when there is one). */
export function readRequestBodyV0(body: JsonValue, exact?: PythonJson): SchemaReading<AisysRequestV0> {
  return readRequestV0(body, exact);
}

/** A version 0 request as the version 1 request the server turns it into. */
export function upgradeRequestV0(request: AisysRequestV0): AisysRequest {
  return {
    agent: request.agent,
    pwd: request.pwd,
    actions: request.actions.map(({ run, action }) => {
      const [id, number] = run.split('#') as [string, string];
      const upgraded = { run: id, act_no: Number(number), action };
      // Python's int() keeps every digit.
      if (!Number.isSafeInteger(upgraded.act_no))
        exactActionNumbers.set(upgraded, BigInt(number.replace(/\n$/, '')).toString());
      return upgraded;
    }),
    parallel_runs: !request.single_request,
    to_abandon: [],
    client: '',
  };
}

/**
 * Reads a body in the given protocol version, upgraded to version 1; `exact` is Python's reading of the
 * body, when there is one.
 */
export function readVersionedBody(
  body: JsonValue,
  version: ProtocolVersion,
  exact?: PythonJson,
): SchemaReading<AisysRequest> {
  if (version === 1) return readRequestBody(body, exact);
  const reading = readRequestBodyV0(body, exact);
  return reading.ok ? { ok: true, value: upgradeRequestV0(reading.value) } : reading;
}

/** The server's description of a schema problem. */
export function describeSchemaProblem(loc: SchemaLocation, msg: string): string {
  return `Malformed request body in field ${pythonTuple(loc)}: ${pythonStringRepr(msg)}`;
}

/** A location as Python prints a tuple: `()`, `('pwd',)`, `('actions', 0, 'run')`. */
function pythonTuple(loc: SchemaLocation): string {
  const items = loc.map((part) => pythonRepr(part));
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
}
