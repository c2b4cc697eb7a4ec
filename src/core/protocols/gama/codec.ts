/**
 * The GAMA scavenger messages as text. GAMA's side writes JSON with the model's own encoder, spaced its own
 * way (`{ "id": "Scav. 1", "connect": true }`: a space inside every bracket and brace, `": "` between key and
 * value, `", "` between items, strings quoted without escaping); the API answers with bare text
 * `Scav. 3;move_ahead`. Every frame is one WebSocket text frame, without terminator.
 */
import type { ScavengerObservation } from '../../envs/scavenger';
import { findJsonSyntaxError } from '../../json/strict-json';
import type { GamaMessage, GamaReply } from './messages';

/** A value GAMA's encoder writes. */
export type GamaJsonValue = string | number | boolean | null | readonly GamaJsonValue[] | GamaJsonObject;
/** An object GAMA's encoder writes, keys in insertion order. */
export interface GamaJsonObject {
  readonly [key: string]: GamaJsonValue;
}

/** A value as GAMA's encoder writes it. Strings are not escaped (GAMA does not escape them either). */
export function gamaJson(value: GamaJsonValue): string {
  if (typeof value === 'string') return `"${value}"`;
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) {
    const items = value as readonly GamaJsonValue[];
    return items.length === 0 ? '[]' : `[ ${items.map(gamaJson).join(', ')} ]`;
  }
  const entries = Object.entries(value as GamaJsonObject);
  if (entries.length === 0) return '{}';
  return `{ ${entries.map(([key, item]) => `"${key}": ${gamaJson(item)}`).join(', ')} }`;
}

/** `{ "scenario": "<name>" }`, the first message of a simulation. */
export function encodeScenario(scenario: string): string {
  return gamaJson({ scenario });
}

/** `{ "id": "Scav. n", "connect": true }`, once per scavenger before any request. */
export function encodeConnect(id: string): string {
  return gamaJson({ id, connect: true });
}

/**
 * `{ "id": "Scav. n", "request": { "state": ..., "reward": r } }`, with `"terminal": true` last when the
 * episode is over. The observation's rows are written without the general encoder: this is the bulk of
 * the traffic.
 */
export function encodeRequest(
  id: string,
  state: ScavengerObservation,
  reward: number,
  terminal = false,
): string {
  return `{ "id": "${id}", "request": { "state": ${encodeNested(state)}, "reward": ${reward}${terminal ? ', "terminal": true' : ''} } }`;
}

function encodeNested(value: readonly unknown[]): string {
  if (value.length === 0) return '[]';
  if (typeof value[0] === 'number') return `[ ${value.join(', ')} ]`;
  return `[ ${value.map((item) => encodeNested(item as readonly unknown[])).join(', ')} ]`;
}

/** The API's answer `Scav. n;action`: no quotes, no newline. */
export function encodeReply(id: string, action: string): string {
  return `${id};${action}`;
}

/** A frame GAMA sent, read; or why it could not be, with the 1-based column when the JSON is broken. */
export type GamaMessageReading =
  { ok: true; message: GamaMessage } | { ok: false; problem: string; column?: number };

/** Reads a frame GAMA sent (scenario, connect or request). Never throws. */
export function readGamaMessage(text: string): GamaMessageReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Engines word and place their errors differently: the scanner says where, the same way everywhere.
    const problem = findJsonSyntaxError(text);
    if (!problem) return { ok: false, problem: `not JSON: ${(error as Error).message}` };
    return { ok: false, problem: `not JSON: ${problem.message}`, column: problem.offset + 1 };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, problem: 'expected a JSON object' };
  const object = value as Record<string, unknown>;
  if ('scenario' in object) {
    if (typeof object.scenario !== 'string') return { ok: false, problem: '"scenario" must be a string' };
    return { ok: true, message: { type: 'scenario', scenario: object.scenario } };
  }
  if (typeof object.id !== 'string')
    return { ok: false, problem: 'expected "scenario", or an "id" string with "connect" or "request"' };
  const id = object.id;
  if ('connect' in object) {
    if (object.connect !== true) return { ok: false, problem: `"connect" of ${id} must be true` };
    return { ok: true, message: { type: 'connect', id } };
  }
  if (!('request' in object))
    return { ok: false, problem: `the message of ${id} has neither "connect" nor "request"` };
  const request = object.request;
  if (typeof request !== 'object' || request === null || Array.isArray(request))
    return { ok: false, problem: `"request" of ${id} must be an object` };
  const { state, reward, terminal } = request as Record<string, unknown>;
  const shape = describeState(state);
  if (typeof shape !== 'object') return { ok: false, problem: `"state" of ${id} ${shape}` };
  if (reward !== null && (typeof reward !== 'number' || !Number.isFinite(reward)))
    return { ok: false, problem: `"reward" of ${id} must be a number or null` };
  if (terminal !== undefined && terminal !== true)
    return { ok: false, problem: `"terminal" of ${id} must be true when present` };
  return {
    ok: true,
    message: {
      type: 'request',
      id,
      state: state as ScavengerObservation,
      shape,
      reward: reward as number | null,
      terminal: terminal === true,
    },
  };
}

/**
 * The dimensions of a state: rows x columns of numbers, or planes x rows x columns; a sentence saying
 * what is wrong otherwise.
 */
function describeState(state: unknown): number[] | string {
  if (!Array.isArray(state) || state.length === 0) return 'must be a non-empty matrix (a list of rows)';
  const depth = Array.isArray(state[0]) && Array.isArray(state[0][0]) ? 3 : 2;
  const planes = depth === 3 ? (state as unknown[]) : [state];
  let rows = -1;
  let columns = -1;
  for (const [p, plane] of planes.entries()) {
    if (!Array.isArray(plane)) return `plane ${p} is not a list of rows`;
    if (rows >= 0 && plane.length !== rows) return `has planes of ${rows} and ${plane.length} rows`;
    rows = plane.length;
    for (const [r, row] of plane.entries()) {
      if (!Array.isArray(row)) return `row ${r} is not a list`;
      if (columns >= 0 && row.length !== columns) return `has rows of ${columns} and ${row.length} cells`;
      columns = row.length;
      for (const cell of row)
        if (typeof cell !== 'number') return `row ${r} holds ${JSON.stringify(cell)}, not a number`;
    }
  }
  return depth === 3 ? [planes.length, rows, columns] : [rows, columns];
}

/** An API reply, read as GAMA reads it; or why it cannot be. */
export type GamaReplyReading = { ok: true; reply: GamaReply } | { ok: false; problem: string };

/**
 * Reads `Scav. n;action` as GAMA does: split at every `;`, the first field names the scavenger, the second
 * is the action (anything after a second `;` is ignored by GAMA).
 */
export function readReply(text: string): GamaReplyReading {
  const first = text.indexOf(';');
  if (first < 0)
    return { ok: false, problem: `expected '<id>;<action>' (e.g. 'Scav. 1;idle'), got '${clip(text)}'` };
  const second = text.indexOf(';', first + 1);
  let extraFields = 0;
  for (let at = second; at >= 0; at = text.indexOf(';', at + 1)) extraFields++;
  const id = text.slice(0, first);
  const action = second < 0 ? text.slice(first + 1) : text.slice(first + 1, second);
  return { ok: true, reply: { id, action, extraFields } };
}

/** A text shortened for a message. */
export function clip(text: string, length = 60): string {
  return text.length > length ? `${text.slice(0, length)}...` : text;
}

const ID_FIELD = /^\{\s*"id"\s*:\s*"([^"]*)"/;

/**
 * The scavenger a frame is for or from (the transcript's `channel`): the `id` of GAMA's connect and
 * request messages, the first field of a reply. Undefined for the scenario message and unreadable frames.
 */
export function channelOf(text: string, dir: 'c2s' | 's2c'): string | undefined {
  if (dir === 's2c') {
    const semicolon = text.indexOf(';');
    return semicolon > 0 ? text.slice(0, semicolon) : undefined;
  }
  return ID_FIELD.exec(text)?.[1];
}
