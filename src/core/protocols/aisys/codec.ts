/**
 * Reading and writing aisys messages outside the server: what a client sends (in the course client's own
 * layout), what a response says (a version 1 or 0 answer, one of the three error shapes, an HTML page),
 * and which agent an exchange belongs to. Readers never throw: what they cannot read, they say.
 */
import type { HttpMessage } from '../contract';
import type {
  AisysActionRequest,
  AisysErrorBody,
  AisysMessage,
  AisysRequest,
  AisysResponse,
  JsonValue,
} from './messages';
import { pythonJsonDumps } from './python-json';

/** The last path asked about and its environment: a session's requests all go to the same path. */
let lastPath: { path: string | undefined; env: string | undefined } = { path: undefined, env: undefined };

/** The environment of an `/act/<env>` path (leading slashes and a query allowed), or undefined. */
export function actPathEnvironment(path: string | undefined): string | undefined {
  if (path !== undefined && lastPath.path === path) return lastPath.env;
  const env = readActPath(path);
  lastPath = { path, env };
  return env;
}

function readActPath(path: string | undefined): string | undefined {
  const match = /^\/+act\/([^/?]+)(?:\?.*)?$/.exec(path ?? '');
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

/**
 * The conversation an exchange belongs to: `env/agent` for an `/act` request whose body names an agent,
 * else undefined (admin and public routes). Every agent is one conversation, whatever connections carry it.
 */
export function aisysChannel(request: HttpMessage): string | undefined {
  const env = actPathEnvironment(request.meta.path);
  if (env === undefined) return undefined;
  try {
    const body = JSON.parse(request.body) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const agent = (body as Record<string, unknown>).agent;
      if (typeof agent === 'string') return `${env}/${agent}`;
    }
  } catch {
    // not JSON: no agent to name
  }
  return undefined;
}

/** A request body in the layout of the course's `client.py` (`json.dumps`, its key order). */
export function encodeRequestBody(request: AisysRequest, protocolVersion = 1): string {
  return pythonJsonDumps({
    protocol_version: protocolVersion,
    agent: request.agent,
    pwd: request.pwd,
    actions: request.actions.map((action) => ({
      run: action.run,
      act_no: action.act_no,
      action: action.action,
    })),
    to_abandon: request.to_abandon,
    parallel_runs: request.parallel_runs,
    client: request.client,
  });
}

/**
 * What keeps a value (an action) from being written as JSON, e.g. `NaN at .take`, or undefined when it
 * can be written. JSON has no NaN or Infinity: Python's `json.dumps` would write them as bare tokens, which
 * `requests` (the course client's HTTP library) refuses to send; the real server refuses a NaN action and
 * fails with a 500 on an infinite one. Nor has it anything for undefined, functions, symbols, bigints,
 * class instances (a `Map`, a `Date`) or cycles.
 */
export function unwritableJson(value: unknown, path = '', seen: Set<object> = new Set()): string | undefined {
  const at = path ? ` at ${path}` : '';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${value}${at}`;
    case 'undefined':
      return `undefined${at}`;
    case 'bigint':
      return `the bigint ${value}n${at}`;
    case 'symbol':
      return `a symbol${at}`;
    case 'function':
      return `a function${at}`;
  }
  if (value === null) return undefined;
  const object = value as object;
  const prototype = Object.getPrototypeOf(object) as object | null;
  // A plain object's prototype is some realm's Object.prototype, whose own prototype is null.
  if (!Array.isArray(object) && prototype !== null && Object.getPrototypeOf(prototype) !== null)
    return `${describeClass(object)}${at}`;
  if (seen.has(object)) return `a circular reference${at}`;
  seen.add(object);
  try {
    if (Array.isArray(object)) {
      // A hole of a sparse array is undefined too; `forEach` would skip it.
      for (let index = 0; index < object.length; index++) {
        const problem = unwritableJson(object[index], `${path}[${index}]`, seen);
        if (problem) return problem;
      }
      return undefined;
    }
    for (const [key, item] of Object.entries(object)) {
      const problem = unwritableJson(
        item,
        /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`,
        seen,
      );
      if (problem) return problem;
    }
    return undefined;
  } finally {
    seen.delete(object);
  }
}

function describeClass(object: object): string {
  const name = (object.constructor as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && name ? `an object of class ${name}` : 'an object that is not plain data';
}

/** The `/act` request of a body, as the course client sends it (PUT, JSON). */
export function actRequest(env: string, body: string, basePath = '/'): HttpMessage {
  const prefix = basePath.endsWith('/') ? basePath : `${basePath}/`;
  return {
    meta: {
      method: 'PUT',
      path: `${prefix}act/${encodeURIComponent(env)}`,
      headers: { 'content-type': 'application/json' },
    },
    body,
  };
}

/** What a response body says. */
export type ResponseReading =
  | { kind: 'v1'; response: AisysResponse }
  | { kind: 'v0'; requests: AisysActionRequest[]; errors: string[]; messages: string[] }
  | { kind: 'error'; error: AisysErrorBody }
  | { kind: 'html'; title: string }
  | { kind: 'unreadable'; problem: string };

/** Reads a response of the server: checks the shape of a success, an error body, or an HTML page. */
export function readResponse(response: HttpMessage): ResponseReading {
  const type = response.meta.headers?.['content-type'] ?? '';
  if (type.startsWith('text/html')) {
    const title = /<title>([^<]*)<\/title>/.exec(response.body)?.[1] ?? '';
    return { kind: 'html', title };
  }
  let value: unknown;
  try {
    value = JSON.parse(response.body);
  } catch {
    return { kind: 'unreadable', problem: response.body ? 'the body is not JSON' : 'the body is empty' };
  }
  if (!isRecord(value)) return { kind: 'unreadable', problem: 'the body is not a JSON object' };
  if ('errorcode' in value) {
    const { errorcode, errorname, description } = value;
    if (typeof errorcode !== 'number' || typeof errorname !== 'string' || typeof description !== 'string')
      return { kind: 'unreadable', problem: 'an error body needs errorcode, errorname and description' };
    return { kind: 'error', error: { errorcode, errorname, description } };
  }
  if ('action-requests' in value) return readVersion0(value);
  return readVersion1(value);
}

function readVersion1(value: Record<string, unknown>): ResponseReading {
  const { action_requests: requests, active_runs: active, messages, finished_runs: finished } = value;
  if (!(
    'action_requests' in value &&
    'active_runs' in value &&
    'messages' in value &&
    'finished_runs' in value
  )) {
    const missing = ['action_requests', 'active_runs', 'messages', 'finished_runs'].filter(
      (key) => !(key in value),
    );
    return { kind: 'unreadable', problem: `missing ${missing.join(', ')}` };
  }
  if (!Array.isArray(requests) || !requests.every(isActionRequest))
    return { kind: 'unreadable', problem: 'action_requests must be a list of {run, act_no, percept}' };
  if (!Array.isArray(active) || !active.every((run) => typeof run === 'string'))
    return { kind: 'unreadable', problem: 'active_runs must be a list of run ids (strings)' };
  if (!Array.isArray(messages) || !messages.every(isMessage))
    return { kind: 'unreadable', problem: 'messages must be a list of {type, content, run}' };
  if (!isRecord(finished)) return { kind: 'unreadable', problem: 'finished_runs must be an object' };
  return {
    kind: 'v1',
    response: {
      action_requests: requests,
      active_runs: active as string[],
      messages,
      finished_runs: finished as Record<string, JsonValue>,
    },
  };
}

function readVersion0(value: Record<string, unknown>): ResponseReading {
  const requests = value['action-requests'];
  const { errors, messages } = value;
  if (!Array.isArray(requests)) return { kind: 'unreadable', problem: 'action-requests must be a list' };
  const read: AisysActionRequest[] = [];
  for (const request of requests) {
    const match =
      isRecord(request) && typeof request.run === 'string' ? /^(\d+)#(\d+)$/.exec(request.run) : null;
    if (!match || !('percept' in (request as object)))
      return { kind: 'unreadable', problem: 'an action request needs run "<id>#<number>" and percept' };
    read.push({
      run: match[1]!,
      act_no: Number(match[2]),
      percept: (request as { percept: JsonValue }).percept,
    });
  }
  const strings = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string');
  if (!strings(errors) || !strings(messages))
    return { kind: 'unreadable', problem: 'errors and messages must be lists of strings' };
  return { kind: 'v0', requests: read, errors: errors as string[], messages: messages as string[] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isActionRequest(value: unknown): value is AisysActionRequest {
  return (
    isRecord(value) &&
    typeof value.run === 'string' &&
    typeof value.act_no === 'number' &&
    Number.isInteger(value.act_no) &&
    'percept' in value
  );
}

function isMessage(value: unknown): value is AisysMessage {
  return (
    isRecord(value) &&
    (value.type === 'info' || value.type === 'warning' || value.type === 'error') &&
    typeof value.content === 'string' &&
    (value.run === null || value.run === undefined || typeof value.run === 'string')
  );
}
