/**
 * Protoplay's JSON transcript format (docs/transcript-format.md): the `Transcript` object as JSON, one
 * message or annotation per line so files diff well. Reading checks every field and says where a file is
 * wrong, since transcripts are pasted and hand-edited.
 */
import { ProtoplayError } from '../errors';
import { plainTranscriptSource, transcriptJson } from './json-export';
import {
  TRANSCRIPT_FORMAT_VERSION,
  type Annotation,
  type ConnectionInfo,
  type HttpMessageMeta,
  type Transcript,
  type TranscriptMessage,
} from './model';

const ANNOTATION_TYPES: readonly Annotation['type'][] = [
  'world',
  'policy-log',
  'error',
  'violation',
  'note',
  'reward',
];
const KINDS: readonly TranscriptMessage['kind'][] = ['data', 'open', 'close', 'error'];
const FRAMINGS: readonly string[] = ['nul', 'none', 'frame'];

/** Writes a transcript as Protoplay JSON (the one writer of `json-export.ts`, gathered into a string). */
export function serialiseTranscript(transcript: Transcript): string {
  return transcriptJson(plainTranscriptSource(transcript));
}

/** True when the text looks like a Protoplay JSON transcript (cheap test for format detection). */
export function looksLikeProtoplayJson(text: string): boolean {
  return /^\s*\{/.test(text) && /"format"\s*:\s*"protoplay-transcript"/.test(text.slice(0, 2000));
}

/**
 * Reads Protoplay JSON. Throws a ProtoplayError located at the JSON syntax error, or naming the first
 * field that is wrong (`messages[3].dir: expected "c2s" or "s2c"`). Connections used by messages but not
 * listed are added.
 */
export function parseTranscriptJson(text: string, source = 'transcript.json'): Transcript {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw jsonSyntaxError(text, error, source);
  }
  return checkTranscript(value, source);
}

/** A located error for text `JSON.parse` refused: line and column from the parser's message. */
export function jsonSyntaxError(text: string, error: unknown, source: string): ProtoplayError {
  const detail = error instanceof Error ? error.message : String(error);
  const lineColumn = /line (\d+) column (\d+)/.exec(detail);
  const position = /position (\d+)/.exec(detail);
  let line = 1;
  let column = 1;
  if (lineColumn) {
    line = Number(lineColumn[1]);
    column = Number(lineColumn[2]);
  } else if (position) {
    const before = text.slice(0, Number(position[1]));
    line = before.split('\n').length;
    column = before.length - before.lastIndexOf('\n');
  }
  const words = detail
    .replace(/\s*(?:in JSON )?at position \d+.*$/, '')
    .replace(/\s*\(line \d+ column \d+\)$/, '');
  return new ProtoplayError('transcript.json.syntax', `not valid JSON: ${words}`, { source, line, column });
}

class ShapeChecker {
  constructor(readonly source: string) {}

  fail(path: string, expected: string, got: unknown): never {
    const shown = got === undefined ? 'nothing' : JSON.stringify(got)?.slice(0, 60);
    throw new ProtoplayError('transcript.json.shape', `${path}: expected ${expected}, got ${shown}`, {
      source: this.source,
      line: 1,
      column: 1,
    });
  }

  record(value: unknown, path: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      this.fail(path, 'an object', value);
    return value as Record<string, unknown>;
  }

  array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) this.fail(path, 'a list', value);
    return value;
  }

  string(value: unknown, path: string): string {
    if (typeof value !== 'string') this.fail(path, 'a string', value);
    return value;
  }

  number(value: unknown, path: string): number {
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(path, 'a number', value);
    return value;
  }

  oneOf<T extends string>(value: unknown, options: readonly T[], path: string): T {
    if (!options.includes(value as T))
      this.fail(path, options.map((o) => JSON.stringify(o)).join(' or '), value);
    return value as T;
  }
}

function checkTranscript(value: unknown, source: string): Transcript {
  const check = new ShapeChecker(source);
  const root = check.record(value, 'transcript');
  if (root.format !== 'protoplay-transcript') check.fail('format', '"protoplay-transcript"', root.format);
  // Version 1 files hold the same fields as version 2 minus `channel` and `http`: they read unchanged.
  if (root.version !== 1 && root.version !== TRANSCRIPT_FORMAT_VERSION)
    check.fail('version', `1 or ${TRANSCRIPT_FORMAT_VERSION}`, root.version);
  const protocol = check.string(root.protocol, 'protocol');
  if (!/^[a-z][a-z0-9-]*$/.test(protocol)) check.fail('protocol', 'a protocol id like "rddlsim"', protocol);
  const startedAt = check.number(root.startedAt, 'startedAt');
  const meta: Transcript['meta'] = {};
  for (const [key, item] of Object.entries(check.record(root.meta ?? {}, 'meta'))) {
    if (!['string', 'number', 'boolean'].includes(typeof item))
      check.fail(`meta.${key}`, 'a string, number or boolean', item);
    meta[key] = item as string | number | boolean;
  }
  const connections: ConnectionInfo[] = check.array(root.connections ?? [], 'connections').map((item, i) => {
    const connection = check.record(item, `connections[${i}]`);
    const id = check.string(connection.id, `connections[${i}].id`);
    return connection.label === undefined
      ? { id }
      : { id, label: check.string(connection.label, `connections[${i}].label`) };
  });
  const messages = check.array(root.messages, 'messages').map((item, i) => checkMessage(check, item, i));
  for (const message of messages) {
    if (!connections.some((connection) => connection.id === message.conn))
      connections.push({ id: message.conn });
  }
  const annotations: Annotation[] = check.array(root.annotations ?? [], 'annotations').map((item, i) => {
    const annotation = check.record(item, `annotations[${i}]`);
    const index = check.number(annotation.index, `annotations[${i}].index`);
    if (messages.length > 0 && (index < 0 || index >= messages.length || !Number.isInteger(index)))
      check.fail(`annotations[${i}].index`, `a message index from 0 to ${messages.length - 1}`, index);
    return {
      index,
      type: check.oneOf(annotation.type, ANNOTATION_TYPES, `annotations[${i}].type`),
      data: annotation.data,
    };
  });
  return {
    format: 'protoplay-transcript',
    version: 2,
    protocol,
    startedAt,
    meta,
    connections,
    messages,
    annotations,
  };
}

function checkMessage(check: ShapeChecker, item: unknown, i: number): TranscriptMessage {
  const path = `messages[${i}]`;
  const message = check.record(item, path);
  if (message.index !== i)
    check.fail(`${path}.index`, `${i} (indices count from 0 without gaps)`, message.index);
  const kind = check.oneOf(message.kind, KINDS, `${path}.kind`);
  const result: TranscriptMessage = {
    index: i,
    conn: check.string(message.conn, `${path}.conn`),
    dir: check.oneOf(message.dir, ['c2s', 's2c'] as const, `${path}.dir`),
    t: check.number(message.t, `${path}.t`),
    kind,
  };
  if (message.text !== undefined) result.text = check.string(message.text, `${path}.text`);
  if (message.base64 !== undefined) result.base64 = check.string(message.base64, `${path}.base64`);
  if (kind === 'data' && (result.text === undefined) === (result.base64 === undefined))
    check.fail(path, 'exactly one of "text" and "base64" on a data message', message);
  if (message.framing !== undefined)
    result.framing = check.oneOf(
      message.framing,
      FRAMINGS,
      `${path}.framing`,
    ) as TranscriptMessage['framing'];
  if (message.channel !== undefined) result.channel = check.string(message.channel, `${path}.channel`);
  if (message.http !== undefined) result.http = checkHttp(check, message.http, `${path}.http`);
  return result;
}

function checkHttp(check: ShapeChecker, value: unknown, path: string): HttpMessageMeta {
  const http = check.record(value, path);
  const exchange = check.number(http.exchange, `${path}.exchange`);
  if (!Number.isInteger(exchange) || exchange < 0)
    check.fail(`${path}.exchange`, 'a message index', exchange);
  const result: HttpMessageMeta = { exchange };
  if (http.method !== undefined) result.method = check.string(http.method, `${path}.method`);
  if (http.path !== undefined) result.path = check.string(http.path, `${path}.path`);
  if (http.status !== undefined) result.status = check.number(http.status, `${path}.status`);
  if (http.headers !== undefined) {
    const headers: Record<string, string> = {};
    for (const [name, item] of Object.entries(check.record(http.headers, `${path}.headers`)))
      headers[name] = check.string(item, `${path}.headers.${name}`);
    result.headers = headers;
  }
  return result;
}
