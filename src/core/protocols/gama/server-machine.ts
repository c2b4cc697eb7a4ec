/**
 * The server role's machine: judges what GAMA sends, as the API server sees it. The scenario comes first
 * and once; each scavenger connects once before it asks; GAMA asks for one scavenger at a time and waits
 * for the answer (its simulation thread is blocked meanwhile), and a scavenger told the episode is over
 * asks no more. Replies are followed only to know when a request is answered.
 */
import type { TranscriptMessage } from '../../transcript/model';
import type { ProtocolMachine } from '../machine';
import { clip, readReply } from './codec';
import { outlineOfMessage } from './outline';
import { violation } from './violation';

/** State of the server machine (plain data; never mutated). */
export interface GamaServerMachineState {
  scenario: string | undefined;
  /** Scavengers that connected, in order. */
  connected: readonly string[];
  /** Scavengers whose last request said `terminal`. */
  terminated: readonly string[];
  /** The scavenger whose request awaits its answer. */
  waiting: string | undefined;
  /** Data messages seen. */
  messages: number;
}

/** Judges GAMA's messages on one connection. */
export const gamaServerMachine: ProtocolMachine<GamaServerMachineState> = {
  role: 'server',

  initial: () => ({ scenario: undefined, connected: [], terminated: [], waiting: undefined, messages: 0 }),

  accept(state, message: TranscriptMessage) {
    if (message.kind !== 'data' || message.text === undefined) return { ok: true, state };
    const { index, text } = message;
    if (message.dir === 's2c') {
      const reading = readReply(text);
      const answered = reading.ok && reading.reply.id === state.waiting;
      return { ok: true, state: answered ? { ...state, waiting: undefined } : state };
    }
    const reading = outlineOfMessage(message);
    if (!reading.ok) {
      const column = reading.column ? ` at column ${reading.column}` : '';
      const v = violation(
        index,
        'gama.message.unreadable',
        'a scenario, connect or request object',
        `${reading.problem}${column}`,
      );
      return { ok: false, violation: v, state: counted(state) };
    }
    const decoded = reading.message;
    if (decoded.type === 'scenario') {
      if (state.messages > 0) {
        const rule = state.scenario === undefined ? 'gama.scenario.first' : 'gama.scenario.repeated';
        const v = violation(
          index,
          rule,
          'the scenario message first and once',
          `a scenario message after ${state.messages} messages`,
        );
        return { ok: false, violation: v, state: { ...counted(state), scenario: decoded.scenario } };
      }
      return { ok: true, state: { ...counted(state), scenario: decoded.scenario } };
    }
    const id = decoded.id;
    if (state.scenario === undefined) {
      const v = violation(
        index,
        'gama.scenario.first',
        '{ "scenario": ... } before anything else',
        `a ${decoded.type} message`,
        id,
      );
      return { ok: false, violation: v, state: withMessage(counted(state), decoded.type, id) };
    }
    if (decoded.type === 'connect') {
      if (state.connected.includes(id)) {
        const v = violation(
          index,
          'gama.connect.duplicate',
          'one connect per scavenger',
          `a second connect of ${id}`,
          id,
        );
        return { ok: false, violation: v, state: counted(state) };
      }
      return { ok: true, state: { ...counted(state), connected: [...state.connected, id] } };
    }
    // One new state per request: this is nearly every message GAMA sends.
    const after: GamaServerMachineState = {
      scenario: state.scenario,
      connected: state.connected,
      terminated:
        decoded.terminal && !state.terminated.includes(id) ? [...state.terminated, id] : state.terminated,
      waiting: id,
      messages: state.messages + 1,
    };
    if (!state.connected.includes(id)) {
      const v = violation(
        index,
        'gama.request.unconnected',
        `a request from a connected scavenger`,
        `a request from ${clip(id)}, which never connected`,
        id,
      );
      return { ok: false, violation: v, state: after };
    }
    if (state.waiting !== undefined) {
      const v = violation(
        index,
        'gama.request.overlap',
        `the answer to ${state.waiting} first (GAMA waits for it)`,
        `a request from ${id}`,
        id,
      );
      return { ok: false, violation: v, state: after };
    }
    if (state.terminated.includes(id)) {
      const v = violation(
        index,
        'gama.request.after-terminal',
        'no request after a terminal one',
        `another request from ${id}`,
        id,
      );
      return { ok: false, violation: v, state: after };
    }
    return { ok: true, state: after };
  },

  finish: () => null,
};

/** The state with one more message counted. */
function counted(state: GamaServerMachineState): GamaServerMachineState {
  return { ...state, messages: state.messages + 1 };
}

/** The state once a connect or request of `id` is taken into account. */
function withMessage(
  state: GamaServerMachineState,
  type: 'connect' | 'request',
  id: string,
  terminal = false,
): GamaServerMachineState {
  if (type === 'connect')
    return state.connected.includes(id) ? state : { ...state, connected: [...state.connected, id] };
  return {
    ...state,
    waiting: id,
    terminated: terminal && !state.terminated.includes(id) ? [...state.terminated, id] : state.terminated,
  };
}
