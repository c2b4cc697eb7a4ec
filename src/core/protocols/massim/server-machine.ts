/**
 * The server's side of one MASSim connection: what the real server does with each frame an agent sends.
 * It judges the agent (violations are about `c2s` frames) and follows the server's frames for context
 * (which ids were issued, when a step closed, whether the login succeeded). Every violation is something
 * the real server silently ignored, or the frame that made it stop reading the connection.
 *
 * Lateness is judged by order: an action that arrives after the next request-action (or sim-end) of its
 * connection was too late. An id issued on an earlier connection of the same agent cannot be known here.
 */
import type { ProtocolMachine, Step } from '../machine';
import type { TranscriptMessage } from '../../transcript/model';
import { payloadBytes } from '../../transcript/bytes';
import { readClientFrameOnce, serverFrameFacts, type ClientFrameReading } from './codec';
import { countFrameAgainstPacketLimit, freshPacketLimitCounter, type PacketLimitCounter } from './framing';
import { massimViolation, messageText, type MassimViolation } from './violation';
import type { MassimRuleId } from './rules';

/** Where the connection is, as the server sees it. */
export type MassimServerPhase =
  /** Waiting for the first frame (the front desk). */
  | 'fresh'
  /** auth-request read, waiting to see the server's answer. */
  | 'logging-in'
  /** Logged in: the receive loop reads every frame. */
  | 'logged-in'
  /** The receive loop stopped (bad JSON, action without `p`...): nothing is read any more. */
  | 'receiver-dead'
  /** The first frame was a status-request or was dropped: nothing is read any more. */
  | 'front-desk-done'
  /** Login failed; the server closed the connection. */
  | 'rejected'
  | 'closed';

/** State of the server machine; plain data, never mutated. */
export interface MassimServerMachineState {
  phase: MassimServerPhase;
  /** The frame that stopped the receive loop, when it stopped. */
  stoppedBy?: { index: number; rule: MassimRuleId };
  /** Index of the auth-request, to blame it if the login fails. */
  authIndex?: number;
  /** The user name of the auth-request. */
  agent?: string;
  packetCounter: PacketLimitCounter;
  /** Action ids the server issued on this connection, in order. */
  issued: IdLog;
  /** Ids for which an action was accepted (the first one wins), in order. */
  answered: IdLog;
  /** The id of the request whose step is still open, if any. */
  openId?: number;
  /** What the last agent frame did (accepted action, or why not), for views and the host. */
  lastReading?: ClientFrameReading;
}

/**
 * An append-only list of ids that successive machine states share: appending to the newest state's list
 * pushes in place, so a connection of a million steps costs no copying (appending to an older state's list
 * copies, which keeps every state unchanged). Ids only grow on a sound connection, so a lookup is a binary
 * search; a list that went down once is searched in full.
 */
export class IdLog {
  static readonly empty = new IdLog([], 0, true);

  private constructor(
    readonly items: number[],
    readonly length: number,
    readonly ascending: boolean,
  ) {}

  /** This list with `id` appended. */
  append(id: number): IdLog {
    const ascending = this.ascending && (this.length === 0 || id > this.items[this.length - 1]!);
    if (this.length === this.items.length) {
      this.items.push(id);
      return new IdLog(this.items, this.length + 1, ascending);
    }
    return new IdLog([...this.items.slice(0, this.length), id], this.length + 1, ascending);
  }

  has(id: number): boolean {
    if (!this.ascending) return this.items.slice(0, this.length).includes(id);
    let low = 0;
    let high = this.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const value = this.items[middle]!;
      if (value === id) return true;
      if (value < id) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  toArray(): number[] {
    return this.items.slice(0, this.length);
  }
}

/** Options of the server machine. */
export interface MassimServerMachineOptions {
  /** The server's `maxPacketLength` (65536 in every shipped configuration). */
  maxPacketLength?: number;
}

/**
 * The state every connection starts from, one for all: states are never changed, and machines that start
 * from the same state and take the same messages go through the same states, so `serverSteps` can give
 * the second machine the first one's steps.
 */
const freshState: MassimServerMachineState = {
  phase: 'fresh',
  packetCounter: freshPacketLimitCounter,
  issued: IdLog.empty,
  answered: IdLog.empty,
};

/** Creates the machine that checks an agent's frames the way a server with these settings treats them. */
export function createMassimServerMachine(
  options: MassimServerMachineOptions = {},
): ProtocolMachine<MassimServerMachineState> {
  const limit = options.maxPacketLength ?? 65536;
  return {
    role: 'server',
    initial: () => freshState,
    accept(state, message) {
      const known = serverSteps.find(state, message, limit);
      if (known) return known;
      const step = stepServer(state, message, limit);
      serverSteps.keep(state, message, limit, step);
      return step;
    },
    finish: () => null,
  };
}

function stepServer(
  state: MassimServerMachineState,
  message: TranscriptMessage,
  limit: number,
): Step<MassimServerMachineState> {
  if (message.kind === 'close') return accept({ ...state, phase: 'closed' });
  if (message.kind !== 'data') return accept(state);
  if (message.dir === 's2c') return acceptServerFrame(state, message);
  return acceptAgentFrame(state, message, limit);
}

/**
 * The latest steps of every server machine in this thread. Opening a recording validates it and reads it
 * for the views, and both follow each connection with a server machine: the second takes the first one's
 * step for a message instead of working it out again (reading the frame, building the next state and any
 * violation). A step is a pure function of the state before, the packet limit and the message's index,
 * kind, direction and payload; a remembered step is taken only when all of them are the very same (the
 * state the same object), so it is exactly the step the machine would work out. One slot per message index
 * modulo the capacity, as in `FrameMemo`: at most `capacity` steps are held.
 */
export class ServerStepMemo {
  #before: (MassimServerMachineState | undefined)[] = [];
  #limits: number[] = [];
  #messages: (TranscriptMessage | undefined)[] = [];
  #steps: (Step<MassimServerMachineState> | undefined)[] = [];
  #capacity = 0;
  /** Steps worked out (not found) since the memo was created or resized. */
  worked = 0;

  constructor(capacity: number) {
    this.resize(capacity);
  }

  /** The remembered step of a machine in `state` taking `message`, if it is remembered. */
  find(
    state: MassimServerMachineState,
    message: TranscriptMessage,
    limit: number,
  ): Step<MassimServerMachineState> | undefined {
    if (this.#capacity === 0) return undefined;
    const slot = (message.index >>> 0) % this.#capacity;
    if (this.#before[slot] !== state || this.#limits[slot] !== limit) return undefined;
    const seen = this.#messages[slot]!;
    return seen.index === message.index &&
      seen.kind === message.kind &&
      seen.dir === message.dir &&
      seen.text === message.text &&
      seen.base64 === message.base64
      ? this.#steps[slot]
      : undefined;
  }

  /** Remembers a step just worked out. */
  keep(
    state: MassimServerMachineState,
    message: TranscriptMessage,
    limit: number,
    step: Step<MassimServerMachineState>,
  ): void {
    this.worked++;
    if (this.#capacity === 0) return;
    const slot = (message.index >>> 0) % this.#capacity;
    this.#before[slot] = state;
    this.#limits[slot] = limit;
    this.#messages[slot] = message;
    this.#steps[slot] = step;
  }

  /** How many steps are remembered at most. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Remembers at most `capacity` steps from now on (0: none), forgetting every step so far. */
  resize(capacity: number): void {
    this.#capacity = Math.max(0, Math.floor(capacity));
    this.#before = new Array<MassimServerMachineState | undefined>(this.#capacity).fill(undefined);
    this.#limits = new Array<number>(this.#capacity).fill(0);
    this.#messages = new Array<TranscriptMessage | undefined>(this.#capacity).fill(undefined);
    this.#steps = new Array<Step<MassimServerMachineState> | undefined>(this.#capacity).fill(undefined);
    this.worked = 0;
  }
}

/** The steps of recent messages, shared by every server machine in this thread (see `ServerStepMemo`). */
export const serverSteps = new ServerStepMemo(4096);

function acceptServerFrame(
  state: MassimServerMachineState,
  message: TranscriptMessage,
): Step<MassimServerMachineState> {
  const facts = serverFrameFacts.get(message.index, messageText(message));
  if (!facts.json) return accept(state); // the client machine reports broken server frames
  const { type, id } = facts;
  if (type === 'auth-response' && state.phase === 'logging-in') {
    if (facts.result === 'ok') return accept({ ...state, phase: 'logged-in' });
    const index = state.authIndex ?? message.index;
    return reject(
      { ...state, phase: 'rejected' },
      massimViolation(
        index,
        'massim.auth.rejected',
        'a configured user and its password',
        `user "${state.agent ?? ''}"`,
        `Login of "${state.agent ?? ''}" failed.`,
      ),
    );
  }
  if (type === 'request-action' && id !== undefined) {
    return accept({ ...state, issued: state.issued.append(id), openId: id });
  }
  if (type === 'sim-end') return accept({ ...state, openId: undefined });
  return accept(state);
}

function acceptAgentFrame(
  state: MassimServerMachineState,
  message: TranscriptMessage,
  limit: number,
): Step<MassimServerMachineState> {
  const index = message.index;
  switch (state.phase) {
    case 'fresh':
      return acceptFirstFrame(state, message);
    case 'front-desk-done':
    case 'rejected':
    case 'closed':
      return reject(
        state,
        massimViolation(index, 'massim.front-desk.unread', 'nothing', 'a frame', 'This frame is never read.'),
      );
    case 'receiver-dead': {
      const stopped = state.stoppedBy;
      return reject(
        state,
        massimViolation(
          index,
          'massim.receiver.dead',
          'a reconnection',
          'a frame',
          `The server stopped reading this connection at message ${stopped?.index ?? '?'} (${stopped?.rule ?? ''}).`,
        ),
      );
    }
    case 'logging-in':
    case 'logged-in':
      return acceptSessionFrame(state, message, limit);
  }
}

function acceptFirstFrame(
  state: MassimServerMachineState,
  message: TranscriptMessage,
): Step<MassimServerMachineState> {
  const index = message.index;
  const reading = readClientFrameOnce(index, messageText(message));
  const done = { ...state, phase: 'front-desk-done' as const, lastReading: reading };
  switch (reading.kind) {
    case 'auth-request':
      return accept({
        ...state,
        phase: 'logging-in',
        authIndex: index,
        agent: reading.user,
        lastReading: reading,
      });
    case 'status-request':
      return accept(done);
    case 'invalid-json':
      return reject(
        done,
        massimViolation(
          index,
          'massim.front-desk.invalid-json',
          'an auth-request',
          `invalid JSON: ${reading.error.message}`,
          'The first frame is not JSON.',
        ),
      );
    case 'no-content':
      return reject(
        done,
        massimViolation(
          index,
          'massim.front-desk.no-content',
          'a "content" object',
          'none',
          `The first frame ("${reading.type}") has no content object.`,
        ),
      );
    default:
      return reject(
        done,
        massimViolation(
          index,
          'massim.front-desk.not-auth',
          'auth-request or status-request',
          describeReading(reading),
          `The first frame is ${describeReading(reading)}.`,
        ),
      );
  }
}

function acceptSessionFrame(
  state: MassimServerMachineState,
  message: TranscriptMessage,
  limit: number,
): Step<MassimServerMachineState> {
  const index = message.index;
  const length = payloadLength(message);
  const counted = countFrameAgainstPacketLimit(state.packetCounter, length, limit);
  const counter = { ...state, packetCounter: counted.counter };
  if (counted.discarded) {
    return reject(
      counter,
      massimViolation(
        index,
        'massim.frame.oversized',
        `at most ${limit} bytes`,
        `${length} bytes`,
        'The frame is too long.',
      ),
    );
  }
  const reading = readClientFrameOnce(index, messageText(message));
  const next = { ...counter, lastReading: reading };
  const dead = (rule: MassimRuleId) => ({
    ...next,
    phase: 'receiver-dead' as const,
    stoppedBy: { index, rule },
  });
  switch (reading.kind) {
    case 'invalid-json': {
      const { message: problem, location } = reading.error;
      return reject(
        dead('massim.receiver.invalid-json'),
        massimViolation(
          index,
          'massim.receiver.invalid-json',
          'a JSON object',
          `${problem} at column ${location.column}`,
          `Invalid JSON: ${problem} (line ${location.line}, column ${location.column}).`,
        ),
      );
    }
    case 'action-without-p':
      return reject(
        dead('massim.receiver.action-without-p'),
        massimViolation(
          index,
          'massim.receiver.action-without-p',
          '"p": [...] (an array, [] for no parameters)',
          reading.got,
          `Action ${reading.id} has no "p" array.`,
        ),
      );
    case 'server-message':
      if (reading.breaksReceiver) {
        return reject(
          dead('massim.receiver.server-message'),
          massimViolation(
            index,
            'massim.receiver.server-message',
            'action',
            reading.type,
            `An agent sent "${reading.type}".`,
          ),
        );
      }
      return reject(
        next,
        massimViolation(
          index,
          'massim.message.ignored-type',
          'action',
          reading.type,
          `An agent sent "${reading.type}".`,
        ),
      );
    case 'no-content':
      return reject(
        next,
        massimViolation(
          index,
          'massim.message.no-content',
          'a "content" object',
          'none',
          `"${reading.type}" without content.`,
        ),
      );
    case 'unknown-type':
      return reject(
        next,
        massimViolation(
          index,
          'massim.message.unknown-type',
          'action',
          `"${reading.type}"`,
          `Unknown message type "${reading.type}".`,
        ),
      );
    case 'auth-request':
      return reject(
        next,
        massimViolation(
          index,
          'massim.auth.after-login',
          'action',
          'auth-request',
          'auth-request on a logged-in connection.',
        ),
      );
    case 'status-request':
      return reject(
        next,
        massimViolation(
          index,
          'massim.status.after-login',
          'action',
          'status-request',
          'status-request on a logged-in connection.',
        ),
      );
    case 'action':
      return acceptAction(next, index, reading.id);
  }
}

function acceptAction(
  state: MassimServerMachineState,
  index: number,
  id: number,
): Step<MassimServerMachineState> {
  if (id === state.openId && !state.answered.has(id)) {
    return accept({ ...state, answered: state.answered.append(id) });
  }
  const expected = state.openId === undefined ? 'no action (no step is open)' : `id ${state.openId}`;
  if (id === state.openId)
    return reject(
      state,
      massimViolation(
        index,
        'massim.action.duplicate',
        `one action for id ${id}`,
        `a second action for id ${id}`,
        `Action ${id} was already answered.`,
      ),
    );
  if (state.issued.has(id)) {
    if (state.answered.has(id))
      return reject(
        state,
        massimViolation(
          index,
          'massim.action.stale-id',
          expected,
          `id ${id}`,
          `Action id ${id} belongs to an earlier, answered request.`,
        ),
      );
    return reject(
      state,
      massimViolation(
        index,
        'massim.action.late',
        expected,
        `id ${id}`,
        `Action ${id} arrived after its step ran.`,
      ),
    );
  }
  return reject(
    state,
    massimViolation(
      index,
      'massim.action.unknown-id',
      expected,
      `id ${id}`,
      `Action id ${id} was never issued on this connection.`,
    ),
  );
}

/** How many bytes a message's payload is, without encoding a text payload (agents send many). */
function payloadLength(message: TranscriptMessage): number {
  const text = message.text;
  if (text === undefined) return payloadBytes(message).length;
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) length += 1;
    else if (code >= 0xd800 && code < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      length += 2; // a surrogate pair: 4 bytes for its 2 code units
      i++;
    } else length += 2; // 3 bytes, as is a lone surrogate (encoded as U+FFFD)
  }
  return length;
}

function describeReading(reading: ClientFrameReading): string {
  switch (reading.kind) {
    case 'action':
    case 'action-without-p':
      return 'an action';
    case 'unknown-type':
    case 'server-message':
    case 'no-content':
      return `"${reading.type}"`;
    default:
      return reading.kind;
  }
}

function accept(state: MassimServerMachineState): Step<MassimServerMachineState> {
  return { ok: true, state };
}

function reject(state: MassimServerMachineState, violation: MassimViolation): Step<MassimServerMachineState> {
  return { ok: false, violation, state };
}
