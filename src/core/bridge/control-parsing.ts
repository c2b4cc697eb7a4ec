/**
 * Reading control messages off the wire. Each side checks every field of what it receives, so a malformed
 * message is answered with a sentence naming the field rather than with a crash further down.
 */
import {
  BRIDGE_TRANSPORTS,
  isChannelId,
  isPageChannelId,
  type BridgeMessage,
  type HttpHeaders,
  type PageMessage,
  type RelayedBody,
  type TargetInfo,
} from './control-protocol';

type Fields = Record<string, unknown>;

class MalformedMessage extends Error {}

function parseObject(text: string): Fields {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MalformedMessage('a control message must be JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new MalformedMessage('a control message must be a JSON object');
  const op = (value as Fields).op;
  if (typeof op !== 'string') throw new MalformedMessage('a control message needs an "op" string');
  return value as Fields;
}

function field<T>(message: Fields, name: string, check: (value: unknown) => value is T, expected: string): T {
  const value = message[name];
  if (!check(value)) throw new MalformedMessage(`"${message.op}" needs "${name}" as ${expected}`);
  return value;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isInteger = (value: unknown): value is number => Number.isSafeInteger(value);
const isOptionalString = (value: unknown): value is string | undefined =>
  value === undefined || typeof value === 'string';
const isHeaders = (value: unknown): value is HttpHeaders =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((item) => typeof item === 'string');
const isEndpointList = (value: unknown): value is TargetInfo[] =>
  Array.isArray(value) &&
  value.every(
    (item: Fields) =>
      typeof item === 'object' &&
      item !== null &&
      typeof item.name === 'string' &&
      typeof item.url === 'string' &&
      (BRIDGE_TRANSPORTS as readonly unknown[]).includes(item.transport),
  );
const isStatus = (value: unknown): value is number => isInteger(value) && value >= 100 && value <= 599;

function body(message: Fields): RelayedBody {
  const text = field(message, 'body', isString, 'a string');
  const base64 = field(message, 'bodyBase64', isOptionalString, 'a base64 string');
  return base64 === undefined ? { body: text } : { body: text, bodyBase64: base64 };
}

function requestFields(message: Fields, id: (value: unknown) => value is number) {
  return {
    id: field(message, 'id', id, 'a channel id'),
    exchange: field(message, 'exchange', isInteger, 'a whole number'),
    method: field(message, 'method', isString, 'a string'),
    path: field(message, 'path', isString, 'a string'),
    headers: field(message, 'headers', isHeaders, 'an object of strings'),
    ...body(message),
  };
}

function responseFields(message: Fields, id: (value: unknown) => value is number) {
  return {
    id: field(message, 'id', id, 'a channel id'),
    exchange: field(message, 'exchange', isInteger, 'a whole number'),
    status: field(message, 'status', isStatus, 'an HTTP status (100 to 599)'),
    headers: field(message, 'headers', isHeaders, 'an object of strings'),
    ...body(message),
  };
}

/** A page's control message, or a sentence saying what is wrong with it. */
export function readPageMessage(text: string): PageMessage | string {
  try {
    const message = parseObject(text);
    switch (message.op) {
      case 'hello':
        return { op: 'hello', token: field(message, 'token', isString, 'a string') };
      case 'open':
        return {
          op: 'open',
          id: field(message, 'id', isPageChannelId, 'a channel id from 1 to 2147483647'),
          target: field(message, 'target', isString, 'a target name'),
        };
      case 'close': {
        const reason = field(message, 'reason', isOptionalString, 'a string');
        const id = field(message, 'id', isChannelId, 'a channel id');
        return reason === undefined ? { op: 'close', id } : { op: 'close', id, reason };
      }
      case 'request':
        return { op: 'request', ...requestFields(message, isChannelId) };
      case 'response':
        return { op: 'response', ...responseFields(message, isChannelId) };
      case 'ping':
        return { op: 'ping', nonce: field(message, 'nonce', isInteger, 'a whole number') };
      default:
        return `unknown op "${String(message.op)}"`;
    }
  } catch (error) {
    if (error instanceof MalformedMessage) return error.message;
    throw error;
  }
}

/** A bridge's control message, or a sentence saying what is wrong with it. */
export function readBridgeMessage(text: string): BridgeMessage | string {
  try {
    const message = parseObject(text);
    switch (message.op) {
      case 'welcome':
        return {
          op: 'welcome',
          version: field(message, 'version', isInteger, 'a whole number'),
          targets: field(message, 'targets', isEndpointList, 'a list of {name, transport, url}'),
          listens: field(message, 'listens', isEndpointList, 'a list of {name, transport, url}'),
          ...(message.responseTimeoutMs === undefined
            ? {}
            : {
                responseTimeoutMs: field(
                  message,
                  'responseTimeoutMs',
                  (value: unknown): value is number => isInteger(value) && value > 0,
                  'a positive whole number of milliseconds',
                ),
              }),
        };
      case 'opened':
        return { op: 'opened', id: field(message, 'id', isChannelId, 'a channel id') };
      case 'error': {
        const id = message.id === undefined ? undefined : field(message, 'id', isChannelId, 'a channel id');
        const exchange =
          message.exchange === undefined
            ? undefined
            : field(message, 'exchange', isInteger, 'a whole number');
        return {
          op: 'error',
          message: field(message, 'message', isString, 'a string'),
          ...(id === undefined ? {} : { id }),
          ...(exchange === undefined ? {} : { exchange }),
        };
      }
      case 'closed': {
        const reason = field(message, 'reason', isOptionalString, 'a string');
        const id = field(message, 'id', isChannelId, 'a channel id');
        return reason === undefined ? { op: 'closed', id } : { op: 'closed', id, reason };
      }
      case 'accepted':
        return {
          op: 'accepted',
          id: field(message, 'id', isChannelId, 'a channel id'),
          listen: field(message, 'listen', isString, 'a string'),
          remote: field(message, 'remote', isString, 'a string'),
        };
      case 'request':
        return { op: 'request', ...requestFields(message, isChannelId) };
      case 'response':
        return { op: 'response', ...responseFields(message, isChannelId) };
      case 'pong':
        return { op: 'pong', nonce: field(message, 'nonce', isInteger, 'a whole number') };
      default:
        return `unknown op "${String(message.op)}"`;
    }
  } catch (error) {
    if (error instanceof MalformedMessage) return error.message;
    throw error;
  }
}
