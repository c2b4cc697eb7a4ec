/**
 * A bridge on 127.0.0.1 with a known token, pages connecting through the real client over `ws`, and small
 * servers written here to relay to: a NUL-framed TCP server, an HTTP server without CORS headers, a
 * WebSocket echo.
 */
import { once } from 'node:events';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { BridgeClient, type BridgeClientOptions } from '../../../src/core/bridge/bridge-client';
import type { BridgeSocketConstructor } from '../../../src/core/bridge/bridge-socket';
import type { WireData, WirePeer } from '../../../src/core/protocols/contract';
import {
  DEFAULT_LIMITS,
  type BridgeLimits,
  type ListenSpec,
  type TargetSpec,
} from '../../../cli/bridge/bridge-config';
import { BridgeServer } from '../../../cli/bridge/bridge-server';

export const TOKEN = 'the-test-token-0123456789';
export const PAGE_ORIGIN = 'http://localhost:5173';

/** A bridge and everything it logged. */
export interface TestBridge {
  server: BridgeServer;
  log: string[];
}

/** Starts a bridge on a free port of 127.0.0.1. */
export async function startBridge({
  targets = [],
  listens = [],
  limits = {},
}: {
  targets?: TargetSpec[];
  listens?: ListenSpec[];
  limits?: Partial<BridgeLimits>;
} = {}): Promise<TestBridge> {
  const log: string[] = [];
  const server = await BridgeServer.start({
    host: '127.0.0.1',
    port: 0,
    origins: [PAGE_ORIGIN],
    targets,
    listens,
    limits: { ...DEFAULT_LIMITS, ...limits },
    token: TOKEN,
    log: (line) => log.push(line),
  });
  return { server, log };
}

/** `ws`'s WebSocket sending the Origin header a browser on `origin` would send. */
export function socketFrom(origin: string | undefined): BridgeSocketConstructor {
  return class PageSocket extends WebSocket {
    constructor(url: string) {
      super(url, origin === undefined ? {} : { origin });
    }
  };
}

/** A page connecting to `bridge` through the real client. */
export function connectPage(
  bridge: TestBridge,
  options: Partial<BridgeClientOptions> & { origin?: string } = {},
): Promise<BridgeClient> {
  const { origin = PAGE_ORIGIN, ...rest } = options;
  return BridgeClient.connect({
    url: bridge.server.url,
    token: TOKEN,
    WebSocket: socketFrom(origin),
    reconnect: false,
    ...rest,
  });
}

/** A sans-IO peer that records what arrives and lets a test wait for it. */
export class RecordingPeer implements WirePeer<WireData> {
  readonly received: WireData[] = [];
  endReason: string | undefined;
  private waiters: (() => void)[] = [];

  receive(data: WireData): void {
    this.received.push(data);
    this.wake();
  }

  end(reason?: string): void {
    this.endReason = reason ?? 'ended';
    this.wake();
  }

  /** All bytes received so far, as text (TCP channels). */
  text(): string {
    return this.received
      .map((data) => (data instanceof Uint8Array ? Buffer.from(data).toString('utf8') : String(data)))
      .join('');
  }

  /** Resolves once `test()` holds (checked after each arrival). */
  async until(test: () => boolean): Promise<void> {
    while (!test()) await new Promise<void>((wake) => this.waiters.push(wake));
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}

/** A TCP server answering each NUL-terminated message with `ok:<message>\0`; `onMessage` may override. */
export async function startNulServer(
  onMessage: (message: string, socket: Socket) => boolean | void = () => undefined,
): Promise<{ server: TcpServer; port: number; sockets: Socket[]; close(): Promise<void> }> {
  const sockets: Socket[] = [];
  const server = createTcpServer((socket) => {
    sockets.push(socket);
    let pending = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      pending += chunk.toString('utf8');
      let end: number;
      while ((end = pending.indexOf('\0')) >= 0) {
        const message = pending.slice(0, end);
        pending = pending.slice(end + 1);
        if (onMessage(message, socket) !== true) socket.write(`ok:${message}\0`);
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await closeServer(server);
  };
  return { server, port: portOf(server), sockets, close };
}

/** An HTTP server that sends no CORS headers, like aisysprojserver; `handle` answers. */
export async function startHttpServer(
  handle: Parameters<typeof createHttpServer>[1],
): Promise<{ server: HttpServer; port: number }> {
  const server = createHttpServer(handle);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: portOf(server) };
}

/** A WebSocket server echoing each frame as `echo:<text>` (binary frames come back as they were). */
export async function startWebSocketServer(): Promise<{ server: WebSocketServer; port: number }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/play' });
  server.on('connection', (socket) =>
    socket.on('message', (data: Buffer, isBinary) =>
      isBinary ? socket.send(data) : socket.send(`echo:${data.toString('utf8')}`),
    ),
  );
  await once(server, 'listening');
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0 };
}

function portOf(server: TcpServer | HttpServer): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** A target spec on 127.0.0.1. */
export function target(
  name: string,
  transport: TargetSpec['transport'],
  port: number,
  path = '',
): TargetSpec {
  return { name, transport, host: '127.0.0.1', port, path };
}

/** Closes a server, dropping its connections. */
export async function closeServer(server: TcpServer | HttpServer | WebSocketServer): Promise<void> {
  if (server instanceof WebSocketServer) for (const client of server.clients) client.terminate();
  if ('closeAllConnections' in server) server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
}
