/**
 * What the bridge costs a TCP protocol: added latency per message (p50, p99 of request/response round
 * trips with 64-byte NUL-framed messages) and messages per second (a burst, every message its own write),
 * through the bridge against direct TCP to the same echo server on loopback, measured in the same run. The
 * bridge runs in this process and as a real `protoplay bridge` child process; the page's side is the
 * `src/core/bridge` client over `ws`. Targets: at most 0.2 ms added at p50, at least 20,000 messages/s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { resolve } from 'node:path';
import WebSocket from 'ws';
import { DEFAULT_LIMITS } from '../../cli/bridge/bridge-config';
import { BridgeServer } from '../../cli/bridge/bridge-server';
import { BridgeClient } from '../../src/core/bridge/bridge-client';
import type { BridgeChannel } from '../../src/core/bridge/bridge-channel';
import type { BridgeSocketConstructor } from '../../src/core/bridge/bridge-socket';
import { readBridgeLink } from '../../src/core/bridge/bridge-link';
import { printTable } from '../lib';

export const ORIGIN = 'http://localhost:4173';
export const BIN = resolve(import.meta.dirname, '../../cli/bin/protoplay.js');
export const MESSAGE = new TextEncoder().encode(`${'x'.repeat(63)}\0`);
export const ROUND_TRIPS = 5000;
const WARMUP_ROUND_TRIPS = 2000;
export const BURST = 20_000;
const BURSTS = 5;

/** Something that sends one message and tells when `count` terminators came back. */
export interface EchoLink {
  send(): void;
  /** Resolves once `count` more messages came back. */
  replies(count: number): Promise<void>;
  close(): void;
}

export class ReplyCounter {
  private received = 0;
  private goal = 0;
  private done: (() => void) | undefined;

  count(chunk: Uint8Array): void {
    for (const byte of chunk) if (byte === 0) this.received++;
    if (this.done && this.received >= this.goal) {
      const done = this.done;
      this.done = undefined;
      done();
    }
  }

  wait(count: number): Promise<void> {
    this.goal += count;
    if (this.received >= this.goal) return Promise.resolve();
    return new Promise((done) => (this.done = done));
  }
}

export async function directLink(port: number): Promise<EchoLink> {
  const socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await once(socket, 'connect');
  const counter = new ReplyCounter();
  socket.on('data', (chunk: Buffer) => counter.count(chunk));
  return {
    send: () => socket.write(MESSAGE),
    replies: (n) => counter.wait(n),
    close: () => socket.destroy(),
  };
}

export const pageSocket: BridgeSocketConstructor = class extends WebSocket {
  constructor(url: string) {
    super(url, { origin: ORIGIN, perMessageDeflate: false });
  }
};

async function bridgeLink(address: { url: string; token: string }): Promise<EchoLink> {
  const page = await BridgeClient.connect({ ...address, WebSocket: pageSocket, reconnect: false });
  const channel: BridgeChannel = await page.open('echo');
  const counter = new ReplyCounter();
  channel.attach({ receive: (data) => counter.count(data as Uint8Array), end: () => undefined });
  return { send: () => channel.send(MESSAGE), replies: (n) => counter.wait(n), close: () => page.close() };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

export async function measure(link: EchoLink) {
  for (let i = 0; i < WARMUP_ROUND_TRIPS; i++) {
    link.send();
    await link.replies(1);
  }
  const times: number[] = [];
  for (let i = 0; i < ROUND_TRIPS; i++) {
    const start = performance.now();
    link.send();
    await link.replies(1);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const rates: number[] = [];
  for (let b = 0; b < BURSTS; b++) {
    const start = performance.now();
    for (let i = 0; i < BURST; i++) link.send();
    await link.replies(BURST);
    rates.push(BURST / ((performance.now() - start) / 1000));
  }
  rates.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), rate: rates[Math.floor(BURSTS / 2)]! };
}

async function startChildBridge(
  echoPort: number,
): Promise<{ child: ChildProcess; url: string; token: string }> {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'bridge',
      '--port',
      '0',
      '--quiet',
      '--origin',
      ORIGIN,
      '--target',
      `echo=tcp://127.0.0.1:${echoPort}`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  while (!/#bridge=\S+/.test(stdout)) await new Promise((done) => setTimeout(done, 20));
  return { child, ...readBridgeLink(stdout.match(/#(bridge=\S+)/)![1]!)! };
}

export default async function () {
  const sockets = new Set<Socket>();
  const echo = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('data', (chunk) => socket.write(chunk));
    socket.on('close', () => sockets.delete(socket));
  });
  echo.listen(0, '127.0.0.1');
  await once(echo, 'listening');
  const echoPort = (echo.address() as { port: number }).port;

  const direct = await directLink(echoPort);
  const directFigures = await measure(direct);
  direct.close();

  const token = 'bench-token';
  const inProcessBridge = await BridgeServer.start({
    host: '127.0.0.1',
    port: 0,
    origins: [ORIGIN],
    targets: [{ name: 'echo', transport: 'tcp', host: '127.0.0.1', port: echoPort, path: '' }],
    listens: [],
    limits: DEFAULT_LIMITS,
    token,
    log: () => undefined,
  });
  const inProcess = await bridgeLink({ url: inProcessBridge.url, token });
  const inProcessFigures = await measure(inProcess);
  inProcess.close();
  await inProcessBridge.close();

  const childBridge = await startChildBridge(echoPort);
  const child = await bridgeLink(childBridge);
  const childFigures = await measure(child);
  child.close();
  childBridge.child.kill();

  for (const socket of sockets) socket.destroy();
  echo.close();

  const row = (label: string, figures: typeof directFigures) => [
    label,
    (figures.p50 * 1000).toFixed(1),
    (figures.p99 * 1000).toFixed(1),
    ((figures.p50 - directFigures.p50) * 1000).toFixed(1),
    ((figures.p99 - directFigures.p99) * 1000).toFixed(1),
    Math.round(figures.rate),
  ];
  printTable(`TCP echo, 64-byte messages: ${ROUND_TRIPS} round trips, bursts of ${BURST}`, [
    ['path', 'p50 µs', 'p99 µs', 'added p50 µs', 'added p99 µs', 'messages/s'],
    row('direct TCP (baseline)', directFigures),
    row('bridge in this process', inProcessFigures),
    row('protoplay bridge child process', childFigures),
  ]);
  console.log('targets: added p50 <= 200 µs, >= 20,000 messages/s through the bridge');
}
