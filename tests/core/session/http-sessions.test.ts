import { describe, expect, it } from 'vitest';
import type { HttpMessage, SansIoEndpoint, WireSink } from '../../../src/core/protocols/contract';
import { httpSessions } from '../../../src/core/session/http-sessions';

const request = (path: string, body = ''): HttpMessage => ({ meta: { method: 'POST', path }, body });
const keyOf = (message: HttpMessage) => /^\/s\/(\w+)$/.exec(message.meta.path ?? '')?.[1];

/** A host that echoes each body with its session and a count, answering later when told to. */
function echoHost() {
  const opened: string[] = [];
  const ended: { id: string; reason: string | undefined }[] = [];
  const sinks = new Map<string, WireSink<HttpMessage>>();
  const held: { id: string; body: string }[] = [];
  let hold = false;
  const endpoint: SansIoEndpoint<HttpMessage, HttpMessage> = {
    connect(sink, connection) {
      opened.push(connection.id);
      sinks.set(connection.id, sink);
      let count = 0;
      return {
        receive(message) {
          if (message.body === 'throw') throw new Error('broken');
          if (message.body === 'bye') return sink.close('asked to stop');
          const body = `${connection.id}:${++count}:${message.body}`;
          if (hold) held.push({ id: connection.id, body });
          else sink.send({ meta: { status: 200 }, body });
        },
        end: (reason) => ended.push({ id: connection.id, reason }),
      };
    },
  };
  return {
    endpoint,
    opened,
    ended,
    hold: (on: boolean) => (hold = on),
    release: (id: string) => {
      const index = held.findIndex((entry) => entry.id === id);
      const [entry] = held.splice(index, 1);
      sinks.get(id)!.send({ meta: { status: 200 }, body: entry!.body });
    },
  };
}

/** One HTTP connection of the server: what it was answered, in order. */
function connection(sessions: ReturnType<typeof httpSessions>, id: string) {
  const answers: string[] = [];
  const peer = sessions.endpoint.connect(
    { send: (message) => answers.push(`${message.meta.status} ${message.body.trim()}`), close: () => {} },
    { id, remote: `${id}:1` },
  );
  return { peer, answers };
}

describe('httpSessions', () => {
  it('keys sessions by the request, across connections, and opens each once', () => {
    const host = echoHost();
    const sessions = httpSessions(keyOf, host.endpoint);
    const a = connection(sessions, 'c1');
    const b = connection(sessions, 'c2');
    a.peer.receive(request('/s/x', 'one'));
    b.peer.receive(request('/s/x', 'two'));
    b.peer.receive(request('/s/y', 'three'));
    expect(a.answers).toEqual(['200 x:1:one']);
    expect(b.answers).toEqual(['200 x:2:two', '200 y:1:three']);
    expect(host.opened).toEqual(['x', 'y']);
    expect(sessions.open).toBe(2);
  });

  it('answers each connection in the order of its requests, whichever session answers first', () => {
    const host = echoHost();
    const sessions = httpSessions(keyOf, host.endpoint);
    const a = connection(sessions, 'c1');
    host.hold(true);
    a.peer.receive(request('/s/x', 'first'));
    a.peer.receive(request('/s/y', 'second'));
    host.release('y');
    expect(a.answers).toEqual([]);
    host.release('x');
    expect(a.answers).toEqual(['200 x:1:first', '200 y:1:second']);
  });

  it('refuses a request naming no session, and a failing host costs only its own request', () => {
    const host = echoHost();
    const sessions = httpSessions(keyOf, host.endpoint);
    const a = connection(sessions, 'c1');
    a.peer.receive(request('/nowhere'));
    a.peer.receive(request('/s/x', 'throw'));
    a.peer.receive(request('/s/x', 'after'));
    expect(a.answers).toEqual([
      '400 this request names no session: /nowhere',
      '500 the host failed: broken',
      '200 x:1:after',
    ]);
  });

  it('a session the host closes is over: its waiting requests get 410, the host is told, its key starts anew', () => {
    const host = echoHost();
    const sessions = httpSessions(keyOf, host.endpoint);
    const a = connection(sessions, 'c1');
    const b = connection(sessions, 'c2');
    host.hold(true);
    a.peer.receive(request('/s/x', 'waits'));
    host.hold(false);
    b.peer.receive(request('/s/x', 'bye'));
    expect(a.answers).toEqual(['410 the session is over: asked to stop']);
    expect(b.answers).toEqual(['410 the session is over: asked to stop']);
    expect(host.ended).toEqual([{ id: 'x', reason: undefined }]);
    expect(sessions.open).toBe(0);
    b.peer.receive(request('/s/x', 'again'));
    expect(b.answers.at(-1)).toBe('200 x:1:again');
    expect(host.opened).toEqual(['x', 'x']);
  });

  it('close ends every open session with the reason; a closed connection is sent nothing more', () => {
    const host = echoHost();
    const sessions = httpSessions(keyOf, host.endpoint);
    const a = connection(sessions, 'c1');
    host.hold(true);
    a.peer.receive(request('/s/x', 'late'));
    a.peer.end('gone');
    host.release('x');
    expect(a.answers).toEqual([]);
    sessions.close('the server stopped');
    expect(host.ended).toEqual([{ id: 'x', reason: 'the server stopped' }]);
  });
});
