import { describe, expect, it } from 'vitest';
import type { SansIoEndpoint, WireSink } from '../../../src/core/protocols/contract';
import { queuedEndpoint } from '../../../src/core/session/queued-endpoint';

/** An endpoint that echoes `id:text` for each text and closes on `bye`; notes what it saw. */
function echoHost(seen: string[]): SansIoEndpoint<string, string> {
  return {
    connect(sink, connection) {
      seen.push(`connect ${connection.id}`);
      return {
        receive(text) {
          seen.push(`${connection.id} < ${text}`);
          if (text === 'bye') sink.close('bye');
          else sink.send(`${connection.id}:${text}`);
        },
        end(reason) {
          seen.push(`end ${connection.id}${reason ? ` (${reason})` : ''}`);
        },
      };
    },
  };
}

/** A transport's side of a connection: what was sent to it and whether it was closed. */
function transportSink(): WireSink<string> & { sent: string[]; closed: string | undefined | null } {
  const sink = {
    sent: [] as string[],
    closed: null as string | undefined | null,
    send: (text: string) => void sink.sent.push(text),
    close: (reason?: string) => void (sink.closed = reason),
  };
  return sink;
}

describe('queuedEndpoint', () => {
  it('serves the first connection at once and holds a second until the first ends', () => {
    const seen: string[] = [];
    const events: string[] = [];
    const queue = queuedEndpoint(echoHost(seen), {
      onWaiting: (connection, ahead) => events.push(`waiting ${connection.id} behind ${ahead}`),
      onServed: (connection) => events.push(`served ${connection.id}`),
      onEnded: (connection, reason) => events.push(`ended ${connection.id} ${reason}`),
    });
    const a = transportSink();
    const b = transportSink();
    const peerA = queue.connect(a, { id: 'a' });
    const peerB = queue.connect(b, { id: 'b' });
    peerB.receive('one');
    peerB.receive('two');
    peerA.receive('hello');
    expect(a.sent).toEqual(['a:hello']);
    expect(b.sent).toEqual([]);
    expect(seen).toEqual(['connect a', 'a < hello']);

    peerA.end('client left');
    // b's held messages reach the endpoint in order, once it is b's turn.
    expect(b.sent).toEqual(['b:one', 'b:two']);
    peerB.receive('three');
    expect(b.sent.at(-1)).toBe('b:three');
    expect(events).toEqual(['served a', 'waiting b behind 1', 'ended a client left', 'served b']);
  });

  it('moves on when the endpoint closes a connection, and still tells it the transport ended', () => {
    const seen: string[] = [];
    const queue = queuedEndpoint(echoHost(seen));
    const a = transportSink();
    const b = transportSink();
    const peerA = queue.connect(a, { id: 'a' });
    const peerB = queue.connect(b, { id: 'b' });
    peerB.receive('waiting');
    peerA.receive('bye');
    expect(a.closed).toBe('bye');
    expect(b.sent).toEqual(['b:waiting']);
    peerA.end();
    expect(seen).toContain('end a');
  });

  it('drops a waiting connection that leaves before its turn, without the endpoint seeing it', () => {
    const seen: string[] = [];
    const queue = queuedEndpoint(echoHost(seen));
    const a = transportSink();
    const peerA = queue.connect(a, { id: 'a' });
    const peerB = queue.connect(transportSink(), { id: 'b' });
    peerB.receive('never answered');
    peerB.end('gave up');
    const c = transportSink();
    const peerC = queue.connect(c, { id: 'c' });
    peerC.receive('after');
    peerA.end();
    expect(seen).toEqual(['connect a', 'end a', 'connect c', 'c < after']);
    expect(c.sent).toEqual(['c:after']);
  });
});
