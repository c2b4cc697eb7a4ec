/**
 * Decoding MASSim frames, for both roles:
 * - `readClientFrame`: what the real server makes of an agent's frame (org.json reading, then its message
 *   classes), including the readings that silently kill its receive loop;
 * - `decodeServerFrame`: an agent's strict reading of a server frame, with the content checked field by
 *   field so a protocol machine can name what is wrong.
 */
import type { SourceLocation } from '../../errors';
import type { MassimAction } from '../../envs/massim/api';
import { findJsonSyntaxError } from '../../json/strict-json';
import {
  isOrgJsonNumber,
  javaOptLong,
  javaString,
  locateOffset,
  parseOrgJson,
  type OrgJsonError,
  type OrgJsonObject,
  type OrgJsonValue,
} from './org-json';
import type { MassimJudgedMessage } from './client-machine';
import { FrameMemo } from './frame-memo';
import { clientMessageTypes, serverMessageTypes, type MassimServerMessage } from './messages';

/** The real server's reading of one frame from an agent. */
export type ClientFrameReading =
  /** Not an org.json object: the receive loop stops for good (at the front desk: no reply). */
  | { kind: 'invalid-json'; error: OrgJsonError }
  /** `content` missing or not an object: the message is dropped before its type is looked at. */
  | { kind: 'no-content'; type: string }
  /** A type no message class exists for: dropped. */
  | { kind: 'unknown-type'; type: string }
  | { kind: 'auth-request'; user: string; password: string }
  | { kind: 'status-request' }
  /** `id` is -1 when missing or not a number (then no request can match it). */
  | { kind: 'action'; id: number; action: MassimAction }
  /** `p` missing or not an array: the server's receive loop dies on a NullPointerException. */
  | { kind: 'action-without-p'; id: number; got: string }
  /**
   * A message type only servers send. The server builds its message class from it: the receive loop dies
   * when that fails (anything short of a complete copy of a server message), otherwise it is dropped.
   */
  | { kind: 'server-message'; type: string; breaksReceiver: boolean };

/** Reads one client frame (text without its 0 byte) the way the real server does. */
export function readClientFrame(text: string): ClientFrameReading {
  return readPlainAction(text) ?? readWithOrgJson(text);
}

/** The readings of recent client frames, shared by every machine and reader in this thread (see `FrameMemo`). */
export const clientFrameReadings = new FrameMemo(4096, readClientFrame);

/** `readClientFrame` of message `index`'s text, remembered for the other machines and readers of it. */
export function readClientFrameOnce(index: number, text: string): ClientFrameReading {
  return clientFrameReadings.get(index, text);
}

/**
 * An action written the plain way (compact JSON, an integer id, a type and parameters of letters, digits
 * and underscores), as agents send thousands of times per second: read by one pattern instead of the
 * org.json reader. For such a text the reader would give exactly this, since nothing in it is open to
 * interpretation. Undefined for any other text.
 */
export function readPlainAction(text: string): ClientFrameReading | undefined {
  const match = PLAIN_ACTION.exec(text);
  if (!match) return undefined;
  const p = match[3]!;
  return {
    kind: 'action',
    id: Number(match[1]),
    action: { type: match[2]!, p: p === '' ? [] : p.slice(1, -1).split('","') },
  };
}

const PLAIN_ACTION =
  /^\{"type":"action","content":\{"id":(0|[1-9][0-9]{0,14}),"type":"(\w+)","p":\[((?:"\w*"(?:,"\w*")*)?)\]\}\}$/;

function readWithOrgJson(text: string): ClientFrameReading {
  const parsed = parseOrgJson(text);
  if (!parsed.ok) return { kind: 'invalid-json', error: parsed.error };
  const json = parsed.value;
  const typeValue = json.get('type');
  const type = typeValue === undefined || typeValue === null ? '' : javaString(typeValue);
  const content = json.get('content');
  if (!(content instanceof Map)) return { kind: 'no-content', type };
  switch (type) {
    case 'auth-request':
      return {
        kind: 'auth-request',
        user: optString(content, 'user', ''),
        password: optString(content, 'pw', ''),
      };
    case 'status-request':
      return { kind: 'status-request' };
    case 'action': {
      const id = javaOptLong(content.get('id'), -1);
      const p = content.get('p');
      if (!Array.isArray(p))
        return { kind: 'action-without-p', id, got: p === undefined ? 'no "p"' : javaString(p) };
      return {
        kind: 'action',
        id,
        action: {
          type: optString(content, 'type', 'unknown_action'),
          p: p.map((element) => (element === null ? '' : javaString(element))),
        },
      };
    }
    case 'auth-response':
    case 'bye':
      return { kind: 'server-message', type, breaksReceiver: false };
    case 'sim-start':
      return { kind: 'server-message', type, breaksReceiver: !completeSimStart(content) };
    case 'request-action':
      return { kind: 'server-message', type, breaksReceiver: !completeRequestAction(content) };
    case 'status-response':
      return { kind: 'server-message', type, breaksReceiver: !completeStatusResponse(content) };
    default:
      return { kind: 'unknown-type', type };
  }
}

/** `optString(key, fallback)`: missing or null gives the fallback, anything else its Java string. */
function optString(object: OrgJsonObject, key: string, fallback: string): string {
  const value = object.get(key);
  return value === undefined || value === null ? fallback : javaString(value);
}

function isJavaInt(value: OrgJsonValue | undefined): boolean {
  if (isOrgJsonNumber(value)) return true;
  return typeof value === 'string' && /^-?[0-9]+(\.[0-9]*)?$/.test(value);
}

function isObjectWith(
  value: OrgJsonValue | undefined,
  keys: Record<string, 'string' | 'int' | 'array' | 'bool'>,
) {
  if (!(value instanceof Map)) return false;
  return Object.entries(keys).every(([key, kind]) => {
    const field = value.get(key);
    if (kind === 'string')
      return field !== undefined && field !== null && !(field instanceof Map) && !Array.isArray(field);
    if (kind === 'int') return isJavaInt(field);
    if (kind === 'bool') return typeof field === 'boolean' || field === 'true' || field === 'false';
    return Array.isArray(field);
  });
}

// The server's SimStartMessage/StepPercept/StatusResponseMessage constructors call getX on these fields.
function completeSimStart(content: OrgJsonObject): boolean {
  return isObjectWith(content.get('percept'), {
    name: 'string',
    team: 'string',
    steps: 'int',
    teamSize: 'int',
    roles: 'array',
  });
}

function completeRequestAction(content: OrgJsonObject): boolean {
  return isObjectWith(content.get('percept'), {
    score: 'int',
    things: 'array',
    tasks: 'array',
    norms: 'array',
    lastAction: 'string',
    lastActionResult: 'string',
    lastActionParams: 'array',
    energy: 'int',
    deactivated: 'bool',
    role: 'string',
  });
}

function completeStatusResponse(content: OrgJsonObject): boolean {
  const teams = content.get('teams');
  const sizes = content.get('teamSizes');
  return (
    Array.isArray(teams) &&
    teams.every((team) => typeof team === 'string') &&
    Array.isArray(sizes) &&
    sizes.every(isJavaInt)
  );
}

/** Why a server frame is not a well-formed server message; ready to become a `Violation`. */
export interface ServerFrameProblem {
  expected: string;
  got: string;
  message: string;
  location?: SourceLocation;
}

/** An agent's reading of a server frame. */
export type ServerFrameDecoding =
  { ok: true; message: MassimServerMessage } | { ok: false; problem: ServerFrameProblem };

/** Parses a server frame as standard JSON and checks its envelope and content fields. */
export function decodeServerFrame(text: string, source?: string): ServerFrameDecoding {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return notJson(text, source);
  }
  return decodeServerJson(json);
}

function notJson(text: string, source: string | undefined): ServerFrameDecoding {
  const syntax = findJsonSyntaxError(text) ?? { message: 'not JSON', offset: 0 };
  return {
    ok: false,
    problem: {
      expected: 'a JSON object',
      got: `invalid JSON (${syntax.message})`,
      message: `The frame is not valid JSON: ${syntax.message}.`,
      location: locateOffset(text, syntax.offset, source),
    },
  };
}

/**
 * What both roles' machines need of one server frame, from a single parse: the server's view (it follows
 * `type`, `content.result` and a numeric `content.id` of any JSON) and the agent's strict decoding, with a
 * request-action's percept left out (no machine judges it, and readings are remembered).
 */
export type ServerFrameFacts =
  | { json: false }
  | { json: true; type: unknown; result: unknown; id: number | undefined; decoding: JudgedFrameDecoding };

/** The agent's reading of a server frame, as far as its machine judges it. */
export type JudgedFrameDecoding =
  { ok: true; message: MassimJudgedMessage } | { ok: false; problem: ServerFrameProblem };

/** Reads the facts of a server frame (see `ServerFrameFacts`); `serverFrameFacts` remembers recent ones. */
export function readServerFrameFacts(text: string): ServerFrameFacts {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { json: false };
  }
  const { type, content } = (json ?? {}) as { type?: unknown; content?: Record<string, unknown> };
  const id = content?.id;
  const decoded = decodeServerJson(json);
  let decoding: JudgedFrameDecoding = decoded;
  if (decoded.ok && decoded.message.type === 'request-action') {
    const { percept: _percept, ...judged } = decoded.message.content;
    decoding = { ok: true, message: { type: 'request-action', content: judged } };
  }
  return { json: true, type, result: content?.result, id: typeof id === 'number' ? id : undefined, decoding };
}

/**
 * The facts of recent server frames, shared by every machine and reader in this thread: validating a
 * recording and reading it for the views then parse each server frame once instead of three or four times.
 */
export const serverFrameFacts = new FrameMemo(4096, readServerFrameFacts);

/**
 * The agent's decoding of a server frame (message `index`), from the remembered facts when the frame is
 * JSON; `source` names the frame in the location of a syntax error.
 */
export function decodeServerFrameOnce(index: number, text: string, source?: string): JudgedFrameDecoding {
  const facts = serverFrameFacts.get(index, text);
  return facts.json ? facts.decoding : notJson(text, source);
}

function decodeServerJson(json: unknown): ServerFrameDecoding {
  if (!isRecord(json) || typeof json.type !== 'string' || !isRecord(json.content)) {
    return fail('{"type": <string>, "content": <object>}', describe(json));
  }
  const { type, content } = json;
  if (clientMessageTypes.has(type)) return fail('a server message type', `"${type}", which only agents send`);
  if (!serverMessageTypes.has(type)) return fail('a server message type', `"${type}"`);
  const wrong = checkContent(type as MassimServerMessage['type'], content);
  if (wrong) return fail(`${wrong.expected} in ${type}`, wrong.got);
  return { ok: true, message: json as unknown as MassimServerMessage };
}

function fail(expected: string, got: string): ServerFrameDecoding {
  return { ok: false, problem: { expected, got, message: `Expected ${expected}, got ${got}.` } };
}

type FieldKind = 'int' | 'natural' | 'positive' | 'number' | 'object' | 'string[]' | 'int[]';

const contentFields: Record<MassimServerMessage['type'], Record<string, FieldKind>> = {
  'auth-response': {},
  'sim-start': { time: 'int', percept: 'object' },
  'request-action': { step: 'natural', id: 'natural', time: 'int', percept: 'object', deadline: 'int' },
  'sim-end': { score: 'number', ranking: 'positive', time: 'int' },
  bye: {},
  'status-response': { teams: 'string[]', time: 'int', teamSizes: 'int[]', currentSimulation: 'int' },
};

/** `contentFields` as lists, built once: every server frame is checked. */
const contentFieldList = Object.fromEntries(
  Object.entries(contentFields).map(([type, fields]) => [type, Object.entries(fields)]),
) as Record<MassimServerMessage['type'], [string, FieldKind][]>;

function checkContent(
  type: MassimServerMessage['type'],
  content: Record<string, unknown>,
): { expected: string; got: string } | undefined {
  if (type === 'auth-response' && content.result !== 'ok' && content.result !== 'fail')
    return { expected: 'content.result "ok" or "fail"', got: describe(content.result) };
  for (const [key, kind] of contentFieldList[type]) {
    if (!matchesKind(content[key], kind))
      return { expected: `content.${key} (${kind})`, got: describe(content[key]) };
  }
  return undefined;
}

function matchesKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'int':
      return Number.isInteger(value);
    case 'natural':
      return Number.isInteger(value) && (value as number) >= 0;
    case 'positive':
      return Number.isInteger(value) && (value as number) >= 1;
    case 'number':
      return typeof value === 'number';
    case 'object':
      return isRecord(value);
    case 'string[]':
      return Array.isArray(value) && value.every((item) => typeof item === 'string');
    case 'int[]':
      return Array.isArray(value) && value.every((item) => Number.isInteger(item));
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short description of a JSON value for violation messages. */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
