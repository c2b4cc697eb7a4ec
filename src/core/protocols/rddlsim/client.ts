/**
 * The rddlsim client adapter, sans-IO: it speaks the protocol for a policy. Bytes from the server go in;
 * out come the bytes to send and events (a decision is due, a round ended...). It asks for rounds by itself
 * and encodes the policy's actions after checking them against the domain. The client machine judges
 * everything the server sends.
 */
import type { InstanceInfo } from '../../envs/rddl/api';
import { ProtoplayError } from '../../errors';
import type { Violation } from '../machine';
import { encodeActions, type ActionProblem } from './action-encoding';
import { rddlsimClientMachine, type ClientMachineState } from './client-machine';
import { parseServerMessage, serialiseClientMessage } from './codec';
import type { DecodedMessage } from './decoded-message';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  ServerStreamSplitter,
  encodeFrame,
  type WireFrame,
  type WireFraming,
} from './framing';
import type {
  NullSessionInit,
  RddlsimClientMessage,
  RddlsimServerMessage,
  RoundEnd,
  RoundInit,
  SessionEnd,
  SessionInit,
} from './messages';
import { decodeObservation } from './observation';
import type { Observation } from './policy-api';
import { base64ToBytes } from '../../transcript/bytes';

/** Options of a client session. */
export interface RddlsimClientOptions {
  /** Instance to ask for (`<problem-name>`). */
  problemName: string;
  /** `<client-name>` (default `protoplay`). */
  clientName?: string;
  /** Ask for `<no-header/>` mode, as PROST does. */
  noHeader?: boolean;
  /** `<input-language>` to send (IPC 2018), e.g. `rddl`. */
  inputLanguage?: string;
  /** `<execute-policy>` text to put in every round-request (for servers in monitor mode). */
  executePolicy?: string;
  /** Domain facts to check actions against (see `setInstanceInfo` to add them later). */
  info?: InstanceInfo;
  /** Send actions with domain problems anyway (default false: they are dropped and reported). */
  sendInvalidActions?: boolean;
  /** Largest server message accepted (default 10 MiB). */
  maxMessageBytes?: number;
}

/** What the client reports. Apply `send`s in order. */
export type ClientEvent =
  | { kind: 'send'; message: RddlsimClientMessage; text: string; bytes: Uint8Array }
  /** A server message as framed on the wire (record it), with its parse result. */
  | {
      kind: 'received';
      text: string | undefined;
      bytes: Uint8Array;
      framing: WireFraming;
      message?: RddlsimServerMessage;
      error?: ProtoplayError;
    }
  /** The session started; `task` is the decoded RDDL text (domain, blank line, instance) when sent. */
  | { kind: 'session-init'; init: SessionInit | NullSessionInit; task?: string }
  | { kind: 'round-init'; init: RoundInit }
  /** A decision is due: call `act` with the policy's answer. */
  | { kind: 'turn'; observation: Observation }
  | { kind: 'round-end'; end: RoundEnd }
  | { kind: 'session-end'; end: SessionEnd }
  /** The server broke a rule (`index` counts this connection's records from 0, as the client saw them). */
  | { kind: 'violation'; violation: Violation }
  | { kind: 'closed' };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** One session of a client. */
export class RddlsimClient {
  readonly options: RddlsimClientOptions;
  #info: InstanceInfo | undefined;
  readonly #splitter: ServerStreamSplitter;
  #machine: ClientMachineState = rddlsimClientMachine.initial();
  #records = 0;
  #events: ClientEvent[] = [];
  #started = false;
  #closed = false;
  #numRounds: number | undefined;
  #roundsCounted = 0;
  #roundInit: RoundInit | undefined;
  #decisionDue = false;

  constructor(options: RddlsimClientOptions) {
    this.options = options;
    this.#info = options.info;
    this.#splitter = new ServerStreamSplitter({
      maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    });
  }

  /** The domain facts actions are checked against, e.g. once parsed from the session-init task. */
  setInstanceInfo(info: InstanceInfo): void {
    this.#info = info;
  }

  /** True while a turn waits for `act`. */
  get decisionDue(): boolean {
    return this.#decisionDue;
  }

  /** True once the session ended or the connection closed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Opens the session: the session-request to send. */
  start(): ClientEvent[] {
    if (this.#started) throw new ProtoplayError('rddlsim.client.started', 'the session was already started');
    this.#started = true;
    const { problemName, clientName = 'protoplay', inputLanguage, noHeader = false } = this.options;
    this.#send({
      type: 'session-request',
      problemName,
      clientName,
      ...(inputLanguage !== undefined ? { inputLanguage } : {}),
      noHeader,
    });
    return this.#take();
  }

  /** Feeds bytes from the server. */
  receive(chunk: Uint8Array): ClientEvent[] {
    if (this.#closed) return [];
    for (const frame of this.#splitter.push(chunk)) this.#onFrame(frame);
    return this.#take();
  }

  /** The server closed the connection. */
  serverClosed(): ClientEvent[] {
    if (this.#closed) return [];
    for (const frame of this.#splitter.end()) this.#onFrame(frame);
    this.#judge({ kind: 'close', index: this.#records++, dir: 's2c' });
    this.#closed = true;
    this.#decisionDue = false;
    this.#events.push({ kind: 'closed' });
    return this.#take();
  }

  /**
   * Answers the due turn with the policy's return value (one action, a list, or null for noop). Problems
   * found against the domain are returned; invalid actions are dropped unless `sendInvalidActions` is set.
   */
  act(returned: unknown): { events: ClientEvent[]; problems: ActionProblem[] } {
    if (!this.#decisionDue)
      throw new ProtoplayError('rddlsim.client.no-turn', 'no turn is waiting for actions');
    this.#decisionDue = false;
    const encoded = encodeActions(returned, {
      info: this.#info,
      sendInvalid: this.options.sendInvalidActions,
    });
    this.#send({ type: 'actions', actions: encoded.actions });
    return { events: this.#take(), problems: encoded.problems };
  }

  /** Asks the server how much time is left (allowed wherever the server waits). */
  requestResources(): ClientEvent[] {
    this.#send({ type: 'resource-request' });
    return this.#take();
  }

  #take(): ClientEvent[] {
    const events = this.#events;
    this.#events = [];
    return events;
  }

  #send(message: RddlsimClientMessage): void {
    const text = serialiseClientMessage(message);
    const index = this.#records++;
    this.#events.push({ kind: 'send', message, text, bytes: encodeFrame(text, 'nul') });
    this.#judge({ kind: 'data', index, dir: 'c2s', framing: 'nul', result: { ok: true, message } });
  }

  #onFrame(frame: WireFrame): void {
    const index = this.#records++;
    let text: string | undefined;
    let message: RddlsimServerMessage | undefined;
    let error: ProtoplayError | undefined;
    try {
      text = strictUtf8.decode(frame.bytes);
    } catch {
      error = new ProtoplayError('rddlsim.xml.malformed', 'malformed XML: the bytes are not valid UTF-8', {
        source: `message ${index}`,
        line: 1,
        column: 1,
      });
    }
    if (frame.oversize) {
      error = new ProtoplayError(
        'rddlsim.frame.too-large',
        `message ${index} is larger than ${this.options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES} bytes without a terminator`,
      );
    } else if (text !== undefined) {
      try {
        message = parseServerMessage(text, `message ${index}`);
      } catch (thrown) {
        error =
          thrown instanceof ProtoplayError
            ? thrown
            : new ProtoplayError('rddlsim.message.invalid', String(thrown));
      }
    }
    this.#events.push({
      kind: 'received',
      text,
      bytes: frame.bytes,
      framing: frame.framing,
      ...(message ? { message } : {}),
      ...(error ? { error } : {}),
    });
    this.#judge({
      kind: 'data',
      index,
      dir: 's2c',
      framing: frame.framing,
      result: message ? { ok: true, message } : { ok: false, error: error! },
    });
    if (message) this.#onMessage(message);
  }

  #judge(decoded: DecodedMessage): void {
    const step = rddlsimClientMachine.acceptDecoded(this.#machine, decoded);
    this.#machine = step.state;
    if (!step.ok) this.#events.push({ kind: 'violation', violation: step.violation });
  }

  #onMessage(message: RddlsimServerMessage): void {
    switch (message.type) {
      case 'session-init':
      case 'session-init-null': {
        if (message.type === 'session-init') this.#numRounds = message.numRounds;
        const task = message.type === 'session-init' ? decodeTask(message.task) : undefined;
        this.#events.push({ kind: 'session-init', init: message, ...(task !== undefined ? { task } : {}) });
        this.#requestRound();
        return;
      }
      case 'round-init':
        this.#roundInit = message;
        this.#events.push({ kind: 'round-init', init: message });
        return;
      case 'turn':
        this.#decisionDue = true;
        this.#events.push({
          kind: 'turn',
          observation: decodeObservation(message, this.#roundInit?.roundNum ?? 0),
        });
        return;
      case 'round-end': {
        this.#decisionDue = false;
        if (this.#roundInit && this.#roundInit.roundNum === this.#roundsCounted + 1) this.#roundsCounted++;
        this.#events.push({ kind: 'round-end', end: message });
        // Ask for the next round unless all were played; if the server ends the session instead (time out),
        // it closes the connection without reading this request, which costs nothing.
        if (this.#numRounds === undefined || this.#roundsCounted < this.#numRounds) this.#requestRound();
        return;
      }
      case 'session-end':
        this.#decisionDue = false;
        this.#events.push({ kind: 'session-end', end: message });
        return;
      case 'resource-notification':
        return;
    }
  }

  #requestRound(): void {
    const { executePolicy } = this.options;
    this.#send({ type: 'round-request', ...(executePolicy !== undefined ? { executePolicy } : {}) });
  }
}

/** The RDDL text in a session-init task (base64 of UTF-8), or undefined when it is not valid base64 text. */
export function decodeTask(task: string): string | undefined {
  try {
    return strictUtf8.decode(base64ToBytes(task));
  } catch {
    return undefined;
  }
}
