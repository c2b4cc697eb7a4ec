/**
 * The inbound path as users run it, for rddlsim: a client playing noop turns against the emulated server
 * (`RddlsimHostEndpoint`, what the page runs for a listen port), served by the command line's TCP server
 * directly (`protoplay serve rddlsim`'s path, the baseline) and through a `protoplay bridge` child process
 * to the page's client over `ws`, in the same run. Prints turns per second and the mean time of a turn's
 * round trip (a turn and its actions).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { TcpServer } from '../../cli/net/tcp-server';
import { BridgeClient } from '../../src/core/bridge/bridge-client';
import { readBridgeLink } from '../../src/core/bridge/bridge-link';
import type { SansIoEndpoint, WireData } from '../../src/core/protocols/contract';
import { RddlsimClient, type ClientEvent } from '../../src/core/protocols/rddlsim/client';
import { RddlsimHost } from '../../src/core/protocols/rddlsim/host';
import { RddlsimHostEndpoint } from '../../src/core/protocols/rddlsim/host-endpoint';
import { loadExampleEnvironment } from '../../src/core/protocols/rddlsim/playground/environments';
import { printTable } from '../lib';
import { BIN, ORIGIN, pageSocket } from './relay.bench';

const ENVIRONMENT = 'grid_walk';
const ROUNDS = 60;
const SESSIONS = 3;

function hostEndpoint(): RddlsimHostEndpoint {
  const { model, task } = loadExampleEnvironment(ENVIRONMENT);
  const host = new RddlsimHost({
    resolveInstance: (name) => (name === model.info.instance ? { model, task } : undefined),
    rounds: ROUNDS,
  });
  return new RddlsimHostEndpoint(host, { log: () => undefined });
}

/** Plays one session of noops over TCP; resolves with its turns and how long it took (ms). */
async function playSession(port: number): Promise<{ turns: number; ms: number }> {
  const { model } = loadExampleEnvironment(ENVIRONMENT);
  const client = new RddlsimClient({
    problemName: model.info.instance,
    clientName: 'bench',
    info: model.info,
    sendInvalidActions: true,
  });
  const socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await once(socket, 'connect');
  const start = performance.now();
  let turns = 0;
  let finished: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const handle = (events: ClientEvent[]): void => {
    for (const event of events) {
      if (event.kind === 'send') socket.write(event.bytes);
      else if (event.kind === 'turn') {
        turns++;
        handle(client.act([]).events);
      } else if (event.kind === 'session-end') finished();
    }
  };
  socket.on('data', (chunk: Buffer) => handle(client.receive(chunk)));
  socket.on('close', () => finished());
  handle(client.start());
  await done;
  const ms = performance.now() - start;
  socket.destroy();
  return { turns, ms };
}

async function measure(port: number) {
  await playSession(port); // warm-up
  let turns = 0;
  let ms = 0;
  for (let i = 0; i < SESSIONS; i++) {
    const session = await playSession(port);
    turns += session.turns;
    ms += session.ms;
  }
  return { turnsPerSecond: turns / (ms / 1000), msPerTurn: ms / turns };
}

async function startChildBridge(): Promise<{
  child: ChildProcess;
  url: string;
  token: string;
  port: number;
}> {
  const child = spawn(
    process.execPath,
    [BIN, 'bridge', '--port', '0', '--origin', ORIGIN, '--listen', 'rddlsim=0'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  while (!/#bridge=\S+/.test(stdout)) await new Promise((done) => setTimeout(done, 20));
  const port = Number(/rddlsim tcp:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)![1]);
  return { child, port, ...readBridgeLink(stdout.match(/#(bridge=\S+)/)![1]!)! };
}

export default async function () {
  const server = await TcpServer.start({
    endpoint: hostEndpoint(),
    port: 0,
    frameTerminator: 0,
    log: () => undefined,
  });
  const direct = await measure(server.address.port);
  await server.close();

  const bridge = await startChildBridge();
  const page = await BridgeClient.connect({ ...bridge, WebSocket: pageSocket, reconnect: false });
  page.serve('rddlsim', hostEndpoint() as SansIoEndpoint<WireData, WireData>);
  const bridged = await measure(bridge.port);
  page.close();
  bridge.child.kill();

  printTable(`rddlsim ${ENVIRONMENT}, ${SESSIONS} sessions of ${ROUNDS} rounds, noop client over TCP`, [
    ['path', 'turns/s', 'ms per turn', 'added ms per turn'],
    [
      'protoplay serve path: TCP server (baseline)',
      Math.round(direct.turnsPerSecond),
      direct.msPerTurn.toFixed(3),
      '0',
    ],
    [
      'listen port of protoplay bridge, answered by the page client',
      Math.round(bridged.turnsPerSecond),
      bridged.msPerTurn.toFixed(3),
      (bridged.msPerTurn - direct.msPerTurn).toFixed(3),
    ],
  ]);
}
