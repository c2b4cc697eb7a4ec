/**
 * The emulated rddlsim server, sans-IO: bytes from a client go in, effects come out (bytes to send, close,
 * notes on what the real server would have done, rule violations, steps for the world view). No sockets and
 * no timers: time comes from an injected clock, so the same host serves an in-memory pipe in a worker, TCP
 * in the command line and a WebSocket bridge.
 *
 * Session semantics follow the real server (`rddl.competition.Server`): session ids count connections from
 * 1, session k simulates with seed + k - 1, all groundings are sent every turn, POMDP turn 1 has no
 * observations, time-left is a double in round-init/turn/resource-notification and a long in
 * round-end/session-end, and every failure ends the session the way the real one does.
 */
import type {
  GroundFluent,
  RddlModel,
  RddlSimulator,
  SimulationNotice,
  StepOutcome,
} from '../../envs/rddl/api';
import { bytesToBase64 } from '../../transcript/bytes';
import type { Violation } from '../machine';
import { canonicalClientTree, readCanonicalClientMessage } from './canonical-reader';
import { readClientMessage, serialiseServerMessage } from './codec';
import type { DecodedMessage } from './decoded-message';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  NulSplitter,
  encodeFrame,
  type WireFrame,
  type WireFraming,
} from './framing';
import type { RddlsimClientMessage, RddlsimServerMessage, WireFluent } from './messages';
import { rddlsimServerMachine, type ServerMachineState } from './server-machine';
import { readActions, readExecutePolicy, readSessionRequest } from './server-reading';
import { formatLocated, ProtoplayError } from '../../errors';
import { toWireFluent } from './wire-fluents';
import { parseXml, type XmlElement } from './xml';

/** What the host serves for one problem name. */
export interface HostedInstance {
  model: RddlModel;
  /**
   * The session-init task text: domain file + `\n\n` + instance file + `\n` (see `rddlsimTaskText`), or null
   * when the real server could not read the files (a `.rddl2` domain): it then sends the text `null`.
   */
  task: string | null;
  /** The task for `<input-language>pddl</input-language>`; the real server has no PDDL files: null. */
  pddlTask?: string | null;
}

/** Options of an emulated server; defaults are the real server's. */
export interface RddlsimHostOptions {
  /** The instance for a requested problem-name (exact, case-sensitive), or undefined when unknown. */
  resolveInstance(problemName: string): HostedInstance | undefined;
  /** Rounds per session (default 30). */
  rounds?: number;
  /** Session k simulates with seed + k - 1 (default 0). */
  seed?: number;
  /**
   * The id of the first session (default 1). The real server counts sessions from 1 for as long as it
   * runs; a replay of its k-th session starts at k, so that it has that session's id and seed.
   */
  firstSessionId?: number;
  /** Session time limit in seconds (default 1080 = 18 min); 0 keeps reporting 1080 s but never enforces it. */
  timeLimitSeconds?: number;
  /** Monitor mode: `execute-policy` decides whether a round counts (missing = no: practice round). */
  monitorExecution?: boolean;
  /**
   * The real server's `<no-header/>` flag is one global of the process: once any client asks, every message
   * to every client loses declaration and NUL (`process`, the default). `connection` limits it to the
   * client that asked.
   */
  noHeaderScope?: 'process' | 'connection';
  /** Read buffer size; longer messages are cut as the real server cuts them (default 10 MiB). */
  maxMessageBytes?: number;
  /** Reproduce rddlsim's evaluation quirks in the simulator (double sampling...). */
  rddlsimQuirks?: boolean;
  /**
   * The simulator's random numbers: Protoplay's seeded generator (default), or rddlsim's own (WELL19937c
   * seeded like the real server's sessions), which with the quirks replays the real server's trajectories.
   */
  generator?: 'protoplay' | 'rddlsim';
  /** Milliseconds clock (default `Date.now`); whole milliseconds are used, as the real server does. */
  now?: () => number;
}

/** What the real server would do at a point where the emulation differs from a plain protocol exchange. */
export interface HostNote {
  /** Stable id, e.g. `rddlsim.host.unknown-instance`. */
  code: string;
  /** The real server's reaction, in short. */
  realServer: 'closes-connection' | 'process-exits' | 'ends-round' | 'ignores' | 'answers' | 'cuts-message';
  /** One sentence for the UI. */
  message: string;
}

/** One simulated (or refused) step, for world-state and reward annotations. */
export interface HostStep {
  /** round-num as in round-init (practice rounds show the rounds counted so far). */
  round: number;
  /** 1-based step within the round (the turn whose actions it applied). */
  step: number;
  outcome: StepOutcome | { kind: 'not-applicable'; reason: string };
  /** Actions the simulator applied. */
  actions: { name: string; args: string[]; value: boolean | number | string }[];
  /** Actions the server stored where nothing reads them (wrong arity, unknown objects). */
  ignored: { name: string; args: string[]; reason: string }[];
}

/** Something the host wants done or known. Apply `send`s in order; `close` comes last. */
export type HostEffect =
  /** A client message as the server framed it (record it: it is what crossed the wire). */
  | { kind: 'received'; text: string | undefined; bytes: Uint8Array; framing: WireFraming }
  /**
   * A message to send. `text` is ASCII (see `serialise.ts`), so it is also the frame's bytes before its NUL;
   * `bytes`, the frame itself, is encoded only when read, as a TCP server may write the text directly.
   */
  | {
      kind: 'send';
      message: RddlsimServerMessage;
      text: string;
      readonly bytes: Uint8Array;
      framing: WireFraming;
    }
  | { kind: 'close' }
  | { kind: 'note'; note: HostNote }
  /**
   * A rule the client broke. `index` counts this connection's records from 0: every received and sent
   * message and each side's close, in the order the effects report them.
   */
  | { kind: 'violation'; violation: Violation }
  | { kind: 'step'; step: HostStep };

/** The world of a running session, for the world view (never sent on the wire). */
export interface HostSnapshot {
  round: number;
  /** Steps done in the current round. */
  step: number;
  stateFluents: GroundFluent[];
  observations: GroundFluent[];
  internalFluents: GroundFluent[];
}

/** The UTF-8 text the real server base64-encodes into session-init's task. */
export function rddlsimTaskText(domainText: string, instanceText: string): string {
  return `${domainText}\n\n${instanceText}\n`;
}

/**
 * The RDDL text of a task, to read it. When one file holds both the domain and the instance, the real
 * server sends that file twice (domain file, blank line, instance file: the same), which read whole
 * defines every block twice; the file is then read once. Any other task is read as it is. The server's
 * line separator is its system's (`\r\n` on Windows).
 */
export function rddlsimTaskRddl(task: string): string {
  for (const separator of ['\n', '\r\n']) {
    if (!task.endsWith(separator)) continue;
    const body = task.length - separator.length;
    const half = (body - 2 * separator.length) / 2;
    if (!Number.isInteger(half) || half <= 0) continue;
    const file = task.slice(0, half);
    if (task === `${file}${separator}${separator}${file}${separator}`) return file;
  }
  return task;
}

const DEFAULT_ROUNDS = 30;
const DEFAULT_TIME_LIMIT_SECONDS = 1080;
const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An emulated rddlsim server process: hands out connections with increasing session ids and holds the
 * process-wide state (the no-header flag). Unlike the real process it never dies: where the real one
 * exits, the affected connection closes and a note says so.
 */
export class RddlsimHost {
  readonly options: Readonly<Required<Omit<RddlsimHostOptions, 'resolveInstance'>>> &
    Pick<RddlsimHostOptions, 'resolveInstance'>;
  /** The session time limit in ms; reported (as 1080 s) even when not enforced. */
  readonly timeAllowedMs: number;
  #sessions = 0;
  #noHeaderMode = false;

  constructor(options: RddlsimHostOptions) {
    this.options = {
      resolveInstance: options.resolveInstance,
      rounds: options.rounds ?? DEFAULT_ROUNDS,
      seed: options.seed ?? 0,
      firstSessionId: options.firstSessionId ?? 1,
      timeLimitSeconds: options.timeLimitSeconds ?? DEFAULT_TIME_LIMIT_SECONDS,
      monitorExecution: options.monitorExecution ?? false,
      noHeaderScope: options.noHeaderScope ?? 'process',
      maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      rddlsimQuirks: options.rddlsimQuirks ?? false,
      generator: options.generator ?? 'protoplay',
      now: options.now ?? Date.now,
    };
    const seconds =
      this.options.timeLimitSeconds > 0 ? this.options.timeLimitSeconds : DEFAULT_TIME_LIMIT_SECONDS;
    this.timeAllowedMs = seconds * 1000;
    this.#sessions = this.options.firstSessionId - 1;
  }

  /** True once any client switched the process to `<no-header/>` mode (process scope only). */
  get noHeaderMode(): boolean {
    return this.#noHeaderMode;
  }

  /** A client connected: a new session with the next id, its clock starting now. */
  accept(): HostConnection {
    return new HostConnection(this, ++this.#sessions, {
      enableNoHeader: () => {
        if (this.options.noHeaderScope === 'process') this.#noHeaderMode = true;
      },
      processNoHeader: () => this.#noHeaderMode,
    });
  }
}

/** Process-wide state a connection reads and sets. */
interface ProcessFlags {
  enableNoHeader(): void;
  processNoHeader(): boolean;
}

type Phase = 'session-request' | 'round-request' | 'actions' | 'closed';

/** Per-session values of the real server's `run()` loop. */
interface SessionState {
  instanceName: string;
  clientName: string | null;
  hosted: HostedInstance;
  simulator: RddlSimulator;
  /** Java's round counter `r` (decremented during a practice round). */
  round: number;
  executePolicy: boolean;
  /** Steps done in this round (`h`). */
  step: number;
  immediateReward: number;
  roundReward: number;
  discountFactor: number;
  totalReward: number;
  outOfTime: boolean;
}

/** One client's session on an emulated server. */
export class HostConnection {
  readonly sessionId: number;
  readonly #host: RddlsimHost;
  readonly #flags: ProcessFlags;
  readonly #splitter: NulSplitter;
  readonly #startTime: number;
  #phase: Phase = 'session-request';
  #noHeader = false;
  #session: SessionState | undefined;
  /** Set when the instance cannot be set up under rddlsim's semantics (the real server exits at the first round). */
  #setupFailure: ProtoplayError | undefined;
  #machine: ServerMachineState = rddlsimServerMachine.initial();
  /** Wire messages of this connection so far (both directions), for violation indices. */
  #messageCount = 0;
  #effects: HostEffect[] = [];
  /** Simulation notices already attached to this session, once each however often they recur. */
  readonly #noticed = new Set<string>();

  constructor(host: RddlsimHost, sessionId: number, flags: ProcessFlags) {
    this.#host = host;
    this.sessionId = sessionId;
    this.#flags = flags;
    this.#splitter = new NulSplitter({ maxMessageBytes: host.options.maxMessageBytes });
    this.#startTime = this.#clock();
  }

  /** The session is over and the connection closed. */
  get closed(): boolean {
    return this.#phase === 'closed';
  }

  /** Feeds bytes from the client; returns what to do, in order. */
  receive(chunk: Uint8Array): HostEffect[] {
    this.#effects = [];
    if (this.closed) return [];
    for (const frame of this.#splitter.push(chunk)) {
      this.#onFrame(frame);
      // Whatever else the chunk held is never read: the connection is gone.
      if (this.closed) break;
    }
    return this.#takeEffects();
  }

  /** The client closed its side: the real server's next read fails and it terminates the trial. */
  clientClosed(): HostEffect[] {
    this.#effects = [];
    if (this.#phase !== 'closed') {
      for (const frame of this.#splitter.end()) this.#record(frame);
      this.#checkRules({ kind: 'close', index: this.#messageCount++, dir: 'c2s' });
      this.#note(
        'rddlsim.host.client-closed',
        'closes-connection',
        'the client closed the connection; the real server fails on its next read, terminates the trial and closes',
      );
      this.#close();
    }
    return this.#takeEffects();
  }

  /** The world of the running session, or undefined before the first round. */
  snapshot(): HostSnapshot | undefined {
    const session = this.#session;
    if (!session || this.#phase === 'session-request') return undefined;
    const { simulator } = session;
    return {
      round: session.round + 1,
      step: session.step,
      stateFluents: simulator.stateFluents(),
      observations: simulator.observations(),
      internalFluents: simulator.internalFluents(),
    };
  }

  #takeEffects(): HostEffect[] {
    const effects = this.#effects;
    this.#effects = [];
    return effects;
  }

  #clock(): number {
    return Math.floor(this.#host.options.now());
  }

  /** The real server's `timeAllowed - currentTimeMillis() + start_time`. */
  #timeLeft(): number {
    return this.#host.timeAllowedMs - (this.#clock() - this.#startTime);
  }

  #onFrame(frame: WireFrame): void {
    const text = this.#record(frame);
    if (frame.oversize) {
      this.#note(
        'rddlsim.host.oversize',
        'cuts-message',
        `a message exceeded ${this.#host.options.maxMessageBytes} bytes; the real server parses its first part and reads the rest as the next message`,
      );
    }
    // A message in the exact form clients write takes the proved fast path; its tree is the one saxes builds.
    const canonical = text === undefined ? undefined : readCanonicalClientMessage(text);
    let root: XmlElement | undefined;
    let parseError: ProtoplayError | undefined;
    if (canonical) root = canonicalClientTree(canonical);
    else {
      try {
        if (text === undefined)
          throw new ProtoplayError('rddlsim.xml.malformed', 'malformed XML: the bytes are not valid UTF-8');
        root = parseXml(text, `message ${this.#messageCount - 1}`).root;
      } catch (error) {
        parseError =
          error instanceof ProtoplayError
            ? error
            : new ProtoplayError('rddlsim.xml.malformed', String(error));
      }
    }
    this.#checkRules(this.#decodedClientMessage(root, parseError, canonical));
    switch (this.#phase) {
      case 'session-request':
        return this.#onSessionRequest(root, parseError);
      case 'round-request':
        return this.#onRoundRequest(root, parseError);
      case 'actions':
        return this.#onActions(root, parseError);
    }
  }

  /** Reports a received frame; returns its text (undefined for bytes that are not UTF-8). */
  #record(frame: WireFrame): string | undefined {
    let text: string | undefined;
    try {
      text = strictUtf8.decode(frame.bytes);
    } catch {
      text = undefined;
    }
    this.#messageCount++;
    this.#effects.push({ kind: 'received', text, bytes: frame.bytes, framing: frame.framing });
    return text;
  }

  #decodedClientMessage(
    root: XmlElement | undefined,
    parseError: ProtoplayError | undefined,
    canonical: RddlsimClientMessage | undefined,
  ): DecodedMessage {
    const index = this.#messageCount - 1;
    let result: (DecodedMessage & { kind: 'data' })['result'];
    if (canonical) result = { ok: true, message: canonical };
    else if (parseError) result = { ok: false, error: parseError };
    else {
      try {
        result = { ok: true, message: readClientMessage(root!, `message ${index}`) };
      } catch (error) {
        const failure =
          error instanceof ProtoplayError
            ? error
            : new ProtoplayError('rddlsim.message.invalid', String(error));
        result = { ok: false, error: failure };
      }
    }
    return { kind: 'data', index, dir: 'c2s', framing: 'nul', result };
  }

  #checkRules(decoded: DecodedMessage): void {
    const step = rddlsimServerMachine.acceptDecoded(this.#machine, decoded);
    this.#machine = step.state;
    if (!step.ok) this.#effects.push({ kind: 'violation', violation: step.violation });
  }

  #onSessionRequest(root: XmlElement | undefined, parseError: ProtoplayError | undefined): void {
    if (!root) {
      this.#terminate(
        `the session-request is malformed (${parseError?.message}); the real server fails with a NullPointerException`,
      );
      return;
    }
    const request = readSessionRequest(root);
    if (!request.ok) {
      this.#terminate(`${request.reason} in the session-request; the real server fails with an exception`);
      return;
    }
    if (request.noHeader) {
      this.#noHeader = true;
      this.#flags.enableNoHeader();
    }
    const hosted = this.#host.options.resolveInstance(request.problemName);
    if (!hosted) {
      this.#note(
        'rddlsim.host.unknown-instance',
        'closes-connection',
        `instance '${request.problemName}' not found: the real server closes the connection without a word`,
      );
      this.#close();
      return;
    }
    const task = request.inputLanguage === 'pddl' ? (hosted.pddlTask ?? null) : hosted.task;
    const options = this.#host.options;
    let simulator: RddlSimulator;
    try {
      simulator = hosted.model.createSimulator({
        seed: options.seed + this.sessionId - 1,
        rddlsimQuirks: options.rddlsimQuirks,
        generator: options.generator,
      });
    } catch (error) {
      // Under rddlsim's semantics, what rddlsim fails on before simulating (its fluent ordering): the real
      // server still sends session-init and exits at the first round-request, when it sets up the state.
      if (!(error instanceof ProtoplayError)) throw error;
      this.#setupFailure = error;
      simulator = hosted.model.createSimulator({ seed: options.seed + this.sessionId - 1 });
    }
    this.#session = {
      instanceName: request.problemName,
      clientName: request.clientName,
      hosted,
      simulator,
      round: 0,
      executePolicy: true,
      step: 0,
      immediateReward: 0,
      roundReward: 0,
      discountFactor: 1,
      totalReward: 0,
      outOfTime: false,
    };
    if (task === null) {
      if (this.#noHeaderActive()) {
        this.#note(
          'rddlsim.host.null-task-no-header',
          'closes-connection',
          'the task files cannot be read and no-header mode cuts 39 characters off the text null: the real server fails (NullPointerException) and closes',
        );
        this.#close();
        return;
      }
      this.#note(
        'rddlsim.host.null-task',
        'answers',
        `the task files cannot be read (${request.inputLanguage === 'pddl' ? 'no PDDL files' : 'unreadable domain file'}): the real server sends the text null and goes on`,
      );
      this.#send({ type: 'session-init-null' });
    } else {
      this.#send({
        type: 'session-init',
        task: bytesToBase64(utf8.encode(task)),
        sessionId: this.sessionId,
        numRounds: options.rounds,
        timeAllowed: this.#host.timeAllowedMs,
      });
    }
    this.#phase = 'round-request';
  }

  #onRoundRequest(root: XmlElement | undefined, parseError: ProtoplayError | undefined): void {
    if (!root) {
      this.#note(
        'rddlsim.host.malformed-round-request',
        'answers',
        `the round-request is malformed (${parseError?.message}); the real server swallows the error and answers with a resource-notification`,
      );
      this.#sendResourceNotification();
      return;
    }
    if (root.name === 'resource-request') return this.#sendResourceNotification();
    if (root.name !== 'round-request') {
      this.#note(
        'rddlsim.host.process-exit',
        'process-exits',
        `<${root.name}> where a round-request is expected: the real server process exits here (System.exit(1)), ending every session it serves`,
      );
      this.#close();
      return;
    }
    if (this.#setupFailure) {
      this.#note(
        'rddlsim.host.process-exit',
        'process-exits',
        `${this.#setupFailure.format()}: the real server process exits here, at the first round-request (System.exit(1)), ending every session it serves`,
      );
      this.#close();
      return;
    }
    const session = this.#session!;
    if (this.#host.options.monitorExecution) {
      const reading = readExecutePolicy(root);
      if (!reading.ok) return this.#terminate(`${reading.reason} in the round-request`);
      session.executePolicy = reading.execute;
    }
    if (!session.executePolicy) session.round--;
    session.simulator.reset();
    session.step = 0;
    session.immediateReward = 0;
    session.roundReward = 0;
    session.discountFactor = 1;
    const roundNum = session.round + 1;
    this.#send({
      type: 'round-init',
      roundNum,
      roundLeft: this.#host.options.rounds - roundNum,
      timeLeft: this.#timeLeft(),
    });
    this.#sendTurn();
    this.#phase = 'actions';
  }

  #onActions(root: XmlElement | undefined, parseError: ProtoplayError | undefined): void {
    if (!root) return this.#terminate(`the actions message is malformed (${parseError?.message})`);
    if (root.name === 'resource-request') return this.#sendResourceNotification();
    if (root.name !== 'actions')
      return this.#terminate(`<${root.name}> where actions are expected ("ERROR: NO ACTIONS NODE")`);
    const session = this.#session!;
    const reading = readActions(root, session.hosted.model);
    const roundNum = session.round + 1;
    switch (reading.kind) {
      case 'terminate':
        return this.#terminate(reading.reason);
      case 'exit':
        this.#note(
          'rddlsim.host.process-exit',
          'process-exits',
          `${reading.reason}: the real server process exits here (System.exit(1)), ending every session it serves`,
        );
        return this.#close();
      case 'not-applicable':
        this.#effects.push({
          kind: 'step',
          step: {
            round: roundNum,
            step: session.step + 1,
            outcome: { kind: 'not-applicable', reason: reading.reason },
            actions: [],
            ignored: [],
          },
        });
        this.#note(
          'rddlsim.host.action-not-applicable',
          'ends-round',
          `${reading.reason}: the real server treats the action as not applicable and ends the round`,
        );
        return this.#endRound();
    }
    if (reading.ignored.length > 0) {
      const list = reading.ignored
        .map((entry) => `${entry.name}(${entry.args.join(', ')}): ${entry.reason}`)
        .join('; ');
      this.#note(
        'rddlsim.host.ignored-actions',
        'ignores',
        `ignored but counted against max-nondef-actions, as the real server does: ${list}`,
      );
    }
    let outcome: StepOutcome;
    try {
      outcome = session.simulator.step(reading.actions, { nondefaultCount: reading.nondefaultCount });
    } catch (error) {
      outcome = { kind: 'error', message: error instanceof Error ? error.message : String(error) };
    }
    this.#effects.push({
      kind: 'step',
      step: {
        round: roundNum,
        step: session.step + 1,
        outcome,
        actions: reading.actions,
        ignored: reading.ignored,
      },
    });
    if (outcome.kind === 'illegal') {
      this.#note(
        'rddlsim.host.illegal-action',
        'ends-round',
        `${outcome.illegal.detail}: the real server ends the round at once (this step is not simulated)`,
      );
      return this.#endRound();
    }
    if (outcome.kind === 'ok' && outcome.notices) this.#noteSimulation(outcome.notices);
    if (outcome.kind === 'error')
      return this.#terminate(`simulation failed: ${outcome.message} ("FATAL SERVER EXCEPTION")`);
    this.#afterStep(session, outcome);
  }

  /** What the simulator let pass as rddlsim does, attached to the session the first time it happens. */
  #noteSimulation(notices: readonly SimulationNotice[]): void {
    for (const notice of notices) {
      // Once per expression: its value may change every step.
      const where = `${notice.kind} ${formatLocated('', notice.location)}`;
      if (this.#noticed.has(where)) continue;
      this.#noticed.add(where);
      const located = formatLocated(notice.message, notice.location);
      this.#note(
        'rddlsim.host.negative-probability',
        'ignores',
        `the domain produced a negative probability: ${located} (noted once per expression)`,
      );
    }
  }

  #afterStep(session: SessionState, outcome: StepOutcome & { kind: 'ok' }): void {
    const options = this.#host.options;
    const { info } = session.hosted.model;
    session.immediateReward = outcome.reward;
    session.roundReward += session.discountFactor * outcome.reward;
    session.discountFactor *= info.discount;
    session.step++;
    session.outOfTime =
      options.timeLimitSeconds > 0 && this.#clock() - this.#startTime > this.#host.timeAllowedMs;
    // The simulator says when the round ends (horizon, or terminate-when instead of it); the time limit is
    // the server's own business.
    const done =
      session.outOfTime || outcome.terminated || (!info.terminateWhen && session.step >= info.horizon);
    if (done) {
      if (session.outOfTime)
        this.#note(
          'rddlsim.host.time-out',
          'ends-round',
          'the session time limit has passed: the real server ends the round and the session',
        );
      this.#endRound();
    } else {
      this.#sendTurn();
    }
  }

  #sendTurn(): void {
    const session = this.#session!;
    const { simulator } = session;
    let fluents: WireFluent[] | null;
    if (!simulator.info.partiallyObserved) fluents = simulator.stateFluents().map(toWireFluent);
    else fluents = session.step === 0 ? null : simulator.observations().map(toWireFluent);
    this.#send({
      type: 'turn',
      turnNum: session.step + 1,
      timeLeft: this.#timeLeft(),
      immediateReward: session.immediateReward,
      fluents,
    });
  }

  #endRound(): void {
    const session = this.#session!;
    const options = this.#host.options;
    if (session.executePolicy) session.totalReward += session.roundReward;
    this.#send({
      type: 'round-end',
      instanceName: session.instanceName,
      clientName: session.clientName ?? 'null',
      roundNum: session.round,
      roundReward: session.roundReward,
      turnsUsed: session.step,
      timeLeft: this.#timeLeft(),
      immediateReward: session.immediateReward,
    });
    session.round++;
    if (session.round < options.rounds && !session.outOfTime) {
      this.#phase = 'round-request';
      return;
    }
    this.#send({
      type: 'session-end',
      instanceName: session.instanceName,
      totalReward: session.totalReward,
      roundsUsed: session.round,
      clientName: session.clientName ?? 'null',
      sessionId: this.sessionId,
      timeLeft: this.#timeLeft(),
    });
    this.#close();
  }

  #sendResourceNotification(): void {
    this.#send({ type: 'resource-notification', timeLeft: this.#timeLeft(), memoryLeft: 'enough' });
  }

  #noHeaderActive(): boolean {
    return this.#noHeader || this.#flags.processNoHeader();
  }

  #send(message: RddlsimServerMessage): void {
    const framing: WireFraming =
      this.#noHeaderActive() && message.type !== 'session-init-null' ? 'none' : 'nul';
    const text = serialiseServerMessage(message, { header: framing === 'nul' });
    const index = this.#messageCount++;
    this.#effects.push(new SendEffect(message, text, framing));
    this.#checkRules({ kind: 'data', index, dir: 's2c', framing, result: { ok: true, message } });
  }

  /** The real server's "TERMINATING TRIAL": it closes the connection without a message. */
  #terminate(reason: string): void {
    this.#note(
      'rddlsim.host.trial-terminated',
      'closes-connection',
      `${reason}: the real server terminates the trial and closes the connection`,
    );
    this.#close();
  }

  #close(): void {
    this.#phase = 'closed';
    this.#checkRules({ kind: 'close', index: this.#messageCount++, dir: 's2c' });
    this.#effects.push({ kind: 'close' });
  }

  #note(code: string, realServer: HostNote['realServer'], message: string): void {
    this.#effects.push({ kind: 'note', note: { code, realServer, message } });
  }
}

/** The `send` effect, its frame encoded on demand: encoding a turn costs as much as writing it. */
class SendEffect {
  readonly kind = 'send';

  constructor(
    readonly message: RddlsimServerMessage,
    readonly text: string,
    readonly framing: WireFraming,
  ) {}

  get bytes(): Uint8Array {
    return encodeFrame(this.text, this.framing);
  }
}
