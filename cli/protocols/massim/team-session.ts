/**
 * One team against a MASSim server over TCP: a connection per agent, each dialed through the command line's
 * one TCP client (`openTcpDial`) and played by the core's sans-IO agent client driven by `driveClient` like
 * every protocol's client (login, an action with the request's id and a `p` array for every request-action,
 * the server checked by the client machine), every frame recorded in one transcript with one connection
 * per agent. The session ends when every agent got bye (or, since the real server can lose bye, saw its
 * connection close after a sim-end); it fails, with everything recorded kept, when the server refuses a
 * login, closes a connection in the middle of a simulation, goes silent for too long, or breaks the
 * protocol.
 */
import type { WirePeer, WireSink } from '../../../src/core/protocols/contract';
import type { MassimAgentEvent, MassimDecide } from '../../../src/core/protocols/massim/client';
import { NulFrameSplitter } from '../../../src/core/protocols/massim/framing';
import {
  massimAgentSansIoClient,
  massimDecisionMaker,
} from '../../../src/core/protocols/massim/sans-io-client';
import { massimProtocol } from '../../../src/core/protocols/massim/protocol';
import { driveClient, type DecisionMaker } from '../../../src/core/session/client-driver';
import { decodeWireBytes } from '../../../src/core/transcript/bytes';
import type { TranscriptStore } from '../../../src/core/transcript/store/store';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import type { Direction } from '../../../src/core/transcript/model';
import { encodeNulFrame } from '../../../src/core/transport/nul-framing';
import { ExitCode } from '../../command-line/exit-codes';
import { describeByteCount } from '../../net/frame-counter';
import { openTcpDial, type DialFailure, type TcpDial } from '../../play/transports';

/** What a team session reports as it plays. */
export type TeamSessionEvent =
  | { kind: 'simulation-start'; simulation: number; steps: number; teamSize: number }
  /** The team's score after step `step` (read from the next percept). */
  | { kind: 'step'; simulation: number; step: number; score: number }
  | { kind: 'simulation-end'; simulation: number; score: number; ranking: number }
  | { kind: 'warning'; message: string };

/** How a session ended. */
export type TeamSessionOutcome =
  | { kind: 'finished'; byesLost: number }
  | { kind: 'interrupted' }
  | { kind: 'failed'; exitCode: ExitCode; message: string };

/** Options of a team session. */
export interface TeamSessionOptions {
  host: string;
  port: number;
  team: string;
  /** Account names, one connection each. */
  accounts: readonly string[];
  password: string;
  decide: MassimDecide;
  /** Longest silence of the server while it owes an answer (login, a running simulation); 0 = forever. */
  timeoutMs: number;
  /** Where every frame is recorded. */
  store: TranscriptStore;
  now(): number;
  signal: AbortSignal;
  onEvent(event: TeamSessionEvent): void;
}

type LinkPhase = 'connecting' | 'login' | 'waiting' | 'simulation' | 'between' | 'done';

/** One agent's connection. */
interface AgentLink {
  user: string;
  conn: string;
  connection: TcpDial;
  /** Where the agent's frames go, once connected: the connection's sink. */
  wire?: WireSink<Uint8Array>;
  /** The driven agent client, once connected: it is fed whole frames. */
  peer?: WirePeer<string>;
  phase: LinkPhase;
  /** Simulations this agent has seen start. */
  simulations: number;
  /**
   * Store index of each message the client machine counts on this connection (frames both ways and the
   * server's close), so its violations can name the transcript message.
   */
  records: number[];
  timer?: ReturnType<typeof setTimeout>;
  /** Where the agent is, for messages: the last step asked. */
  step: number;
  leaving: boolean;
}

const REQUEST_STEP = /^\{"type":"request-action","content":\{"step":(\d+)/;

/** A running team session. */
export class TeamSession {
  readonly #options: TeamSessionOptions;
  /** Records the agents' frames into the session's store, by the session's clock. */
  readonly #recorder: TranscriptRecorder;
  readonly #links: AgentLink[] = [];
  /** How the agents' decisions are made: the team policy, through the client driver. */
  readonly #decide: DecisionMaker;
  #outcome: TeamSessionOutcome | undefined;
  #settle: (outcome: TeamSessionOutcome) => void = () => undefined;
  /** Simulations the team has seen start, and the step last marked in the transcript (`group/step`). */
  #simulations = 0;
  #simulationEnded = 0;
  #markedStep = '';
  #scoreStep = -1;
  #byesLost = 0;

  constructor(options: TeamSessionOptions) {
    this.#options = options;
    this.#recorder = new TranscriptRecorder({ store: options.store, now: () => options.now() });
    this.#decide = massimDecisionMaker(options.decide);
  }

  /** Agents now in a simulation (the ones whose requests make up a step). */
  get playing(): number {
    return this.#links.filter((link) => link.phase === 'simulation').length;
  }

  /** Connects every agent and plays until the end; never rejects. */
  play(): Promise<TeamSessionOutcome> {
    const outcome = new Promise<TeamSessionOutcome>((resolve) => (this.#settle = resolve));
    const { signal } = this.#options;
    const interrupt = () => this.#end({ kind: 'interrupted' });
    if (signal.aborted) interrupt();
    else {
      signal.addEventListener('abort', interrupt, { once: true });
      void outcome.then(() => signal.removeEventListener('abort', interrupt));
      for (const user of this.#options.accounts) this.#open(user);
    }
    return outcome;
  }

  /** Stops the session with a failure (a policy fault, for instance); what was recorded is kept. */
  fail(exitCode: ExitCode, message: string): void {
    this.#end({ kind: 'failed', exitCode, message });
  }

  #open(user: string): void {
    const { host, port, team, password, store } = this.#options;
    const conn = `${user}.conn1`;
    store.addConnection(conn, user);
    const splitter = new NulFrameSplitter();
    const connection = openTcpDial(
      massimProtocol,
      {
        connect: (sink, connection) => {
          this.#event(link, 'c2s', 'open');
          link.phase = 'login';
          link.wire = sink;
          this.#watch(link);
          // The client logs in as soon as it is connected.
          link.peer = client.connect(
            {
              send: (text) => {
                if (link.leaving || link.connection.closed) return;
                this.#record(link, 'c2s', { text });
                sink.send(encodeNulFrame(text));
              },
              // The agent client never leaves by itself; it is told the connection closed.
              close: () => undefined,
            },
            connection,
          );
          return {
            receive: (chunk) => {
              splitter.push(chunk, (frame) => {
                if (this.#outcome) return false;
                this.#receive(link, frame.bytes);
                return !this.#outcome;
              });
            },
            // The server closed (FIN, a reset, or a failure reported first), or this side left.
            end: () => this.#closed(link),
          };
        },
      },
      {
        host,
        port,
        connection: conn,
        // No signal per connection: on Ctrl-C the session drops every agent's (`#end`).
        onFailure: (failure) => this.#failed(link, failure),
      },
    );
    const link: AgentLink = {
      user,
      conn,
      connection,
      phase: 'connecting',
      simulations: 0,
      records: [],
      step: -1,
      leaving: false,
    };
    const client = driveClient(
      massimAgentSansIoClient({ user, password, team, teamAccounts: this.#options.accounts }, (event) =>
        this.#onAgentEvent(link, event),
      ),
      this.#decide,
    );
    this.#links.push(link);
  }

  /** The agent's connection failed: could not connect, broke, or the server sent a frame too long. */
  #failed(link: AgentLink, failure: DialFailure): void {
    if (this.#outcome || link.leaving) return;
    switch (failure.kind) {
      case 'frame-too-long':
        this.fail(
          ExitCode.failure,
          `the server sent ${link.user} more than ${describeByteCount(failure.maxFrameBytes)} without ending a frame (no 0 byte)`,
        );
        return;
      case 'unreachable':
        this.fail(ExitCode.connection, failure.message);
        return;
      case 'socket':
        this.fail(ExitCode.connection, `${link.user}'s connection failed: ${failure.code}`);
        return;
    }
  }

  #receive(link: AgentLink, bytes: Uint8Array): void {
    const payload = decodeWireBytes(bytes);
    const text = 'text' in payload ? payload.text : new TextDecoder().decode(bytes);
    const step = REQUEST_STEP.exec(text);
    if (step) {
      // The real server can lose the sim-start it re-sends after a login: a request means a simulation.
      if (link.phase === 'waiting' || link.phase === 'between') link.phase = 'simulation';
      // The first request of a step opens it in the transcript.
      const number = Number(step[1]);
      link.step = number;
      const group = Math.max(this.#simulations - 1, 0);
      if (this.#markedStep !== `${group}/${number}`) {
        this.#options.store.markStep(group, number);
        this.#markedStep = `${group}/${number}`;
      }
    }
    this.#record(link, 's2c', payload);
    this.#watch(link);
    link.peer?.receive(text);
  }

  #onAgentEvent(link: AgentLink, event: MassimAgentEvent): void {
    if (this.#outcome) return;
    const { onEvent, store, team } = this.#options;
    switch (event.kind) {
      case 'logged-in':
        link.phase = 'waiting';
        this.#watch(link);
        return;
      case 'login-failed':
        this.fail(
          ExitCode.connection,
          `the server refused the login of ${link.user} (unknown user or wrong password)`,
        );
        return;
      case 'sim-start':
        link.phase = 'simulation';
        link.simulations++;
        this.#watch(link);
        if (link.simulations > this.#simulations) {
          this.#simulations = link.simulations;
          this.#scoreStep = -1;
          onEvent({
            kind: 'simulation-start',
            simulation: this.#simulations,
            steps: event.percept.steps,
            teamSize: event.percept.teamSize,
          });
        }
        return;
      case 'sim-end':
        link.phase = 'between';
        this.#watch(link);
        if (link.simulations > this.#simulationEnded) {
          this.#simulationEnded = link.simulations;
          store.annotate('reward', {
            simulation: link.simulations - 1,
            step: link.step,
            scores: { [team]: event.score },
          });
          onEvent({
            kind: 'simulation-end',
            simulation: link.simulations,
            score: event.score,
            ranking: event.ranking,
          });
        }
        return;
      case 'bye':
        link.phase = 'done';
        this.#watch(link);
        this.#leave(link);
        return;
      case 'server-violation':
        this.fail(
          ExitCode.failure,
          `the server broke the protocol on ${link.conn}: message ${link.records[event.violation.index] ?? event.violation.index}: ${event.violation.message} [${event.violation.rule}]`,
        );
        return;
      case 'missed-steps':
        onEvent({
          kind: 'warning',
          message: `${link.user} joined the running simulation late (or lost its connection) and missed ${event.from === event.to ? `step ${event.from}` : `steps ${event.from}-${event.to}`}`,
        });
        return;
      case 'decision-outdated':
        onEvent({
          kind: 'warning',
          message: `${link.user}'s action for request ${event.id} came after the next request and was not sent`,
        });
        return;
      case 'decision-failed': {
        const detail = event.error instanceof Error ? event.error.message : String(event.error);
        onEvent({
          kind: 'warning',
          message: `${link.user} sent no action for request ${event.id}: ${detail}`,
        });
        return;
      }
    }
  }

  /** Reports the team's score once per step, from the first percept of the step that carries it. */
  observeScore(simulation: number, step: number, score: number): void {
    if (this.#outcome || simulation !== this.#simulations || step <= this.#scoreStep) return;
    this.#scoreStep = step;
    if (step === 0) return;
    const { store, team, onEvent } = this.#options;
    store.annotate('reward', { simulation: simulation - 1, step: step - 1, scores: { [team]: score } });
    onEvent({ kind: 'step', simulation, step: step - 1, score });
  }

  /** Which simulation (1-based) the team is in. */
  get simulation(): number {
    return this.#simulations;
  }

  #closed(link: AgentLink): void {
    clearTimeout(link.timer);
    if (!link.leaving) link.records.push(this.#event(link, 's2c', 'close'));
    link.peer?.end();
    if (this.#outcome || link.leaving) {
      this.#checkDone();
      return;
    }
    switch (link.phase) {
      case 'connecting':
        return;
      case 'between':
      case 'done':
        // The real server can lose bye: a close after sim-end is the end too.
        if (link.phase === 'between') this.#byesLost++;
        link.phase = 'done';
        link.leaving = true;
        this.#checkDone();
        return;
      case 'login':
        this.fail(
          ExitCode.connection,
          `the server closed ${link.user}'s connection before answering its login`,
        );
        return;
      case 'waiting':
        if (this.#simulationEnded > 0) {
          // An agent the team did not need in the last simulations; bye was lost.
          this.#byesLost++;
          link.phase = 'done';
          link.leaving = true;
          this.#checkDone();
          return;
        }
        this.fail(
          ExitCode.connection,
          `the server closed ${link.user}'s connection before any simulation started`,
        );
        return;
      case 'simulation':
        this.fail(
          ExitCode.connection,
          `the server closed ${link.user}'s connection in simulation ${link.simulations}${
            link.step >= 0 ? ` at step ${link.step}` : ''
          }, before sim-end`,
        );
        return;
    }
  }

  /** Leaves after bye: closes both directions, as the agent's work is done. */
  #leave(link: AgentLink): void {
    if (link.leaving) return;
    link.leaving = true;
    clearTimeout(link.timer);
    this.#event(link, 'c2s', 'close');
    link.wire?.close();
    link.connection.drop();
    this.#checkDone();
  }

  #checkDone(): void {
    if (this.#outcome) return;
    if (this.#links.length === this.#options.accounts.length && this.#links.every((l) => l.phase === 'done'))
      this.#end({ kind: 'finished', byesLost: this.#byesLost });
  }

  /** (Re)starts the silence timer where the server owes an answer: the login, and during a simulation. */
  #watch(link: AgentLink): void {
    clearTimeout(link.timer);
    link.timer = undefined;
    const { timeoutMs } = this.#options;
    if (timeoutMs <= 0 || (link.phase !== 'login' && link.phase !== 'simulation')) return;
    link.timer = setTimeout(() => {
      const where =
        link.phase === 'login'
          ? 'after its auth-request'
          : `in simulation ${link.simulations}${link.step >= 0 ? ` after step ${link.step}` : ''}`;
      this.fail(
        ExitCode.connection,
        `the server sent nothing to ${link.user} for ${timeoutMs / 1000} s ${where}`,
      );
    }, timeoutMs);
  }

  #end(outcome: TeamSessionOutcome): void {
    if (this.#outcome) return;
    this.#outcome = outcome;
    for (const link of this.#links) {
      clearTimeout(link.timer);
      if (link.leaving) continue;
      link.leaving = true;
      if (link.phase !== 'connecting' && !link.connection.closed) this.#event(link, 'c2s', 'close');
      link.connection.drop();
    }
    this.#settle(outcome);
  }

  #record(link: AgentLink, dir: Direction, payload: { text: string } | { base64: string }): void {
    link.records.push(this.#recorder.data(link.conn, dir, payload, 'nul').index);
  }

  #event(link: AgentLink, dir: Direction, kind: 'open' | 'close'): number {
    return this.#recorder.event(link.conn, dir, kind).index;
  }
}
