/**
 * An emulated MASSim server, sans-IO: transports hand it the bytes agents send and give it a sink for what it
 * sends; time comes from an injected scheduler. The same host serves in-memory agents in a worker, real
 * agents over TCP in the command line and agents behind a WebSocket bridge.
 *
 * It does what the real massim_2022 server does (research notes, protocol part): a front desk that reads
 * exactly one frame per new connection, accounts `prefix + team + i` from 1, per-agent action ids from 0
 * that are never reset, first-action-wins, silent drops of stale, late and duplicate actions, `no_action`
 * on timeout, a step that runs as soon as every agent answered (else at the deadline), a receive loop that
 * dies on malformed JSON or an action without `p`, reconnection that replaces the old connection and
 * re-sends sim-start, sim-end with distinct ranks, a pause after every simulation, then bye and close.
 * The real server's two races (lost sim-start after a reconnection, lost bye) only happen with
 * `faithfulRaces`. Every connection is recorded in one transcript, one connection id per agent connection.
 */
import type {
  CreateMassimSimulation,
  MassimAction,
  MassimSemantics,
  MassimServerConfig,
  MassimSimulation,
  MassimWorldSnapshot,
  MassimWorldStatic,
} from '../../envs/massim/api';
import { createSimulation as createScenarioSimulation, massimAccountNames } from '../../envs/massim/index';
import { Rng } from '../../random';
import type { Transcript } from '../../transcript/model';
import { TranscriptStore, type TranscriptStoreOptions } from '../../transcript/store/store';
import { readClientFrame, readPlainAction, type ClientFrameReading } from './codec';
import { encodeNulFrame } from '../../transport/nul-framing';
import { NulFrameSplitter, type SplitFrame } from './framing';
import { serializeMassimMessage, type MassimServerMessage } from './messages';
import {
  EagerFrame,
  RequestActionFrame,
  RequestActionWriter,
  type MassimOutgoingFrame,
  type RequestActionHeader,
} from './outgoing';
import { MassimRecording, strictText, type RecordedFrame } from './recording';
import { MassimWorldPacker } from './world-packer';
import { massimRules, type MassimRuleId } from './rules';
import { realTimeScheduler, type MassimScheduler, type TimerHandle } from './scheduler';
import { massimViolation, type MassimViolation } from './violation';

/** Options of an emulated server. */
export interface MassimHostOptions {
  /** The server configuration (the real file format, parsed by the scenario's `parseMassimConfig`). */
  config: MassimServerConfig;
  /** Clock and timers; defaults to the wall clock. */
  scheduler?: MassimScheduler;
  /**
   * Seed of the session: simulation k (counting over all matches from 0) uses `seed + k`. Without it each
   * simulation uses its configured `randomSeed` (else k), as the real server does with a fixed seed.
   */
  seed?: number;
  /**
   * Whose random numbers the simulations draw (`MassimSimulationOptions.semantics`): `protoplay` (default)
   * or `massim`, the real server's `java.util.Random` in its order, so a configuration and seed give the
   * real server's worlds. Recorded in the transcript's meta when given.
   */
  semantics?: MassimSemantics;
  /** Reproduce the real server's lossy races (sim-start after a reconnection, bye at the end). Default off. */
  faithfulRaces?: boolean;
  /**
   * `exact` (the default): step 0's requests follow sim-start at once and `deadline - time` is exactly
   * `agentTimeout`. `real-server`: as measured on massim_2022, step 0 begins about 150 ms after sim-start
   * and every deadline lies 2 to 34 ms beyond `time + agentTimeout` (the time the real server spends
   * between building percepts and sending them), with the step closing at that deadline.
   */
  pacing?: 'exact' | 'real-server';
  /**
   * Where to record the session; by default the host records into a store of its own (protocol `massim`,
   * started at the scheduler's time, meta `origin`, `seed`, `faithfulRaces`, `config` (the configuration as
   * JSON text), world snapshots packed by a `MassimWorldPacker`).
   */
  store?: TranscriptStore;
  /**
   * For the host's own store: whether it keeps the whole session, and where its records go as they are
   * made (see `TranscriptStoreOptions.keep` and `sink`). Default: everything kept.
   */
  recording?: Pick<TranscriptStoreOptions, 'keep' | 'sink' | 'chunkMessages'>;
  /** Annotate the transcript with the world after every step (for the world view). Default true. */
  recordWorld?: boolean;
  /**
   * The clock message times are recorded by (epoch milliseconds); default the scheduler's. The wire's
   * `time` and `deadline` fields and every timer always use the scheduler.
   */
  messageClock?: () => number;
  /** The scenario; defaults to the 2022 scenario. */
  createSimulation?: CreateMassimSimulation;
  /** Told about simulations, steps, ignored frames and races as they happen. */
  onEvent?: (event: MassimHostEvent) => void;
}

/**
 * Where the host sends frames for one connection: either `send`, with every frame's text and object, or
 * `deliver`, with frames that make their text or object on first use (in-memory agents that only read one
 * of the two save the other; a request-action's text and percept object cost more than a step).
 */
export type MassimConnectionSink =
  | {
      /**
       * One frame: its text without the 0 terminator (`encodeNulFrame` gives the wire bytes). `message` is the
       * object the text was serialised from, for in-memory agents that need not parse it (do not modify it).
       */
      send(text: string, message: MassimServerMessage): void;
      /** The server closes the connection (after a failed login, a replacing login, or after bye). */
      close(): void;
    }
  | {
      /** One frame, its text and object made on first use. */
      deliver(frame: MassimOutgoingFrame): void;
      close(): void;
    };

/** An agent frame the host ignored or that stopped its reader, with where it happened. */
export interface MassimHostViolation extends MassimViolation {
  /** Transcript connection id. */
  conn: string;
  /** The agent logged in on that connection, if any. */
  agent?: string;
}

/** Something the real server would have lost in a race (only with `faithfulRaces`). */
export interface MassimRaceNote {
  rule: Extract<MassimRuleId, `massim.race.${string}`>;
  conn: string;
  agent: string;
  message: string;
}

/** What the host reports as a session runs. */
export type MassimHostEvent =
  | {
      kind: 'simulation-start';
      match: number;
      simulation: number;
      teams: readonly string[];
      world: MassimWorldStatic;
    }
  /**
   * A step ran: `step` is the step whose actions were executed; `world` is the world after it, unless
   * `recordWorld` is false.
   */
  | {
      kind: 'step';
      simulation: number;
      step: number;
      scores: Record<string, number>;
      world?: MassimWorldSnapshot;
    }
  | { kind: 'simulation-end'; simulation: number; scores: Record<string, number> }
  | { kind: 'finished' }
  | { kind: 'violation'; violation: MassimHostViolation }
  | { kind: 'race'; note: MassimRaceNote };

/** The payload of a transcript `world` annotation. */
export type MassimWorldAnnotation =
  | { kind: 'static'; simulation: number; world: MassimWorldStatic }
  | { kind: 'snapshot'; simulation: number; world: MassimWorldSnapshot };

/** The payload of a transcript `reward` annotation: team scores after a step. */
export interface MassimScoreAnnotation {
  simulation: number;
  step: number;
  scores: Record<string, number>;
}

/** Where the tournament is. */
export interface MassimHostStatus {
  phase: 'waiting' | 'running' | 'paused' | 'pause-between-simulations' | 'finished';
  /** Index of the current (or last) match; -1 before the first. */
  match: number;
  /** Index of the current (or last) simulation in the configuration's `match` list; -1 before the first. */
  simulation: number;
  /** The step whose actions are being collected (or next), when a simulation runs. */
  step?: number;
  /** Teams of the current (or last) match. */
  teams: readonly string[];
}

/** One connection as the host sees it; the transport feeds it. */
export interface MassimHostConnection {
  /** The connection's transcript id: `<agent>.conn<k>` after a login attempt for a known user, else `conn<n>`. */
  readonly id: string;
  /** Bytes from the agent, in any chunking. */
  receive(bytes: Uint8Array): void;
  /**
   * One whole frame from an agent in the same process, as text without its 0 byte: the same as
   * `receive(encodeNulFrame(text))`, cheaper for the plain actions nearly every frame of a match is.
   */
  receiveText(text: string): void;
  /** The agent closed the connection (or it broke). */
  disconnect(): void;
}

/** How long before step 0's requests the real server sends sim-start (measured on massim_2022). */
const REAL_SERVER_SIM_START_LEAD_MS = 150;

// Measured on the real server (research notes): 13 of 24 re-sent sim-starts arrived when the old connection
// was still open, 18 of 24 when it had been closed shortly before; 2 of 8 byes were lost with no pause.
const simStartLossWhileOpen = 11 / 24;
const simStartLossAfterClose = 6 / 24;
const byeLoss = 2 / 8;
/** Messages written after the agent closed before the old sender notices the dead socket and stops. */
const sendsUntilSenderStops = 2;

interface AgentSlot {
  name: string;
  team: string;
  password: string;
  connection?: Connection;
  connectionsOpened: number;
  /** The next action id; ids are never reset. */
  nextId: number;
  /** Which ids were answered in time, a bit each (a set of numbers grew by one entry a step). */
  answeredIds: Uint8Array;
  /** The request of the current (or last) step. */
  request?: { id: number; action?: MassimAction; answered: boolean };
  /** The sim-start of the running simulation (and its text), re-sent after a login. */
  simStart?: { message: MassimServerMessage; text: string };
  /** The old connection's sender is still running (decides the sim-start race). */
  previousSender?: 'open' | 'closed';
  sendsSinceClose: number;
}

type ConnectionPhase = 'front-desk' | 'agent' | 'receiver-dead' | 'unread' | 'closed';

/** An emulated MASSim server process. */
export class MassimHost {
  readonly config: MassimServerConfig;
  /** The session's transcript as it grows. */
  readonly store: TranscriptStore;
  readonly #recording: MassimRecording;
  readonly #requestActions = new RequestActionWriter();
  readonly #scheduler: MassimScheduler;
  readonly #options: MassimHostOptions;
  readonly #createSimulation: CreateMassimSimulation;
  /** The host's own randomness (races, random tournaments), apart from the scenario's. */
  readonly #rng: Rng;
  readonly #slots = new Map<string, AgentSlot>();
  readonly #connections = new Set<Connection>();
  readonly #matches: string[][];
  #connectionSerial = 0;
  #queue: (() => void)[] = [];
  #draining = false;

  #phase: MassimHostStatus['phase'] = 'waiting';
  #matchIndex = -1;
  #simIndex = -1;
  #simCounter = 0;
  #statusTeams: string[] = [];
  #simulation: MassimSimulation | undefined;
  #stepOpen = false;
  #waitingFor = new Set<string>();
  #timer: TimerHandle | undefined;
  readonly #pacingRng: Rng;
  #pauseRequested = false;
  #resumeStep: (() => void) | undefined;

  constructor(options: MassimHostOptions) {
    this.#options = options;
    this.config = options.config;
    this.#scheduler = options.scheduler ?? realTimeScheduler();
    this.#createSimulation = options.createSimulation ?? createScenarioSimulation;
    this.#rng = new Rng(`${options.seed ?? 0}:massim-host`);
    // Its own stream, so the real server's pacing changes no other draw of the session.
    this.#pacingRng = new Rng(`${options.seed ?? 0}:massim-pacing`);
    this.store =
      options.store ??
      new TranscriptStore({
        protocol: 'massim',
        packers: [new MassimWorldPacker()],
        ...options.recording,
        startedAt: this.#scheduler.now(),
        meta: {
          origin: 'emulated',
          ...(options.seed !== undefined ? { seed: options.seed } : {}),
          ...(options.semantics !== undefined ? { semantics: options.semantics } : {}),
          faithfulRaces: options.faithfulRaces ?? false,
          // What a replay of the recording needs to rebuild its worlds (`replay.ts`).
          config: JSON.stringify(options.config),
        },
      });
    const messageClock = options.messageClock ?? (() => this.#scheduler.now());
    this.#recording = new MassimRecording(this.store, messageClock);
    for (const team of this.config.teams) {
      for (const name of massimAccountNames(this.config, team)) {
        this.#slots.set(name, {
          name,
          team: team.name,
          password: team.password,
          connectionsOpened: 0,
          nextId: 0,
          answeredIds: new Uint8Array(64),
          sendsSinceClose: 0,
        });
      }
    }
    this.#matches = planMatches(this.config, this.#rng);
  }

  /**
   * The session so far as a plain transcript, converted from the store on every read (long sessions:
   * read the store instead).
   */
  get transcript(): Transcript {
    return this.store.toTranscript();
  }

  /** Where the tournament is. */
  get status(): MassimHostStatus {
    return {
      phase: this.#phase,
      match: this.#matchIndex,
      simulation: this.#simIndex,
      ...(this.#simulation && !this.#simulation.isFinished ? { step: this.#simulation.currentStep } : {}),
      teams: this.#statusTeams,
    };
  }

  /** The simulation running now (or last), for the world view. */
  get simulation(): MassimSimulation | undefined {
    return this.#simulation;
  }

  /** Every account that can log in, with its team (password as configured). */
  get accounts(): readonly { name: string; team: string; password: string }[] {
    return [...this.#slots.values()].map(({ name, team, password }) => ({ name, team, password }));
  }

  /** A transport accepted a connection; `sink` carries what the server sends on it. */
  connect(sink: MassimConnectionSink): MassimHostConnection {
    const connection = new Connection(this.#hooks, ++this.#connectionSerial, sink);
    this.#connections.add(connection);
    return connection;
  }

  /** Launches the tournament now (the real server waits for its `launch` setting; the caller decides). */
  start(): void {
    this.#run(() => {
      if (this.#phase !== 'waiting') return;
      this.#phase = 'running';
      this.#nextSimulation();
    });
  }

  /** Holds the tournament before the next step (like the real server's `pause` console command). */
  pause(): void {
    this.#pauseRequested = true;
  }

  /** Continues after `pause`. */
  resume(): void {
    this.#run(() => {
      this.#pauseRequested = false;
      const resume = this.#resumeStep;
      this.#resumeStep = undefined;
      if (resume) {
        this.#phase = 'running';
        resume();
      }
    });
  }

  /** Stops everything now: cancels timers and closes every connection, without bye. */
  shutdown(): void {
    this.#run(() => {
      this.#clearTimer();
      this.#phase = 'finished';
      for (const connection of [...this.#connections]) connection.closeByServer();
    });
  }

  /** Runs work one piece at a time, so a transport answering inside `send` never re-enters the host. */
  #run(work: () => void): void {
    this.#queue.push(work);
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (let next = this.#queue.shift(); next; next = this.#queue.shift()) next();
    } finally {
      this.#draining = false;
    }
  }

  // ---- what connections need from the host ---------------------------------------------------------------

  readonly #hooks: HostHooks = {
    run: (work) => this.#run(work),
    recording: () => this.#recording,
    maxPacketLength: () => this.config.server.maxPacketLength,
    slot: (name) => this.#slots.get(name),
    newConnectionId: (connection, user) => {
      const slot = this.#slots.get(user ?? '');
      if (!slot) return `conn${connection.serial}`;
      slot.connectionsOpened++;
      return `${slot.name}.conn${slot.connectionsOpened}`;
    },
    statusResponse: () => ({
      type: 'status-response',
      content: {
        teams: this.#statusTeams,
        time: this.#scheduler.now(),
        teamSizes: this.config.match.map((sim) => sim.agentsPerTeam),
        currentSimulation: this.#simIndex,
      },
    }),
    login: (connection, slot) => this.#login(connection, slot),
    action: (slot, id, action, index, conn) => this.#receiveAction(slot, id, action, index, conn),
    violation: (violation) => {
      this.#recording.annotate('violation', violation, violation.index);
      this.#options.onEvent?.({ kind: 'violation', violation });
    },
    closed: (connection) => this.#connectionClosed(connection),
  };

  /** A message for an agent that is not connected: lost, but it is what stops an old connection's sender. */
  #undelivered(slot: AgentSlot): void {
    slot.sendsSinceClose++;
  }

  #login(connection: Connection, slot: AgentSlot): void {
    const previous = slot.connection;
    const previousSender = previous
      ? 'open'
      : slot.previousSender === 'closed' && slot.sendsSinceClose < sendsUntilSenderStops
        ? 'closed'
        : undefined;
    slot.connection = connection;
    slot.previousSender = undefined;
    if (previous) previous.closeByServer();
    if (!slot.simStart) return;
    const lossChance =
      previousSender === 'open'
        ? simStartLossWhileOpen
        : previousSender === 'closed'
          ? simStartLossAfterClose
          : 0;
    if (this.#options.faithfulRaces && lossChance > 0 && this.#rng.nextFloat() < lossChance) {
      this.#race('massim.race.sim-start-lost', connection, slot.name, 'The re-sent sim-start was lost.');
      return;
    }
    connection.send(slot.simStart.message, slot.simStart.text);
  }

  #connectionClosed(connection: Connection): void {
    this.#connections.delete(connection);
    const slot = connection.slot;
    if (slot && slot.connection === connection) {
      slot.connection = undefined;
      slot.previousSender = 'closed';
      slot.sendsSinceClose = 0;
    }
  }

  #race(rule: MassimRaceNote['rule'], connection: Connection, agent: string, what: string): void {
    const note: MassimRaceNote = {
      rule,
      conn: connection.id,
      agent,
      message: `${what} ${massimRules[rule].consequence}`,
    };
    this.#recording.annotate('note', note);
    this.#options.onEvent?.({ kind: 'race', note });
  }

  // ---- the tournament ------------------------------------------------------------------------------------

  #nextSimulation(): void {
    this.#simulation = undefined;
    this.#simIndex++;
    if (this.#matchIndex < 0 || this.#simIndex >= this.config.match.length) {
      this.#matchIndex++;
      this.#simIndex = 0;
    }
    const teams = this.#matches[this.#matchIndex];
    if (!teams) {
      this.#simIndex = this.config.match.length - 1;
      this.#matchIndex = this.#matches.length - 1;
      this.#finish();
      return;
    }
    this.#statusTeams = teams;
    const simConfig = this.config.match[this.#simIndex]!;
    const seed =
      this.#options.seed !== undefined
        ? this.#options.seed + this.#simCounter
        : (simConfig.randomSeed ?? this.#simCounter);
    this.#simCounter++;
    const accounts = teams.map((name) => this.config.teams.find((team) => team.name === name)!);
    const simulation = this.#createSimulation(simConfig, {
      seed,
      teams: accounts,
      ...(this.#options.semantics !== undefined ? { semantics: this.#options.semantics } : {}),
    });
    this.#simulation = simulation;
    const time = this.#scheduler.now();
    const world = simulation.staticInfo();
    this.#annotateWorld({ kind: 'static', simulation: this.#simIndex, world });
    this.#options.onEvent?.({
      kind: 'simulation-start',
      match: this.#matchIndex,
      simulation: this.#simIndex,
      teams,
      world,
    });
    for (const agent of simulation.agents) {
      const slot = this.#slots.get(agent)!;
      const message: MassimServerMessage = {
        type: 'sim-start',
        content: { time, percept: simulation.simStartPercept(agent) },
      };
      slot.simStart = { message, text: serializeMassimMessage(message) };
      slot.request = undefined;
      if (slot.connection) slot.connection.send(message, slot.simStart.text);
      else this.#undelivered(slot);
    }
    if (this.#options.pacing === 'real-server')
      this.#timer = this.#scheduler.setTimer(REAL_SERVER_SIM_START_LEAD_MS, () =>
        this.#run(() => this.#beginStep()),
      );
    else this.#beginStep();
  }

  #beginStep(): void {
    const simulation = this.#simulation!;
    if (this.#pauseRequested) {
      this.#phase = 'paused';
      this.#resumeStep = () => this.#beginStep();
      return;
    }
    const time = this.#scheduler.now();
    const timeout =
      this.config.server.agentTimeout +
      (this.#options.pacing === 'real-server' ? 2 + this.#pacingRng.nextInt(33) : 0);
    const deadline = time + timeout;
    const step = simulation.currentStep;
    this.#stepOpen = true;
    this.#waitingFor = new Set(simulation.agents);
    this.store.markStep(this.#simCounter - 1, step);
    for (const agent of simulation.agents) {
      const slot = this.#slots.get(agent)!;
      const id = slot.nextId++;
      slot.request = { id, answered: false };
      if (!slot.connection) {
        this.#undelivered(slot);
        continue;
      }
      slot.connection.sendRequestAction(
        { step, id, time, deadline },
        agent,
        simulation,
        this.#requestActions,
      );
    }
    this.#timer = this.#scheduler.setTimer(timeout, () => this.#run(() => this.#closeStep()));
    // After the requests' answers already under way (team batches leave at the latest in this task).
    queueMicrotask(() => this.store.packPending());
  }

  #receiveAction(slot: AgentSlot, id: number, action: MassimAction, index: number, conn: string): void {
    const request = slot.request;
    if (
      request &&
      request.id === id &&
      this.#stepOpen &&
      !request.answered &&
      this.#waitingFor.has(slot.name)
    ) {
      request.answered = true;
      request.action = action;
      markAnswered(slot, id);
      this.#waitingFor.delete(slot.name);
      if (this.#waitingFor.size === 0) this.#closeStep();
      return;
    }
    const rule: MassimRuleId =
      request && request.id === id && request.answered
        ? 'massim.action.duplicate'
        : id >= 0 && id < slot.nextId
          ? ((slot.answeredIds[id >> 3] ?? 0) & (1 << (id & 7))) !== 0
            ? 'massim.action.stale-id'
            : 'massim.action.late'
          : 'massim.action.unknown-id';
    const expected = request && this.#stepOpen && !request.answered ? `id ${request.id}` : 'no action now';
    this.#hooks.violation({
      ...massimViolation(index, rule, expected, `id ${id}`, `Action ${id} of ${slot.name} was dropped.`),
      conn,
      agent: slot.name,
    });
  }

  #closeStep(): void {
    if (!this.#stepOpen) return;
    this.store.packPending();
    this.#clearTimer();
    this.#stepOpen = false;
    const simulation = this.#simulation!;
    const step = simulation.currentStep;
    const actions = new Map<string, MassimAction | undefined>();
    for (const agent of simulation.agents) actions.set(agent, this.#slots.get(agent)!.request?.action);
    simulation.step(actions);
    const scores = Object.fromEntries(simulation.scores().map(({ team, score }) => [team, score]));
    this.#recording.annotate('reward', {
      simulation: this.#simIndex,
      step,
      scores,
    } satisfies MassimScoreAnnotation);
    // Snapshots cost more than a step on large maps: only when the world is recorded.
    const world = this.#options.recordWorld === false ? undefined : simulation.snapshot();
    if (world) this.#annotateWorld({ kind: 'snapshot', simulation: this.#simIndex, world });
    this.#options.onEvent?.({
      kind: 'step',
      simulation: this.#simIndex,
      step,
      scores,
      ...(world ? { world } : {}),
    });
    if (simulation.isFinished) this.#endSimulation(scores);
    else this.#beginStep();
  }

  #endSimulation(scores: Record<string, number>): void {
    this.store.packPending();
    const simulation = this.#simulation!;
    const time = this.#scheduler.now();
    for (const agent of simulation.agents) {
      const slot = this.#slots.get(agent)!;
      slot.simStart = undefined;
      const { score, ranking } = simulation.simEndContent(agent);
      if (slot.connection) slot.connection.send({ type: 'sim-end', content: { score, ranking, time } });
      else this.#undelivered(slot);
    }
    this.#options.onEvent?.({ kind: 'simulation-end', simulation: this.#simIndex, scores });
    this.#phase = 'pause-between-simulations';
    this.#timer = this.#scheduler.setTimer(this.config.server.waitBetweenSimulations, () =>
      this.#run(() => {
        this.#timer = undefined;
        this.#phase = 'running';
        this.#nextSimulation();
      }),
    );
  }

  #finish(): void {
    this.#phase = 'finished';
    const noPause = this.config.server.waitBetweenSimulations <= 0;
    for (const slot of this.#slots.values()) {
      const connection = slot.connection;
      if (!connection) continue;
      if (this.#options.faithfulRaces && noPause && this.#rng.nextFloat() < byeLoss) {
        this.#race('massim.race.bye-lost', connection, slot.name, 'bye was lost.');
        continue;
      }
      connection.send({ type: 'bye', content: {} });
    }
    for (const connection of [...this.#connections]) connection.closeByServer();
    this.#options.onEvent?.({ kind: 'finished' });
  }

  #annotateWorld(annotation: MassimWorldAnnotation): void {
    if (this.#options.recordWorld === false) return;
    // Packed once the next step's requests are out (while the policies think), and at the latest before
    // the world moves on.
    this.#recording.annotate('world', annotation, undefined, { packLater: true });
  }

  #clearTimer(): void {
    if (this.#timer) this.#scheduler.clearTimer(this.#timer);
    this.#timer = undefined;
  }
}

/** Teams of every match: round-robin (every combination, in configuration order), manual, or random. */
function planMatches(config: MassimServerConfig, rng: Rng): string[][] {
  const names = config.teams.map((team) => team.name);
  const size = config.server.teamsPerMatch;
  if (config.server.tournamentMode === 'manual' && config.manualMode)
    return config.manualMode.map((teams) => [...teams]);
  if (config.server.tournamentMode === 'random') {
    const shuffled = [...names];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = rng.nextInt(i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    return [shuffled.slice(0, size)];
  }
  const matches: string[][] = [];
  const choose = (start: number, chosen: string[]) => {
    if (chosen.length === size) {
      matches.push(chosen);
      return;
    }
    for (let i = start; i < names.length; i++) choose(i + 1, [...chosen, names[i]!]);
  };
  choose(0, []);
  return matches;
}

/** What a connection needs from its host. */
interface HostHooks {
  run(work: () => void): void;
  recording(): MassimRecording;
  maxPacketLength(): number;
  slot(name: string): AgentSlot | undefined;
  newConnectionId(connection: Connection, user: string | undefined): string;
  statusResponse(): MassimServerMessage;
  login(connection: Connection, slot: AgentSlot): void;
  action(slot: AgentSlot, id: number, action: MassimAction, index: number, conn: string): void;
  violation(violation: MassimHostViolation): void;
  closed(connection: Connection): void;
}

class Connection implements MassimHostConnection {
  #id: string | undefined;
  #phase: ConnectionPhase = 'front-desk';
  #splitter = new NulFrameSplitter();
  #stoppedBy: { index: number; rule: MassimRuleId } | undefined;
  slot: AgentSlot | undefined;

  constructor(
    private readonly hooks: HostHooks,
    readonly serial: number,
    private readonly sink: MassimConnectionSink,
  ) {}

  get id(): string {
    return this.#id ?? `conn${this.serial}`;
  }

  receive(bytes: Uint8Array): void {
    this.hooks.run(() => this.#feed(bytes));
  }

  receiveText(text: string): void {
    this.hooks.run(() => {
      // A plain action is ASCII (its length is its size in bytes) without a 0 byte: one whole frame, read and
      // recorded without making its bytes unless the size limit discards it. Anything else goes as bytes.
      const plain =
        this.#phase === 'agent' && this.#splitter.pendingBytes === 0 ? readPlainAction(text) : undefined;
      if (plain?.kind !== 'action') {
        this.#feed(encodeNulFrame(text));
        return;
      }
      if (this.#splitter.countWholeFrame(text.length))
        this.#onFrame({ bytes: encodeNulFrame(text).subarray(0, text.length), discarded: true });
      else this.#onFrame({ bytes: EMPTY_BYTES, discarded: false }, { strict: text, plain });
    });
  }

  #feed(bytes: Uint8Array): void {
    let rest: Uint8Array | undefined = bytes;
    while (rest && rest.length > 0 && this.#phase !== 'closed') {
      const splitter = this.#splitter;
      rest = splitter.push(rest, (frame) => {
        this.#onFrame(frame);
        return this.#splitter === splitter && this.#phase !== 'closed';
      });
    }
  }

  disconnect(): void {
    this.hooks.run(() => {
      if (this.#phase === 'closed') return;
      this.#ensureOpened(undefined);
      this.#phase = 'closed';
      this.hooks.recording().event(this.id, 'c2s', 'close');
      this.hooks.closed(this);
    });
  }

  /** The server closes this connection. */
  closeByServer(): void {
    if (this.#phase === 'closed') return;
    this.#ensureOpened(undefined);
    this.#phase = 'closed';
    this.hooks.recording().event(this.id, 's2c', 'close');
    this.hooks.closed(this);
    this.sink.close();
  }

  send(message: MassimServerMessage, text = serializeMassimMessage(message)): void {
    if (this.#phase === 'closed') return;
    const recording = this.hooks.recording();
    const index = recording.text(this.id, 's2c', text, 'nul').index;
    this.#deliver(new EagerFrame(recording.store, index, message, text));
  }

  /** Sends a request-action, recorded as phrases; its text and percept object are made on demand. */
  sendRequestAction(
    header: RequestActionHeader,
    agent: string,
    simulation: MassimSimulation,
    writer: RequestActionWriter,
  ): void {
    if (this.#phase === 'closed') return;
    const recording = this.hooks.recording();
    const index = recording.phrased(
      this.id,
      's2c',
      (out) =>
        writer.write(out, header, (perceptOut) => simulation.writeRequestActionPercept(agent, perceptOut)),
      'nul',
    );
    this.#deliver(new RequestActionFrame(recording.store, index, header, agent, simulation));
  }

  #deliver(frame: MassimOutgoingFrame): void {
    const sink = this.sink;
    if ('deliver' in sink) sink.deliver(frame);
    else sink.send(frame.text, frame.message);
  }

  /** Records the connection's opening once its name is known (from its first frame). */
  #ensureOpened(user: string | undefined): void {
    if (this.#id !== undefined) return;
    this.#id = this.hooks.newConnectionId(this, user);
    this.hooks.recording().event(this.#id, 'c2s', 'open');
  }

  /** `read`: the frame's text and plain reading when the caller already has them (`receiveText`). */
  #onFrame(frame: SplitFrame, read?: { strict: string; plain: ClientFrameReading }): void {
    if (this.#phase === 'front-desk') {
      this.#atFrontDesk(frame);
      return;
    }
    const recording = this.hooks.recording();
    const strict = read ? read.strict : strictText(frame.bytes);
    // Actions in the plain form (nearly all of them) are read by a pattern and recorded as phrases.
    const plain = read
      ? read.plain
      : this.#phase === 'agent' && !frame.discarded && strict !== undefined
        ? readPlainAction(strict)
        : undefined;
    const recorded =
      plain?.kind === 'action'
        ? recording.plainAction(this.id, strict!, { id: plain.id, ...plain.action }, 'nul')
        : recording.agentFrame(this.id, 'c2s', frame.bytes, 'nul', strict);
    // Valid UTF-8 decodes the same with replacement; only other bytes need the second decoding.
    const text = strict ?? serverDecoder.decode(frame.bytes);
    switch (this.#phase) {
      case 'unread':
        this.#violation(
          recorded,
          'massim.front-desk.unread',
          'nothing',
          'a frame',
          'This frame is never read.',
        );
        return;
      case 'receiver-dead':
        this.#violation(
          recorded,
          'massim.receiver.dead',
          'a reconnection',
          'a frame',
          `The server stopped reading this connection at message ${this.#stoppedBy?.index}.`,
        );
        return;
      case 'agent':
        this.#inSession(frame, text, recorded, plain);
        return;
    }
  }

  #atFrontDesk(frame: SplitFrame): void {
    const reading = readClientFrame(serverDecoder.decode(frame.bytes));
    this.#ensureOpened(reading.kind === 'auth-request' ? reading.user : undefined);
    const recorded = this.hooks.recording().agentFrame(this.id, 'c2s', frame.bytes, 'nul');
    // Whatever happens next, the front desk never reads another frame of this connection.
    this.#phase = 'unread';
    this.#splitter = new NulFrameSplitter();
    switch (reading.kind) {
      case 'auth-request': {
        const slot = this.hooks.slot(reading.user);
        if (!slot || slot.password !== reading.password) {
          this.send({ type: 'auth-response', content: { result: 'fail' } });
          this.#violation(
            recorded,
            'massim.auth.rejected',
            'a configured user and its password',
            `user "${reading.user}"`,
            `Login of "${reading.user}" failed.`,
          );
          this.closeByServer();
          return;
        }
        this.slot = slot;
        this.send({ type: 'auth-response', content: { result: 'ok' } });
        this.#phase = 'agent';
        this.#splitter = new NulFrameSplitter({ maxPacketLength: this.hooks.maxPacketLength() });
        this.hooks.login(this, slot);
        return;
      }
      case 'status-request':
        this.send(this.hooks.statusResponse());
        return;
      case 'invalid-json':
        this.#violation(
          recorded,
          'massim.front-desk.invalid-json',
          'an auth-request',
          `invalid JSON: ${reading.error.message}`,
          'The first frame is not JSON.',
        );
        return;
      case 'no-content':
        this.#violation(
          recorded,
          'massim.front-desk.no-content',
          'a "content" object',
          'none',
          `The first frame ("${reading.type}") has no content object.`,
        );
        return;
      default:
        this.#violation(
          recorded,
          'massim.front-desk.not-auth',
          'auth-request or status-request',
          reading.kind,
          `The first frame is ${reading.kind}.`,
        );
    }
  }

  #inSession(frame: SplitFrame, text: string, recorded: RecordedFrame, plain?: ClientFrameReading): void {
    if (frame.discarded) {
      this.#violation(
        recorded,
        'massim.frame.oversized',
        `at most ${this.hooks.maxPacketLength()} bytes`,
        `${frame.bytes.length} bytes`,
        'The frame is too long.',
      );
      return;
    }
    const reading = plain ?? readClientFrame(text);
    if (reading.kind === 'action') {
      this.hooks.action(this.slot!, reading.id, reading.action, recorded.index, this.id);
      return;
    }
    const stop = (rule: MassimRuleId, expected: string, got: string, what: string) => {
      this.#phase = 'receiver-dead';
      this.#stoppedBy = { index: recorded.index, rule };
      this.#violation(recorded, rule, expected, got, what);
    };
    switch (reading.kind) {
      case 'invalid-json': {
        const { message, location } = reading.error;
        stop(
          'massim.receiver.invalid-json',
          'a JSON object',
          `${message} at column ${location.column}`,
          `Invalid JSON: ${message} (line ${location.line}, column ${location.column}).`,
        );
        return;
      }
      case 'action-without-p':
        stop(
          'massim.receiver.action-without-p',
          '"p": [...] (an array, [] for no parameters)',
          reading.got,
          `Action ${reading.id} has no "p" array.`,
        );
        return;
      case 'server-message':
        if (reading.breaksReceiver)
          stop('massim.receiver.server-message', 'action', reading.type, `An agent sent "${reading.type}".`);
        else
          this.#violation(
            recorded,
            'massim.message.ignored-type',
            'action',
            reading.type,
            `An agent sent "${reading.type}".`,
          );
        return;
      case 'no-content':
        this.#violation(
          recorded,
          'massim.message.no-content',
          'a "content" object',
          'none',
          `"${reading.type}" without content.`,
        );
        return;
      case 'unknown-type':
        this.#violation(
          recorded,
          'massim.message.unknown-type',
          'action',
          `"${reading.type}"`,
          `Unknown message type "${reading.type}".`,
        );
        return;
      case 'auth-request':
        this.#violation(
          recorded,
          'massim.auth.after-login',
          'action',
          'auth-request',
          'auth-request on a logged-in connection.',
        );
        return;
      case 'status-request':
        this.#violation(
          recorded,
          'massim.status.after-login',
          'action',
          'status-request',
          'status-request on a logged-in connection.',
        );
        return;
    }
  }

  #violation(recorded: RecordedFrame, rule: MassimRuleId, expected: string, got: string, what: string): void {
    this.hooks.violation({
      ...massimViolation(recorded.index, rule, expected, got, what),
      conn: this.id,
      ...(this.slot ? { agent: this.slot.name } : {}),
    });
  }
}

/** The bytes of a frame read from its text (`receiveText`), which nothing reads. */
const EMPTY_BYTES = new Uint8Array(0);

/** The server decodes frames as UTF-8, replacing invalid bytes with U+FFFD. */
const serverDecoder = new TextDecoder('utf-8');

/** Records that `slot` answered request `id` in time. */
function markAnswered(slot: AgentSlot, id: number): void {
  let bits = slot.answeredIds;
  if (id >> 3 >= bits.length) {
    bits = new Uint8Array(Math.max(bits.length * 2, (id >> 3) + 1));
    bits.set(slot.answeredIds);
    slot.answeredIds = bits;
  }
  bits[id >> 3]! |= 1 << (id & 7);
}
