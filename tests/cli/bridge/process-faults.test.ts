/**
 * `protoplay bridge` as a child process between a page (a `BridgeClient` here) and targets on loopback
 * that misbehave: one sends 100 MiB without ever ending a message, one sends one byte at a time, one resets
 * in the middle of a message, one sends invalid UTF-8, one stays silent, an HTTP one answers with an
 * endless body and a WebSocket one with a 100 MiB frame. Each channel must end (or deliver) as documented,
 * the bridge's memory must stay bounded (its buffers, not the flood), and an echo channel opened alongside
 * must keep answering.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { BridgeClient } from '../../../src/core/bridge/bridge-client';
import { readBridgeLink } from '../../../src/core/bridge/bridge-link';
import type { WireData, WirePeer } from '../../../src/core/protocols/contract';
import { BIN } from '../run-cli';
import { afterTest } from './cleanup';
import { PAGE_ORIGIN, RecordingPeer, socketFrom, startHttpServer, startNulServer } from './bridge-fixture';

const MiB = 1024 * 1024;
const PEAK_MEMORY = pathToFileURL(join(import.meta.dirname, '../../../bench/cli/peak-memory.mjs')).href;

async function until(test: () => boolean, ms = 60_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) return false;
    await new Promise((done) => setTimeout(done, 20));
  }
  return true;
}

function rssKb(pid: number | undefined): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** A TCP target that runs `script` on every connection. */
async function tcpTarget(script: (socket: Socket) => void): Promise<number> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    script(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  afterTest(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((done) => server.close(done));
  });
  return (server.address() as { port: number }).port;
}

/** Writes `total` bytes of `a` in 1 MiB chunks, waiting for each to leave, until the peer is gone. */
async function flood(socket: Socket, total: number): Promise<number> {
  const chunk = Buffer.alloc(MiB, 0x61);
  let sent = 0;
  while (sent < total && !socket.destroyed) {
    if (!(await new Promise<boolean>((done) => socket.write(chunk, (error) => done(!error))))) break;
    sent += MiB;
  }
  return sent;
}

/** A page-side peer that only counts what arrives (100 MiB of text would not fit a recording one). */
class CountingPeer implements WirePeer<WireData> {
  bytes = 0;
  endReason: string | undefined;
  receive(data: WireData): void {
    this.bytes += data instanceof Uint8Array ? data.length : String(data).length;
  }
  end(reason?: string): void {
    this.endReason = reason ?? 'ended';
  }
}

describe('protoplay bridge between a page and misbehaving targets', () => {
  it('relays or ends every channel as documented, in bounded memory, and keeps the others working', async () => {
    let floodSent = 0;
    const floodPort = await tcpTarget((socket) => void flood(socket, 100 * MiB).then((n) => (floodSent = n)));
    const tricklePort = await tcpTarget((socket) => {
      void (async () => {
        for (const byte of Buffer.from('slow but whole\0'))
          await new Promise<void>((done) => socket.write(Buffer.from([byte]), () => done()));
      })();
    });
    // Half a message then a reset, once the page's first bytes show the channel is open (a reset during the
    // bridge's connect would fail the open instead, on a loaded machine).
    const resetPort = await tcpTarget((socket) =>
      socket.once('data', () => socket.write('{"half":', () => socket.resetAndDestroy())),
    );
    const utf8Port = await tcpTarget((socket) => socket.write(Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0x00])));
    const stallPort = await tcpTarget(() => undefined);
    const echo = await startNulServer();
    afterTest(() => echo.close());
    const http = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(MiB, 0x20);
      const more = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', more);
      };
      more();
    });
    afterTest(() => new Promise((done) => http.server.close(done)));
    http.server.on('connection', (socket: Socket) => afterTest(() => socket.destroy()));
    const ws = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(ws, 'listening');
    afterTest(() => new Promise((done) => ws.close(done)));
    // The 100 MiB text frame is made before any page connects and sent as the bytes it is: made on demand,
    // on a loaded machine it took longer than the bridge's idle timeout to start arriving.
    const hugeText = Buffer.alloc(100 * MiB, 0x61);
    ws.on('connection', (socket) => {
      socket.on('error', () => undefined);
      socket.send(hugeText, { binary: false });
    });
    const wsPort = (ws.address() as { port: number }).port;

    const targets = {
      flood: `tcp://127.0.0.1:${floodPort}`,
      trickle: `tcp://127.0.0.1:${tricklePort}`,
      reset: `tcp://127.0.0.1:${resetPort}`,
      utf8: `tcp://127.0.0.1:${utf8Port}`,
      stall: `tcp://127.0.0.1:${stallPort}`,
      echo: `tcp://127.0.0.1:${echo.port}`,
      endless: `http://127.0.0.1:${http.port}`,
      huge: `ws://127.0.0.1:${wsPort}`,
    };
    const child = spawn(
      process.execPath,
      [
        '--import',
        PEAK_MEMORY,
        BIN,
        'bridge',
        '--port',
        '0',
        '--origin',
        PAGE_ORIGIN,
        '--idle-timeout',
        '2',
        ...Object.entries(targets).flatMap(([name, url]) => ['--target', `${name}=${url}`]),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    afterTest(() => child.kill('SIGKILL'));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await until(() => /#bridge=\S+/.test(output)), output).toBe(true);
    const baselineKb = rssKb(child.pid);
    let peakKb = baselineKb;
    const sampler = setInterval(() => (peakKb = Math.max(peakKb, rssKb(child.pid))), 50);
    afterTest(() => clearInterval(sampler));
    const address = readBridgeLink(output.match(/#(bridge=\S+)/)![1]!)!;
    const page = await BridgeClient.connect({ ...address, WebSocket: socketFrom(PAGE_ORIGIN) });
    afterTest(() => page.close());

    // An echo channel works before, during and after the faults (a new one each time: a channel silent for
    // the idle timeout is closed, as it should be).
    const echoes = async (text: string) => {
      const channel = await page.open('echo');
      const peer = new RecordingPeer();
      channel.attach(peer);
      channel.send(`${text}\0`);
      await peer.until(() => peer.text().includes(`ok:${text}\0`));
      channel.close();
    };
    await echoes('before');

    // 100 MiB without a terminator: a byte relay passes it on at the page's pace, holding its buffer only.
    const floodChannel = await page.open('flood');
    const floodPeer = new CountingPeer();
    floodChannel.attach(floodPeer);
    await echoes('during');
    expect(await until(() => floodPeer.endReason !== undefined, 120_000)).toBe(true);
    expect(floodPeer.bytes).toBe(floodSent);
    expect(floodSent).toBe(100 * MiB);

    const trickle = await page.open('trickle');
    const tricklePeer = new RecordingPeer();
    trickle.attach(tricklePeer);
    await tricklePeer.until(() => tricklePeer.text() === 'slow but whole\0');

    const reset = await page.open('reset');
    const resetPeer = new RecordingPeer();
    reset.attach(resetPeer);
    reset.send('go\0');
    expect(await reset.ended).toMatch(/ECONNRESET|closed/);
    expect(resetPeer.text()).toBe('{"half":');

    const utf8 = await page.open('utf8');
    const utf8Peer = new RecordingPeer();
    utf8.attach(utf8Peer);
    await utf8Peer.until(() => utf8Peer.received.length > 0);
    // Bytes are relayed as bytes: nothing decoded, nothing replaced.
    expect([...(utf8Peer.received[0] as Uint8Array)]).toEqual([0xc3, 0x28, 0xff, 0xfe, 0x00]);

    const stall = await page.open('stall');
    expect(await stall.ended).toMatch(/idle|silent|no traffic/i);

    const endless = await page.open('endless');
    const failure = await endless.request({ meta: { path: '/' }, body: '' }).catch((error: unknown) => error);
    expect(String(failure)).toMatch(/1000000|body|too large|larger/i);

    const huge = await page.open('huge');
    expect(await huge.ended).toMatch(/too large|1009|frame/i);

    await echoes('after');
    clearInterval(sampler);
    // The flood went through 8 MiB buffers each way: the bridge never held a large part of it.
    expect(peakKb - baselineKb, output).toBeLessThan(64 * 1024);
  });
});
