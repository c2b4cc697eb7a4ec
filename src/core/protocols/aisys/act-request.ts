/**
 * Reading an `/act` request as the real server reads it, in its order (research notes 1.2, steps 1-4):
 * Werkzeug's `get_json()` (Content-Type, size, JSON), then an empty body, the protocol version and the
 * schema. The emulated server answers with what this finds; the machines judge recorded requests with it.
 */
import type { JsonValue } from '../../envs/aisys/api';
import { pythonEquals, pythonRepr, pythonTruthy } from '../../envs/aisys/python';
import type { HttpMessage } from '../contract';
import type { AisysRequest, ProtocolVersion } from './messages';
import {
  fromPythonJson,
  hasLongDigitRun,
  pythonBodyText,
  pythonBytesText,
  pythonJsonLoads,
  pythonReprOf,
  PYTHON_INT_MAX_DIGITS,
  tooDeepForPython,
  type PythonJson,
  type PythonLoads,
} from './python-loads';
import { describeSchemaProblem, NEEDS_PYTHON_READING, readVersionedBody } from './request-schema';

/** The real server's `MAX_CONTENT_LENGTH`. */
export const MAX_CONTENT_LENGTH = 1_000_000;

/**
 * What a request body is to the server: JSON (`value`, with the text `json.loads` read, and Python's own
 * reading of it when it was needed to read it at all), or the HTTP error `get_json()` raises.
 */
export type JsonBodyReading =
  | { ok: true; value: JsonValue; text: string; python?: PythonJson }
  | { ok: false; status: number; description?: string }
  /** Python's reading raised what the server does not catch (a `RecursionError`): a 500. */
  | { ok: false; status: 500; crash: { name: string; message: string } };

/** The text `json.loads` reads from a request's body: from its bytes when they are not UTF-8. */
function bodyText(request: HttpMessage): string | undefined {
  return request.bytes ? pythonBytesText(request.bytes) : pythonBodyText(request.body);
}

/**
 * Werkzeug's `get_json()`: 415 without a JSON Content-Type, 413 over 1,000,000 bytes, 400 if Python's
 * `json.loads` cannot read it (see `python-loads.ts`: encodings, NaN, long integers).
 */
export function readJsonBody(request: HttpMessage): JsonBodyReading {
  const headers = request.meta.headers ?? {};
  if (!isJsonContentType(headers['content-type'])) {
    return {
      ok: false,
      status: 415,
      description:
        "Did not attempt to load JSON data because the request Content-Type was not 'application/json'.",
    };
  }
  const declared = Number(headers['content-length']);
  if (
    (Number.isFinite(declared) && declared > MAX_CONTENT_LENGTH) ||
    (request.bytes?.length ?? utf8Length(request.body)) > MAX_CONTENT_LENGTH
  )
    return { ok: false, status: 413 };
  const text = bodyText(request);
  if (text === undefined) return { ok: false, status: 400 };
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    // What JSON.parse refuses and Python reads: NaN, Infinity, -Infinity.
    const python = pythonJsonLoads(text);
    if (!python.ok) return loadsFailure(python);
    return { ok: true, value: fromPythonJson(python.value), text, python: python.value };
  }
  // What JSON.parse reads and Python does not: a body nested too deep (Python's RecursionError)...
  const tooDeep = tooDeepForPython(text);
  if (tooDeep !== undefined)
    return { ok: false, status: 500, crash: { name: 'RecursionError', message: tooDeep } };
  // ...and an integer of more than 4,300 digits.
  if (hasLongDigitRun(text)) {
    const python = pythonJsonLoads(text);
    if (!python.ok) return loadsFailure(python);
    return { ok: true, value, text, python: python.value };
  }
  return { ok: true, value, text };
}

/** What `get_json()` makes of an exception of `json.loads`: a 400 for a `ValueError`, else a crash. */
export function loadsFailure(failure: Exclude<PythonLoads, { ok: true }>): JsonBodyReading & { ok: false } {
  return failure.error === 'ValueError'
    ? { ok: false, status: 400 }
    : { ok: false, status: 500, crash: { name: failure.error, message: failure.message } };
}

/** What an `/act` request is to the server. */
export type ActRequestReading =
  | { ok: true; version: ProtocolVersion; request: AisysRequest }
  /** Refused with an HTTP error (Werkzeug's default description when none is given). */
  | { ok: false; status: number; description?: string }
  /** The real server crashes on it: a Python exception in its own code (`TypeError`), a 500. */
  | { ok: false; status: 500; crash: { name: string; message: string } };

/**
 * Reads an `/act` request. With `faithfulBugs`, a body that is a number or `true` (or a string or list
 * holding `protocol_version`) crashes as on the real server, which searches it with Python's `in`.
 */
export function readActRequest(request: HttpMessage, { faithfulBugs = true } = {}): ActRequestReading {
  const json = readJsonBody(request);
  if (!json.ok) return json;
  try {
    return readActContent(json, faithfulBugs);
  } catch (error) {
    if (error instanceof PythonReadingFailed) return error.reading;
    throw error;
  }
}

/** Python's reading of a body that JSON.parse read could not be made (see `loadsFailure`). */
class PythonReadingFailed extends Error {
  constructor(readonly reading: JsonBodyReading & { ok: false }) {
    super('python reading failed');
  }
}

function readActContent(json: JsonBodyReading & { ok: true }, faithfulBugs: boolean): ActRequestReading {
  const content = json.value;
  // Python's reading of the body, read when a number's exact value matters (rarely).
  let python = json.python;
  const exactly = (): PythonJson => {
    if (python !== undefined) return python;
    const loaded = pythonJsonLoads(json.text);
    if (!loaded.ok) throw new PythonReadingFailed(loadsFailure(loaded));
    return (python = loaded.value);
  };
  if (!pythonTruthy(content)) return { ok: false, status: 400, description: 'Expected JSON body' };
  let version: JsonValue = 0;
  if (content !== null && typeof content === 'object' && !Array.isArray(content)) {
    if (Object.hasOwn(content, 'protocol_version')) version = content.protocol_version!;
  } else if (faithfulBugs) {
    const crash = searchCrash(content);
    if (crash) return { ok: false, status: 500, crash };
  }
  let known: ProtocolVersion;
  // Version 1, as every client of the course sends it, needs no comparing as Python compares.
  if (version === 1) known = 1;
  else if (pythonEquals(version, 0)) known = 0;
  else if (pythonEquals(version, 1)) known = 1;
  else
    return {
      ok: false,
      status: 400,
      description: `Unsupported protocol version ${versionRepr(version, exactly)}`,
    };
  let reading = readVersionedBody(content, known, python);
  // A number JavaScript cannot tell exactly (a huge integer, an integral float) in a field that reads it:
  // read again with Python's reading of the body.
  if (!reading.ok && reading.msg === NEEDS_PYTHON_READING && python === undefined)
    reading = readVersionedBody(content, known, exactly());
  if (!reading.ok)
    return { ok: false, status: 400, description: describeSchemaProblem(reading.loc, reading.msg) };
  const crash = known === 0 ? actionNumberCrashV0(content) : undefined;
  if (crash) return { ok: false, status: 500, crash };
  return { ok: true, version: known, request: reading.value };
}

/**
 * Python's `repr()` of each action of a request (read by `readActRequest`) as the server holds it, by its
 * index in `request.actions`, for the environments' messages: `[100000.0]`, where the action `JSON.parse`
 * read is `[100000]`. The value read shows the same unless a number in it may have been written otherwise
 * (an integral number may be a float, `100000.0`, or have lost digits) or an object's keys are in another
 * order (JavaScript puts integer-like keys first); only then is the body read as Python reads it, once.
 */
export function receivedActionReprs(message: HttpMessage, request: AisysRequest): (index: number) => string {
  let exact: PythonJson | undefined;
  let read = false;
  return (index) => {
    const { action } = request.actions[index]!;
    if (readsAlike(action)) return pythonRepr(action);
    if (!read) {
      read = true;
      const text = bodyText(message);
      const loaded = text === undefined ? undefined : pythonJsonLoads(text);
      if (loaded?.ok) exact = loaded.value;
    }
    // The same place in Python's reading of the body (versions 0 and 1 both list them under `actions`).
    const actions = exact instanceof Map ? exact.get('actions') : undefined;
    const item = Array.isArray(actions) ? actions[index] : undefined;
    const held = item instanceof Map ? item.get('action') : undefined;
    return held === undefined ? pythonRepr(action) : pythonReprOf(held);
  };
}

/**
 * Whether Python's `repr()` of a value shows the same whatever way the body wrote it: no number that is
 * integral or not finite (a finite fraction prints the same digits in both), no integer-like object key.
 */
function readsAlike(value: JsonValue): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && !Number.isInteger(value);
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) return value.every(readsAlike);
  for (const key in value) if (/^(?:0|[1-9]\d*)$/.test(key) || !readsAlike(value[key]!)) return false;
  return true;
}

/**
 * What upgrading a version 0 body raises: Python's `int()` of an action number of more than 4,300 digits
 * (leading zeros count).
 */
function actionNumberCrashV0(content: JsonValue): { name: string; message: string } | undefined {
  const actions = (content as { actions?: { run: string }[] }).actions ?? [];
  for (const { run } of actions) {
    const digits = run.slice(run.indexOf('#') + 1).replace(/\n$/, '').length;
    if (digits > PYTHON_INT_MAX_DIGITS)
      return {
        name: 'ValueError',
        message: `Exceeds the limit (${PYTHON_INT_MAX_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
      };
  }
  return undefined;
}

/**
 * The repr of an unsupported protocol version: a number or a container as Python holds it (`100000.0`,
 * `1e+300`, `{'b': 1, '1': 2}`); strings, booleans and null read the same either way.
 */
function versionRepr(version: JsonValue, exactly: () => PythonJson): string {
  if (version === null || (typeof version !== 'object' && typeof version !== 'number'))
    return pythonRepr(version);
  const exact = exactly();
  return exact instanceof Map && exact.has('protocol_version')
    ? pythonReprOf(exact.get('protocol_version')!)
    : pythonRepr(version);
}

/** What Python's `'protocol_version' in content` raises for a body that is not an object. */
function searchCrash(content: JsonValue): { name: string; message: string } | undefined {
  if (typeof content === 'number' || typeof content === 'boolean')
    return {
      name: 'TypeError',
      message: `argument of type '${typeof content === 'number' ? 'int' : 'bool'}' is not iterable`,
    };
  const holds =
    typeof content === 'string' || Array.isArray(content) ? content.includes('protocol_version') : false;
  if (!holds) return undefined;
  const kind = typeof content === 'string' ? 'string' : 'list';
  return { name: 'TypeError', message: `${kind} indices must be integers or slices, not str` };
}

/** Werkzeug's `is_json`: `application/json` or `application/*+json`, parameters allowed. */
export function isJsonContentType(header: string | undefined): boolean {
  // What nearly every client sends, answered without taking the header apart.
  if (header === 'application/json') return true;
  const type = (header ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** A string's length in UTF-8 bytes (counted only when it could matter). */
function utf8Length(text: string): number {
  if (text.length * 3 <= MAX_CONTENT_LENGTH) return text.length;
  return new TextEncoder().encode(text).length;
}
