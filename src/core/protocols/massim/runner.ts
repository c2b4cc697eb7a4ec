/**
 * A whole MASSim match in memory: the emulated host plus one agent connection per agent of every team,
 * joined by in-memory pipes that carry the same frames TCP would. Policies are asynchronous callbacks
 * supplied by the caller (`batchedTeamDecide` for a team policy in a worker, or `createTeamDecide`
 * in-process). Agents get the host's frames as they are made, so a policy reading percept objects never
 * costs their text, and one reading text never costs the objects.
 *
 * Timing: `virtual` (default) runs as fast as the policies answer; the clock only jumps forward when every
 * agent is idle and the host is still waiting (a silent agent's deadline, the pause between simulations),
 * so timeouts behave exactly as on a real server. `real` uses the wall clock.
 */
import type { MassimServerConfig } from '../../envs/massim/api';
import type { Transcript } from '../../transcript/model';
import { MassimAgentClient, type MassimAgentEvent, type MassimDecide } from './client';
import { MassimHost, type MassimHostEvent, type MassimHostOptions } from './host';
import { realTimeScheduler, VirtualScheduler } from './scheduler';

/** What a wire-level team sees: each of its agents' connections opening and closing, and every frame. */
export type MassimWireEvent =
  /** A connection of `agent` is open: reply with the auth-request (or anything else, as a learner may). */
  | { kind: 'connected'; agent: string; password: string; team: string; connection: number }
  /** A frame the server sent on that connection (text without its 0 byte). */
  | { kind: 'frame'; agent: string; connection: number; text: string }
  /** The server closed that connection. */
  | { kind: 'closed'; agent: string; connection: number };

/**
 * A wire-level team's answer: frames to send on the connection the event came from, written as they are
 * (the runner only adds each 0 terminator), then optionally the agent closes that connection, then
 * optionally a new connection for the same agent and for other agents of wire-level teams.
 */
export interface MassimWireReply {
  frames?: readonly string[];
  /** The agent closes the connection after sending `frames`. */
  close?: boolean;
  reconnect?: boolean;
  /** Agents (of wire-level teams) whose next connection opens now. */
  connect?: readonly string[];
}

/**
 * A team written at the wire level, for learners writing the protocol client themselves: it handles raw
 * frames for all of its agents (connections are numbered per agent from 1).
 */
export type MassimWireTeam = (
  event: MassimWireEvent,
) => MassimWireReply | undefined | Promise<MassimWireReply | undefined>;

/** What the runner reports about the agents: the clients' events, and wire-level teams that threw. */
export type MassimRunnerAgentEvent =
  MassimAgentEvent | { kind: 'wire-failed'; agent: string; error: unknown };

/** Options of an in-memory match. */
export interface MassimMatchRunnerOptions {
  config: MassimServerConfig;
  /**
   * How each team decides, by team name: a `MassimDecide` (the runner's client speaks the protocol) or,
   * under `wireTeams`, a wire-level team. Teams with neither do not connect (their agents stay silent).
   */
  teams: Readonly<Record<string, MassimDecide>>;
  wireTeams?: Readonly<Record<string, MassimWireTeam>>;
  /**
   * Whether an agent of a wire-level team connects when the match starts (default: every one); the others
   * connect when a reply names them (`MassimWireReply.connect`).
   */
  connectAtStart?(agent: string): boolean;
  /** Session seed (see `MassimHostOptions.seed`). */
  seed?: number;
  /** Whose random numbers (see `MassimHostOptions.semantics`). */
  semantics?: MassimHostOptions['semantics'];
  timing?: 'virtual' | 'real';
  /** Epoch milliseconds the virtual clock starts at (default: the wall clock at creation). */
  startTime?: number;
  /**
   * With virtual timing, record each message at the virtual time plus the wall time spent since the match
   * was created, instead of the virtual time alone (which stands still while agents answer in time, so an
   * as-fast-as-possible match would read 0 ms throughout). The time a person saw a message being sent;
   * the wire's `time` and `deadline` and every timeout still follow the virtual clock. Default off.
   */
  recordWallTime?: boolean;
  faithfulRaces?: boolean;
  recordWorld?: boolean;
  /** What the host's transcript keeps and where it streams (`MassimHostOptions.recording`). */
  recording?: MassimHostOptions['recording'];
  onHostEvent?(event: MassimHostEvent): void;
  onAgentEvent?(event: MassimRunnerAgentEvent): void;
}

/** The outcome of a match: final scores of every simulation, in order. */
export interface MassimMatchResult {
  simulations: { simulation: number; scores: Record<string, number> }[];
}

/** An in-memory match that can be run to the end or one step at a time. */
export class MassimMatchRunner {
  readonly host: MassimHost;
  readonly #virtual: VirtualScheduler | undefined;
  readonly #options: MassimMatchRunnerOptions;
  readonly #results: MassimMatchResult['simulations'] = [];
  #pending = 0;
  #idle: (() => void)[] = [];
  #stepWaiters: (() => void)[] = [];
  #finished = false;
  #connected = false;
  /** The last connection number of each agent of a wire-level team. */
  readonly #serials = new Map<string, number>();

  constructor(options: MassimMatchRunnerOptions) {
    this.#options = options;
    this.#virtual =
      options.timing === 'real' ? undefined : new VirtualScheduler(options.startTime ?? Date.now());
    this.host = new MassimHost({
      config: options.config,
      scheduler: this.#virtual ?? realTimeScheduler(),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.semantics !== undefined ? { semantics: options.semantics } : {}),
      faithfulRaces: options.faithfulRaces ?? false,
      recordWorld: options.recordWorld ?? true,
      ...(options.recording ? { recording: options.recording } : {}),
      ...(options.recordWallTime && this.#virtual ? { messageClock: wallAndVirtual(this.#virtual) } : {}),
      onEvent: (event) => this.#onHostEvent(event),
    });
  }

  /** The session so far. */
  get transcript(): Transcript {
    return this.host.transcript;
  }

  /** True once the host said bye (or shut down). */
  get finished(): boolean {
    return this.#finished;
  }

  /** Runs the whole match and returns the scores. */
  async run(): Promise<MassimMatchResult> {
    await this.#launch();
    this.host.resume();
    await this.#drive(() => this.#finished);
    return { simulations: [...this.#results] };
  }

  /** Runs until one more step has been executed (or the match is over), then holds the host. */
  async step(): Promise<void> {
    if (this.#finished) return;
    let stepped = false;
    this.#stepWaiters.push(() => {
      stepped = true;
      this.host.pause();
    });
    if (this.#connected) this.host.resume();
    else await this.#launch();
    await this.#drive(() => stepped || this.#finished);
  }

  /** Stops the match now (no bye). */
  stop(): void {
    this.host.shutdown();
    this.#finished = true;
  }

  /** Connects every agent and lets them log in (wire-level teams answer asynchronously), then starts. */
  async #launch(): Promise<void> {
    if (this.#connected) return;
    this.#connected = true;
    for (const account of this.host.accounts) {
      const wire = this.#options.wireTeams?.[account.team];
      const decide = this.#options.teams[account.team];
      if (wire) {
        if (this.#options.connectAtStart?.(account.name) !== false) this.#connectWireAgent(account, wire);
      } else if (decide) this.#connectAgent(account, decide);
    }
    await this.#settled();
    this.host.start();
  }

  #connectAgent(account: { name: string; team: string; password: string }, decide: MassimDecide): void {
    const teamAccounts = this.host.accounts
      .filter((other) => other.team === account.team)
      .map((other) => other.name);
    // The host only calls the sink once the agent has logged in, after `client` exists.
    const connection = this.host.connect({
      deliver: (frame) => {
        const answering = client.receiveHostFrame(frame);
        if (answering) void this.#track(answering);
      },
      close: () => client.closed(),
    });
    const client: MassimAgentClient = new MassimAgentClient({
      user: account.name,
      password: account.password,
      team: account.team,
      teamAccounts,
      decide,
      send: (text) => connection.receiveText(text),
      ...(this.#options.onAgentEvent ? { onEvent: this.#options.onAgentEvent } : {}),
    });
    client.login();
  }

  #connectWireAgent(account: { name: string; team: string; password: string }, wire: MassimWireTeam): void {
    const agent = account.name;
    const serial = (this.#serials.get(agent) ?? 0) + 1;
    this.#serials.set(agent, serial);
    const deliver = async (event: MassimWireEvent): Promise<void> => {
      let reply: MassimWireReply | undefined;
      try {
        reply = await wire(event);
      } catch (error) {
        this.#options.onAgentEvent?.({ kind: 'wire-failed', agent, error });
        return;
      }
      for (const frame of reply?.frames ?? []) connection.receiveText(frame);
      if (reply?.close) connection.disconnect();
      if (reply?.reconnect) this.#connectWireAgent(account, wire);
      for (const other of reply?.connect ?? []) this.#connectWireByName(other);
    };
    const connection = this.host.connect({
      send: (text) => void this.#track(deliver({ kind: 'frame', agent, connection: serial, text })),
      close: () => void this.#track(deliver({ kind: 'closed', agent, connection: serial })),
    });
    void this.#track(
      deliver({
        kind: 'connected',
        agent,
        password: account.password,
        team: account.team,
        connection: serial,
      }),
    );
  }

  /** Opens the next connection of an agent of a wire-level team (unknown agents are ignored). */
  #connectWireByName(agent: string): void {
    if (this.#finished) return;
    const account = this.host.accounts.find((a) => a.name === agent);
    const wire = account && this.#options.wireTeams?.[account.team];
    if (account && wire) this.#connectWireAgent(account, wire);
  }

  /**
   * Counts answers in flight (from request-action to the action sent), so the virtual clock only moves
   * when every agent is idle. Sending an action runs the host synchronously, so the next step's requests
   * are counted before the answer that caused them is done.
   */
  async #track(answering: Promise<void>): Promise<void> {
    this.#pending++;
    try {
      await answering;
    } finally {
      this.#pending--;
      if (this.#pending === 0) queueMicrotask(() => this.#wakeIdle());
    }
  }

  #wakeIdle(): void {
    if (this.#pending > 0) return;
    const waiters = this.#idle;
    this.#idle = [];
    for (const wake of waiters) wake();
  }

  /** Resolves once no decision is in flight (after the answers they caused were delivered). */
  #settled(): Promise<void> {
    return new Promise((resolve) => {
      this.#idle.push(resolve);
      queueMicrotask(() => this.#wakeIdle());
    });
  }

  async #drive(done: () => boolean): Promise<void> {
    while (!done()) {
      await this.#settled();
      if (done()) return;
      if (this.#virtual) {
        if (this.host.status.phase === 'paused') return;
        if (!this.#virtual.fireNext()) return;
      } else {
        await new Promise<void>((resolve) => this.#stepWaiters.push(resolve));
      }
    }
  }

  #onHostEvent(event: MassimHostEvent): void {
    if (event.kind === 'simulation-end')
      this.#results.push({ simulation: event.simulation, scores: event.scores });
    if (event.kind === 'finished') this.#finished = true;
    if (event.kind === 'step' || event.kind === 'finished') {
      const waiters = this.#stepWaiters;
      this.#stepWaiters = [];
      for (const wake of waiters) wake();
    }
    this.#options.onHostEvent?.(event);
  }
}

/** The virtual clock plus the wall time spent since this was called: never goes back. */
function wallAndVirtual(virtual: VirtualScheduler): () => number {
  const wallStart = performance.now();
  return () => virtual.now() + (performance.now() - wallStart);
}
