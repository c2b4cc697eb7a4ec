/**
 * The page opens targets by name through the real client and drives them: a NUL-framed TCP server, an HTTP
 * server that sends no CORS headers (as aisysprojserver), a WebSocket server; several connections at once.
 */
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { HttpMessage, SansIoEndpoint, WireData } from '../../../src/core/protocols/contract';
import { afterTest } from './cleanup';
import {
  closeServer,
  connectPage,
  RecordingPeer,
  startBridge,
  startHttpServer,
  startNulServer,
  startWebSocketServer,
  target,
} from './bridge-fixture';
import type { TargetSpec } from '../../../cli/bridge/bridge-config';

const bytes = (text: string) => new TextEncoder().encode(text);

async function bridgeTo(...targets: TargetSpec[]) {
  const bridge = await startBridge({ targets });
  afterTest(() => bridge.server.close());
  const page = await connectPage(bridge);
  afterTest(() => page.close());
  return { bridge, page };
}

describe('outbound TCP relay', () => {
  it('relays NUL-framed messages both ways, split and joined as TCP delivers them', async () => {
    const nul = await startNulServer();
    afterTest(() => nul.close());
    const { page } = await bridgeTo(target('game', 'tcp', nul.port));
    expect(page.targets).toEqual([{ name: 'game', transport: 'tcp', url: `tcp://127.0.0.1:${nul.port}` }]);
    const channel = await page.open('game');
    const peer = new RecordingPeer();
    channel.attach(peer);
    channel.send(bytes('hel'));
    channel.send(bytes('lo\0wor'));
    channel.send(bytes('ld\0'));
    await peer.until(() => peer.text() === 'ok:hello\0ok:world\0');
    expect(peer.received.every((data) => data instanceof Uint8Array)).toBe(true);
  });

  it('drives a sans-IO client endpoint through the contract', async () => {
    const nul = await startNulServer();
    afterTest(() => nul.close());
    const { page } = await bridgeTo(target('game', 'tcp', nul.port));
    const peer = new RecordingPeer();
    let connection: { id: string } | undefined;
    const client: SansIoEndpoint<WireData, WireData> = {
      connect(sink, info) {
        connection = info;
        sink.send('login\0');
        return peer;
      },
    };
    const channel = await page.connectEndpoint('game', client);
    await peer.until(() => peer.text() === 'ok:login\0');
    expect(connection?.id).toBe(`game#${channel.id}`);
  });

  it('keeps several connections apart (a MASSim team of agents)', async () => {
    const nul = await startNulServer();
    afterTest(() => nul.close());
    const { page } = await bridgeTo(target('massim', 'tcp', nul.port));
    const agents = Array.from({ length: 12 }, (_, i) => `agentA${i + 1}`);
    const channels = await Promise.all(agents.map(() => page.open('massim')));
    const peers = channels.map((channel) => {
      const peer = new RecordingPeer();
      channel.attach(peer);
      return peer;
    });
    for (let step = 0; step < 20; step++)
      channels.forEach((channel, i) => channel.send(bytes(`${agents[i]} step ${step}\0`)));
    await Promise.all(
      peers.map((peer, i) =>
        peer
          .until(() => peer.text().split('\0').length === 21)
          .then(() => {
            const replies = peer.text().split('\0').slice(0, 20);
            expect(replies).toEqual(Array.from({ length: 20 }, (_, step) => `ok:${agents[i]} step ${step}`));
          }),
      ),
    );
    expect(nul.sockets).toHaveLength(12);
  });
});

describe('outbound HTTP relay', () => {
  it('relays requests and responses, though the server sends no CORS headers', async () => {
    const seen: { method?: string; url?: string; type?: string; body: string }[] = [];
    const http = await startHttpServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ method: request.method, url: request.url, type: request.headers['content-type'], body });
        response.writeHead(200, { 'content-type': 'application/json', 'x-run': '7' });
        response.end(JSON.stringify({ errormessage: null, echo: body }));
      });
    });
    afterTest(() => closeServer(http.server));
    const { page } = await bridgeTo(target('aisys', 'http', http.port));
    const channel = await page.open('aisys');
    const response = await channel.request({
      meta: { method: 'PUT', path: '/act/nim/1', headers: { 'content-type': 'application/json' } },
      body: '{"action":[1,2]}',
    });
    expect(response.meta.status).toBe(200);
    expect(response.meta.headers).toMatchObject({ 'content-type': 'application/json', 'x-run': '7' });
    expect(response.meta.headers?.['access-control-allow-origin']).toBeUndefined();
    expect(JSON.parse(response.body)).toEqual({ errormessage: null, echo: '{"action":[1,2]}' });
    expect(seen).toEqual([
      { method: 'PUT', url: '/act/nim/1', type: 'application/json', body: '{"action":[1,2]}' },
    ]);
  });

  it('answers a sans-IO client in order, one response per request', async () => {
    const http = await startHttpServer((request, response) => {
      response.writeHead(request.url === '/missing' ? 404 : 200);
      response.end(`you asked ${request.url}`);
    });
    afterTest(() => closeServer(http.server));
    const { page } = await bridgeTo(target('aisys', 'http', http.port));
    const peer = new RecordingPeer();
    await page.connectEndpoint('aisys', {
      connect(sink) {
        sink.send({ meta: { method: 'GET', path: '/missing' }, body: '' });
        return peer;
      },
    });
    await peer.until(() => peer.received.length === 1);
    const response = peer.received[0] as HttpMessage;
    expect(response.meta.status).toBe(404);
    expect(response.body).toBe('you asked /missing');
  });
});

describe('outbound WebSocket relay', () => {
  it('relays text frames as text and binary frames as bytes', async () => {
    const ws = await startWebSocketServer();
    afterTest(() => closeServer(ws.server));
    const { page } = await bridgeTo(target('gama', 'websocket', ws.port, '/play'));
    const channel = await page.open('gama');
    const peer = new RecordingPeer();
    channel.attach(peer);
    channel.send('{"type":"step"}');
    channel.send(new Uint8Array([0, 1, 2, 255]));
    await peer.until(() => peer.received.length === 2);
    expect(peer.received[0]).toBe('echo:{"type":"step"}');
    expect([...(peer.received[1] as Uint8Array)]).toEqual([0, 1, 2, 255]);
  });

  it('keeps the frames a server sends with its handshake, and survives an oversized one there', async () => {
    // A server that speaks first (as a GAMA simulation can): its frames arrive with the handshake's bytes.
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    afterTest(() => closeServer(server));
    server.on('connection', (socket, request) => {
      socket.on('error', () => undefined);
      if (request.url === '/huge') socket.send(Buffer.alloc(4096, 0x61), { binary: false });
      else for (let n = 1; n <= 3; n++) socket.send(`hello ${n}`);
    });
    const port = (server.address() as { port: number }).port;
    const bridge = await startBridge({
      targets: [target('talker', 'websocket', port, '/talk'), target('huge', 'websocket', port, '/huge')],
      limits: { websocketFrameBytes: 1024 },
    });
    afterTest(() => bridge.server.close());
    const page = await connectPage(bridge);
    afterTest(() => page.close());
    for (let round = 0; round < 5; round++) {
      const channel = await page.open('talker');
      const peer = new RecordingPeer();
      channel.attach(peer);
      await peer.until(() => peer.received.length === 3);
      expect(peer.received).toEqual(['hello 1', 'hello 2', 'hello 3']);
      channel.close();
    }
    const huge = await page.open('huge');
    expect(await huge.ended).toMatch(/frame cap/);
    // The bridge is still there.
    const again = await page.open('talker');
    const peer = new RecordingPeer();
    again.attach(peer);
    await peer.until(() => peer.received.length === 3);
  });
});
