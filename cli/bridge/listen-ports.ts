/**
 * The bridge's listen ports: real clients (agents, a course's test harness) connect to them as they would
 * to a server, and each accepted connection becomes a channel of the page, whose emulated server answers.
 * The page that said hello most recently takes them; with no page connected they are refused at once.
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import type { ListenInfo } from '../../src/core/bridge/control-protocol';
import { endpointUrl, type BridgeLimits, type ListenSpec } from './bridge-config';
import { AcceptedHttpRelay, answer } from './http-relay';
import type { PageSession } from './page-session';
import type { PageLink, RelayChannel } from './relay-channel';
import { TcpRelay } from './tcp-relay';
import { WebSocketRelay } from './websocket-relay';

/** What the listen ports need from the bridge. */
export interface ListenContext {
  limits: BridgeLimits;
  /** The page that takes accepted connections now, if any. */
  currentPage(): PageSession | undefined;
  log(line: string): void;
}

type Adopt = (remote: string, relay: (id: number, link: PageLink) => RelayChannel) => RelayChannel | string;

/** The open listen ports. */
export class ListenPorts {
  private constructor(
    private readonly servers: (TcpServer | HttpServer)[],
    private readonly closers: (() => void)[],
    /** The bound addresses, for `welcome` and the start-up message. */
    readonly infos: readonly ListenInfo[],
  ) {}

  /** Binds every listen; rejects naming the first one that cannot be bound (and closes those that were). */
  static async open(specs: readonly ListenSpec[], context: ListenContext): Promise<ListenPorts> {
    const servers: (TcpServer | HttpServer)[] = [];
    const closers: (() => void)[] = [];
    const infos: ListenInfo[] = [];
    try {
      for (const spec of specs) {
        const adopt: Adopt = (remote, relay) =>
          context.currentPage()?.adopt(spec.name, remote, relay) ?? 'no page is connected to the bridge';
        const refused = (remote: string, why: string) =>
          context.log(`${spec.name}: refused ${remote}: ${why}`);
        let server: TcpServer | HttpServer;
        if (spec.transport === 'tcp') {
          server = createTcpServer((socket) => {
            const remote = remoteOf(socket);
            const result = adopt(remote, (id, link) => new TcpRelay(id, socket, link));
            if (typeof result === 'string') {
              refused(remote, result);
              socket.destroy();
            }
          });
        } else if (spec.transport === 'http') {
          const relays = new WeakMap<Socket, AcceptedHttpRelay>();
          server = createHttpServer((request, response) => {
            let relay = relays.get(request.socket);
            if (!relay) {
              const remote = remoteOf(request.socket);
              const result = adopt(remote, (id, link) => new AcceptedHttpRelay(id, request.socket, link));
              if (typeof result === 'string') {
                refused(remote, result);
                return answer(response, 503, `${result}\n`, { connection: 'close' });
              }
              relay = result as AcceptedHttpRelay;
              relays.set(request.socket, relay);
            }
            relay.accept(request, response);
          });
        } else {
          const upgrades = createHttpServer((_request, response) =>
            answer(response, 426, 'this port takes WebSocket connections\n'),
          );
          server = upgrades;
          const sockets = new WebSocketServer({
            server: upgrades,
            maxPayload: context.limits.websocketFrameBytes,
            perMessageDeflate: false,
            ...(spec.path ? { path: spec.path } : {}),
          });
          sockets.on('connection', (socket, request) => {
            const remote = remoteOf(request.socket);
            const result = adopt(remote, (id, link) => new WebSocketRelay(id, socket, link));
            if (typeof result === 'string') {
              refused(remote, result);
              socket.close(1013, result.slice(0, 120));
            }
          });
          closers.push(() => {
            for (const client of sockets.clients) client.terminate();
            sockets.close();
          });
        }
        servers.push(server);
        await listenOn(server, spec);
        const address = server.address();
        const port = typeof address === 'object' && address ? address.port : spec.port;
        infos.push({ name: spec.name, transport: spec.transport, url: endpointUrl({ ...spec, port }) });
        server.on('error', (error) => context.log(`${spec.name}: ${error.message}`));
      }
    } catch (error) {
      for (const close of closers) close();
      for (const server of servers) server.close();
      throw error;
    }
    return new ListenPorts(servers, closers, infos);
  }

  /** Stops listening and drops every connection still open. */
  async close(): Promise<void> {
    for (const close of this.closers) close();
    await Promise.all(
      this.servers.map(
        (server) =>
          new Promise<void>((done) => {
            server.close(() => done());
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      ),
    );
  }
}

function remoteOf(socket: Socket): string {
  return `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
}

function listenOn(server: TcpServer | HttpServer, spec: ListenSpec): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? 'the port is in use' : (error.code ?? error.message);
      reject(new Error(`cannot listen for ${spec.name} on ${spec.host}:${spec.port}: ${why}`));
    };
    server.once('error', fail);
    server.listen(spec.port, spec.host, () => {
      server.off('error', fail);
      resolve();
    });
  });
}
