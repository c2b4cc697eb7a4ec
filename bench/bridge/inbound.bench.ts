/**
 * What the bridge costs the inbound direction (a real agent connecting to a listen port, answered by the
 * page): added latency per message (p50, p99 of round trips with 64-byte NUL-framed messages) and messages
 * per second (a burst), an agent's TCP connection to the bridge's listen port answered by a sans-IO echo
 * endpoint served by the `src/core/bridge` client over `ws`, against the same agent talking to a TCP echo
 * server directly, measured in the same run. The bridge runs in this process and as a real `protoplay
 * bridge` child process. Targets as outbound: at most 0.2 ms added at p50, at least 20,000 messages/s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { DEFAULT_LIMITS } from '../../cli/bridge/bridge-config';
import { BridgeServer } from '../../cli/bridge/bridge-server';
import { BridgeClient } from '../../src/core/bridge/bridge-client';
import { readBridgeLink } from '../../src/core/bridge/bridge-link';
import type { SansIoEndpoint, WireData } from '../../src/core/protocols/contract';
import { printTable } from '../lib';
import {
  BIN,
  BURST,
  directLink,
  measure,
  MESSAGE,
  ORIGIN,
  pageSocket,
  ReplyCounter,
  ROUND_TRIPS,
  type EchoLink,
} from './relay.bench';

/** The page's side: answers every chunk with the same bytes, as an emulated server answers at once. */
const echoEndpoint: SansIoEndpoint<WireData, WireData> = {
  connect: (sink) => ({ receive: (data) => sink.send(data), end: () => undefined }),
};

/** A page serving the listen port `echo`, and an agent connected to that port. */
async function inboundLink(address: { url: string; token: string }, listenPort: number): Promise<EchoLink> {
  const page = await BridgeClient.connect({ ...address, WebSocket: pageSocket, reconnect: false });
  page.serve('echo', echoEndpoint);
  const agent = connect(listenPort, '127.0.0.1');
  agent.setNoDelay(true);
  await once(agent, 'connect');
  const counter = new ReplyCounter();
  agent.on('data', (chunk: Buffer) => counter.count(chunk));
  return {
    send: () => agent.write(MESSAGE),
    replies: (n) => counter.wait(n),
    close: () => {
      agent.destroy();
      page.close();
    },
  };
}

async function startChildBridge(): Promise<{
  child: ChildProcess;
  url: string;
  token: string;
  port: number;
}> {
  const child = spawn(
    process.execPath,
    [BIN, 'bridge', '--port', '0', '--origin', ORIGIN, '--listen', 'echo=tcp://:0'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  while (!/#bridge=\S+/.test(stdout)) await new Promise((done) => setTimeout(done, 20));
  const port = Number(/echo tcp:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)![1]);
  return { child, port, ...readBridgeLink(stdout.match(/#(bridge=\S+)/)![1]!)! };
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
  const direct = await directLink((echo.address() as { port: number }).port);
  const directFigures = await measure(direct);
  direct.close();
  for (const socket of sockets) socket.destroy();
  echo.close();

  const token = 'bench-token';
  const inProcessBridge = await BridgeServer.start({
    host: '127.0.0.1',
    port: 0,
    origins: [ORIGIN],
    targets: [],
    listens: [{ name: 'echo', transport: 'tcp', host: '127.0.0.1', port: 0, path: '' }],
    limits: DEFAULT_LIMITS,
    token,
    log: () => undefined,
  });
  const listenPort = Number(new URL(inProcessBridge.listens.find((l) => l.name === 'echo')!.url).port);
  const inProcess = await inboundLink({ url: inProcessBridge.url, token }, listenPort);
  const inProcessFigures = await measure(inProcess);
  inProcess.close();
  await inProcessBridge.close();

  const childBridge = await startChildBridge();
  const child = await inboundLink(childBridge, childBridge.port);
  const childFigures = await measure(child);
  child.close();
  childBridge.child.kill();

  const row = (label: string, figures: typeof directFigures) => [
    label,
    (figures.p50 * 1000).toFixed(1),
    (figures.p99 * 1000).toFixed(1),
    ((figures.p50 - directFigures.p50) * 1000).toFixed(1),
    ((figures.p99 - directFigures.p99) * 1000).toFixed(1),
    Math.round(figures.rate),
  ];
  printTable(
    `inbound, an agent's 64-byte messages answered by the page: ${ROUND_TRIPS} round trips, bursts of ${BURST}`,
    [
      ['path', 'p50 µs', 'p99 µs', 'added p50 µs', 'added p99 µs', 'messages/s'],
      row('direct TCP to an echo server (baseline)', directFigures),
      row('listen port, bridge in this process', inProcessFigures),
      row('listen port, protoplay bridge child process', childFigures),
    ],
  );
  console.log('targets: added p50 <= 200 µs, >= 20,000 messages/s through the bridge');
}
