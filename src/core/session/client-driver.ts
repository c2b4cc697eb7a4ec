/**
 * Drives a sans-IO client (`SansIoClient`): answers the decisions it asks for by calling the policy, and
 * respects its reading pauses. The result is a plain `SansIoEndpoint`, so any transport (a TCP socket, the
 * page's in-memory pipe, a test) runs a policy-driven client without knowing it has a policy.
 */
import { describeError } from '../errors';
import type { CallOutcome } from '../policy/types';
import type {
  ClientPeer,
  DecisionRequest,
  SansIoClient,
  SansIoEndpoint,
  WireData,
  WirePeer,
  WireSink,
} from '../protocols/contract';

/** Asks the policy: resolves to its outcome (a fault is an outcome, not a rejection). */
export type DecisionMaker = (request: DecisionRequest, connection: string) => Promise<CallOutcome>;

/** Turns a sans-IO client into an endpoint whose decisions `decide` makes, one at a time, in order. */
export function driveClient<In extends WireData, Out extends WireData>(
  client: SansIoClient<In, Out>,
  decide: DecisionMaker,
): SansIoEndpoint<In, Out> {
  return {
    connect(sink, connection) {
      return new DrivenConnection<In, Out>(client, sink, connection, decide);
    },
  };
}

/** One connection of a driven client: a queue of what arrived while the client paused its reading. */
class DrivenConnection<In extends WireData, Out extends WireData> implements WirePeer<In> {
  readonly #peer: ClientPeer<In>;
  readonly #decide: DecisionMaker;
  readonly #connection: string;
  readonly #sink: WireSink<Out>;
  /** Decisions asked for and not yet answered, oldest first. */
  readonly #asked: DecisionRequest[] = [];
  /** What arrived while the client paused its reading, or while a decision was being made. */
  readonly #held: ({ data: In } | { end: string | undefined })[] = [];
  #deciding = false;
  #closed = false;

  constructor(
    client: SansIoClient<In, Out>,
    sink: WireSink<Out>,
    connection: { id: string; remote?: string },
    decide: DecisionMaker,
  ) {
    this.#decide = decide;
    this.#connection = connection.id;
    this.#sink = sink;
    this.#peer = client.connect(
      {
        send: (data) => {
          if (!this.#closed) sink.send(data);
        },
        close: (reason) => {
          if (this.#closed) return;
          this.#closed = true;
          sink.close(reason);
        },
        decide: (request) => {
          this.#asked.push(request);
          this.#next();
        },
      },
      connection,
    );
  }

  receive(data: In): void {
    this.#held.push({ data });
    this.#pump();
  }

  end(reason?: string): void {
    this.#held.push({ end: reason });
    this.#pump();
  }

  /** Feeds what is held while the client reads. */
  #pump(): void {
    while (this.#held.length > 0 && !this.#peer.paused) {
      const item = this.#held.shift()!;
      if ('data' in item) this.#peer.receive(item.data);
      else {
        this.#peer.end(item.end);
        // The connection is over: a client that does not close its side now is closed for it.
        if (!this.#closed && !this.#peer.paused) {
          this.#closed = true;
          this.#sink.close();
        }
      }
    }
  }

  /** Makes the oldest decision asked for, then the next; what was held is fed between them. */
  #next(): void {
    if (this.#deciding) return;
    const request = this.#asked.shift();
    if (!request) {
      this.#pump();
      return;
    }
    this.#deciding = true;
    // One reaction for either ending (not a catch then a then): a turn costs one promise job fewer.
    this.#decide(request, this.#connection).then(
      (outcome) => this.#answer(outcome),
      (error: unknown) =>
        this.#answer({ ok: false, fault: { kind: 'crash', message: describeError(error) }, logs: [], ms: 0 }),
    );
  }

  /** Hands the outcome to the client, then feeds what was held and makes the next decision. */
  #answer(outcome: CallOutcome): void {
    this.#deciding = false;
    try {
      this.#peer.decided(outcome);
    } catch (error) {
      if (!this.#closed) {
        this.#closed = true;
        this.#sink.close(describeError(error));
      }
    }
    this.#pump();
    this.#next();
  }
}
