/**
 * When things break: a server closing in the middle of a message, a server that never answers, a target
 * that is not there, the bridge killed (a real `protoplay bridge` process), the connection to the bridge
 * dropped and back.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BridgeClient, type BridgeStatus } from '../../../src/core/bridge/bridge-client';
import { BridgeError } from '../../../src/core/bridge/bridge-errors';
import { readBridgeLink } from '../../../src/core/bridge/bridge-link';
import { DEFAULT_LIMITS } from '../../../cli/bridge/bridge-config';
import { BridgeServer } from '../../../cli/bridge/bridge-server';
import { BIN } from '../run-cli';
import { afterTest } from './cleanup';
import {
  closeServer,
  connectPage,
  PAGE_ORIGIN,
  RecordingPeer,
  socketFrom,
  startBridge,
  startHttpServer,
  startNulServer,
  target,
  TOKEN,
} from './bridge-fixture';

function statusesOf(page: BridgeClient): BridgeStatus[] {
  const statuses: BridgeStatus[] = [];
  page.onStatus((status) => statuses.push(status));
  return statuses;
}

async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((done) => setTimeout(done, 10));
}

describe('bridge faults', () => {
  it('delivers what came before a server closed in the middle of a message, then the close', async () => {
    const nul = await startNulServer((message, socket) => {
      socket.end(`{"partial":${message}`);
      return true;
    });
    afterTest(() => nul.close());
    const bridge = await startBridge({ targets: [target('game', 'tcp', nul.port)] });
    afterTest(() => bridge.server.close());
    const page = await connectPage(bridge);
    afterTest(() => page.close());
    const channel = await page.open('game');
    const peer = new RecordingPeer();
    channel.attach(peer);
    channel.send('1\0');
    expect(await channel.ended).toBe('the other end closed the connection');
    expect(peer.text()).toBe('{"partial":1');
    expect(peer.endReason).toBe('the other end closed the connection');
    expect(() => channel.send('2\0')).toThrow(/channel \d+ is closed: the other end closed the connection/);
  });

  it('fails a request the server never answers, after the response timeout', async () => {
    const http = await startHttpServer(() => undefined);
    afterTest(() => closeServer(http.server));
    const bridge = await startBridge({
      targets: [target('aisys', 'http', http.port)],
      limits: { responseTimeoutMs: 200 },
    });
    afterTest(() => bridge.server.close());
    const page = await connectPage(bridge);
    afterTest(() => page.close());
    const channel = await page.open('aisys');
    const error = await channel.request({ meta: { path: '/agents' }, body: '' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect((error as BridgeError).message).toBe('no response within 200 ms');
    expect(channel.isOpen).toBe(true);
  });

  it('says so when a target is not there', async () => {
    const nul = await startNulServer();
    const port = nul.port;
    await nul.close();
    const bridge = await startBridge({ targets: [target('game', 'tcp', port)] });
    afterTest(() => bridge.server.close());
    const page = await connectPage(bridge);
    afterTest(() => page.close());
    const error = (await page.open('game').catch((e: unknown) => e)) as BridgeError;
    expect(error.code).toBe('bridge.open');
    expect(error.message).toBe(`cannot connect to game (tcp://127.0.0.1:${port}): connection refused`);
  });

  it('says the bridge is not running when nothing listens', async () => {
    const bridge = await startBridge();
    const url = bridge.server.url;
    await bridge.server.close();
    const error = (await BridgeClient.connect({
      url,
      token: TOKEN,
      WebSocket: socketFrom(PAGE_ORIGIN),
    }).catch((e: unknown) => e)) as BridgeError;
    expect(error.code).toBe('bridge.unreachable');
    expect(error.message).toBe(
      `cannot reach the bridge at ${url}: is protoplay bridge running? (it prints the link to open)`,
    );
  });

  it('reports a killed bridge to the page: channels end, then the client gives up', async () => {
    const nul = await startNulServer();
    afterTest(() => nul.close());
    const child = spawn(
      process.execPath,
      [BIN, 'bridge', '--port', '0', '--target', `game=tcp://127.0.0.1:${nul.port}`, '--origin', PAGE_ORIGIN],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    afterTest(() => child.kill('SIGKILL'));
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    await until(() => /#bridge=\S+/.test(stdout));
    const address = readBridgeLink(stdout.match(/#(bridge=\S+)/)![1]!)!;
    const page = await BridgeClient.connect({
      ...address,
      WebSocket: socketFrom(PAGE_ORIGIN),
      reconnect: { initialDelayMs: 20, maxAttempts: 2 },
    });
    afterTest(() => page.close());
    const statuses = statusesOf(page);
    const channel = await page.open('game');
    channel.send('hi\0');
    const peer = new RecordingPeer();
    channel.attach(peer);
    await peer.until(() => peer.text() === 'ok:hi\0');
    child.kill('SIGKILL');
    expect(await channel.ended).toMatch(
      /^the bridge is gone: the connection to the bridge was lost \(1006\)$/,
    );
    await until(() => page.status.state === 'closed');
    expect(statuses.map((status) => status.state)).toEqual(['reconnecting', 'reconnecting', 'closed']);
    const final = page.status as Extract<BridgeStatus, { state: 'closed' }>;
    expect(final.error?.code).toBe('bridge.gone');
    expect(final.error?.message).toMatch(/start protoplay bridge again and open the link it prints$/);
    await expect(page.open('game')).rejects.toThrow(/the bridge is not connected \(closed\)/);
  });

  it('reconnects with backoff when the connection drops and the bridge comes back', async () => {
    const first = await startBridge();
    const port = Number(new URL(first.server.url).port);
    const page = await connectPage(first, { reconnect: { initialDelayMs: 50, maxAttempts: 10 } });
    afterTest(() => page.close());
    const statuses = statusesOf(page);
    await first.server.close();
    await until(() => statuses.length > 0);
    const again = await BridgeServer.start({
      host: '127.0.0.1',
      port,
      origins: [PAGE_ORIGIN],
      targets: [],
      listens: [],
      limits: DEFAULT_LIMITS,
      token: TOKEN,
      log: () => undefined,
    });
    afterTest(() => again.close());
    await until(() => page.status.state === 'connected');
    expect(statuses[0]).toMatchObject({ state: 'reconnecting', attempt: 1, delayMs: 50 });
    expect(statuses.at(-1)?.state).toBe('connected');
    expect(await page.ping()).toBeGreaterThanOrEqual(0);
  });

  it('stops reconnecting when the bridge that came back refuses the token', async () => {
    const first = await startBridge();
    const port = Number(new URL(first.server.url).port);
    const page = await connectPage(first, { reconnect: { initialDelayMs: 50, maxAttempts: 10 } });
    afterTest(() => page.close());
    await first.server.close();
    const restarted = await BridgeServer.start({
      host: '127.0.0.1',
      port,
      origins: [PAGE_ORIGIN],
      targets: [],
      listens: [],
      limits: DEFAULT_LIMITS,
      token: 'a-new-token',
      log: () => undefined,
    });
    afterTest(() => restarted.close());
    await until(() => page.status.state === 'closed');
    const final = page.status as Extract<BridgeStatus, { state: 'closed' }>;
    expect(final.error?.code).toBe('bridge.token');
  });
});
