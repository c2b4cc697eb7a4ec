/**
 * HTTP sessions keyed by what the requests say, not by connections: an HTTP client may send each request
 * on a new connection, or several sessions' requests on one. `httpSessions` turns an endpoint that plays
 * one session per connection (a protocol's host) into the endpoint an HTTP server serves per connection:
 * each request goes to the session its key names (opened on its first request), and each message a
 * session sends answers its oldest unanswered request, on whichever connection that request came. Answers
 * leave each connection in the order of its requests (HTTP/1.1).
 */
import { describeError } from '../errors';
import type { HttpMessage, SansIoEndpoint, WirePeer, WireSink } from '../protocols/contract';

/** An HTTP connection of the server: its requests' answers, in request order. */
interface ServedConnection {
  sink: WireSink<HttpMessage>;
  /** One slot per request, filled when its answer is known. */
  slots: { answer?: HttpMessage }[];
  closed: boolean;
}

/** One open session: the host's connection and the requests it has not answered yet. */
interface OpenSession {
  peer: WirePeer<HttpMessage>;
  waiting: { connection: ServedConnection; slot: { answer?: HttpMessage } }[];
  closed: boolean;
  /** The host was told its connection is over. */
  ended: boolean;
}

/** What `httpSessions` gives: the endpoint to serve, and a way to end every open session. */
export interface HttpSessions {
  endpoint: SansIoEndpoint<HttpMessage, HttpMessage>;
  /** Sessions open now. */
  readonly open: number;
  /** Ends every open session (the server stops). */
  close(reason: string): void;
}

const plain = (status: number, body: string): HttpMessage => ({
  meta: { status, headers: { 'content-type': 'text/plain; charset=utf-8' } },
  body,
});

/**
 * Routes requests to sessions by `sessionOf`; `sessions.connect` opens one (its connection id is the
 * key). A session that closes is forgotten: a later request with its key opens a new one.
 */
export function httpSessions(
  sessionOf: (request: HttpMessage) => string | undefined,
  sessions: SansIoEndpoint<HttpMessage, HttpMessage>,
): HttpSessions {
  const open = new Map<string, OpenSession>();

  /** Sends the answers known at the head of the connection's queue. */
  const flush = (connection: ServedConnection) => {
    for (let answer = connection.slots[0]?.answer; answer; answer = connection.slots[0]?.answer) {
      connection.slots.shift();
      if (!connection.closed) connection.sink.send(answer);
    }
  };

  /** Tells a host that closed its session that the session is over, as a transport tells of a close. */
  const over = (session: OpenSession, reason?: string) => {
    if (!session.closed || session.ended) return;
    session.ended = true;
    session.peer.end(reason);
  };

  const start = (key: string, remote: string | undefined): OpenSession => {
    const session: OpenSession = { peer: undefined!, waiting: [], closed: false, ended: false };
    session.peer = sessions.connect(
      {
        send: (answer) => {
          const waiting = session.waiting.shift();
          // A message no request asked for has nowhere to go over HTTP: a host answers, it never starts.
          if (!waiting) return;
          waiting.slot.answer = answer;
          flush(waiting.connection);
        },
        close: (reason) => {
          session.closed = true;
          if (open.get(key) === session) open.delete(key);
          // Requests the host will never answer now.
          for (const { connection, slot } of session.waiting.splice(0)) {
            slot.answer = plain(410, `the session is over${reason ? `: ${reason}` : ''}\n`);
            flush(connection);
          }
        },
      },
      { id: key, ...(remote !== undefined ? { remote } : {}) },
    );
    if (!session.closed) open.set(key, session);
    return session;
  };

  return {
    get open() {
      return open.size;
    },
    close(reason) {
      for (const [key, session] of [...open]) {
        open.delete(key);
        session.closed = true;
        over(session, reason);
      }
    },
    endpoint: {
      connect(sink, connection) {
        const served: ServedConnection = { sink, slots: [], closed: false };
        return {
          receive(request) {
            const slot: { answer?: HttpMessage } = {};
            served.slots.push(slot);
            const key = sessionOf(request);
            if (key === undefined) {
              slot.answer = plain(400, `this request names no session: ${request.meta.path ?? '/'}\n`);
              flush(served);
              return;
            }
            const waiting = { connection: served, slot };
            let session: OpenSession | undefined;
            try {
              session = open.get(key) ?? start(key, connection.remote);
              if (session.closed) {
                // Closed as it opened: nothing will answer.
                slot.answer = plain(410, 'the session is over\n');
                flush(served);
                over(session);
                return;
              }
              session.waiting.push(waiting);
              session.peer.receive(request);
              over(session);
            } catch (error) {
              // The host failed on it: this request gets a 500, the connection's other answers still go.
              if (session) session.waiting = session.waiting.filter((entry) => entry !== waiting);
              if (!slot.answer) slot.answer = plain(500, `the host failed: ${describeError(error)}\n`);
              flush(served);
              if (session) over(session);
            }
          },
          end() {
            // The connection is gone, not the sessions it carried: their clients may come back on another.
            served.closed = true;
          },
        };
      },
    },
  };
}
