/**
 * Reading an `/act` request as the real server reads it, in its order (research notes 1.2, steps 1-4):
 * Werkzeug's `get_json()` (Content-Type, size, JSON), then an empty body, the protocol version and the
 * schema. The emulated server answers with what this finds; the machines judge recorded requests with it.
 */
import type { JsonValue } from '../../envs/aisys/api';
import { pythonEquals, pythonRepr, pythonTruthy } from '../../envs/aisys/python';
import type { HttpMessage } from '../contract';
import type { AisysRequest, ProtocolVersion } from './messages';
import { describeSchemaProblem, readVersionedBody } from './request-schema';

/** The real server's `MAX_CONTENT_LENGTH`. */
export const MAX_CONTENT_LENGTH = 1_000_000;

/** What a request body is to the server: JSON, or the HTTP error `get_json()` raises. */
export type JsonBodyReading =
  { ok: true; value: JsonValue } | { ok: false; status: number; description?: string };

/** Werkzeug's `get_json()`: 415 without a JSON Content-Type, 413 over 1,000,000 bytes, 400 if unreadable. */
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
    utf8Length(request.body) > MAX_CONTENT_LENGTH
  )
    return { ok: false, status: 413 };
  try {
    return { ok: true, value: JSON.parse(request.body) as JsonValue };
  } catch {
    return { ok: false, status: 400 };
  }
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
  const content = json.value;
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
  else return { ok: false, status: 400, description: `Unsupported protocol version ${pythonRepr(version)}` };
  const reading = readVersionedBody(content, known);
  if (!reading.ok)
    return { ok: false, status: 400, description: describeSchemaProblem(reading.loc, reading.msg) };
  return { ok: true, version: known, request: reading.value };
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
