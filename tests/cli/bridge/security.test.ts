/**
 * What keeps other pages and other machines out: the token, the Origin allowlist, targets only by name,
 * frame and body caps, idle and hello timeouts, page and channel limits, loopback unless told otherwise.
 */
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BridgeError } from '../../../src/core/bridge/bridge-errors';
import { BridgeCloseCode } from '../../../src/core/bridge/control-protocol';
import { afterTest } from './cleanup';
import {
  closeServer,
  connectPage,
  PAGE_ORIGIN,
  RecordingPeer,
  startBridge,
  startHttpServer,
  startNulServer,
  startWebSocketServer,
  target,
  TOKEN,
  type TestBridge,
} from './bridge-fixture';

/** A page speaking the control protocol by hand, to send what the client never would. */
async function rawPage(bridge: TestBridge, origin = PAGE_ORIGIN) {
  const socket = new WebSocket(bridge.server.url, { origin });
  afterTest(() => socket.terminate());
  const messages: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data: Buffer, isBinary) => {
    if (!isBinary) messages.push(JSON.parse(data.toString()) as Record<string, unknown>);
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = once(socket, 'close') as Promise<[number, Buffer]>;
  await once(socket, 'open');
  return {
    socket,
    closed,
    send: (message: object) => socket.send(JSON.stringify(message)),
    async next(op: string): Promise<Record<string, unknown>> {
      for (;;) {
        const found = messages.find((message) => message.op === op);
        if (found) {
          messages.splice(messages.indexOf(found), 1);
          return found;
        }
        await new Promise<void>((wake) => waiters.push(wake));
      }
    },
  };
}

async function refusal(promise: Promise<unknown>): Promise<BridgeError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(BridgeError);
  return error as BridgeError;
}

async function bridge(options: Parameters<typeof startBridge>[0] = {}) {
  const started = await startBridge(options);
  afterTest(() => started.server.close());
  return started;
}

describe('bridge security', () => {
  it('refuses a wrong token, says what to do, and logs no token', async () => {
    const started = await bridge();
    const error = await refusal(connectPage(started, { token: 'guessed-token' }));
    expect(error.code).toBe('bridge.token');
    expect(error.message).toMatch(/refused the token: open the link protoplay bridge printed/);
    const log = started.log.join('\n');
    expect(log).toMatch(/wrong token/);
    expect(log).not.toContain(TOKEN);
    expect(log).not.toContain('guessed-token');
  });

  it('refuses pages from other origins, and clients that send none', async () => {
    const started = await bridge();
    const error = await refusal(connectPage(started, { origin: 'https://evil.example' }));
    expect(error.code).toBe('bridge.origin');
    expect(error.message).toMatch(/origin https:\/\/evil\.example is not allowed/);
    const raw = new WebSocket(started.server.url);
    const [code, reason] = (await once(raw, 'close')) as [number, Buffer];
    expect(code).toBe(BridgeCloseCode.originNotAllowed);
    expect(reason.toString()).toMatch(/no origin is not allowed/);
  });

  it('connects only to targets named on its command line, never to an address from the page', async () => {
    const nul = await startNulServer();
    afterTest(() => nul.close());
    const started = await bridge({ targets: [target('game', 'tcp', nul.port)] });
    const page = await connectPage(started);
    afterTest(() => page.close());
    const error = await refusal(page.open(`127.0.0.1:${nul.port}`));
    expect(error.code).toBe('bridge.unknown-target');
    const raw = await rawPage(started);
    raw.send({ op: 'hello', token: TOKEN });
    await raw.next('welcome');
    raw.send({ op: 'open', id: 5, target: `tcp://127.0.0.1:${nul.port}` });
    expect(await raw.next('error')).toEqual({
      op: 'error',
      id: 5,
      message: `no target named 'tcp://127.0.0.1:${nul.port}'; the bridge offers game`,
    });
    expect(nul.sockets).toHaveLength(0);
  });

  it('answers malformed control messages with a located sentence and stays up', async () => {
    const started = await bridge();
    const raw = await rawPage(started);
    raw.send({ op: 'hello', token: TOKEN });
    await raw.next('welcome');
    raw.socket.send('{not json');
    expect((await raw.next('error')).message).toBe('a control message must be JSON');
    raw.send({ op: 'open', id: -1, target: 'x' });
    expect((await raw.next('error')).message).toBe('"open" needs "id" as a channel id from 1 to 2147483647');
    raw.send({ op: 'teleport' });
    expect((await raw.next('error')).message).toBe('unknown op "teleport"');
    raw.socket.send(new Uint8Array([0, 0]));
    expect((await raw.next('error')).message).toMatch(/needs a 5-byte header/);
    raw.send({ op: 'ping', nonce: 3 });
    expect(await raw.next('pong')).toEqual({ op: 'pong', nonce: 3 });
  });

  it('closes a page that says no hello in time', async () => {
    const started = await bridge({ limits: { helloTimeoutMs: 100 } });
    const raw = await rawPage(started);
    const [code, reason] = await raw.closed;
    expect(code).toBe(BridgeCloseCode.noHello);
    expect(reason.toString()).toBe('no hello within 100 ms');
  });

  it('refuses a WebSocket frame over the cap, from the page and from the server', async () => {
    const ws = await startWebSocketServer();
    afterTest(() => closeServer(ws.server));
    const started = await bridge({
      targets: [target('gama', 'websocket', ws.port, '/play')],
      limits: { websocketFrameBytes: 1024 },
    });
    const page = await connectPage(started);
    afterTest(() => page.close());
    const channel = await page.open('gama');
    const peer = new RecordingPeer();
    channel.attach(peer);
    channel.send('x'.repeat(1025));
    expect(await channel.ended).toBe('a frame of 1025 bytes is over the 1 KiB WebSocket frame cap');
    expect(peer.received).toEqual([]);

    // The echo server answers a 1020-byte frame with 1025 bytes (`echo:` + text): over the bridge's cap.
    const second = await page.open('gama');
    second.send('y'.repeat(1020));
    expect(await second.ended).toBe('a frame was over the 1 KiB WebSocket frame cap');
  });

  it('refuses HTTP bodies over the cap, both ways', async () => {
    const http = await startHttpServer((request, response) => {
      request.resume();
      response.end(request.url === '/big' ? 'z'.repeat(2000) : 'small');
    });
    afterTest(() => closeServer(http.server));
    const started = await bridge({
      targets: [target('aisys', 'http', http.port)],
      limits: { httpBodyBytes: 1000 },
    });
    const page = await connectPage(started);
    afterTest(() => page.close());
    const channel = await page.open('aisys');
    const tooBig = await refusal(
      channel.request({ meta: { method: 'POST', path: '/' }, body: 'q'.repeat(1001) }),
    );
    expect(tooBig.message).toBe('a request body of 1001 bytes is over the 1000 bytes HTTP body cap');
    const answerTooBig = await refusal(channel.request({ meta: { path: '/big' }, body: '' }));
    expect(answerTooBig.message).toBe('the response failed: the body is over the 1000 bytes HTTP body cap');
    const fine = await channel.request({ meta: { path: '/' }, body: '' });
    expect(fine.body).toBe('small');
  });

  it('closes a channel idle in both directions', async () => {
    const nul = await startNulServer(() => true);
    afterTest(() => nul.close());
    const started = await bridge({
      targets: [target('game', 'tcp', nul.port)],
      limits: { idleTimeoutMs: 150 },
    });
    const page = await connectPage(started);
    afterTest(() => page.close());
    const channel = await page.open('game');
    channel.send('anyone?\0');
    expect(await channel.ended).toBe('idle for 150 ms');
    await new Promise((done) => nul.sockets[0]!.once('close', done));
  });

  it('limits pages and channels', async () => {
    const nul = await startNulServer();
    afterTest(() => nul.close());
    const started = await bridge({
      targets: [target('game', 'tcp', nul.port)],
      limits: { maxPages: 1, maxChannels: 2 },
    });
    const page = await connectPage(started);
    afterTest(() => page.close());
    const second = await refusal(connectPage(started));
    expect(second.code).toBe('bridge.busy');
    await page.open('game');
    await page.open('game');
    const third = await refusal(page.open('game'));
    expect(third.message).toBe("the page has 2 channels open, the bridge's limit");
  });

  it('cuts a target that does not read once the buffer cap is waiting', async () => {
    // A server that never reads: the bridge's writes pile up in its socket.
    const nul = await startNulServer();
    afterTest(() => nul.close());
    nul.server.removeAllListeners('connection');
    nul.server.on('connection', (socket) => {
      nul.sockets.push(socket);
      socket.pause();
    });
    const started = await bridge({
      targets: [target('game', 'tcp', nul.port)],
      limits: { bufferBytes: 64 * 1024 },
    });
    const page = await connectPage(started);
    afterTest(() => page.close());
    const channel = await page.open('game');
    const chunk = new Uint8Array(32 * 1024);
    for (let i = 0; i < 400 && channel.isOpen; i++) {
      channel.send(chunk);
      await new Promise((done) => setImmediate(done));
    }
    expect(await channel.ended).toMatch(/^the other end is not reading: \d+ bytes waiting \(cap 64 KiB\)$/);
  });
});

describe('bridge backpressure', () => {
  it('stops reading a fast server while the page does not read, and loses nothing', async () => {
    const total = 48 * 1024 * 1024;
    let queued = 0;
    const nul = await startNulServer();
    afterTest(() => nul.close());
    nul.server.removeAllListeners('connection');
    nul.server.on('connection', (socket) => {
      nul.sockets.push(socket);
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = () => {
        while (queued < total) {
          queued += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
      };
      pump();
    });
    const started = await startBridge({
      targets: [target('flood', 'tcp', nul.port)],
      limits: { bufferBytes: 1024 * 1024 },
    });
    afterTest(() => started.server.close());
    const raw = await rawPage(started);
    let received = 0;
    raw.socket.on('message', (data: Buffer, isBinary) => {
      if (isBinary) received += data.length - 5;
    });
    raw.send({ op: 'hello', token: TOKEN });
    await raw.next('welcome');
    raw.socket.pause();
    raw.send({ op: 'open', id: 1, target: 'flood' });
    // Wait until the server cannot write any more: the bridge stopped reading it.
    let last = -1;
    while (queued !== last) {
      last = queued;
      await new Promise((done) => setTimeout(done, 300));
    }
    expect(queued).toBeLessThan(total);
    raw.socket.resume();
    while (received < total) await new Promise((done) => setTimeout(done, 20));
    expect(received).toBe(total);
  });
});
