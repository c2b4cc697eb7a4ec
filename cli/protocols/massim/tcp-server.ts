/**
 * The TCP side of `protoplay serve massim`: one emulated MASSim server (`MassimHost`: accounts, ids, the
 * tournament) behind a listening socket, one host connection per TCP connection. Unlike the real server
 * it binds 127.0.0.1 unless told otherwise, and one agent's bad input costs at most that connection:
 * whatever the host does not already tolerate as the real server does is caught, logged, and ends only
 * that connection. TCP_NODELAY is set, and what the host sends on one connection in one go (sim-start and
 * the first request-action) leaves in one write.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { MassimServerConfig } from '../../../src/core/envs/massim/api';
import { describeError } from '../../../src/core/errors';
import {
  MassimHost,
  type MassimHostConnection,
  type MassimHostEvent,
} from '../../../src/core/protocols/massim/host';
import { boundAddress, listen } from '../../net/tcp-listen';

/** Bytes queued for an agent that does not read before its connection is dropped. */
const MAX_UNREAD_BYTES = 64 * 1024 * 1024;
/** How long a connection the server closed waits for the agent to close its side before it is dropped. */
const LINGER_MS = 5_000;

/** Options of a server. */
export interface MassimTcpServerOptions {
  config: MassimServerConfig;
  /** Address to bind (127.0.0.1 unless the user says otherwise). */
  host: string;
  /** Port; 0 picks a free one. */
  port: number;
  /** Session seed (see `MassimHostOptions.seed`); absent: the configuration's seeds. */
  seed?: number;
  faithfulRaces: boolean;
  /** Annotate the transcript with the world after every step (for the playground's world view). */
  recordWorld: boolean;
  log(line: string): void;
  onHostEvent?(event: MassimHostEvent): void;
  /** An agent logged in or its logged-in connection closed. */
  onAgentsChanged?(): void;
}

/** A listening MASSim server. */
export class MassimTcpServer {
  readonly host: MassimHost;
  readonly #options: MassimTcpServerOptions;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  /** The logged-in connection of every agent that has one open. */
  readonly #agents = new Map<string, MassimHostConnection>();

  private constructor(options: MassimTcpServerOptions) {
    this.#options = options;
    this.host = new MassimHost({
      config: options.config,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      faithfulRaces: options.faithfulRaces,
      recordWorld: options.recordWorld,
      onEvent: (event) => options.onHostEvent?.(event),
    });
    this.#server = createServer({ noDelay: true }, (socket) => this.#accept(socket));
  }

  /** Starts listening; rejects with the socket error (address in use...) when it cannot. */
  static async start(options: MassimTcpServerOptions): Promise<MassimTcpServer> {
    const server = new MassimTcpServer(options);
    await listen(server.#server, options.port, options.host, options.log);
    return server;
  }

  /** The bound address and port. */
  get address(): { host: string; port: number } {
    return boundAddress(this.#server, this.#options);
  }

  /** Agents with an open, logged-in connection. */
  get loggedIn(): ReadonlySet<string> {
    return new Set(this.#agents.keys());
  }

  /** Stops listening and drops every connection (the host should be finished or shut down first). */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }

  #accept(socket: Socket): void {
    const { log } = this.#options;
    socket.setNoDelay(true);
    this.#sockets.add(socket);
    const remote = `${socket.remoteAddress}:${socket.remotePort}`;
    let agent: string | undefined;
    let corked = false;
    let dropped = false;
    const connection: MassimHostConnection = this.host.connect({
      deliver: (frame) => {
        if (dropped || socket.destroyed) return;
        // Frames sent in one go (sim-start and a request-action) leave in one write.
        if (!corked) {
          corked = true;
          socket.cork();
          process.nextTick(() => {
            corked = false;
            socket.uncork();
          });
        }
        socket.write(`${frame.text}\0`);
        if (socket.writableLength > MAX_UNREAD_BYTES) {
          dropped = true;
          log(`${connection.id}: the agent does not read what it is sent; dropping the connection`);
          socket.destroy();
        }
        if (frame.type === 'auth-response') agent = this.#loggedIn(connection, frame.message, remote);
        else if (frame.type === 'status-response') log(`${connection.id}: status-request from ${remote}`);
      },
      close: () => {
        socket.end();
        setTimeout(() => socket.destroy(), LINGER_MS).unref();
      },
    });
    const guard = (action: () => void) => {
      try {
        action();
      } catch (error) {
        // A bug must cost one connection, never the server.
        log(`${connection.id}: internal error, closing the connection: ${describeError(error)}`);
        dropped = true;
        socket.destroy();
      }
    };
    socket.on('data', (chunk: Buffer) => guard(() => connection.receive(chunk)));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!dropped) log(`${connection.id}: connection error: ${error.code ?? error.message}`);
    });
    socket.on('close', () => {
      this.#sockets.delete(socket);
      guard(() => connection.disconnect());
      if (agent && this.#agents.get(agent) === connection) {
        this.#agents.delete(agent);
        log(`${agent} disconnected (${connection.id})`);
        this.#options.onAgentsChanged?.();
      }
    });
  }

  /** An auth-response left: which agent logged in, if one did. */
  #loggedIn(
    connection: MassimHostConnection,
    message: { type: string; content: unknown },
    remote: string,
  ): string | undefined {
    const { log } = this.#options;
    const ok = (message.content as { result?: string }).result === 'ok';
    if (!ok) {
      log(`${connection.id}: login refused (unknown user or wrong password) from ${remote}`);
      return undefined;
    }
    // Connection ids of logged-in agents are `<agent>.conn<k>`.
    const agent = connection.id.replace(/\.conn\d+$/, '');
    const previous = this.#agents.get(agent);
    this.#agents.set(agent, connection);
    log(
      previous
        ? `${agent} logged in again (${connection.id} from ${remote}), replacing ${previous.id}`
        : `${agent} logged in (${connection.id} from ${remote})`,
    );
    this.#options.onAgentsChanged?.();
    return agent;
  }
}
