/**
 * The rddlsim client in the contract's `SansIoClient` shape: the policy's hooks (`onRoundStart`, `act`,
 * `onSessionEnd`) are `decide` effects answered through `decided`, and the client reads nothing while one
 * is due (`paused`), so the server's next message is never handled before the previous decision. Any
 * transport drives it with `driveClient`, a policy thread or worker answering; what it learns beyond the
 * wire (the session-init's RDDL, rounds, violations) goes to `observer`.
 */
import type { InstanceInfo } from '../../envs/rddl/api';
import type { CallOutcome } from '../../policy/types';
import type { ClientPeer, ClientSink, DecisionRequest, SansIoClient } from '../contract';
import type { ActionProblem } from './action-encoding';
import { RddlsimClient, type ClientEvent, type RddlsimClientOptions } from './client';
import type { RoundSummary } from './session-policy';

/** What the caller may want to know beyond the wire. */
export interface RddlsimClientObserver {
  /**
   * The session-init arrived, with its decoded RDDL (domain and instance) when sent: the domain facts to
   * check actions against, when the observer can read them (parsing RDDL is the caller's choice).
   */
  sessionInit?(event: Extract<ClientEvent, { kind: 'session-init' }>): InstanceInfo | undefined;
  /**
   * Every event of the client, in order (received messages, rounds, violations...), also after the client
   * closed its side: what the server still sends then is reported here and nothing more is done with it.
   */
  event?(event: ClientEvent): void;
  /** Actions the domain check found wrong (dropped, or sent with `sendInvalidActions`). */
  actionProblems?(problems: ActionProblem[], site: DecisionRequest['site']): void;
}

/** Hooks asked besides `act`, when the policy module exports them (the answer is not used). */
const HOOKS = { roundStart: 'onRoundStart', roundEnd: 'onRoundEnd', sessionEnd: 'onSessionEnd' } as const;

/** The rddlsim client of one session per connection, asking its policy for every decision. */
export function rddlsimSansIoClient(
  options: RddlsimClientOptions,
  observer: RddlsimClientObserver = {},
): SansIoClient<Uint8Array, Uint8Array> {
  return {
    connect(sink) {
      return new RddlsimClientConnection(new RddlsimClient(options), sink, observer);
    },
  };
}

/** One connection: events of the client become sends, decisions and a close. */
class RddlsimClientConnection implements ClientPeer<Uint8Array> {
  readonly #client: RddlsimClient;
  readonly #sink: ClientSink<Uint8Array>;
  readonly #observer: RddlsimClientObserver;
  /** Decisions asked and not answered yet, oldest first: the turn's `act`, or a hook. */
  readonly #asked: DecisionRequest[] = [];
  /** Events not handled yet because a decision came first. */
  #events: ClientEvent[] = [];
  #round = 0;
  /** Whether the current round counts (monitor-mode practice rounds do not). */
  #roundCounts = true;
  /** The rounds played so far, for `onRoundEnd` and `onSessionEnd`. */
  readonly #rounds: RoundSummary[] = [];
  #closed = false;

  constructor(client: RddlsimClient, sink: ClientSink<Uint8Array>, observer: RddlsimClientObserver) {
    this.#client = client;
    this.#sink = sink;
    this.#observer = observer;
    this.#handle(client.start());
  }

  /** Reading waits while a decision is due (the server waits for the actions anyway). */
  get paused(): boolean {
    return this.#asked.length > 0;
  }

  receive(bytes: Uint8Array): void {
    this.#handle(this.#client.receive(bytes));
  }

  end(): void {
    this.#handle(this.#client.serverClosed());
  }

  decided(outcome: CallOutcome): void {
    const request = this.#asked.shift();
    if (!request || this.#closed) return;
    if (!outcome.ok) {
      const { round, turn } = request.site;
      this.#close(
        `the policy failed in ${request.hook} on round ${round}, turn ${turn}: ${outcome.fault.message}`,
      );
      return;
    }
    if (request.hook !== 'act') {
      this.#handle([]);
      return;
    }
    const { events, problems } = this.#client.act(outcome.value);
    this.#events.unshift(...events);
    this.#handle([]);
    // After the actions went out, so that what is said about them follows them.
    if (problems.length > 0) this.#observer.actionProblems?.(problems, request.site);
  }

  /** Handles events in order until one needs a decision; the rest wait for its answer. */
  #handle(events: ClientEvent[]): void {
    if (this.#closed) {
      for (const event of events) this.#observer.event?.(event);
      return;
    }
    this.#events.push(...events);
    const out: Uint8Array[] = [];
    while (this.#events.length > 0 && this.#asked.length === 0 && !this.#closed) {
      const event = this.#events.shift()!;
      this.#observer.event?.(event);
      switch (event.kind) {
        case 'send':
          out.push(event.bytes);
          break;
        case 'session-init': {
          const info = this.#observer.sessionInit?.(event);
          if (info) this.#client.setInstanceInfo(info);
          break;
        }
        case 'round-init':
          this.#round = event.init.roundNum;
          this.#roundCounts =
            event.init.roundNum === this.#rounds.filter((round) => round.counted).length + 1;
          this.#ask({
            hook: HOOKS.roundStart,
            args: [event.init.roundNum],
            site: { round: this.#round, turn: 0 },
          });
          break;
        case 'turn': {
          const { observation } = event;
          this.#ask({
            hook: 'act',
            args: [observation],
            site: { round: observation.round, turn: observation.turn },
          });
          break;
        }
        case 'round-end': {
          const { roundReward: reward, turnsUsed: turns } = event.end;
          const summary: RoundSummary = { round: this.#round, reward, turns, counted: this.#roundCounts };
          this.#rounds.push(summary);
          this.#ask({ hook: HOOKS.roundEnd, args: [summary], site: { round: this.#round, turn: turns } });
          break;
        }
        case 'session-end':
          this.#ask({
            hook: HOOKS.sessionEnd,
            args: [{ totalReward: event.end.totalReward, rounds: [...this.#rounds] }],
            site: { round: this.#round, turn: 0 },
          });
          // Nothing more is expected: leave, as rddlsim's Java client does.
          this.#events.push({ kind: 'closed' });
          break;
        case 'closed':
          this.#flush(out);
          this.#close();
          return;
        default:
          break;
      }
    }
    this.#flush(out);
  }

  /** A burst of messages leaves in one write. */
  #flush(out: Uint8Array[]): void {
    if (out.length === 0 || this.#closed) return;
    if (out.length === 1) {
      this.#sink.send(out[0]!);
    } else {
      const bytes = new Uint8Array(out.reduce((sum, chunk) => sum + chunk.length, 0));
      let offset = 0;
      for (const chunk of out) {
        bytes.set(chunk, offset);
        offset += chunk.length;
      }
      this.#sink.send(bytes);
    }
    out.length = 0;
  }

  #ask(request: DecisionRequest): void {
    this.#asked.push(request);
    this.#sink.decide(request);
  }

  #close(reason?: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#sink.close(reason);
  }
}
