import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { runWebSocketClient } from '../../../cli/net/websocket-client';
import { WebSocketEndpointServer } from '../../../cli/net/websocket-server';
import type { SansIoEndpoint } from '../../../src/core/protocols/contract';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';

/** Answers every frame with its upper-case text; closes on 'bye'. */
const shout: SansIoEndpoint<string, string> = {
  connect(sink) {
    return {
      receive: (text) => (text === 'bye' ? sink.close('asked to') : sink.send(text.toUpperCase())),
      end: () => undefined,
    };
  },
};

let server: WebSocketEndpointServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function closed(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => socket.once('close', (code) => resolve(code)));
}

describe('WebSocketEndpointServer and runWebSocketClient', () => {
  it('carry frames both ways on 127.0.0.1 and record them with channels on both sides', async () => {
    const served = new TranscriptRecorder({ protocol: 'test', now: () => 0 });
    server = await WebSocketEndpointServer.start({
      endpoint: shout,
      port: 0,
      recorder: served,
      channelOf: (text) => text.slice(0, 1).toLowerCase(),
    });
    const played = new TranscriptRecorder({ protocol: 'test', now: () => 0 });
    const client: SansIoEndpoint<string, string> = {
      connect(sink) {
        sink.send('abc');
        return { receive: (text) => sink.send(text === 'ABC' ? 'bye' : '?'), end: () => undefined };
      },
    };
    const end = await runWebSocketClient({
      url: `ws://127.0.0.1:${server.port}`,
      endpoint: client,
      recorder: played,
    });
    expect(end).toEqual({ closedBy: 'server', reason: 'closed normally: asked to' });
    const frames = (r: TranscriptRecorder) =>
      r.transcript.messages
        .filter((m) => m.kind === 'data')
        .map((m) => `${m.dir} ${m.text} ${m.channel ?? '-'}`);
    expect(frames(served)).toEqual(['c2s abc a', 's2c ABC a', 'c2s bye b']);
    expect(frames(played)).toEqual(['c2s abc -', 's2c ABC -', 'c2s bye -']);
    expect(served.transcript.messages.map((m) => m.kind)).toEqual(['open', 'data', 'data', 'data', 'close']);
  });

  it('close a connection sending a frame over maxPayload (1009) or a binary frame (1003), and record why', async () => {
    const recorder = new TranscriptRecorder({ protocol: 'test', now: () => 0 });
    server = await WebSocketEndpointServer.start({ endpoint: shout, port: 0, maxPayload: 100, recorder });
    const big = new WebSocket(`ws://127.0.0.1:${server.port}`);
    await new Promise((resolve) => big.once('open', resolve));
    const bigClosed = closed(big);
    big.send('x'.repeat(101));
    expect(await bigClosed).toBe(1009);
    const binary = new WebSocket(`ws://127.0.0.1:${server.port}`);
    await new Promise((resolve) => binary.once('open', resolve));
    const binaryClosed = closed(binary);
    binary.send(Buffer.from([1, 2, 3]));
    expect(await binaryClosed).toBe(1003);
    const events = recorder.transcript.messages.map((m) => `${m.conn} ${m.kind} ${m.text ?? ''}`);
    expect(events).toContain('c2 error a binary frame; this protocol speaks text frames');
    expect(events).toContain('c1 error Max payload size exceeded');
  });

  it('binds 127.0.0.1 by default, and the client rejects when nobody listens', async () => {
    server = await WebSocketEndpointServer.start({ endpoint: shout, port: 0 });
    const port = server.port;
    expect(port).toBeGreaterThan(0);
    await server.close();
    server = undefined;
    await expect(runWebSocketClient({ url: `ws://127.0.0.1:${port}`, endpoint: shout })).rejects.toThrow(
      `cannot connect to ws://127.0.0.1:${port}`,
    );
  });
});
