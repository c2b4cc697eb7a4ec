/**
 * The page's MASSim teams playing a real MASSim server through `protoplay bridge`: one bridge channel (one
 * TCP connection behind it) per agent account of every team of the match settings, each driven by the
 * core's agent client (login, an action with the request's id and a `p` array for every request-action),
 * each team's policy in its own policy worker answering a step in one batch, as in an emulated match.
 *
 * The client machine of every connection judges what the server sends: a broken rule is shown as a
 * violation and the match goes on. Every frame is recorded (one transcript connection per agent
 * connection), kept across reloads and exportable. Faults end the session as failed with everything
 * recorded kept, saying where: a refused login, a server silent while it owes an answer, a connection
 * lost for good. A connection lost in the middle of a simulation is reopened (with backoff) and the agent
 * logs in again, which MASSim allows: the server hands it the running simulation again.
 */
import { massimAccountNames } from '../../../envs/massim/index';
import type { MassimServerConfig } from '../../../envs/massim/api';
import { describeError } from '../../../errors';
import { PolicySupervisor } from '../../../policy/supervisor';
import type { TurnGate } from '../../../policy/turn-gate';
import { GatedRun, pacingGate } from '../../../session/gated-run';
import { liveUpdates } from '../../../session/live-updates';
import type { CallOutcome, PolicyFault, PolicySource } from '../../../policy/types';
import type { BridgeAccess } from '../../../session/bridge-route';
import { encodeNulFrame } from '../../../transport/nul-framing';
import type { TranscriptKeeper } from '../../../session/transcript-keeper';
import { storeSource } from '../../../session/transcript-journal';
import type { UpdateBatcher } from '../../../session/update-batcher';
import { decodeWireBytes } from '../../../transcript/bytes';
import type { Direction } from '../../../transcript/model';
import { TranscriptStore } from '../../../transcript/store';
import { TranscriptRecorder } from '../../../transcript/recorder';
import type { WireData, WireSink } from '../../contract';
import type { PlaygroundServices, PlaygroundSession, SessionConfig } from '../../session-contract';
import { MassimAgentClient, type MassimAgentEvent, type MassimDecide } from '../client';
import { NulFrameSplitter } from '../framing';
import { MassimTranscriptReader } from '../reader';
import { gatherSteps } from '../step-gatherer';
import { batchedTeamDecide, type MassimTeamBatchReply } from '../team-batch';
import { MASSIM_TEAM_STEP } from '../team-calls';
import type { MassimSessionOptions } from './options';
import { serverConfig } from './server-config';
import { MAX_KEPT_MASSIM_MESSAGES } from './session-run';
import { answerMassimQuestion, massimTranscriptJson, type MassimShown } from './shown-store';

/** How a bridged match waits and retries; the defaults suit a learner's machine. */
export interface BridgedMassimTuning {
  /**
   * Longest silence of the server while it owes an answer (a login, a running simulation); by default the
   * bridge's `--response-timeout`.
   */
  silenceMs?: number;
  /** Tries to reopen a connection lost in the middle of a simulation (0: never). */
  reconnectAttempts?: number;
  /** Wait before the first try; doubled at each next one, at most `maxReconnectDelayMs`. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** How long a request waits for the rest of its team's step before the policy gets what arrived. */
  gatherWindowMs?: number;
  /**
   * How often the transcript of a running match is stored for a reload (a match on a real server cannot
   * pause for it: a reload ends the connections, and what was stored last is what the page shows again).
   */
  keepEveryMs?: number;
}

const DEFAULT_TUNING: Omit<Required<BridgedMassimTuning>, 'silenceMs'> = {
  reconnectAttempts: 6,
  reconnectDelayMs: 250,
  maxReconnectDelayMs: 4000,
  gatherWindowMs: 20,
  keepEveryMs: 5000,
};

const REQUEST_STEP = /^\{"type":"request-action","content":\{"step":(\d+)/;

type LinkPhase = 'connecting' | 'login' | 'waiting' | 'simulation' | 'between' | 'done';

/** One agent account and its current connection. */
interface AgentLink {
  user: string;
  team: string;
  /** Connections opened so far (the transcript names them `user.connN`). */
  opened: number;
  conn: string;
  sink: WireSink<WireData> | undefined;
  client: MassimAgentClient | undefined;
  phase: LinkPhase;
  /** Simulations this agent has seen start. */
  simulations: number;
  /** The last step asked of the agent. */
  step: number;
  /** Store index of each message the current connection's client machine counts. */
  records: number[];
  timer?: ReturnType<typeof setTimeout>;
  /** The current connection is over from our side. */
  leaving: boolean;
  reconnecting: boolean;
  /** The connection replaces one lost in a simulation: the server owes the agent the running simulation. */
  resumed: boolean;
}

/** One team: its policy, its accounts. */
interface TeamPlay {
  team: string;
  supervisor: PolicySupervisor;
  accounts: string[];
  decide: MassimDecide;
  /** The step whose score was last reported. */
  scoreStep: number;
}

/** Starts the teams against the bridge's target; resolves once the policies are loaded and the agents dial. */
export async function startBridgedMassimRun(
  config: SessionConfig,
  target: string,
  services: PlaygroundServices,
  bridge: BridgeAccess,
  tuning: BridgedMassimTuning = {},
): Promise<PlaygroundSession> {
  const run = new BridgedMassimRun(config, target, services, bridge, {
    ...DEFAULT_TUNING,
    silenceMs: bridge.silenceMs,
    ...tuning,
  });
  await run.start();
  return run;
}

class BridgedMassimRun extends GatedRun implements PlaygroundSession {
  readonly #config: SessionConfig;
  readonly #target: string;
  readonly #bridge: BridgeAccess;
  readonly #tuning: Required<BridgedMassimTuning>;
  readonly #server: MassimServerConfig;
  readonly #store: TranscriptStore;
  /** Records the agents' frames into the store. */
  readonly #recorder: TranscriptRecorder;
  readonly #shown: MassimShown;
  readonly #teams: TeamPlay[];
  readonly #links: AgentLink[] = [];
  readonly #batcher: UpdateBatcher;
  readonly #keeper: TranscriptKeeper;
  protected readonly gate: TurnGate;
  /** Each team's policy: the editor's for the first team, the other teams' for the rest. */
  readonly #sources: PolicySource[];
  /** Simulations seen to start and to end (by any agent), the step last marked. */
  #simulations = 0;
  #simulationsEnded = 0;
  #markedStep = '';
  /** The step the gate let through last (`simulation/step`), and its pass. */
  #gatedStep = '';
  #gatedPass: Promise<boolean> = Promise.resolve(true);
  #firstPass = true;
  #over = false;
  #keepTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    config: SessionConfig,
    target: string,
    services: PlaygroundServices,
    bridge: BridgeAccess,
    tuning: Required<BridgedMassimTuning>,
  ) {
    super();
    this.#config = config;
    this.#target = target;
    this.#bridge = bridge;
    this.#tuning = tuning;
    const options = config.options as MassimSessionOptions | undefined;
    if (!options?.match) throw new Error('a MASSim session needs its match settings');
    this.#server = serverConfig(options.match);
    const address = bridge.describe({ mode: 'outbound', target }) ?? target;
    this.#store = new TranscriptStore({
      protocol: config.protocol,
      startedAt: Date.now(),
      meta: {
        source: 'bridge',
        origin: 'bridge',
        target,
        server: address,
        teams: this.#server.teams.map((team) => team.name).join(', '),
        seed: config.seed,
      },
    });
    this.#recorder = new TranscriptRecorder({ store: this.#store });
    this.#teams = this.#server.teams.map((account) => {
      const supervisor = new PolicySupervisor({
        spawn: () => services.spawnPolicy(),
        budgetMs: config.budgetMs,
      });
      const play: TeamPlay = {
        team: account.name,
        supervisor,
        accounts: massimAccountNames(this.#server, account),
        scoreStep: -1,
        decide: () => undefined,
      };
      const batched = batchedTeamDecide(async (batch) => {
        const outcome = await this.#ask(play, MASSIM_TEAM_STEP, [batch]);
        if (!outcome.ok) throw new Error(outcome.fault.message);
        return outcome.value as MassimTeamBatchReply;
      });
      const gathered = gatherSteps(batched, {
        expected: () =>
          this.#links.filter((link) => link.team === account.name && link.phase === 'simulation').length,
        windowMs: tuning.gatherWindowMs,
      });
      play.decide = async (request) => {
        this.#observeScore(play, request.step, request.percept.score);
        if (!(await this.#pass(request.step)) || this.#over) return undefined;
        return gathered(request);
      };
      return play;
    });
    const policies = [config.policy, options.otherTeams];
    this.#sources = this.#teams.map((_, i) => policies[Math.min(i, 1)]!);
    this.#shown = {
      store: this.#store,
      reader: new MassimTranscriptReader(this.#store, { judgeAgents: false }),
    };
    const store = this.#store;
    const reader = this.#shown.reader;
    ({ batcher: this.#batcher, keeper: this.#keeper } = liveUpdates(services, {
      content: { kind: 'views', news: () => reader.read() },
      protocol: config.protocol,
      write: () => (store.length > MAX_KEPT_MASSIM_MESSAGES ? undefined : massimTranscriptJson(this.#shown)),
      source: storeSource(store, MAX_KEPT_MASSIM_MESSAGES),
      // Stored while running by `#keepWhileRunning`, at the tuning's pace.
      everyMs: 0,
    }));
    this.gate = pacingGate(config, (status) => {
      if (!this.#over) this.#batcher.note({ status });
    });
    for (const play of this.#teams) {
      for (const user of play.accounts) {
        this.#links.push({
          user,
          team: play.team,
          opened: 0,
          conn: '',
          sink: undefined,
          client: undefined,
          phase: 'connecting',
          simulations: 0,
          step: -1,
          records: [],
          leaving: false,
          reconnecting: false,
          resumed: false,
        });
      }
    }
  }

  /** Loads every team's policy, then dials one connection per account. */
  async start(): Promise<void> {
    this.#batcher.note({ status: this.#config.startPaused ? 'paused' : 'running' });
    const loads = await Promise.all(this.#teams.map((play, i) => play.supervisor.load(this.#sources[i]!)));
    loads.forEach((loaded, i) => {
      for (const line of loaded.logs)
        this.#store.annotate('policy-log', { ...line, text: `team ${this.#teams[i]!.team}: ${line.text}` });
    });
    const failed = loads.findIndex((loaded) => !loaded.ok);
    if (failed >= 0) {
      const loaded = loads[failed]!;
      if (!loaded.ok) this.#policyFailed(this.#teams[failed]!.team, loaded.fault);
      return;
    }
    const wire = this.#sources.findIndex((source) => source.level === 'wire');
    if (wire >= 0) {
      this.#fail(
        `team ${this.#teams[wire]!.team}'s policy is a wire-level one: through the bridge, teams play with act(percept, agent, team)`,
      );
      return;
    }
    this.#batcher.schedule();
    this.#keepWhileRunning();
    for (const link of this.#links)
      void this.#open(link).then((failure) => {
        if (failure !== undefined) this.#fail(`cannot play through the bridge: ${failure}`);
      });
  }

  decide(): void {
    // MASSim actions are never held for the learner.
  }

  ask(question: string, args: readonly unknown[]): unknown {
    return answerMassimQuestion(this.#shown, question, args);
  }

  exportJson(): string[] {
    return massimTranscriptJson(this.#shown);
  }

  stop(): void {
    if (this.#over) return;
    this.#store.annotate('note', {
      code: 'protoplay.bridge.stopped',
      message: 'stopped by the learner; the connections to the server were closed',
    });
    this.#end('stopped');
  }

  abandon(): void {
    this.#end('stopped');
    this.#batcher.abandon();
    this.#keeper.dispose();
  }

  /** Stores the transcript every few seconds while the match runs, so a reload shows what was played. */
  #keepWhileRunning(): void {
    const { keepEveryMs } = this.#tuning;
    if (keepEveryMs <= 0) return;
    this.#keepTimer = setInterval(() => {
      if (this.#over || this.#store.length > MAX_KEPT_MASSIM_MESSAGES) return;
      void this.#keeper.keepNow();
    }, keepEveryMs);
  }

  /** One pass of the turn gate per step, shared by every request of the step (of every team). */
  #pass(step: number): Promise<boolean> {
    const key = `${this.#simulations}/${step}`;
    if (key !== this.#gatedStep) {
      this.#gatedStep = key;
      this.#gatedPass = this.gate.pass(this.#firstPass);
      this.#firstPass = false;
    }
    return this.#gatedPass;
  }

  /** Opens a connection for the account; resolves with why the bridge could not open one, if it could not. */
  async #open(link: AgentLink): Promise<string | undefined> {
    const conn = `${link.user}.conn${++link.opened}`;
    link.conn = conn;
    link.leaving = false;
    link.records = [];
    link.phase = 'connecting';
    this.#store.addConnection(conn, link.user);
    const play = this.#teams.find((candidate) => candidate.team === link.team)!;
    const splitter = new NulFrameSplitter();
    const client = new MassimAgentClient({
      user: link.user,
      password: this.#server.teams.find((team) => team.name === link.team)!.password,
      team: link.team,
      teamAccounts: play.accounts,
      decide: play.decide,
      send: (text) => {
        if (link.leaving || this.#over || link.client !== client) return;
        this.#record(link, 'c2s', { text });
        try {
          link.sink?.send(encodeNulFrame(text));
        } catch (error) {
          this.#fail(`could not send ${link.user}'s frame: ${describeError(error)}`);
        }
      },
      onEvent: (event) => this.#onAgentEvent(link, event),
    });
    link.client = client;
    try {
      await this.#bridge.connect(this.#target, {
        connect: (sink) => {
          link.sink = sink;
          this.#event(link, 'c2s', 'open');
          link.phase = 'login';
          this.#watch(link);
          client.login();
          this.#batcher.schedule();
          return {
            receive: (data) => {
              if (link.client !== client || link.leaving) return;
              const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : (data as Uint8Array);
              splitter.push(bytes, (frame) => {
                if (this.#over || link.client !== client) return false;
                this.#receive(link, frame.bytes);
                return !this.#over;
              });
              this.#batcher.schedule();
            },
            end: (reason) => {
              if (link.client === client) this.#closed(link, reason ?? 'the server closed the connection');
            },
          };
        },
      });
      return undefined;
    } catch (error) {
      const why = `the bridge could not open '${this.#target}': ${describeError(error)}`;
      if (this.#over || link.client !== client) return why;
      link.phase = 'connecting';
      this.#store.annotate('note', { agent: link.user, message: `${link.user}: ${why}` });
      this.#batcher.schedule();
      return why;
    }
  }

  #receive(link: AgentLink, bytes: Uint8Array): void {
    const payload = decodeWireBytes(bytes);
    const text = 'text' in payload ? payload.text : new TextDecoder().decode(bytes);
    const step = REQUEST_STEP.exec(text);
    if (step) {
      // The real server can lose the sim-start it re-sends after a login: a request means a simulation.
      if (link.phase === 'waiting' || link.phase === 'between') link.phase = 'simulation';
      const number = Number(step[1]);
      link.step = number;
      const group = Math.max(this.#simulations - 1, 0);
      if (this.#markedStep !== `${group}/${number}`) {
        this.#store.markStep(group, number);
        this.#markedStep = `${group}/${number}`;
      }
    }
    this.#record(link, 's2c', payload);
    this.#watch(link);
    void link.client?.receiveFrame(text);
  }

  #onAgentEvent(link: AgentLink, event: MassimAgentEvent): void {
    if (this.#over) return;
    const store = this.#store;
    switch (event.kind) {
      case 'logged-in':
        link.phase = 'waiting';
        this.#watch(link);
        return;
      case 'login-failed':
        this.#fail(
          `the server refused the login of ${link.user}: the page's match settings must name the server's teams and agents (accounts ${link.user.replace(/\d+$/, '1')}.., password as configured)`,
        );
        return;
      case 'sim-start':
        link.phase = 'simulation';
        link.resumed = false;
        link.simulations = Math.max(link.simulations + 1, this.#simulationsEnded + 1);
        this.#watch(link);
        if (link.simulations > this.#simulations) {
          this.#simulations = link.simulations;
          for (const play of this.#teams) play.scoreStep = -1;
        }
        return;
      case 'sim-end':
        link.phase = 'between';
        this.#watch(link);
        if (link.simulations > this.#simulationsEnded) {
          this.#simulationsEnded = link.simulations;
          store.annotate('reward', {
            simulation: link.simulations - 1,
            step: link.step,
            scores: { [link.team]: event.score },
          });
        }
        return;
      case 'bye':
        link.phase = 'done';
        this.#leave(link);
        return;
      case 'server-violation': {
        const { violation } = event;
        const index = link.records[violation.index] ?? store.length - 1;
        store.annotate(
          'violation',
          { ...violation, index, conn: link.conn, agent: link.user, role: 'client' },
          index,
        );
        return;
      }
      case 'missed-steps':
        store.annotate('note', {
          agent: link.user,
          message: `${link.user} missed ${event.from === event.to ? `step ${event.from}` : `steps ${event.from}-${event.to}`} (it joined late or lost its connection)`,
        });
        return;
      case 'decision-outdated':
        store.annotate('note', {
          agent: link.user,
          message: `${link.user}'s action for request ${event.id} came after the next request and was not sent`,
        });
        return;
      case 'decision-failed':
        if (!this.#over)
          store.annotate('note', {
            agent: link.user,
            message: `${link.user} sent no action for request ${event.id}: ${describeError(event.error)}`,
          });
        return;
    }
  }

  /** Records the team's score once per step, from the first percept of the step that carries it. */
  #observeScore(play: TeamPlay, step: number, score: number): void {
    if (this.#over || step <= play.scoreStep) return;
    play.scoreStep = step;
    if (step === 0) return;
    this.#store.annotate('reward', {
      simulation: Math.max(this.#simulations - 1, 0),
      step: step - 1,
      scores: { [play.team]: score },
    });
  }

  #closed(link: AgentLink, reason: string): void {
    clearTimeout(link.timer);
    if (!link.leaving) link.records.push(this.#event(link, 's2c', 'close', reason));
    link.client?.closed();
    link.sink = undefined;
    this.#batcher.schedule();
    if (this.#over || link.leaving) {
      this.#checkDone();
      return;
    }
    link.leaving = true;
    switch (link.phase) {
      case 'between':
      case 'done':
        // The real server can lose bye: a close after sim-end ends the agent's part too.
        link.phase = 'done';
        this.#checkDone();
        return;
      case 'waiting':
        if (this.#simulationsEnded > 0) {
          link.phase = 'done';
          this.#checkDone();
          return;
        }
        void this.#reconnect(link, `before any simulation started (${reason})`);
        return;
      case 'login':
      case 'connecting':
        void this.#reconnect(link, `before answering its login (${reason})`);
        return;
      case 'simulation':
        void this.#reconnect(
          link,
          `in simulation ${link.simulations}${link.step >= 0 ? ` at step ${link.step}` : ''}, before sim-end (${reason})`,
        );
        return;
    }
  }

  /** Reopens a lost connection with backoff; fails the match when every try failed. */
  async #reconnect(link: AgentLink, where: string): Promise<void> {
    const lost = `the server closed ${link.user}'s connection ${where}`;
    const { reconnectAttempts, reconnectDelayMs, maxReconnectDelayMs } = this.#tuning;
    if (reconnectAttempts <= 0 || link.reconnecting) {
      if (!link.reconnecting) this.#fail(lost);
      return;
    }
    link.reconnecting = true;
    this.#store.annotate('note', {
      agent: link.user,
      code: 'protoplay.bridge.reconnecting',
      message: `${lost}; reconnecting it (up to ${reconnectAttempts} tries)`,
    });
    this.#batcher.schedule();
    let why = '';
    for (let attempt = 1; attempt <= reconnectAttempts; attempt++) {
      const delay = Math.min(maxReconnectDelayMs, reconnectDelayMs * 2 ** (attempt - 1));
      await new Promise<void>((wake) => setTimeout(wake, delay));
      if (this.#over) return;
      const failure = await this.#open(link);
      if (failure === undefined) {
        link.reconnecting = false;
        link.resumed = true;
        this.#store.annotate('note', {
          agent: link.user,
          code: 'protoplay.bridge.reconnected',
          message: `${link.user} reconnected (connection ${link.opened}, try ${attempt}) and logs in again`,
        });
        this.#batcher.schedule();
        return;
      }
      why = failure;
    }
    link.reconnecting = false;
    this.#fail(`${lost}, and ${reconnectAttempts} tries to reconnect it failed (the last: ${why})`);
  }

  /** Leaves after bye: the agent's work is done. */
  #leave(link: AgentLink): void {
    if (link.leaving) return;
    link.leaving = true;
    clearTimeout(link.timer);
    this.#event(link, 'c2s', 'close');
    link.sink?.close('bye received');
    this.#checkDone();
  }

  #checkDone(): void {
    if (this.#over) return;
    if (this.#links.every((link) => link.phase === 'done')) this.#end('finished');
  }

  /** (Re)starts the silence timer where the server owes an answer: a login, and during a simulation. */
  #watch(link: AgentLink): void {
    clearTimeout(link.timer);
    link.timer = undefined;
    const { silenceMs } = this.#tuning;
    const owed =
      link.phase === 'login' || link.phase === 'simulation' || (link.phase === 'waiting' && link.resumed);
    if (silenceMs <= 0 || !owed) return;
    link.timer = setTimeout(() => {
      // A learner's pause holds the answers; the server's silence then is ours.
      if (this.gate.state === 'paused') return this.#watch(link);
      const where =
        link.phase === 'login'
          ? 'after its auth-request'
          : link.phase === 'waiting'
            ? 'after it logged in again'
            : `in simulation ${link.simulations}${link.step >= 0 ? ` after step ${link.step}` : ''}`;
      this.#fail(
        `the server sent nothing to ${link.user} for ${silenceMs / 1000} s ${where}: it does not answer`,
      );
    }, silenceMs);
  }

  /** Asks a team's policy within its budget, keeping its console output; a fault ends the session. */
  async #ask(play: TeamPlay, hook: string, args: readonly unknown[]): Promise<CallOutcome> {
    const site = { round: Math.max(this.#simulations, 1), turn: this.#lastStep() };
    const outcome = await play.supervisor.call(hook, args, {}, site);
    for (const line of outcome.logs)
      this.#store.annotate('policy-log', { ...line, text: `team ${play.team}: ${line.text}` });
    if (!outcome.ok && !this.#over) {
      const fault =
        outcome.fault.kind === 'timeout'
          ? { ...outcome.fault, message: `policy exceeded ${this.#config.budgetMs} ms on step ${site.turn}` }
          : outcome.fault;
      this.#policyFailed(play.team, fault);
    }
    return outcome;
  }

  #lastStep(): number {
    return this.#links.reduce((last, link) => Math.max(last, link.step), 0);
  }

  #policyFailed(team: string, fault: PolicyFault): void {
    if (this.#over) return;
    this.#store.annotate('error', {
      source: 'policy',
      team,
      ...fault,
      message: `team ${team}: ${fault.message}`,
    });
    this.#batcher.note({ fault, faultOwner: `team ${team}` });
    this.#end('failed');
  }

  #fail(message: string): void {
    if (this.#over) return;
    this.#store.annotate('error', { source: 'session', message });
    this.#end('failed', message);
  }

  /** Ends the match once: closes every connection, stops the policies, reports the status. */
  #end(status: 'finished' | 'stopped' | 'failed', error?: string): void {
    if (this.#over) return;
    this.#over = true;
    clearInterval(this.#keepTimer);
    this.gate.stop();
    for (const link of this.#links) {
      clearTimeout(link.timer);
      if (link.leaving || !link.sink) continue;
      link.leaving = true;
      this.#event(link, 'c2s', 'close');
      link.sink.close(status === 'finished' ? 'the match is over' : (error ?? `the session ${status}`));
      link.sink = undefined;
    }
    for (const play of this.#teams) play.supervisor.dispose();
    this.#batcher.note({ status, ...(error ? { error } : {}) });
    this.#batcher.close();
  }

  #record(link: AgentLink, dir: Direction, payload: { text: string } | { base64: string }): void {
    link.records.push(this.#recorder.data(link.conn, dir, payload, 'nul').index);
  }

  #event(link: AgentLink, dir: Direction, kind: 'open' | 'close', reason?: string): number {
    return this.#recorder.event(link.conn, dir, kind, reason).index;
  }
}
