/**
 * Serves the connections of a sans-IO endpoint one after another, in the order they arrived: a
 * connection that comes while another is served waits, what it sends held in order, until every
 * connection before it has ended. The page shows one conversation at a time, and a protocol whose
 * transcript reader follows one session (rddlsim's rounds) reads successive sessions in one transcript.
 * Names no protocol.
 */
import type { SansIoEndpoint, WireData, WirePeer, WireSink } from '../protocols/contract';

/** What the queue reports as connections come, start and end. */
export interface QueueEvents {
  /** A connection waits behind `ahead` others (the one served included). */
  onWaiting?(connection: { id: string; remote?: string }, ahead: number): void;
  /** A connection's turn came: it was handed to the endpoint; what it sent while it waited follows. */
  onServed?(connection: { id: string; remote?: string }): void;
  /** A connection ended, from either side (served or still waiting). */
  onEnded?(connection: { id: string; remote?: string }, reason: string | undefined): void;
}

interface Queued<In extends WireData, Out extends WireData> {
  sink: WireSink<Out>;
  connection: { id: string; remote?: string };
  held: In[];
  peer: WirePeer<In> | undefined;
  ended: boolean;
}

/** The endpoint, serving its connections one at a time. */
export function queuedEndpoint<In extends WireData, Out extends WireData>(
  endpoint: SansIoEndpoint<In, Out>,
  events: QueueEvents = {},
): SansIoEndpoint<In, Out> {
  const waiting: Queued<In, Out>[] = [];
  let served: Queued<In, Out> | undefined;

  const finish = (entry: Queued<In, Out>, reason: string | undefined) => {
    if (entry.ended) return;
    entry.ended = true;
    events.onEnded?.(entry.connection, reason);
    if (served === entry) {
      served = undefined;
      serveNext();
    } else {
      const at = waiting.indexOf(entry);
      if (at >= 0) waiting.splice(at, 1);
    }
  };

  const serveNext = () => {
    while (!served && waiting.length > 0) {
      const entry = waiting.shift()!;
      served = entry;
      entry.peer = endpoint.connect(
        {
          send: (data) => entry.sink.send(data),
          close: (reason) => {
            entry.sink.close(reason);
            finish(entry, reason);
          },
        },
        entry.connection,
      );
      events.onServed?.(entry.connection);
      // What it sent while it waited, in order.
      for (const data of entry.held.splice(0)) if (!entry.ended) entry.peer.receive(data);
    }
  };

  return {
    connect(sink, connection) {
      const entry: Queued<In, Out> = { sink, connection, held: [], peer: undefined, ended: false };
      waiting.push(entry);
      if (served) events.onWaiting?.(connection, waiting.length);
      else serveNext();
      return {
        receive(data) {
          if (entry.peer) entry.peer.receive(data);
          else if (!entry.ended) entry.held.push(data);
        },
        end(reason) {
          // The endpoint hears the end even after it closed the connection itself (its close is then
          // complete); a connection that never had its turn just leaves the queue.
          entry.peer?.end(reason);
          finish(entry, reason);
        },
      };
    },
  };
}
