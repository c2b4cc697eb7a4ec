/**
 * The transports of the generic `serve` and `connect`, chosen by the protocol's definition (`transport`):
 * the one TCP server and client of the command line (with the protocol's framing), the one WebSocket
 * server and client (one text frame per message), or the one HTTP server and client (sessions keyed by
 * the protocol's `sessionOf`, `httpSessions`). The endpoints they carry do not know which it is.
 */
import type { HttpMessage, Protocol, SansIoEndpoint, WireData } from '../../src/core/protocols/contract';
import { httpSessions } from '../../src/core/session/http-sessions';
import { usageError } from '../command-line/exit-codes';
import { runHttpClient } from '../net/http-client';
import { HttpServer } from '../net/http-server';
import { TcpClient } from '../net/tcp-client';
import { TcpServer, type TcpServerLimits } from '../net/tcp-server';
import { runWebSocketClient, WebSocketOpenError } from '../net/websocket-client';
import { WebSocketEndpointServer } from '../net/websocket-server';

/** A listening server of the protocol's transport. */
export interface PlayServer {
  /** The bound port (the one picked when 0 was asked). */
  readonly port: number;
  /** Closes every connection, with the reason where the transport can say it, and stops listening. */
  close(reason: string): Promise<void>;
}

/** How the generic commands listen. */
export interface ListenOptions {
  host: string;
  port: number;
  /** The TCP server's limits (`--max-connections`, `--idle-timeout`). */
  tcpLimits: Partial<TcpServerLimits>;
  log(line: string): void;
}

/**
 * The transports the generic commands carry: TCP, WebSocket, and HTTP when the protocol says which
 * session a request belongs to (`sessionOf`).
 */
export function checkPlayTransport(protocol: Protocol, command: 'serve' | 'connect'): void {
  const transport = protocol.transport;
  if (transport.kind === 'http' && !transport.sessionOf)
    throw usageError(
      `protoplay ${command} ${protocol.id}: this http protocol does not say which session a request belongs to; use its own commands`,
    );
}

/** Starts the protocol's server carrying `endpoint`; rejects with why it cannot listen. */
export async function listenPlay(
  protocol: Protocol,
  endpoint: SansIoEndpoint<WireData, WireData>,
  options: ListenOptions,
): Promise<PlayServer> {
  const transport = protocol.transport;
  switch (transport.kind) {
    case 'tcp': {
      const server = await TcpServer.start({
        endpoint: endpoint as SansIoEndpoint<Uint8Array, Uint8Array>,
        host: options.host,
        port: options.port,
        ...(transport.framing.terminator !== undefined
          ? { frameTerminator: transport.framing.terminator }
          : {}),
        limits: options.tcpLimits,
        log: options.log,
      });
      return { port: server.address.port, close: (reason) => server.close(reason) };
    }
    case 'websocket': {
      const server = await WebSocketEndpointServer.start({
        endpoint: endpoint as SansIoEndpoint<string, string>,
        host: options.host,
        port: options.port,
      });
      return { port: server.port, close: (reason) => server.close(reason) };
    }
    case 'http': {
      const { sessionOf } = transport;
      if (!sessionOf) throw usageError(`protoplay serve ${protocol.id}: no sessions over http`);
      const sessions = httpSessions(sessionOf, endpoint as SansIoEndpoint<HttpMessage, HttpMessage>);
      const server = await HttpServer.start({
        endpoint: sessions.endpoint,
        host: options.host,
        port: options.port,
        log: options.log,
      });
      return {
        port: server.address.port,
        close: async (reason) => {
          sessions.close(reason);
          await server.close(reason);
        },
      };
    }
  }
}

/** How a client connection ended: `failure` says why when it was not a close of either side. */
export interface DialEnd {
  failure?: string;
}

/** Connects `endpoint` (a driven client) to the protocol's server and resolves once the connection closed. */
export async function dialPlay(
  protocol: Protocol,
  endpoint: SansIoEndpoint<WireData, WireData>,
  options: { host: string; port: number; connection: string; signal: AbortSignal },
): Promise<DialEnd> {
  const transport = protocol.transport;
  const { host, port, signal } = options;
  switch (transport.kind) {
    case 'tcp':
      return dialTcp(
        endpoint as SansIoEndpoint<Uint8Array, Uint8Array>,
        options,
        transport.framing.terminator,
      );
    case 'websocket': {
      const url = `ws://${host}:${port}${transport.path ?? '/'}`;
      try {
        const end = await runWebSocketClient({
          url,
          endpoint: endpoint as SansIoEndpoint<string, string>,
          connection: options.connection,
          signal,
        });
        return end.closedBy === 'failure' ? { failure: `the connection failed: ${end.reason}` } : {};
      } catch (error) {
        if (error instanceof WebSocketOpenError) return { failure: error.message };
        throw error;
      }
    }
    case 'http': {
      // HTTP has no close of the server's: the client's connection ends by the transport only when an
      // exchange failed (or on an interrupt), and the client may close its side in answer to that.
      const http = endpoint as SansIoEndpoint<HttpMessage, HttpMessage>;
      let failed: string | undefined;
      await runHttpClient({
        baseUrl: `http://${host}:${port}/`,
        endpoint: {
          connect(sink, connection) {
            const peer = http.connect(sink, connection);
            return {
              receive: (response) => peer.receive(response),
              end(reason) {
                failed ??= reason;
                peer.end(reason);
              },
            };
          },
        },
        connection: options.connection,
        signal,
      });
      if (failed === undefined || signal.aborted) return {};
      return {
        failure:
          failed === 'connection refused'
            ? `cannot connect to http://${host}:${port}/: connection refused`
            : `the exchange with http://${host}:${port}/ failed: ${failed}`,
      };
    }
  }
}

function dialTcp(
  endpoint: SansIoEndpoint<Uint8Array, Uint8Array>,
  options: { host: string; port: number; connection: string; signal: AbortSignal },
  frameTerminator: number | undefined,
): Promise<DialEnd> {
  const { host, port, signal } = options;
  return new Promise<DialEnd>((done) => {
    let failure: string | undefined;
    let peer: ReturnType<typeof endpoint.connect> | undefined;
    let ended = false;
    const end = (reason?: string) => {
      if (ended || !peer) return;
      ended = true;
      peer.end(reason);
    };
    const socket: TcpClient = new TcpClient(
      { host, port, ...(frameTerminator !== undefined ? { frameTerminator } : {}) },
      {
        onConnect: () => {
          peer = endpoint.connect(
            { send: (bytes) => socket.send(bytes), close: () => socket.end() },
            { id: options.connection, remote: `${host}:${port}` },
          );
        },
        onData: (chunk) => peer?.receive(chunk),
        onEnd: () => end(),
        onFrameTooLong: () => {
          failure = 'the server sent a message longer than the limit; connection dropped';
          socket.destroy();
        },
        onError: (error) => {
          failure ??= error.connecting
            ? `cannot connect to ${host}:${port}: ${error.description}`
            : `the connection failed: ${error.description}`;
        },
        onClose: () => {
          end(failure);
          signal.removeEventListener('abort', stop);
          done(failure !== undefined ? { failure } : {});
        },
      },
    );
    const stop = () => socket.destroy();
    if (signal.aborted) stop();
    signal.addEventListener('abort', stop, { once: true });
  });
}
