/**
 * The responses of the real server, byte for byte, in its three shapes (research notes 1.7):
 * 1. an HTTP error raised in a JSON route: `{"errorcode": 401, "errorname": "Unauthorized", "description":
 *    "wrong password"}`, written with `json.dumps` (spaces, insertion order);
 * 2. an unhandled exception in a JSON route (a plugin crash): `jsonify` of the same three keys (compact,
 *    sorted), the description being the exception's class name (its traceback for an admin);
 * 3. routing errors (404, 405) and errors of HTML pages: Werkzeug's HTML error page.
 * Successful JSON answers are `jsonify`'s; Content-Type `application/json` without a charset.
 */
import type { HttpMessage } from '../contract';
import { flaskJson, pythonJsonDumps } from './python-json';
import type { AisysErrorBody } from './messages';

/** Werkzeug's name and default description of each status the server uses. */
export const HTTP_STATUS: Readonly<Record<number, { name: string; description: string }>> = {
  400: {
    name: 'Bad Request',
    description: 'The browser (or proxy) sent a request that this server could not understand.',
  },
  401: {
    name: 'Unauthorized',
    description:
      "The server could not verify that you are authorized to access the URL requested. You either supplied the wrong credentials (e.g. a bad password), or your browser doesn't understand how to supply the credentials required.",
  },
  404: {
    name: 'Not Found',
    description:
      'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.',
  },
  405: { name: 'Method Not Allowed', description: 'The method is not allowed for the requested URL.' },
  413: {
    name: 'Request Entity Too Large',
    description: 'The data value transmitted exceeds the capacity limit.',
  },
  415: {
    name: 'Unsupported Media Type',
    description: 'The server does not support the media type transmitted in the request.',
  },
  500: {
    name: 'Internal Server Error',
    description:
      'The server encountered an internal error and was unable to complete your request. Either the server is overloaded or there is an error in the application.',
  },
  503: {
    name: 'Service Unavailable',
    description:
      'The server is temporarily unable to service your request due to maintenance downtime or capacity problems. Please try again later.',
  },
};

const JSON_TYPE = 'application/json';
const HTML_TYPE = 'text/html; charset=utf-8';

function statusInfo(status: number): { name: string; description: string } {
  return HTTP_STATUS[status] ?? { name: `Error ${status}`, description: '' };
}

/** A 200 answer: `jsonify(value)`. */
export function jsonResponse(value: unknown): HttpMessage {
  return { meta: { status: 200, headers: { 'content-type': JSON_TYPE } }, body: flaskJson(value) };
}

/** Shape 1: an HTTP error raised in a JSON route, with its description (Werkzeug's default when absent). */
export function jsonErrorResponse(status: number, description?: string): HttpMessage {
  const info = statusInfo(status);
  const body: AisysErrorBody = {
    errorcode: status,
    errorname: info.name,
    description: description ?? info.description,
  };
  return { meta: { status, headers: { 'content-type': JSON_TYPE } }, body: pythonJsonDumps(body) };
}

/** Shape 2: an unhandled exception in a JSON route; `description` is its class name or traceback. */
export function crashResponse(description: string): HttpMessage {
  const body: AisysErrorBody = { errorcode: 500, errorname: statusInfo(500).name, description };
  return { meta: { status: 500, headers: { 'content-type': JSON_TYPE } }, body: flaskJson(body) };
}

/** Shape 3: Werkzeug's HTML error page. */
export function htmlErrorResponse(
  status: number,
  description?: string,
  headers: Record<string, string> = {},
): HttpMessage {
  const info = statusInfo(status);
  const body = [
    '<!doctype html>',
    '<html lang=en>',
    `<title>${status} ${info.name}</title>`,
    `<h1>${info.name}</h1>`,
    `<p>${escapeHtml(description ?? info.description).replaceAll('\n', '<br>')}</p>`,
    '',
  ].join('\n');
  return { meta: { status, headers: { 'content-type': HTML_TYPE, ...headers } }, body };
}

/** The empty answer Flask gives to OPTIONS, naming the route's methods. */
export function optionsResponse(allow: string): HttpMessage {
  return { meta: { status: 200, headers: { 'content-type': HTML_TYPE, allow } }, body: '' };
}

/** MarkupSafe's escaping, as Werkzeug applies it to descriptions. */
function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll("'", '&#39;')
    .replaceAll('"', '&#34;');
}
