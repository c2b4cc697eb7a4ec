/**
 * The server role's machine: judges what a client sends, as the real rddlsim server reads it. The server
 * reads one message at a time and only after it has answered the previous one, so client messages that
 * arrive early (pipelined) wait in a queue until the server is ready for them.
 */
import type { ProtocolMachine, Step, Violation } from '../machine';
import type { TranscriptMessage } from '../../transcript/model';
import { decodeTranscriptMessage, describeDecoded, type DecodedMessage } from './decoded-message';
import { violation } from './violation';

/** What the server reads next. */
export type ServerPhase = 'session-request' | 'round-request' | 'actions' | 'ended';

/** State of the server machine (plain data; never mutated). */
export interface ServerMachineState {
  phase: ServerPhase;
  /** The server still owes an answer to the last client message it read. */
  awaitingReply: boolean;
  /** Client messages received while the server owed an answer, oldest first. */
  queue: DecodedMessage[];
  /** A violation ended the session: later messages are not judged again. */
  failed: boolean;
  /** The client closed its side. */
  clientClosed: boolean;
}

const EXPECTED: Record<Exclude<ServerPhase, 'ended'>, string> = {
  'session-request': '<session-request> with <problem-name> and <client-name>',
  'round-request': '<round-request> or <resource-request>',
  actions: '<actions> or <resource-request>',
};

/** Judges client messages the way rddlsim's server reads them. */
export const rddlsimServerMachine: ProtocolMachine<ServerMachineState> & {
  acceptDecoded(state: ServerMachineState, decoded: DecodedMessage): Step<ServerMachineState>;
} = {
  role: 'server',

  initial: () => ({
    phase: 'session-request',
    awaitingReply: false,
    queue: [],
    failed: false,
    clientClosed: false,
  }),

  accept(state, message: TranscriptMessage) {
    return this.acceptDecoded(state, decodeTranscriptMessage(message));
  },

  acceptDecoded(state, decoded) {
    if (decoded.dir === 'c2s') {
      if (decoded.kind === 'close') return closeByClient(state, decoded);
      if (decoded.kind !== 'data') return { ok: true, state };
      if (state.awaitingReply && !state.failed && state.phase !== 'ended')
        return { ok: true, state: update(state, { queue: [...state.queue, decoded] }) };
      return judge(state, decoded);
    }
    return drain(afterServerMessage(state, decoded));
  },

  finish(state, lastIndex) {
    // Only the client's silence is judged here: a server that stops is the client machine's concern.
    if (state.failed || state.phase === 'ended' || state.awaitingReply) return null;
    return violation(
      lastIndex,
      'rddlsim.session.unfinished',
      EXPECTED[state.phase],
      'the end of the transcript',
    );
  },
};

/** Judges one client message against what the server reads now. */
function judge(
  state: ServerMachineState,
  decoded: DecodedMessage & { kind: 'data' },
): Step<ServerMachineState> {
  const { phase } = state;
  if (state.failed) return { ok: true, state };
  if (phase === 'ended') {
    const failed = update(state, { failed: true });
    return fail(
      failed,
      violation(
        decoded.index,
        'rddlsim.message.after-end',
        'nothing (the session is over)',
        describeDecoded(decoded),
      ),
    );
  }
  const waiting = update(state, { awaitingReply: true });
  const { result } = decoded;
  const type = result.ok ? result.message.type : undefined;
  switch (phase) {
    case 'session-request':
      if (type === 'session-request') return { ok: true, state: waiting };
      // Malformed or incomplete requests make the real server close the connection.
      return failEnded(state, decoded, 'rddlsim.session-request.expected');
    case 'round-request':
      if (type === 'round-request' || type === 'resource-request') return { ok: true, state: waiting };
      if (!result.ok && result.error.code === 'rddlsim.xml.malformed')
        // The server swallows the parse error and answers with a resource-notification.
        return fail(
          waiting,
          violation(
            decoded.index,
            'rddlsim.round-request.malformed',
            EXPECTED[phase],
            describeDecoded(decoded),
          ),
        );
      return failEnded(state, decoded, 'rddlsim.round-request.expected');
    case 'actions':
      if (type === 'actions' || type === 'resource-request') return { ok: true, state: waiting };
      if (!result.ok && result.error.code === 'rddlsim.xml.malformed')
        return failEnded(state, decoded, 'rddlsim.actions.malformed');
      return failEnded(state, decoded, 'rddlsim.actions.expected');
  }
}

/** A broken rule after which the real server closes the connection: the session is over. */
function failEnded(
  state: ServerMachineState,
  decoded: DecodedMessage & { kind: 'data' },
  rule: string,
): Step<ServerMachineState> {
  const ended: ServerMachineState = update(state, { phase: 'ended', failed: true, queue: [] });
  const expected = EXPECTED[state.phase as Exclude<ServerPhase, 'ended'>];
  return fail(ended, violation(decoded.index, rule, expected, describeDecoded(decoded)));
}

/** How a server message moves the server along. */
function afterServerMessage(state: ServerMachineState, decoded: DecodedMessage): ServerMachineState {
  if (decoded.kind === 'close') return update(state, { phase: 'ended', awaitingReply: false, queue: [] });
  if (decoded.kind !== 'data' || !decoded.result.ok) return state;
  switch (decoded.result.message.type) {
    case 'session-init':
    case 'session-init-null':
    case 'round-end':
      return update(state, {
        phase: state.phase === 'ended' ? 'ended' : 'round-request',
        awaitingReply: false,
      });
    case 'turn':
      return update(state, { phase: state.phase === 'ended' ? 'ended' : 'actions', awaitingReply: false });
    case 'resource-notification':
      return update(state, { awaitingReply: false });
    case 'session-end':
      return update(state, { phase: 'ended', awaitingReply: false });
    default:
      return state;
  }
}

/** Judges queued client messages now that the server reads again. */
function drain(state: ServerMachineState): Step<ServerMachineState> {
  let current = state;
  let first: Violation | undefined;
  while (!current.awaitingReply && current.queue.length > 0) {
    const [next, ...rest] = current.queue;
    const step = judge(update(current, { queue: rest }), next as DecodedMessage & { kind: 'data' });
    current = step.state;
    if (!step.ok) first ??= step.violation;
  }
  return first ? { ok: false, violation: first, state: current } : { ok: true, state: current };
}

function closeByClient(state: ServerMachineState, decoded: DecodedMessage): Step<ServerMachineState> {
  const closed = update(state, { clientClosed: true });
  if (state.failed || state.phase === 'ended') return { ok: true, state: closed };
  const ended: ServerMachineState = update(closed, { phase: 'ended', failed: true, queue: [] });
  const expected = state.awaitingReply ? 'to wait for the server' : EXPECTED[state.phase];
  return fail(
    ended,
    violation(decoded.index, 'rddlsim.connection.client-closed', expected, 'the connection closed'),
  );
}

/**
 * `state` with `changes`, as a new object (states are never mutated). Copied field by field: object spread
 * costs up to a microsecond on these objects, and a machine judges every message of a session.
 */
function update(state: ServerMachineState, changes: Partial<ServerMachineState>): ServerMachineState {
  const copy = {
    phase: state.phase,
    awaitingReply: state.awaitingReply,
    queue: state.queue,
    failed: state.failed,
    clientClosed: state.clientClosed,
  } satisfies Record<keyof ServerMachineState, unknown>;
  return Object.assign(copy, changes);
}

function fail(state: ServerMachineState, broken: Violation): Step<ServerMachineState> {
  return { ok: false, violation: broken, state };
}
