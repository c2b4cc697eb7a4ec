/**
 * One session against a real rddlsim server (or `protoplay serve`) over TCP, dialed through the command
 * line's one TCP client (`openTcpDial`): the core's sans-IO client (`rddlsimSansIoClient`, driven by
 * `driveClient` like every protocol's client) speaks the protocol, the policy in its supervised thread
 * answers the decisions it asks for, every message is recorded. Whatever goes wrong
 * (the server closes early, never answers, sends something the client machine rejects, the policy fails)
 * ends the session with an outcome that names what happened and an exit code, and the transcript keeps
 * everything up to that point.
 */
import type { InstanceInfo } from '../../../src/core/envs/rddl/api';
import { loadRddl } from '../../../src/core/envs/rddl/index';
import { describeError } from '../../../src/core/errors';
import type { CallOutcome, CallSite } from '../../../src/core/policy/types';
import type { Violation } from '../../../src/core/protocols/machine';
import type {
  ClientPeer,
  DecisionRequest,
  SansIoClient,
  WirePeer,
  WireSink,
} from '../../../src/core/protocols/contract';
import type { ActionProblem } from '../../../src/core/protocols/rddlsim/action-encoding';
import type { ClientEvent, RddlsimClientOptions } from '../../../src/core/protocols/rddlsim/client';
import { EarlyRoundEnds } from '../../../src/core/protocols/rddlsim/early-round-end';
import { rddlsimTaskRddl } from '../../../src/core/protocols/rddlsim/host';
import type { Observation } from '../../../src/core/protocols/rddlsim/policy-api';
import { rddlsimProtocol } from '../../../src/core/protocols/rddlsim/protocol';
import { rddlsimSansIoClient } from '../../../src/core/protocols/rddlsim/sans-io-client';
import type { PolicyHook, SessionPolicy } from '../../../src/core/protocols/rddlsim/session-policy';
import { driveClient } from '../../../src/core/session/client-driver';
import type { Transcript } from '../../../src/core/transcript/model';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import { ExitCode } from '../../command-line/exit-codes';
import { openTcpDial, type DialFailure, type TcpDial } from '../../play/transports';
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

/** What a decision that is not asked of the policy (no such hook, or the session is over) answers. */
const SKIPPED: CallOutcome = { ok: true, value: null, logs: [], ms: 0 };

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
  readonly #client: SansIoClient<Uint8Array, Uint8Array>;
  #dial!: TcpDial;
  /** Where the client's bytes go, once connected: the connection's sink. */
  #wire: WireSink<Uint8Array> | undefined;
  /** The driven client's side of the connection, once connected. */
  #peer: WirePeer<Uint8Array> | undefined;
  readonly #rounds: ReportedRound[] = [];
  /** Transcript index of each record the client counted (its violations use its own count). */
  readonly #clientRecords: number[] = [];
  #policy: SessionPolicy | undefined;
  /** Explains the rounds the server ends early, once the instance's model is known (from --rddl-dir or the session-init task). */
  #early: EarlyRoundEnds | undefined;
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
  #ourSideClosed = false;
  #serverCloseSeen = false;
  /** The server's close reached the client: the first event it reports that is not a message is the close. */
  #serverCloseFed = false;
  #serverCloseRecorded = false;
  #connected = false;
  #socketClosed = false;
  #finished = false;
  /** Decisions asked of the policy and not yet handed back to the client. */
  #deciding = 0;
  #finish: () => void = () => undefined;
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
    this.#recorder.addConnection(REMOTE_CONNECTION, `${options.host}:${options.port}`);
    const model = options.library?.load(options.problemName).model;
    if (model) this.#early = new EarlyRoundEnds(model);
    const info = model?.info;
    const clientOptions: RddlsimClientOptions = {
      problemName: options.problemName,
      clientName: options.clientName,
      noHeader: options.noHeader,
      sendInvalidActions: options.sendInvalidActions,
      ...(info ? { info } : {}),
    };
    this.#client = rddlsimSansIoClient(clientOptions, {
      sessionInit: (event) => this.#onSessionInit(event),
      event: (event) => this.#onEvent(event),
      actionProblems: (problems, site) => this.#onActionProblems(problems, site),
    });
    if (info) this.#policy = options.policy.forInstance(info);
  }

  play(): Promise<RemoteSessionResult> {
    const done = new Promise<void>((resolve) => (this.#finish = resolve));
    const abort = () => this.#fail({ kind: 'interrupted' }, 'interrupted');
    const { host, port } = this.#options;
    const endpoint = driveClient(this.#watched(), (request) => this.#decide(request));
    this.#dial = openTcpDial(
      rddlsimProtocol,
      {
        connect: (sink, connection) => {
          this.#connected = true;
          this.#wire = sink;
          this.#peer = endpoint.connect(
            { send: (bytes) => this.#send(bytes), close: (reason) => this.#clientClosed(reason) },
            connection,
          );
          return {
            receive: (chunk) => {
              this.#disarm();
              this.#peer!.receive(chunk);
            },
            // The server closed (FIN), or the connection broke (the failure was reported first); after
            // the session ended from this side, it is only the socket closing.
            end: () => {
              if (!this.#outcome) this.#serverClosed();
            },
          };
        },
      },
      {
        host,
        port,
        connection: REMOTE_CONNECTION,
        signal: this.#options.signal,
        // The driver holds what arrives while the policy thinks; the socket keeps reading (pausing and
        // resuming it would cost two system calls a turn) unless unread bytes pile up.
        maxUnreadBytes: MAX_UNHANDLED_BYTES,
        onFailure: (failure) => this.#onSocketFailure(failure),
      },
    );
    void this.#dial.ended.then(() => {
      this.#socketClosed = true;
      this.#options.signal.removeEventListener('abort', abort);
      this.#maybeFinish();
    });
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
   * The client, with what the session needs to see of its connection: when the server's close reaches it
   * (after everything received before), how many bytes it has read, and when its decisions are handed back.
   */
  #watched(): SansIoClient<Uint8Array, Uint8Array> {
    return {
      connect: (sink, connection) => {
        const peer = this.#client.connect(sink, connection);
        const watched: ClientPeer<Uint8Array> = {
          receive: (bytes) => {
            this.#guard(() => peer.receive(bytes));
            this.#dial.read(bytes.length);
          },
          end: (reason) => {
            this.#serverCloseFed = true;
            this.#guard(() => peer.end(reason));
            this.#maybeFinish();
          },
          decided: (outcome) => {
            this.#guard(() => peer.decided(outcome));
            this.#deciding--;
            this.#maybeFinish();
          },
          get paused() {
            return peer.paused;
          },
        };
        return watched;
      },
    };
  }

  /** Runs the client's handling of an input; a bug there ends the session with an outcome, not a crash. */
  #guard(handle: () => void): void {
    try {
      handle();
    } catch (error) {
      const message = `internal error: ${describeError(error)}`;
      this.#fail({ kind: 'failed', exitCode: ExitCode.failure, message });
    }
  }

  /**
   * The session is over once the socket closed and the client handled what it was sent: the server's
   * close when it came, and the decision it was waiting for.
   */
  #maybeFinish(): void {
    if (this.#finished || !this.#socketClosed || this.#deciding > 0) return;
    if (this.#connected && !this.#outcome && !this.#serverCloseFed) return;
    this.#finished = true;
    this.#stopTimer();
    clearTimeout(this.#linger);
    this.#recordClientClose();
    this.#finish();
  }

  /** The server closed the connection: the client gets the close after what it has not read yet. */
  #serverClosed(): void {
    if (this.#serverCloseSeen) return;
    this.#serverCloseSeen = true;
    this.#disarm();
    this.#peer?.end();
  }

  /** What the client writes: sent at once (a burst is one write), then the answer is awaited. */
  #send(bytes: Uint8Array): void {
    if (this.#outcome || this.#stopping || this.#dial.closed) return;
    this.#wire!.send(bytes);
    this.#arm();
  }

  /** The client closed its side: the session is over, the server closed, or the policy failed. */
  #clientClosed(reason: string | undefined): void {
    if (this.#outcome || this.#stopping) return;
    if (this.#sessionEnded) {
      // Nothing more is expected: leave, as rddlsim's Java client does, and do not wait for ever for a
      // server that keeps the connection open.
      this.#closeOurSide();
      this.#linger ??= setTimeout(() => this.#dial.drop(), LINGER_MS);
      return;
    }
    const message = `internal error: ${reason ?? 'the client closed the connection'}`;
    this.#fail({ kind: 'failed', exitCode: ExitCode.failure, message });
  }

  /** Records and reports the client's events in order, also those after it closed its side. */
  #onEvent(event: ClientEvent): void {
    if (this.#finished) return;
    if (this.#serverCloseFed && !this.#serverCloseRecorded && event.kind !== 'received') {
      // What the server sent before its close is recorded; then the close, where the client counts it.
      this.#serverCloseRecorded = true;
      this.#clientRecords.push(this.#recorder.event(REMOTE_CONNECTION, 's2c', 'close').index);
    }
    if (this.#outcome && event.kind !== 'received' && event.kind !== 'violation') return;
    switch (event.kind) {
      case 'send':
        if (this.#stopping || this.#outcome) {
          this.#clientRecords.push(-1);
          break;
        }
        this.#clientRecords.push(this.#recorder.text(REMOTE_CONNECTION, 'c2s', event.text).index);
        this.#lastSent = event.message.type;
        if (event.message.type === 'actions') this.#early?.sent(event.message.actions);
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
      case 'round-init':
        this.#round = event.init.roundNum;
        this.#roundCounts = event.init.roundNum === this.#countedRounds() + 1;
        break;
      case 'turn':
        this.#lastTurn = event.observation.turn;
        this.#early?.observed(event.observation);
        this.#options.onTurn?.(event.observation);
        break;
      case 'round-end': {
        // Undefined when the instance is unknown (see `EarlyRoundEnds.explain` for the rest).
        const endedBy = this.#early?.explain(event.end);
        const summary: ReportedRound = {
          round: this.#round,
          reward: event.end.roundReward,
          turns: event.end.turnsUsed,
          counted: this.#roundCounts,
          ...(endedBy === undefined ? {} : { endedBy }),
        };
        this.#rounds.push(summary);
        const { round, reward, turns, counted } = summary;
        this.#recorder.annotate(
          'reward',
          { kind: 'round', round, reward, turns, counted },
          this.#lastReceivedIndex,
        );
        this.#options.onRound?.(summary);
        break;
      }
      case 'session-end':
        this.#sessionEnded = true;
        this.#totalReward = event.end.totalReward;
        this.#recorder.annotate(
          'reward',
          { kind: 'total', reward: event.end.totalReward, rounds: event.end.roundsUsed },
          this.#lastReceivedIndex,
        );
        break;
      case 'violation':
        this.#onViolation(event.violation);
        break;
      case 'closed':
        // The server's close (the client's own leave after session-end is `#clientClosed`).
        if (this.#serverCloseFed) this.#onServerClosed();
        break;
      default:
        break;
    }
  }

  #onActionProblems(problems: ActionProblem[], site: DecisionRequest['site']): void {
    if (this.#finished) return;
    this.#recorder.annotate('error', {
      source: 'actions',
      message: `${this.#options.sendInvalidActions ? 'sent anyway' : 'not sent'}: ${problems.map((p) => p.message).join('; ')}`,
      problems,
      round: site.round,
      turn: site.turn,
    });
  }

  /** The session-init arrived: the instance's facts for the client's action check, when there are any. */
  #onSessionInit(event: Extract<ClientEvent, { kind: 'session-init' }>): InstanceInfo | undefined {
    if (this.#outcome) return undefined;
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
    if (this.#policy) return undefined;
    let info: InstanceInfo | undefined;
    if (event.task !== undefined) {
      try {
        const model = loadRddl([{ name: 'session-init task', text: rddlsimTaskRddl(event.task) }], {
          instance: this.#options.problemName,
        });
        this.#early = new EarlyRoundEnds(model);
        info = model.info;
      } catch (error) {
        const message = `cannot use the RDDL of the session-init task: ${describeError(error)}`;
        if (this.#options.policy.name !== 'noop') {
          this.#fail({
            kind: 'failed',
            exitCode: ExitCode.failure,
            message: `${message} (give the files with --rddl-dir)`,
          });
          return undefined;
        }
        this.#options.onWarning?.(`${message}; noop plays without it`);
      }
    }
    if (!info && this.#options.policy.name !== 'noop' && !this.#outcome) {
      this.#fail({
        kind: 'failed',
        exitCode: ExitCode.failure,
        message: 'the server sent no RDDL (session-init task); give the files with --rddl-dir',
      });
      return undefined;
    }
    this.#policy = this.#options.policy.forInstance(info);
    return info;
  }

  /**
   * Answers a decision of the client: `act` for a turn, or a hook at a round or session boundary. A fault
   * is recorded; with `--on-policy-error stop` it ends the session, with `noop` the client gets a noop (for
   * `act`) and goes on. After `onRoundEnd`, the session leaves when `--rounds` were played.
   */
  async #decide(request: DecisionRequest): Promise<CallOutcome> {
    this.#deciding++;
    const { site } = request;
    const policy = this.#policy;
    if (this.#outcome || !policy) return SKIPPED;
    const index = this.#lastReceivedIndex;
    const isAct = request.hook === 'act';
    let outcome: CallOutcome;
    if (isAct) {
      try {
        outcome = await policy.act(request.args[0] as Observation, site);
      } catch (error) {
        outcome = {
          ok: false,
          fault: { kind: 'crash', message: String(error), hook: 'act' },
          logs: [],
          ms: 0,
        };
      }
    } else if (policy.hook) {
      outcome = await policy.hook(request.hook as PolicyHook, request.args, site);
    } else outcome = SKIPPED;
    if (!isAct && this.#outcome) return SKIPPED;
    this.#recordLogs(outcome, site, index);
    if (!outcome.ok) {
      this.#recorder.annotate('error', { source: 'policy', ...outcome.fault, ...site }, index);
      if (this.#options.onPolicyFault === 'stop') {
        const { fault } = this.#options.policy;
        this.#fail({
          kind: 'failed',
          exitCode: ExitCode.policy,
          message:
            fault ??
            (isAct
              ? `the policy failed on round ${site.round}, turn ${site.turn}: ${outcome.fault.message}`
              : outcome.fault.message),
        });
        return outcome;
      }
      outcome = { ok: true, value: null, logs: [], ms: outcome.ms };
    }
    if (request.hook === 'onRoundEnd') this.#stopAfterRounds();
    return outcome;
  }

  /** Leaves after `--rounds` counted rounds, when the server offers more. */
  #stopAfterRounds(): void {
    const { maxRounds } = this.#options;
    const offered = this.#numRounds ?? Infinity;
    if (this.#outcome || maxRounds === undefined || this.#countedRounds() < maxRounds || offered <= maxRounds)
      return;
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
    this.#dial.drop();
  }

  #countedRounds(): number {
    return this.#rounds.filter((round) => round.counted).length;
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

  #onSocketFailure(failure: DialFailure): void {
    this.#stopTimer();
    if (failure.kind !== 'socket') {
      // Nothing listens (`cannot connect to ...`), or (with a capped framing) a message too long.
      this.#fail({
        kind: 'failed',
        exitCode: failure.kind === 'unreachable' ? ExitCode.connection : ExitCode.failure,
        message: failure.message,
      });
      return;
    }
    this.#recorder.event(REMOTE_CONNECTION, 's2c', 'error', failure.code);
    if (!this.#outcome && !this.#sessionEnded) {
      this.#fail({
        kind: 'failed',
        exitCode: ExitCode.connection,
        message: `${this.#closedEarlyMessage()} (${failure.code})`,
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
    this.#dial.drop();
  }

  #closeOurSide(): void {
    if (this.#ourSideClosed) return;
    this.#ourSideClosed = true;
    this.#recordClientClose();
    this.#wire?.close();
  }

  #recordClientClose(): void {
    if (this.#clientCloseRecorded || !this.#connected) return;
    this.#clientCloseRecorded = true;
    this.#recorder.event(REMOTE_CONNECTION, 'c2s', 'close');
  }
}
