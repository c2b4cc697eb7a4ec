/**
 * One session against a real rddlsim server (or `protoplay serve`) over TCP: the core's sans-IO
 * `RddlsimClient` speaks the protocol, the policy decides, every message is recorded. Whatever goes wrong
 * (the server closes early, never answers, sends something the client machine rejects, the policy fails)
 * ends the session with an outcome that names what happened and an exit code, and the transcript keeps
 * everything up to that point.
 */
import type { InstanceInfo } from '../../../src/core/envs/rddl/api';
import { loadRddl } from '../../../src/core/envs/rddl/index';
import { describeError } from '../../../src/core/errors';
import type { CallOutcome, CallSite } from '../../../src/core/policy/types';
import type { Violation } from '../../../src/core/protocols/machine';
import { RddlsimClient, type ClientEvent } from '../../../src/core/protocols/rddlsim/client';
import type { Observation } from '../../../src/core/protocols/rddlsim/policy-api';
import type { SessionPolicy } from '../../../src/core/protocols/rddlsim/session-policy';
import type { Transcript } from '../../../src/core/transcript/model';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import { ExitCode } from '../../command-line/exit-codes';
import { TcpClient, type TcpClientError } from '../../net/tcp-client';
import type { ReportedRound } from '../../report/round-report';
import type { PreparedPolicy } from './policies';
import type { RddlLibrary } from './rddl-library';

/** The connection id of a remote session in its transcript. */
export const REMOTE_CONNECTION = 'session-1';

/** Options of a remote session. */
export interface RemoteSessionOptions {
  host: string;
  port: number;
  /** The instance to ask for. */
  problemName: string;
  clientName: string;
  /** Ask for `<no-header/>` mode, as PROST does. */
  noHeader: boolean;
  /** Stop (close the connection) after this many counted rounds, when the server offers more. */
  maxRounds?: number;
  /** How long to wait for each answer of the server, in ms. */
  timeoutMs: number;
  policy: PreparedPolicy;
  /** Send actions that fail the domain check (`stop` and `send`) or drop them (`drop`). */
  sendInvalidActions: boolean;
  /** After a policy fault: stop the session, or send a noop and go on. */
  onPolicyFault: 'stop' | 'noop';
  /** The RDDL to use instead of the session-init task. */
  library?: RddlLibrary;
  now: () => number;
  signal: AbortSignal;
  /** Progress callbacks. */
  onSessionInit?(numRounds: number): void;
  onTurn?(observation: Observation): void;
  onRound?(round: ReportedRound): void;
  /** A warning for the user (the RDDL in the task could not be read, but noop plays without it). */
  onWarning?(message: string): void;
}

/** How a remote session ended. */
export type RemoteOutcome =
  | { kind: 'finished' }
  /** `maxRounds` were played and the connection closed on purpose. */
  | { kind: 'stopped'; roundsOffered: number }
  | { kind: 'interrupted' }
  | { kind: 'failed'; exitCode: ExitCode; message: string };

/** What a remote session produced. */
export interface RemoteSessionResult {
  outcome: RemoteOutcome;
  transcript: Transcript;
  rounds: ReportedRound[];
  /** session-end's total reward, when it came. */
  totalReward?: number;
}

/** Plays one session; never rejects: every failure is an outcome. */
export function playRemoteSession(options: RemoteSessionOptions): Promise<RemoteSessionResult> {
  return new RemoteSession(options).play();
}

/** Received bytes a busy client holds before it stops reading (a server may not send unasked). */
const MAX_UNHANDLED_BYTES = 16 * 1024 * 1024;

/** How long the server may keep the connection open after session-end. */
const LINGER_MS = 2_000;

/** What the client waits for after sending a message, for timeout messages. */
const AWAITED: Record<string, string> = {
  'session-request': '<session-init>',
  'round-request': '<round-init> and turn 1',
  actions: '<turn> or <round-end>',
  'resource-request': '<resource-notification>',
};

class RemoteSession {
  readonly #options: RemoteSessionOptions;
  readonly #recorder: TranscriptRecorder;
  readonly #client: RddlsimClient;
  #connection!: TcpClient;
  readonly #rounds: ReportedRound[] = [];
  /** Transcript index of each record the client counted (its violations use its own count). */
  readonly #clientRecords: number[] = [];
  #policy: SessionPolicy | undefined;
  #outcome: RemoteOutcome | undefined;
  #totalReward: number | undefined;
  #numRounds: number | undefined;
  #round = 0;
  #roundCounts = true;
  #lastTurn = 0;
  #lastReceivedIndex = 0;
  #lastSent = 'session-request';
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the awaited answer is late (`performance.now()` time), or undefined while nothing is awaited. */
  #deadline: number | undefined;
  #sessionEnded = false;
  #stopping = false;
  #clientCloseRecorded = false;
  #serverCloseSeen = false;
  #connected = false;
  /** Steps waiting to be handled, in arrival order: the start, each chunk received, the server's close. */
  readonly #steps: (Uint8Array | 'start' | 'server-closed')[] = [];
  /** Received bytes not handled yet; reading pauses when a server floods a client that is thinking. */
  #unhandledBytes = 0;
  /** The loop handling the steps, while it runs. */
  #draining: Promise<void> | undefined;
  #finish: () => void = () => undefined;
  /** Messages the client wrote that are not sent yet. */
  readonly #outgoing: Uint8Array[] = [];
  /** After session-end: how long the server may take to close before the connection is dropped. */
  #linger: ReturnType<typeof setTimeout> | undefined;

  constructor(options: RemoteSessionOptions) {
    this.#options = options;
    this.#recorder = new TranscriptRecorder({
      protocol: 'rddlsim',
      now: options.now,
      meta: {
        source: 'protoplay connect',
        server: `${options.host}:${options.port}`,
        instance: options.problemName,
        policy: options.policy.name,
      },
    });
    this.#recorder.transcript.connections.push({
      id: REMOTE_CONNECTION,
      label: `${options.host}:${options.port}`,
    });
    const info = options.library?.load(options.problemName).model.info;
    this.#client = new RddlsimClient({
      problemName: options.problemName,
      clientName: options.clientName,
      noHeader: options.noHeader,
      sendInvalidActions: options.sendInvalidActions,
      ...(info ? { info } : {}),
    });
    if (info) this.#policy = options.policy.forInstance(info);
  }

  play(): Promise<RemoteSessionResult> {
    const done = new Promise<void>((resolve) => (this.#finish = resolve));
    const abort = () => this.#fail({ kind: 'interrupted' }, 'interrupted');
    this.#connection = new TcpClient(
      { host: this.#options.host, port: this.#options.port },
      {
        onConnect: () => {
          this.#connected = true;
          this.#enqueue('start');
        },
        onData: (chunk) => {
          this.#disarm();
          this.#enqueue(chunk);
        },
        onEnd: () => this.#serverClosed(),
        onError: (error) => this.#onSocketError(error),
        onClose: () => {
          // Closed without a FIN first (reset): to the client that is the server closing too.
          if (this.#connected && !this.#outcome) this.#serverClosed();
          void Promise.resolve(this.#draining).then(() => {
            this.#stopTimer();
            clearTimeout(this.#linger);
            this.#recordClientClose();
            this.#options.signal.removeEventListener('abort', abort);
            this.#finish();
          });
        },
      },
    );
    if (this.#options.signal.aborted) abort();
    this.#options.signal.addEventListener('abort', abort, { once: true });
    return done.then(() => ({
      outcome: this.#outcome ?? { kind: 'finished' },
      transcript: this.#recorder.transcript,
      rounds: this.#rounds,
      ...(this.#totalReward !== undefined ? { totalReward: this.#totalReward } : {}),
    }));
  }

  /**
   * Handles a step after everything received before it was handled, so the client never sees a message
   * before the previous one was dealt with, even while the policy thinks. The socket keeps reading (pausing
   * and resuming it would cost two system calls a turn) unless unhandled bytes pile up.
   */
  #enqueue(step: Uint8Array | 'start' | 'server-closed'): void {
    this.#steps.push(step);
    if (typeof step !== 'string') {
      this.#unhandledBytes += step.length;
      if (this.#unhandledBytes > MAX_UNHANDLED_BYTES) this.#connection.pauseReading();
    }
    this.#draining ??= this.#drain();
  }

  async #drain(): Promise<void> {
    for (let step = this.#steps.shift(); step; step = this.#steps.shift()) {
      try {
        if (step === 'start') await this.#handle(this.#client.start());
        else if (step === 'server-closed') await this.#handleServerClose();
        else await this.#handle(this.#client.receive(step));
      } catch (error) {
        const message = `internal error: ${describeError(error)}`;
        this.#fail({ kind: 'failed', exitCode: ExitCode.failure, message });
      }
      if (typeof step !== 'string') this.#unhandledBytes -= step.length;
    }
    this.#draining = undefined;
    // Keep reading even after the outcome is known: the server's close must still arrive to end the session.
    if (this.#connection.readingPaused) this.#connection.resumeReading();
  }

  /**
   * The server closed the connection. The client first reports what it still held unterminated, then
   * counts the close; the transcript records the close at that point.
   */
  #serverClosed(): void {
    if (this.#serverCloseSeen) return;
    this.#serverCloseSeen = true;
    this.#disarm();
    this.#enqueue('server-closed');
  }

  async #handleServerClose(): Promise<void> {
    const events = this.#client.serverClosed();
    const split = events.findLastIndex((event) => event.kind === 'received') + 1;
    await this.#handle(events.slice(0, split));
    this.#clientRecords.push(this.#recorder.event(REMOTE_CONNECTION, 's2c', 'close').index);
    await this.#handle(events.slice(split));
  }

  /** Handles the client's events in order. */
  async #handle(events: ClientEvent[]): Promise<void> {
    for (const event of events) {
      if (this.#outcome && event.kind !== 'received' && event.kind !== 'violation') continue;
      switch (event.kind) {
        case 'send':
          if (this.#stopping || this.#outcome) {
            this.#clientRecords.push(-1);
            break;
          }
          this.#clientRecords.push(this.#recorder.text(REMOTE_CONNECTION, 'c2s', event.text).index);
          this.#lastSent = event.message.type;
          this.#outgoing.push(event.bytes);
          break;
        case 'received': {
          const framing = event.framing === 'none' ? 'none' : undefined;
          const record =
            event.text !== undefined
              ? this.#recorder.text(REMOTE_CONNECTION, 's2c', event.text, framing)
              : this.#recorder.bytes(REMOTE_CONNECTION, 's2c', event.bytes, framing);
          this.#clientRecords.push(record.index);
          this.#lastReceivedIndex = record.index;
          break;
        }
        case 'session-init':
          this.#onSessionInit(event);
          break;
        case 'round-init':
          this.#round = event.init.roundNum;
          this.#roundCounts = event.init.roundNum === this.#countedRounds() + 1;
          await this.#callHook('onRoundStart', [event.init.roundNum], {
            round: event.init.roundNum,
            turn: 0,
          });
          break;
        case 'turn': {
          this.#flush();
          this.#lastTurn = event.observation.turn;
          this.#options.onTurn?.(event.observation);
          const answer = await this.#decide(event.observation);
          if (this.#outcome) return;
          const { events: sent, problems } = this.#client.act(answer);
          await this.#handle(sent);
          if (problems.length > 0) {
            this.#recorder.annotate('error', {
              source: 'actions',
              message: `${this.#options.sendInvalidActions ? 'sent anyway' : 'not sent'}: ${problems.map((p) => p.message).join('; ')}`,
              problems,
              round: event.observation.round,
              turn: event.observation.turn,
            });
          }
          break;
        }
        case 'round-end':
          await this.#onRoundEnd(event.end);
          break;
        case 'session-end':
          this.#sessionEnded = true;
          this.#totalReward = event.end.totalReward;
          this.#recorder.annotate(
            'reward',
            { kind: 'total', reward: event.end.totalReward, rounds: event.end.roundsUsed },
            this.#lastReceivedIndex,
          );
          await this.#callHook(
            'onSessionEnd',
            [{ totalReward: event.end.totalReward, rounds: this.#rounds }],
            { round: this.#round, turn: 0 },
          );
          // Nothing more is expected: leave, as rddlsim's Java client does, and do not wait for ever for a
          // server that keeps the connection open.
          this.#closeOurSide();
          this.#linger = setTimeout(() => this.#connection.destroy(), LINGER_MS);
          break;
        case 'violation':
          this.#onViolation(event.violation);
          break;
        case 'closed':
          this.#onServerClosed();
          break;
      }
    }
    this.#flush();
  }

  /** Sends what the client wrote since the last flush, in one write, and waits for the answer. */
  #flush(): void {
    const out = this.#outgoing;
    if (out.length === 0) return;
    if (!this.#outcome && !this.#stopping) {
      this.#connection.send(out.length === 1 ? out[0]! : Buffer.concat(out));
      this.#arm();
    }
    out.length = 0;
  }

  #onSessionInit(event: Extract<ClientEvent, { kind: 'session-init' }>): void {
    if (event.init.type === 'session-init') {
      this.#numRounds = event.init.numRounds;
      const { maxRounds } = this.#options;
      this.#options.onSessionInit?.(
        maxRounds !== undefined ? Math.min(maxRounds, event.init.numRounds) : event.init.numRounds,
      );
    } else {
      this.#options.onWarning?.(
        'the server sent null instead of a session-init (it could not read the task files)',
      );
    }
    if (this.#policy) return;
    let info: InstanceInfo | undefined;
    if (event.task !== undefined) {
      try {
        info = loadRddl([{ name: 'session-init task', text: event.task }], {
          instance: this.#options.problemName,
        }).info;
      } catch (error) {
        const message = `cannot use the RDDL of the session-init task: ${describeError(error)}`;
        if (this.#options.policy.name !== 'noop') {
          this.#fail({
            kind: 'failed',
            exitCode: ExitCode.failure,
            message: `${message} (give the files with --rddl-dir)`,
          });
          return;
        }
        this.#options.onWarning?.(`${message}; noop plays without it`);
      }
    }
    if (info) this.#client.setInstanceInfo(info);
    else if (this.#options.policy.name !== 'noop' && !this.#outcome) {
      this.#fail({
        kind: 'failed',
        exitCode: ExitCode.failure,
        message: 'the server sent no RDDL (session-init task); give the files with --rddl-dir',
      });
      return;
    }
    this.#policy = this.#options.policy.forInstance(info);
  }

  async #decide(observation: Observation): Promise<unknown> {
    const site: CallSite = { round: observation.round, turn: observation.turn };
    const index = this.#lastReceivedIndex;
    let outcome: CallOutcome;
    try {
      outcome = await this.#policy!.act(observation, site);
    } catch (error) {
      outcome = { ok: false, fault: { kind: 'crash', message: String(error), hook: 'act' }, logs: [], ms: 0 };
    }
    this.#recordLogs(outcome, site, index);
    if (outcome.ok) return outcome.value;
    this.#recorder.annotate('error', { source: 'policy', ...outcome.fault, ...site }, index);
    if (this.#options.onPolicyFault === 'stop') {
      this.#fail({
        kind: 'failed',
        exitCode: ExitCode.policy,
        message:
          this.#options.policy.fault ??
          `the policy failed on round ${site.round}, turn ${site.turn}: ${outcome.fault.message}`,
      });
    }
    return null;
  }

  async #onRoundEnd(end: { roundReward: number; turnsUsed: number }): Promise<void> {
    const summary: ReportedRound = {
      round: this.#round,
      reward: end.roundReward,
      turns: end.turnsUsed,
      counted: this.#roundCounts,
    };
    this.#rounds.push(summary);
    this.#recorder.annotate('reward', { kind: 'round', ...summary }, this.#lastReceivedIndex);
    this.#options.onRound?.(summary);
    await this.#callHook('onRoundEnd', [summary], { round: summary.round, turn: summary.turns });
    const { maxRounds } = this.#options;
    const offered = this.#numRounds ?? Infinity;
    if (maxRounds !== undefined && this.#countedRounds() >= maxRounds && offered > maxRounds) {
      // Leave before asking for another round: the server sees the connection close, as when a client quits.
      this.#stopping = true;
      this.#outcome = { kind: 'stopped', roundsOffered: this.#numRounds ?? 0 };
      this.#recorder.annotate('note', {
        code: 'protoplay.connect.stopped',
        message: `stopped after ${maxRounds} rounds as asked; the server offers ${this.#numRounds}`,
      });
      // Close both directions, as rddlsim's Java client does: rddlsim's server answers a half-closed
      // connection with resource-notifications for ever, and stops only when a write fails.
      this.#recordClientClose();
      this.#connection.destroy();
    }
  }

  #countedRounds(): number {
    return this.#rounds.filter((round) => round.counted).length;
  }

  async #callHook(
    name: 'onRoundStart' | 'onRoundEnd' | 'onSessionEnd',
    args: unknown[],
    site: CallSite,
  ): Promise<void> {
    const hook = this.#policy?.hook;
    if (!hook || this.#outcome) return;
    const index = this.#lastReceivedIndex;
    const outcome = await hook(name, args, site);
    this.#recordLogs(outcome, site, index);
    if (outcome.ok) return;
    this.#recorder.annotate('error', { source: 'policy', ...outcome.fault, ...site }, index);
    if (this.#options.onPolicyFault === 'stop') {
      this.#fail({
        kind: 'failed',
        exitCode: ExitCode.policy,
        message: this.#options.policy.fault ?? outcome.fault.message,
      });
    }
  }

  #recordLogs(outcome: CallOutcome, site: CallSite, index: number): void {
    for (const line of outcome.logs) this.#recorder.annotate('policy-log', { ...line, ...site }, index);
  }

  #onViolation(violation: Violation): void {
    // Once the session ended from this side, what the server does next is no longer its fault.
    if (this.#outcome) return;
    const index = this.#clientRecords[violation.index] ?? this.#recorder.transcript.messages.length - 1;
    const message = violation.message.replace(/^message \d+/, `message ${index}`);
    this.#recorder.annotate('violation', { role: 'client', ...violation, index, message }, index);
    if (violation.got === 'the connection closed') {
      this.#fail({ kind: 'failed', exitCode: ExitCode.connection, message: this.#closedEarlyMessage() });
      return;
    }
    this.#fail({
      kind: 'failed',
      exitCode: ExitCode.failure,
      message: `the server broke the protocol: ${message}`,
    });
  }

  #onServerClosed(): void {
    if (this.#outcome) return;
    if (!this.#sessionEnded) {
      this.#fail({ kind: 'failed', exitCode: ExitCode.connection, message: this.#closedEarlyMessage() });
      return;
    }
    this.#closeOurSide();
  }

  #closedEarlyMessage(): string {
    if (this.#lastSent === 'session-request' && this.#numRounds === undefined) {
      return `the server closed the connection without answering the session-request (rddlsim does this when it does not know the instance '${this.#options.problemName}')`;
    }
    const where = this.#round
      ? ` in round ${this.#round}${this.#lastTurn ? `, after turn ${this.#lastTurn}` : ''}`
      : '';
    return `the server closed the connection before the session ended${where}`;
  }

  #onSocketError(error: TcpClientError): void {
    this.#stopTimer();
    const address = `${this.#options.host}:${this.#options.port}`;
    if (error.connecting) {
      this.#fail({
        kind: 'failed',
        exitCode: ExitCode.connection,
        message: `cannot connect to ${address}: ${error.description}`,
      });
      return;
    }
    this.#recorder.event(REMOTE_CONNECTION, 's2c', 'error', error.code);
    if (!this.#outcome && !this.#sessionEnded) {
      this.#fail({
        kind: 'failed',
        exitCode: ExitCode.connection,
        message: `${this.#closedEarlyMessage()} (${error.code})`,
      });
    }
  }

  /**
   * Starts the answer timeout after a message went out. Thousands of messages a second go out, so a timer
   * is not set for each: one timer runs, and when it fires it checks the deadline of the answer awaited
   * then, if any, and waits for the rest of it.
   */
  #arm(): void {
    const { timeoutMs } = this.#options;
    if (!(timeoutMs > 0)) return;
    this.#deadline = performance.now() + timeoutMs;
    this.#timer ??= setTimeout(() => this.#checkDeadline(), timeoutMs);
  }

  /** An answer came: nothing is awaited. */
  #disarm(): void {
    this.#deadline = undefined;
  }

  #stopTimer(): void {
    this.#deadline = undefined;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #checkDeadline(): void {
    this.#timer = undefined;
    if (this.#deadline === undefined) return;
    const left = this.#deadline - performance.now();
    if (left > 0) {
      this.#timer = setTimeout(() => this.#checkDeadline(), left);
      return;
    }
    const awaited = AWAITED[this.#lastSent] ?? 'an answer';
    const where =
      this.#lastSent === 'actions'
        ? ` after the actions of round ${this.#round}, turn ${this.#lastTurn}`
        : '';
    const seconds = this.#options.timeoutMs / 1000;
    this.#recorder.event(REMOTE_CONNECTION, 's2c', 'error', `no answer within ${seconds} s`);
    this.#fail({
      kind: 'failed',
      exitCode: ExitCode.connection,
      message: `the server did not answer within ${seconds} s (waiting for ${awaited}${where})`,
    });
  }

  /** Ends the session with an outcome (the first one wins) and drops the connection. */
  #fail(outcome: RemoteOutcome, note?: string): void {
    if (this.#outcome) return;
    this.#outcome = outcome;
    this.#stopTimer();
    if (outcome.kind === 'failed') {
      this.#recorder.annotate('error', { source: 'session', message: outcome.message });
    } else if (note) {
      this.#recorder.annotate('note', { code: 'protoplay.connect.interrupted', message: note });
    }
    this.#recordClientClose();
    this.#connection.destroy();
  }

  #closeOurSide(): void {
    this.#recordClientClose();
    this.#connection.end();
  }

  #recordClientClose(): void {
    if (this.#clientCloseRecorded || !this.#connected) return;
    this.#clientCloseRecorded = true;
    this.#recorder.event(REMOTE_CONNECTION, 'c2s', 'close');
  }
}
