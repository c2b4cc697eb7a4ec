/**
 * The wire level of aisys: the learner writes the request loop. `onMessage(response, context)` gets the
 * last response (`null` before the first request) and returns the next request's body; returning `null`
 * (or nothing) ends the session. What it returns is sent as `PUT <url>act/<env>` with
 * `Content-Type: application/json`:
 *
 * - a string is the body exactly as written (to see what the server makes of broken JSON);
 * - `{http: {method?, path?, headers?, body}}` sends another request (a `POST`, another path, another
 *   Content-Type), the body as a string or as JSON;
 * - anything else is written as JSON.
 */
import type { HttpMessage } from '../../contract';
import { actRequest } from '../codec';
import type { JsonValue } from '../messages';

/** What `onMessage` gets: the server's last answer. */
export interface AisysWireResponse {
  status: number;
  /** Header names in lower case (the ones the protocol reads). */
  headers: Record<string, string>;
  /** The body as sent. */
  text: string;
  /** The body read as JSON; null when it is not JSON (an HTML page). */
  body: JsonValue;
  /** From sending the request to the answer, in ms. */
  ms: number;
}

/** The request a wire-level policy's answer stands for, or why it cannot be sent. */
export function wireRequest(
  value: unknown,
  env: string,
  basePath: string,
): { ok: true; request: HttpMessage } | { ok: false; problem: string } {
  const standard = (body: string) => ({ ok: true as const, request: actRequest(env, body, basePath) });
  if (typeof value === 'string') return standard(value);
  if (isRecord(value) && Object.keys(value).length === 1 && isRecord(value.http)) {
    const { method = 'PUT', path, headers, body = '' } = value.http;
    if (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method))
      return { ok: false, problem: 'http.method must be a method name such as "PUT"' };
    if (path !== undefined && (typeof path !== 'string' || !path.startsWith('/')))
      return { ok: false, problem: 'http.path must be a path starting with "/"' };
    if (
      headers !== undefined &&
      (!isRecord(headers) || !Object.values(headers).every((h) => typeof h === 'string'))
    )
      return { ok: false, problem: 'http.headers must map header names to strings' };
    const base = actRequest(env, '', basePath);
    const lowered = Object.fromEntries(
      Object.entries((headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    return {
      ok: true,
      request: {
        meta: {
          method: method.toUpperCase(),
          path: path ?? base.meta.path!,
          headers: headers === undefined ? { ...base.meta.headers } : lowered,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      },
    };
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return { ok: false, problem: `the body cannot be written as JSON: ${String(error)}` };
  }
  if (text === undefined) return { ok: false, problem: 'the body cannot be written as JSON' };
  return standard(text);
}

/** The response as `onMessage` sees it. */
export function wireResponse(response: HttpMessage, ms: number): AisysWireResponse {
  let body: JsonValue = null;
  try {
    body = JSON.parse(response.body) as JsonValue;
  } catch {
    // not JSON (an HTML error page): the text says it all
  }
  return {
    status: response.meta.status ?? 0,
    headers: response.meta.headers ?? {},
    text: response.body,
    body,
    ms,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
