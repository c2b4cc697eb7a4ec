/**
 * The control protocol between the page and `protoplay bridge`, over one WebSocket (docs/bridge.md). Text
 * frames carry the JSON control messages below; binary frames carry a channel's data behind a 5-byte
 * header. Both sides (the bridge in `cli/bridge/`, the page's client here) read and write it through this
 * file only, so they cannot disagree on a field.
 */

/** How a target or a listen port carries messages: the `kind` of the contract's `Transport`. */
export type BridgeTransport = 'tcp' | 'http' | 'websocket';

/** Every transport, in the order help lists them. */
export const BRIDGE_TRANSPORTS: readonly BridgeTransport[] = ['tcp', 'http', 'websocket'];

/** A server the bridge may connect to, named on its command line; the page only ever sees the name. */
export interface TargetInfo {
  name: string;
  transport: BridgeTransport;
  /** Where it is, for people (`tcp://127.0.0.1:2323`). */
  url: string;
}

/** A port the bridge listens on; connections accepted there are handed to the page. */
export interface ListenInfo {
  name: string;
  transport: BridgeTransport;
  /** The bound address (`tcp://127.0.0.1:2323`). */
  url: string;
}

/** Headers of a relayed HTTP request or response: names in lower case. */
export type HttpHeaders = Record<string, string>;

/**
 * An HTTP body as JSON carries it: text when it is valid UTF-8, otherwise base64 in `bodyBase64` (then
 * `body` is empty).
 */
export interface RelayedBody {
  body: string;
  bodyBase64?: string;
}

/** Control messages the page sends. */
export type PageMessage =
  /** The first message: proves the page was given the bridge's link. */
  | { op: 'hello'; token: string }
  /** Connects to a named target; `id` is chosen by the page (1 to 2^31 - 1) and names the channel. */
  | { op: 'open'; id: number; target: string }
  /** Closes a channel (an outbound connection or an accepted one). */
  | { op: 'close'; id: number; reason?: string }
  /** An HTTP request on a channel opened to an HTTP target; `exchange` pairs it with its response. */
  | ({
      op: 'request';
      id: number;
      exchange: number;
      method: string;
      path: string;
      headers: HttpHeaders;
    } & RelayedBody)
  /** The page's answer to a request accepted on an HTTP listen port. */
  | ({ op: 'response'; id: number; exchange: number; status: number; headers: HttpHeaders } & RelayedBody)
  /** Asks for a `pong` (the page's liveness check). */
  | { op: 'ping'; nonce: number };

/** Control messages the bridge sends. */
export type BridgeMessage =
  /** The token was right: what the page may use. */
  | {
      op: 'welcome';
      version: number;
      targets: TargetInfo[];
      listens: ListenInfo[];
      /**
       * How long an answer may take (the bridge's `--response-timeout`): its HTTP relays give up after it,
       * and the page ends a session whose server owes an answer and sends nothing for that long. Bridges
       * older than this field leave it out; the page then waits 30 s.
       */
      responseTimeoutMs?: number;
    }
  /** A channel the page opened is connected. */
  | { op: 'opened'; id: number }
  /** Something failed; with `id` it concerns that channel (which is then closed), without it the request. */
  | { op: 'error'; id?: number; exchange?: number; message: string }
  /** The other end closed the channel (or the bridge did: `reason` says why). */
  | { op: 'closed'; id: number; reason?: string }
  /** A connection accepted on a listen port; its data and requests follow on channel `id`. */
  | { op: 'accepted'; id: number; listen: string; remote: string }
  /** An HTTP request accepted on a listen port: the page answers with `response`. */
  | ({
      op: 'request';
      id: number;
      exchange: number;
      method: string;
      path: string;
      headers: HttpHeaders;
    } & RelayedBody)
  /** The response to a page's `request`. */
  | ({ op: 'response'; id: number; exchange: number; status: number; headers: HttpHeaders } & RelayedBody)
  | { op: 'pong'; nonce: number };

/** The version of this control protocol; `welcome` carries it. */
export const BRIDGE_PROTOCOL_VERSION = 1;

/** Channel ids the page picks are below this; ids of accepted connections start here. */
export const FIRST_ACCEPTED_CHANNEL_ID = 0x8000_0000;

/** The largest channel id (ids are 32-bit on the wire). */
export const MAX_CHANNEL_ID = 0xffff_ffff;

/** WebSocket close codes the bridge uses to refuse a page, so the page can say why. */
export const BridgeCloseCode = {
  /** The `hello` carried the wrong token (or none). */
  wrongToken: 4001,
  /** The page's Origin is not on the bridge's allowlist. */
  originNotAllowed: 4003,
  /** No `hello` came in time, or the first message was not one. */
  noHello: 4008,
  /** The bridge serves no more pages at once. */
  tooManyPages: 4009,
  /** The page broke the control protocol (unreadable JSON, unknown op). */
  protocolError: 4010,
  /** The bridge is stopping. */
  shuttingDown: 1001,
  /** A frame exceeded the bridge's cap (the WebSocket standard's code). */
  tooBig: 1009,
} as const;

/** What a data frame's payload is: raw bytes (TCP, binary WebSocket frames) or UTF-8 text frames. */
export type DataKind = 'bytes' | 'text';

/** Bytes of a data frame's header: the channel id (4 bytes, big-endian) and the kind (1 byte). */
export const DATA_HEADER_BYTES = 5;

/** A binary frame: one channel's data. */
export interface DataFrame {
  id: number;
  kind: DataKind;
  payload: Uint8Array;
}

/** Builds a binary data frame. */
export function encodeDataFrame(id: number, kind: DataKind, payload: Uint8Array): Uint8Array {
  const frame = new Uint8Array(DATA_HEADER_BYTES + payload.length);
  new DataView(frame.buffer).setUint32(0, id);
  frame[4] = kind === 'text' ? 1 : 0;
  frame.set(payload, DATA_HEADER_BYTES);
  return frame;
}

/** Reads a binary data frame; a string explains what is wrong with a malformed one. */
export function decodeDataFrame(frame: Uint8Array): DataFrame | string {
  if (frame.length < DATA_HEADER_BYTES)
    return `a data frame needs a ${DATA_HEADER_BYTES}-byte header, got ${frame.length} bytes`;
  const id = new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(0);
  const kindByte = frame[4];
  if (kindByte !== 0 && kindByte !== 1) return `data frame for channel ${id} has unknown kind ${kindByte}`;
  return { id, kind: kindByte === 1 ? 'text' : 'bytes', payload: frame.subarray(DATA_HEADER_BYTES) };
}

/** Body text, or base64 when the bytes are not valid UTF-8. */
export function bodyToJson(bytes: Uint8Array): RelayedBody {
  try {
    return { body: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { body: '', bodyBase64: bytesToBase64(bytes) };
  }
}

/** The body's bytes; a string explains a malformed `bodyBase64`. */
export function bodyFromJson(body: RelayedBody): Uint8Array | string {
  if (body.bodyBase64 === undefined) return new TextEncoder().encode(body.body);
  try {
    return base64ToBytes(body.bodyBase64);
  } catch {
    return 'bodyBase64 is not valid base64';
  }
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) binary += String.fromCharCode(...bytes.subarray(i, i + step));
  return btoa(binary);
}

function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Whether `value` is a channel id the page may pick. */
export function isPageChannelId(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) < FIRST_ACCEPTED_CHANNEL_ID;
}

/** Whether `value` is any channel id. */
export function isChannelId(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_CHANNEL_ID;
}
