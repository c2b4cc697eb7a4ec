/**
 * What the bridge costs the page's MASSim teams: steps per second of a 2 x 5-agent match played by the
 * page's bridged team run (`startBridgedMassimRun`: one channel per agent, each team's policy asked once
 * per step) against the emulated MASSim server on loopback TCP (as `protoplay serve massim` serves it),
 * through a real bridge (the page's client over `ws`, the bridge in this process) and, as the baseline in
 * the same run, with each agent's connection a plain TCP socket (no bridge). The policies run in this
 * thread and skip every step, so the figures are the transport's and the runs' own.
 */
import { connect } from 'node:net';
import WebSocket from 'ws';
import { DEFAULT_LIMITS } from '../../cli/bridge/bridge-config';
import { BridgeServer } from '../../cli/bridge/bridge-server';
import { DEFAULT_TCP_SERVER_LIMITS, TcpServer } from '../../cli/net/tcp-server';
import type { BridgeChannel } from '../../src/core/bridge/bridge-channel';
import { BridgeClient } from '../../src/core/bridge/bridge-client';
import type { BridgeSocketConstructor } from '../../src/core/bridge/bridge-socket';
import { quickMassimConfig } from '../../src/core/envs/massim/index';
import type { PolicyEndpoint } from '../../src/core/policy/supervisor';
import { MassimHost } from '../../src/core/protocols/massim/host';
import { MassimHostEndpoint } from '../../src/core/protocols/massim/host-endpoint';
import { startBridgedMassimRun } from '../../src/core/protocols/massim/playground/bridged-team-run';
import type { MassimSessionOptions } from '../../src/core/protocols/massim/playground/options';
import { massimProtocol } from '../../src/core/protocols/massim/protocol';
import type { PlaygroundServices, SessionConfig } from '../../src/core/protocols/session-contract';
import type { BridgeAccess } from '../../src/core/session/bridge-route';
import { printTable } from '../lib';

const ORIGIN = 'http://localhost:4173';
const SETUP = { agentsPerTeam: 5, steps: 150, width: 40, height: 40 };
const RUNS = 3;

const pageSocket: BridgeSocketConstructor = class extends WebSocket {
  constructor(url: string) {
    super(url, { origin: ORIGIN, perMessageDeflate: false });
  }
};

/** The emulated MASSim server on a loopback TCP port; the match starts once every agent is logged in. */
async function startServer(): Promise<{ port: number; close(): Promise<void> }> {
  const quick = quickMassimConfig(SETUP);
  const host = new MassimHost({
    config: { ...quick, server: { ...quick.server, waitBetweenSimulations: 0, agentTimeout: 30_000 } },
    seed: 1,
  });
  const agents = quick.teams.length * SETUP.agentsPerTeam;
  let started = false;
  const endpoint: MassimHostEndpoint = new MassimHostEndpoint(host, {
    log: () => undefined,
    onAgentsChanged: () => {
      if (!started && endpoint.loggedIn.size === agents) {
        started = true;
        host.start();
      }
    },
  });
  const server = await TcpServer.start({
    endpoint,
    port: 0,
    frameTerminator: 0,
    limits: DEFAULT_TCP_SERVER_LIMITS,
    log: () => undefined,
  });
  return { port: server.address.port, close: () => server.close() };
}

/** Each agent's connection a plain TCP socket to the server: no bridge. */
function directAccess(port: number): BridgeAccess {
  return {
    connect: (_target, endpoint) =>
      new Promise((opened, failed) => {
        const socket = connect(port, '127.0.0.1');
        socket.setNoDelay(true);
        socket.once('error', failed);
        socket.once('connect', () => {
          const peer = endpoint.connect(
            {
              send: (data) => void socket.write(data as Uint8Array | string),
              close: () => void socket.end(),
            },
            { id: `tcp:${socket.localPort}` },
          );
          socket.on('data', (chunk: Buffer) => peer.receive(new Uint8Array(chunk)));
          socket.on('close', () => peer.end('closed'));
          opened({} as BridgeChannel);
        });
      }),
    serve: () => () => undefined,
    describe: () => `tcp://127.0.0.1:${port}`,
    silenceMs: 30_000,
  };
}

function bridgeAccess(client: BridgeClient): BridgeAccess {
  return {
    connect: (target, endpoint) => client.connectEndpoint(target, endpoint),
    serve: (listen, endpoint) => client.serve(listen, endpoint),
    describe: () => undefined,
    silenceMs: 30_000,
  };
}

function inProcessPolicy(): PolicyEndpoint {
  const runtime = massimProtocol.playground!.loadPolicyRuntime();
  return {
    load: async (source) => (await runtime).load(source),
    call: async (hook, args, context) => (await runtime).call(hook, args, context),
    terminate: () => undefined,
  };
}

function sessionConfig(): SessionConfig {
  // A policy that costs nothing, so the figures are the transport's and the runs' own.
  const policy = {
    code: 'export function act(): Action {\n  return { type: "skip", p: [] };\n}\n',
    language: 'ts' as const,
    fileName: 'policy.ts',
    level: 'policy' as const,
    seed: 1,
  };
  const options: MassimSessionOptions = {
    match: { kind: 'quick', setup: SETUP },
    otherTeams: policy,
    faithfulRaces: false,
  };
  return {
    protocol: massimProtocol.id,
    environment: massimProtocol.defaultEnvironment,
    rounds: 1,
    seed: 1,
    delayMs: 0,
    budgetMs: 10_000,
    policy,
    startPaused: false,
    options,
  };
}

/** Plays one match; resolves with its duration in ms (throws when it did not finish). */
async function playMatch(access: (port: number) => Promise<BridgeAccess>): Promise<number> {
  const server = await startServer();
  let finish: (status: string) => void = () => undefined;
  const ended = new Promise<string>((done) => (finish = done));
  const services: PlaygroundServices = {
    spawnPolicy: inProcessPolicy,
    listener: {
      update(json) {
        const { status } = JSON.parse(json) as { status?: string };
        if (status && ['finished', 'stopped', 'failed'].includes(status)) finish(status);
      },
    },
    nextFrame: (callback) => setTimeout(callback, 16),
    keepTranscript: async () => undefined,
  };
  const start = performance.now();
  await startBridgedMassimRun(sessionConfig(), 'massim', services, await access(server.port), {
    keepEveryMs: 0,
  });
  const status = await ended;
  const ms = performance.now() - start;
  await server.close();
  if (status !== 'finished') throw new Error(`the match ended ${status}`);
  return ms;
}

export default async function () {
  const direct: number[] = [];
  const bridged: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    direct.push(await playMatch(async (port) => directAccess(port)));
    let bridge: BridgeServer | undefined;
    let client: BridgeClient | undefined;
    bridged.push(
      await playMatch(async (port) => {
        bridge = await BridgeServer.start({
          host: '127.0.0.1',
          port: 0,
          origins: [ORIGIN],
          targets: [{ name: 'massim', transport: 'tcp', host: '127.0.0.1', port, path: '' }],
          listens: [],
          limits: DEFAULT_LIMITS,
          token: 'bench-token',
          log: () => undefined,
        });
        client = await BridgeClient.connect({
          url: bridge.url,
          token: 'bench-token',
          WebSocket: pageSocket,
          reconnect: false,
        });
        return bridgeAccess(client);
      }),
    );
    client?.close();
    await bridge?.close();
  }
  const best = (times: number[]) => Math.min(...times);
  const row = (label: string, times: number[]) => [
    label,
    Math.round(best(times)),
    ((best(times) / SETUP.steps) * 1000).toFixed(0),
    (SETUP.steps / (best(times) / 1000)).toFixed(1),
    (best(times) / best(direct)).toFixed(2),
  ];
  printTable(
    `MASSim match, 2 teams x ${SETUP.agentsPerTeam} agents, ${SETUP.steps} steps, the page's bridged team run (best of ${RUNS})`,
    [
      ['path', 'match ms', 'µs per step', 'steps/s', 'ratio'],
      row('plain TCP per agent (baseline)', direct),
      row('through the bridge (in process)', bridged),
    ],
  );
}
