/**
 * The MASSim wire messages: `{"type": ..., "content": {...}}` objects, one per 0-terminated frame. Server
 * messages are written in the real server's key order (Java HashMap order), so an emulated session reads
 * like a recorded one; agents must not depend on it.
 */
import type { MassimSimStartPercept, MassimStepPercept } from '../../envs/massim/api';

/** Every message type of the protocol. */
export type MassimMessageType = MassimServerMessage['type'] | MassimClientMessage['type'];

/** `auth-request`: the first frame of an agent's connection. */
export interface MassimAuthRequest {
  type: 'auth-request';
  content: { user: string; pw: string };
}

/** `auth-response`: the server's verdict; `fail` is followed by the server closing the connection. */
export interface MassimAuthResponse {
  type: 'auth-response';
  content: { result: 'ok' | 'fail' };
}

/** `sim-start`: the static facts of a simulation; re-sent (same `time`) after a reconnection. */
export interface MassimSimStart {
  type: 'sim-start';
  content: { time: number; percept: MassimSimStartPercept };
}

/**
 * `request-action`: one step's percept. `id` is the agent's own counter (from 0, never reset, not the step);
 * `deadline` is `time` plus the server's `agentTimeout`, both in ms since the Unix epoch.
 */
export interface MassimRequestAction {
  type: 'request-action';
  content: { step: number; id: number; time: number; percept: MassimStepPercept; deadline: number };
}

/**
 * `action`: the answer to a request-action, matched by `id`. The server reads every parameter as a string
 * (numbers too), and echoes them as strings in `lastActionParams`.
 */
export interface MassimActionMessage {
  type: 'action';
  content: { id: number; type: string; p: (string | number)[] };
}

/** `sim-end`: the team's final score and rank (distinct ranks even for equal scores). */
export interface MassimSimEnd {
  type: 'sim-end';
  content: { score: number; ranking: number; time: number };
}

/** `bye`: all matches are over; the server closes the connection next. */
export interface MassimBye {
  type: 'bye';
  content: Record<string, never>;
}

/** `status-request`: only answered as the first frame of a fresh connection. */
export interface MassimStatusRequest {
  type: 'status-request';
  content: Record<string, never>;
}

/** `status-response`: the tournament's state. */
export interface MassimStatusResponse {
  type: 'status-response';
  content: {
    /** Teams of the current (or last) match; empty before the first match. */
    teams: string[];
    time: number;
    /** Agents per team of every configured simulation. */
    teamSizes: number[];
    /** Index of the current (or last) simulation; -1 before the first one starts. */
    currentSimulation: number;
  };
}

/** What a server sends. */
export type MassimServerMessage =
  MassimAuthResponse | MassimSimStart | MassimRequestAction | MassimSimEnd | MassimBye | MassimStatusResponse;

/** What an agent sends. */
export type MassimClientMessage = MassimAuthRequest | MassimActionMessage | MassimStatusRequest;

/** Message types only a server sends. */
export const serverMessageTypes: ReadonlySet<string> = new Set<MassimServerMessage['type']>([
  'auth-response',
  'sim-start',
  'request-action',
  'sim-end',
  'bye',
  'status-response',
]);

/** Message types only an agent sends. */
export const clientMessageTypes: ReadonlySet<string> = new Set<MassimClientMessage['type']>([
  'auth-request',
  'action',
  'status-request',
]);

/** Compact JSON of a message with its content keys in the real server's order. */
export function serializeMassimMessage(message: MassimServerMessage | MassimClientMessage): string {
  // Agents send an action every step: written directly, the same characters as the general way.
  if (message.type === 'action') {
    const { id, type, p } = message.content;
    if (typeof id === 'number' && typeof type === 'string' && Array.isArray(p))
      return `{"type":"action","content":{"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"p":${JSON.stringify(p)}}}`;
  }
  return JSON.stringify({ type: message.type, content: orderedContent(message) });
}

function orderedContent(message: MassimServerMessage | MassimClientMessage): object {
  switch (message.type) {
    case 'request-action': {
      const { step, id, time, percept, deadline } = message.content;
      return { step, id, time, percept, deadline };
    }
    case 'sim-end': {
      const { score, ranking, time } = message.content;
      return { score, ranking, time };
    }
    case 'status-response': {
      const { teams, time, teamSizes, currentSimulation } = message.content;
      return { teams, time, teamSizes, currentSimulation };
    }
    case 'sim-start': {
      const { time, percept } = message.content;
      return { time, percept };
    }
    case 'action': {
      const { id, type, p } = message.content;
      return { id, type, p };
    }
    default:
      return message.content;
  }
}
