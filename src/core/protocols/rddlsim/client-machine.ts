/**
 * The client role's machine: judges what a server sends, given what the client asked for. Every server
 * message answers a client message, except the session-end that follows the last round-end; answers come in
 * the order of the requests, so outstanding requests form a queue.
 */
import type { TranscriptMessage } from '../../transcript/model';
import type { ProtocolMachine, Step, Violation } from '../machine';
import { decodeTranscriptMessage, describeDecoded, type DecodedMessage } from './decoded-message';
import type { RddlsimServerMessage } from './messages';
import { violation } from './violation';

/** What an outstanding client message will be answered with. */
export type PendingAnswer =
  | 'session-init'
  /** round-init then turn 1, or a resource-notification when the server could not parse the request */
  | 'round-start'
  /** the next turn, or round-end */
  | 'step'
  | 'resource-notification'
  /** the client sent something the server cannot read: any reaction is the server's right */
  | 'anything';

/** State of the client machine (plain data; never mutated). */
export interface ClientMachineState {
  pending: PendingAnswer[];
  /** The head `round-start` got its round-init and waits for turn 1. */
  awaitingFirstTurn: boolean;
  numRounds?: number;
  /** Rounds that counted (monitor mode's practice rounds do not). */
  roundsCounted: number;
  /** round-num of the current round's round-init. */
  roundInitNum?: number;
  /** Whether the current round counts: its round-num is one more than the rounds counted so far. */
  roundCounts: boolean;
  /** turn-num of the last turn of the current round (0 before turn 1). */
  lastTurn: number;
  /** After a round-end: must (`required`) or may (`possible`, time ran out) a session-end come now. */
  sessionEnd: 'no' | 'possible' | 'required';
  /** What the client should send next, as far as its own messages and round ends tell. */
  clientNext: 'session-request' | 'round-request' | 'actions' | 'none';
  /** The client asked for `<no-header/>` mode. */
  noHeaderRequested: boolean;
  ended: boolean;
  /** The client closed its side (a server closing after that is only following). */
  clientClosed: boolean;
  /** A violation already explained the session's failure; later messages are not judged again. */
  failed: boolean;
}

const DESCRIBE: Record<PendingAnswer, string> = {
  'session-init': '<session-init> (or null)',
  'round-start': '<round-init> (or <resource-notification>)',
  step: '<turn> or <round-end>',
  'resource-notification': '<resource-notification>',
  anything: 'any answer',
};

/** Judges server messages against the requests a client made. */
export const rddlsimClientMachine: ProtocolMachine<ClientMachineState> & {
  acceptDecoded(state: ClientMachineState, decoded: DecodedMessage): Step<ClientMachineState>;
} = {
  role: 'client',

  initial: () => ({
    pending: [],
    awaitingFirstTurn: false,
    roundsCounted: 0,
    roundCounts: false,
    lastTurn: 0,
    sessionEnd: 'no',
    clientNext: 'session-request',
    noHeaderRequested: false,
    ended: false,
    clientClosed: false,
    failed: false,
  }),

  accept(state, message: TranscriptMessage) {
    return this.acceptDecoded(state, decodeTranscriptMessage(message));
  },

  acceptDecoded(state, decoded) {
    if (decoded.dir === 'c2s') {
      if (decoded.kind === 'close') return { ok: true, state: update(state, { clientClosed: true }) };
      return { ok: true, state: afterClientMessage(state, decoded) };
    }
    if (decoded.kind === 'close') return closeByServer(state, decoded);
    if (decoded.kind !== 'data') return { ok: true, state };
    if (state.failed) return { ok: true, state };
    if (state.ended) {
      return fatal(
        state,
        violation(
          decoded.index,
          'rddlsim.message.after-end',
          'nothing after <session-end>',
          describeDecoded(decoded),
        ),
      );
    }
    if (!decoded.result.ok) {
      // Assume it answered the oldest request, so later messages are still judged in step.
      const rule =
        decoded.result.error.code === 'rddlsim.xml.malformed'
          ? 'rddlsim.message.malformed'
          : 'rddlsim.message.invalid';
      const head = state.pending[0];
      return fail(
        update(state, { pending: state.pending.slice(1), awaitingFirstTurn: false }),
        violation(decoded.index, rule, head ? DESCRIBE[head] : 'no message', describeDecoded(decoded)),
      );
    }
    // Decoded in the s2c direction, so it was parsed as a server message.
    const message = decoded.result.message as RddlsimServerMessage;
    if (state.noHeaderRequested && decoded.framing === 'nul') {
      return fail(
        afterServerMessage(state, message, decoded.index).state,
        violation(
          decoded.index,
          'rddlsim.framing.no-header',
          'no declaration and no NUL after <no-header/>',
          'a NUL-terminated message',
        ),
      );
    }
    return afterServerMessage(state, message, decoded.index);
  },

  finish(state, lastIndex) {
    // Only the server's silence is judged here: a client that stops is the server machine's concern.
    if (state.ended || state.failed || state.clientClosed) return null;
    const head = state.pending[0];
    if (state.sessionEnd === 'required')
      return violation(lastIndex, 'rddlsim.session.unfinished', '<session-end>', 'the end of the transcript');
    if (!head) return null;
    return violation(lastIndex, 'rddlsim.session.unfinished', DESCRIBE[head], 'the end of the transcript');
  },
};

/**
 * Records what a client message will be answered with. A message the server does not expect at this point
 * (judged by the server machine) may be answered with anything, including a closed connection.
 */
function afterClientMessage(state: ClientMachineState, decoded: DecodedMessage): ClientMachineState {
  if (decoded.kind !== 'data') return state;
  const message = decoded.result.ok ? decoded.result.message : undefined;
  const fits =
    message !== undefined &&
    (message.type === state.clientNext ||
      (message.type === 'resource-request' && state.clientNext !== 'session-request'));
  if (!fits) return update(state, { pending: [...state.pending, 'anything'] });
  switch (message.type) {
    case 'session-request':
      return update(state, {
        pending: [...state.pending, 'session-init'],
        noHeaderRequested: message.noHeader,
        clientNext: 'round-request',
      });
    case 'round-request':
      return update(state, { pending: [...state.pending, 'round-start'], clientNext: 'actions' });
    case 'actions':
      return update(state, { pending: [...state.pending, 'step'] });
    default:
      return update(state, { pending: [...state.pending, 'resource-notification'] });
  }
}

/** Checks one well-formed server message against the oldest outstanding request. */
function afterServerMessage(
  state: ClientMachineState,
  message: RddlsimServerMessage,
  index: number,
): Step<ClientMachineState> {
  const head = state.pending[0];
  const rest = state.pending.slice(1);

  if (message.type === 'session-end') {
    if (state.sessionEnd === 'no' && head !== 'anything')
      return fail(
        update(state, { ended: true }),
        violation(
          index,
          'rddlsim.session-end.unexpected',
          head ? DESCRIBE[head] : 'no message',
          describeServerMessage(message),
        ),
      );
    return { ok: true, state: update(state, { pending: [], ended: true, clientNext: 'none' }) };
  }
  if (state.sessionEnd === 'required')
    return fail(
      update(state, { sessionEnd: 'no' }),
      violation(
        index,
        'rddlsim.session-end.expected',
        '<session-end> after the last <round-end>',
        describeServerMessage(message),
      ),
    );
  if (!head)
    return fail(
      state,
      violation(
        index,
        'rddlsim.message.unsolicited',
        'no message (the client asked for nothing)',
        describeServerMessage(message),
      ),
    );

  const next: ClientMachineState = update(state, { pending: rest, sessionEnd: 'no' });
  switch (head) {
    case 'anything':
      return { ok: true, state: next };
    case 'session-init':
      if (message.type === 'session-init')
        return { ok: true, state: update(next, { numRounds: message.numRounds }) };
      if (message.type === 'session-init-null') return { ok: true, state: next };
      break;
    case 'resource-notification':
      if (message.type === 'resource-notification') return { ok: true, state: next };
      break;
    case 'round-start':
      if (message.type === 'resource-notification' && !state.awaitingFirstTurn)
        return { ok: true, state: next };
      if (message.type === 'round-init' && !state.awaitingFirstTurn) return roundInit(state, message, index);
      if (message.type === 'turn' && state.awaitingFirstTurn) return firstTurn(next, message, index);
      if (state.awaitingFirstTurn)
        return fail(
          next,
          violation(
            index,
            'rddlsim.turn.expected',
            '<turn> 1 after <round-init>',
            describeServerMessage(message),
          ),
        );
      break;
    case 'step':
      if (message.type === 'turn') {
        const expectedTurn = state.lastTurn + 1;
        const stepped = update(next, { lastTurn: message.turnNum });
        if (message.turnNum !== expectedTurn)
          return fail(
            stepped,
            violation(
              index,
              'rddlsim.turn.sequence',
              `turn-num ${expectedTurn}`,
              `turn-num ${message.turnNum}`,
            ),
          );
        return { ok: true, state: stepped };
      }
      if (message.type === 'round-end') return roundEnd(next, message, index);
      break;
  }
  return fail(
    next,
    violation(index, `rddlsim.${head}.expected`, DESCRIBE[head], describeServerMessage(message)),
  );
}

/** How a server message reads in a violation (built only for violations: most messages break no rule). */
function describeServerMessage(message: RddlsimServerMessage): string {
  return message.type === 'session-init-null' ? 'the text null' : `<${message.type}>`;
}

function roundInit(
  state: ClientMachineState,
  message: RddlsimServerMessage & { type: 'round-init' },
  index: number,
): Step<ClientMachineState> {
  const next: ClientMachineState = update(state, {
    awaitingFirstTurn: true,
    roundInitNum: message.roundNum,
    roundCounts: message.roundNum === state.roundsCounted + 1,
    lastTurn: 0,
  });
  if (state.numRounds !== undefined && message.roundLeft !== state.numRounds - message.roundNum) {
    const expected = `round-left ${state.numRounds - message.roundNum} (num-rounds - round-num)`;
    return fail(
      next,
      violation(index, 'rddlsim.round-init.round-left', expected, `round-left ${message.roundLeft}`),
    );
  }
  if (message.roundNum !== state.roundsCounted + 1 && message.roundNum !== state.roundsCounted) {
    const expected = `round-num ${state.roundsCounted + 1}`;
    return fail(
      next,
      violation(index, 'rddlsim.round-init.round-num', expected, `round-num ${message.roundNum}`),
    );
  }
  return { ok: true, state: next };
}

function firstTurn(
  state: ClientMachineState,
  message: RddlsimServerMessage & { type: 'turn' },
  index: number,
): Step<ClientMachineState> {
  const next = update(state, { awaitingFirstTurn: false, lastTurn: message.turnNum });
  if (message.turnNum !== 1)
    return fail(next, violation(index, 'rddlsim.turn.sequence', 'turn-num 1', `turn-num ${message.turnNum}`));
  if (message.immediateReward !== 0)
    return fail(
      next,
      violation(
        index,
        'rddlsim.turn.first-reward',
        'immediate-reward 0.0 on turn 1',
        `immediate-reward ${message.immediateReward}`,
      ),
    );
  return { ok: true, state: next };
}

function roundEnd(
  state: ClientMachineState,
  message: RddlsimServerMessage & { type: 'round-end' },
  index: number,
): Step<ClientMachineState> {
  const roundsCounted = state.roundsCounted + (state.roundCounts ? 1 : 0);
  const allPlayed = state.numRounds !== undefined && roundsCounted >= state.numRounds;
  const next: ClientMachineState = update(state, {
    roundsCounted,
    roundCounts: false,
    clientNext: 'round-request',
    sessionEnd: allPlayed ? 'required' : message.timeLeft <= 0 ? 'possible' : 'no',
  });
  if (state.roundInitNum !== undefined && message.roundNum !== state.roundInitNum - 1) {
    const expected = `round-num ${state.roundInitNum - 1} (0-based: round-init's minus one)`;
    return fail(
      next,
      violation(index, 'rddlsim.round-end.round-num', expected, `round-num ${message.roundNum}`),
    );
  }
  if (message.turnsUsed > state.lastTurn) {
    const expected = `turns-used of at most ${state.lastTurn}`;
    return fail(
      next,
      violation(index, 'rddlsim.round-end.turns-used', expected, `turns-used ${message.turnsUsed}`),
    );
  }
  return { ok: true, state: next };
}

function closeByServer(state: ClientMachineState, decoded: DecodedMessage): Step<ClientMachineState> {
  if (state.ended || state.failed || state.clientClosed)
    return { ok: true, state: update(state, { ended: true }) };
  const head = state.pending[0];
  if (head === 'anything') return { ok: true, state: update(state, { ended: true }) };
  const expected =
    state.sessionEnd === 'required' ? '<session-end>' : head ? DESCRIBE[head] : 'the session to go on';
  const closed = update(state, { ended: true });
  return fatal(
    closed,
    violation(decoded.index, 'rddlsim.connection.closed-early', expected, 'the connection closed'),
  );
}

/**
 * `state` with `changes`, as a new object (states are never mutated). Copied field by field: object spread
 * costs up to a microsecond on these objects, and a machine judges every message of a session.
 */
function update(state: ClientMachineState, changes: Partial<ClientMachineState>): ClientMachineState {
  const copy = {
    pending: state.pending,
    awaitingFirstTurn: state.awaitingFirstTurn,
    numRounds: state.numRounds,
    roundsCounted: state.roundsCounted,
    roundInitNum: state.roundInitNum,
    roundCounts: state.roundCounts,
    lastTurn: state.lastTurn,
    sessionEnd: state.sessionEnd,
    clientNext: state.clientNext,
    noHeaderRequested: state.noHeaderRequested,
    ended: state.ended,
    clientClosed: state.clientClosed,
    failed: state.failed,
  } satisfies Record<keyof ClientMachineState, unknown>;
  return Object.assign(copy, changes);
}

/** A broken rule after which the session can go on (and later messages are still judged). */
function fail(state: ClientMachineState, broken: Violation): Step<ClientMachineState> {
  return { ok: false, violation: broken, state };
}

/** A broken rule that ends the session: later messages are not judged again. */
function fatal(state: ClientMachineState, broken: Violation): Step<ClientMachineState> {
  return { ok: false, violation: broken, state: update(state, { failed: true }) };
}
