/**
 * The transcript model: every session (emulated, live through the bridge, or pasted) is an append-only list
 * of wire messages plus side-channel annotations. All views read transcripts, never simulator internals.
 */

/**
 * A protocol's id (`rddlsim`, `massim`...). The transcript layer names no protocol: which ids exist is the
 * protocol registry's business (`src/core/protocols/registry.ts`).
 */
export type ProtocolId = string;

/** The version of Protoplay's JSON transcript format written today; version 1 files still import. */
export const TRANSCRIPT_FORMAT_VERSION = 2;

/** Which way a message travelled: client to server, or server to client. */
export type Direction = 'c2s' | 's2c';

/**
 * One wire message, or one connection event, exactly as it crossed the wire.
 *
 * Payload: `text` when the bytes are valid UTF-8 (the usual case), otherwise `base64` of the raw bytes.
 * Exactly one of the two is present on `kind: 'data'` records. The text never includes the framing bytes
 * (the NUL terminator of rddlsim and MASSim); `framed` says how the message was delimited on the wire.
 */
export interface TranscriptMessage {
  /** Position in the transcript, from 0, dense and increasing. */
  index: number;
  /** Connection id (MASSim has one per agent; rddlsim one per session). */
  conn: string;
  dir: Direction;
  /** Milliseconds since the transcript's `startedAt`. */
  t: number;
  /** `data` is a wire message; `open` / `close` / `error` are connection events (text holds detail). */
  kind: 'data' | 'open' | 'close' | 'error';
  text?: string;
  base64?: string;
  /**
   * How the message was delimited: `nul` (terminated by one 0 byte), `none` (no terminator, e.g. rddlsim's
   * `<no-header/>` mode), `frame` (a WebSocket frame or HTTP body). Absent means the protocol's default.
   */
  framing?: 'nul' | 'none' | 'frame';
  /**
   * The agent a message is for or from, when several agents share one connection (GAMA's scavengers on one
   * WebSocket: `Scav. 3`). Absent when the connection is the agent (rddlsim, MASSim).
   */
  channel?: string;
  /** For HTTP protocols: the request line or status of the exchange this message is half of. */
  http?: HttpMessageMeta;
}

/**
 * One half of an HTTP exchange. The message's `text` (or `base64`) is the body; a request is `c2s`, its
 * response `s2c`, and both carry the same `exchange` number so they pair even when requests overlap.
 */
export interface HttpMessageMeta {
  /** Pairs a request with its response: the transcript index of the request. */
  exchange: number;
  /** Requests only: `GET`, `PUT`... */
  method?: string;
  /** Requests only: the path and query, as sent (`/act/nim`). */
  path?: string;
  /** Responses only: the status code. */
  status?: number;
  /** Header names in lower case, values as sent; only the headers that matter to the protocol are kept. */
  headers?: Record<string, string>;
}

/** A side-channel note about the session, never on the wire. Hangs off a message index. */
export interface Annotation {
  /** Index of the message this annotation belongs to (the message it explains or follows). */
  index: number;
  /**
   * `world`: true state of an emulated environment; `policy-log`: console output of the policy;
   * `error`: an error the app raised (policy timeout, parse error...); `violation`: a protocol machine rule
   * broken; `note`: what a real server would have done, and similar explanations; `reward`: a parsed
   * reward figure for charts.
   */
  type: 'world' | 'policy-log' | 'error' | 'violation' | 'note' | 'reward';
  /** Free-form payload; shape depends on `type` and protocol. Must be JSON-serialisable. */
  data: unknown;
}

/** A connection seen in the transcript. */
export interface ConnectionInfo {
  id: string;
  /** Human label, e.g. "agentA1" or "session 1". */
  label?: string;
}

/** A complete transcript, as stored, exported and imported (Protoplay's JSON format). */
export interface Transcript {
  format: 'protoplay-transcript';
  /** Always the current `TRANSCRIPT_FORMAT_VERSION` once read (older files are upgraded on import). */
  version: typeof TRANSCRIPT_FORMAT_VERSION;
  protocol: ProtocolId;
  /** Wall-clock start, ms since the Unix epoch. */
  startedAt: number;
  /** Where it came from: emulated host, live bridge, CLI, import. Free-form key/values (seed, instance...). */
  meta: Record<string, string | number | boolean>;
  connections: ConnectionInfo[];
  messages: TranscriptMessage[];
  annotations: Annotation[];
}
