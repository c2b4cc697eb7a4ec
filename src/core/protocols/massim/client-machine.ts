/**
 * The agent's side of one MASSim connection: which server messages an agent may receive, given what it sent.
 * It judges the server (violations are about `s2c` messages) and follows the agent's frames only for
 * context. Legal, per the real server: request-actions with no sim-start before them right after a
 * (re)login (the re-sent sim-start can be lost), no bye at the end, silence after a bad first frame.
 */
import type { ProtocolMachine, Step } from '../machine';
import type { TranscriptMessage } from '../../transcript/model';
import { decodeServerFrameOnce, readClientFrameOnce } from './codec';
import type { MassimRequestAction, MassimServerMessage } from './messages';
import { massimViolation, messageText, type MassimViolation } from './violation';

/** Where the connection is, as the agent sees it. */
export type MassimClientPhase =
  /** Nothing sent yet: the server must stay silent. */
  | 'fresh'
  /** auth-request sent, waiting for auth-response. */
  | 'awaiting-auth'
  /** status-request sent as the first frame, waiting for its answer. */
  | 'awaiting-status'
  /** The first frame was neither: the server answers nothing, ever. */
  | 'unanswered'
  /** status-response received; the server has nothing more to say on this connection. */
  | 'status-answered'
  | 'logged-in'
  /** auth-response `fail`; the server closes. */
  | 'rejected'
  /** bye received. */
  | 'ended'
  | 'closed';

/** Where the agent is in the simulation cycle (only meaningful once logged in). */
export type MassimSimulationPhase =
  /** No simulation seen on this connection yet. */
  | 'none'
  /** Between sim-start and sim-end. */
  | 'running'
  /** Request-actions arrived without a sim-start (lost after a reconnection). */
  | 'unannounced'
  /** After sim-end, waiting for the next sim-start or bye. */
  | 'between';

/**
 * What the machine needs of a server message: all of it, except a request-action's percept, which it does
 * not judge (an in-memory host makes percepts only on demand). Every `MassimServerMessage` is one.
 */
export type MassimJudgedMessage =
  | Exclude<MassimServerMessage, MassimRequestAction>
  | { type: 'request-action'; content: Omit<MassimRequestAction['content'], 'percept'> };

/** State of the client machine; plain data, never mutated. */
export interface MassimClientMachineState {
  phase: MassimClientPhase;
  simulation: MassimSimulationPhase;
  /** The user name the agent logged in with. */
  agent?: string;
  /** `steps` of the current simulation's sim-start. */
  steps?: number;
  lastStep?: number;
  lastId?: number;
  /** The last server message received, for views. */
  lastMessage?: MassimJudgedMessage;
}

/** Checks a MASSim server's messages from the agent's side of one connection. */
export const massimClientMachine: ProtocolMachine<MassimClientMachineState> = {
  role: 'client',
  initial: () => ({ phase: 'fresh', simulation: 'none' }),
  accept(state, message) {
    if (message.kind === 'close') return { ok: true, state: { ...state, phase: 'closed' } };
    if (message.kind !== 'data') return { ok: true, state };
    if (message.dir === 'c2s') return { ok: true, state: afterAgentFrame(state, message) };
    return acceptServerFrame(state, message);
  },
  finish: () => null,
};

function afterAgentFrame(
  state: MassimClientMachineState,
  message: TranscriptMessage,
): MassimClientMachineState {
  if (state.phase !== 'fresh') return state;
  const reading = readClientFrameOnce(message.index, messageText(message));
  if (reading.kind === 'auth-request') return { ...state, phase: 'awaiting-auth', agent: reading.user };
  if (reading.kind === 'status-request') return { ...state, phase: 'awaiting-status' };
  return { ...state, phase: 'unanswered' };
}

function acceptServerFrame(
  state: MassimClientMachineState,
  message: TranscriptMessage,
): Step<MassimClientMachineState> {
  const index = message.index;
  const decoded = decodeServerFrameOnce(index, messageText(message), `message ${index}`);
  if (!decoded.ok) {
    const { expected, got, message: what } = decoded.problem;
    return reject(state, massimViolation(index, 'massim.server.bad-frame', expected, got, what));
  }
  return acceptServerMessage(state, decoded.message, index);
}

/**
 * Advances the client machine with a server message that is already decoded (an in-memory transport hands
 * over the object it serialised, so the agent need not parse it again). `index` is the message's index.
 */
export function acceptServerMessage(
  state: MassimClientMachineState,
  received: MassimJudgedMessage,
  index: number,
): Step<MassimClientMachineState> {
  const next = { ...state, lastMessage: received };
  switch (state.phase) {
    case 'fresh':
      return reject(
        next,
        massimViolation(
          index,
          'massim.server.spoke-first',
          'nothing until the agent sends',
          received.type,
          `The server sent ${received.type} first.`,
        ),
      );
    case 'awaiting-auth':
      if (received.type !== 'auth-response')
        return unexpectedReply(
          next,
          index,
          received.type,
          'auth-response',
          `${received.type} before auth-response.`,
        );
      return accept({ ...next, phase: received.content.result === 'ok' ? 'logged-in' : 'rejected' });
    case 'awaiting-status':
      if (received.type !== 'status-response')
        return unexpectedReply(
          next,
          index,
          received.type,
          'status-response',
          `${received.type} in answer to a status-request.`,
        );
      return accept({ ...next, phase: 'status-answered' });
    case 'unanswered':
      return unexpectedReply(
        next,
        index,
        received.type,
        'nothing',
        `${received.type} after a first frame the server does not answer.`,
      );
    case 'status-answered':
      return unexpectedReply(
        next,
        index,
        received.type,
        'nothing',
        `${received.type} after status-response on a status connection.`,
      );
    case 'rejected':
    case 'ended':
    case 'closed':
      return reject(
        next,
        massimViolation(
          index,
          'massim.server.after-end',
          'nothing',
          received.type,
          `${received.type} after the session ended.`,
        ),
      );
    case 'logged-in':
      return acceptInSession(next, received, index);
  }
}

function acceptInSession(
  state: MassimClientMachineState,
  received: MassimJudgedMessage,
  index: number,
): Step<MassimClientMachineState> {
  switch (received.type) {
    case 'auth-response':
    case 'status-response':
      return unexpectedReply(
        state,
        index,
        received.type,
        'sim-start, request-action, sim-end or bye',
        `A second ${received.type} on a logged-in connection.`,
      );
    case 'sim-start': {
      if (state.simulation === 'running' || state.simulation === 'unannounced')
        return unexpectedReply(
          state,
          index,
          received.type,
          'request-action or sim-end',
          'sim-start while a simulation is running.',
        );
      const steps = received.content.percept.steps;
      return accept({
        ...state,
        simulation: 'running',
        steps: typeof steps === 'number' ? steps : undefined,
        lastStep: undefined,
      });
    }
    case 'request-action':
      return acceptRequestAction(state, received, index);
    case 'sim-end':
      if (state.simulation === 'between')
        return unexpectedReply(state, index, received.type, 'sim-start or bye', 'sim-end twice.');
      return accept({ ...state, simulation: 'between', steps: undefined, lastStep: undefined });
    case 'bye':
      if (state.simulation === 'running' || state.simulation === 'unannounced')
        return unexpectedReply(
          state,
          index,
          received.type,
          'request-action or sim-end',
          'bye before the simulation ended.',
        );
      return accept({ ...state, phase: 'ended' });
  }
}

function acceptRequestAction(
  state: MassimClientMachineState,
  received: Extract<MassimJudgedMessage, { type: 'request-action' }>,
  index: number,
): Step<MassimClientMachineState> {
  const { id, step, time, deadline } = received.content;
  if (state.simulation === 'between') {
    return reject(
      state,
      massimViolation(
        index,
        'massim.server.unexpected-reply',
        'sim-start or bye',
        'request-action',
        'request-action after sim-end.',
      ),
    );
  }
  const simulation = state.simulation === 'none' ? 'unannounced' : state.simulation;
  const next: MassimClientMachineState = { ...state, simulation, lastId: id, lastStep: step };
  if (state.lastId !== undefined && id <= state.lastId) {
    return reject(
      next,
      massimViolation(
        index,
        'massim.request-action.id-order',
        `an id above ${state.lastId}`,
        String(id),
        `Action id ${id} after id ${state.lastId}.`,
      ),
    );
  }
  if (
    (state.lastStep !== undefined && step <= state.lastStep) ||
    (state.steps !== undefined && step >= state.steps)
  ) {
    const expected =
      state.steps !== undefined
        ? `a step in ${(state.lastStep ?? -1) + 1}..${state.steps - 1}`
        : `a step above ${state.lastStep}`;
    return reject(
      next,
      massimViolation(
        index,
        'massim.request-action.step-order',
        expected,
        String(step),
        `Step ${step} is out of order.`,
      ),
    );
  }
  if (deadline < time) {
    return reject(
      next,
      massimViolation(
        index,
        'massim.request-action.deadline',
        `a deadline after time ${time}`,
        String(deadline),
        'The deadline is before the request was made.',
      ),
    );
  }
  return accept(next);
}

/** A server message the agent could not expect now. */
function unexpectedReply(
  state: MassimClientMachineState,
  index: number,
  type: string,
  expected: string,
  what: string,
): Step<MassimClientMachineState> {
  return reject(state, massimViolation(index, 'massim.server.unexpected-reply', expected, type, what));
}

function accept(state: MassimClientMachineState): Step<MassimClientMachineState> {
  return { ok: true, state };
}

function reject(state: MassimClientMachineState, violation: MassimViolation): Step<MassimClientMachineState> {
  return { ok: false, violation, state };
}
