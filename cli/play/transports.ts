/**
 * The transports of every `serve` and `connect`, chosen by the protocol's definition (`transport`): the
 * one TCP server and client of the command line (with the protocol's framing), the one WebSocket server
 * and client (one text frame per message), or the one HTTP server and client (sessions keyed by the
 * protocol's `sessionOf`, `httpSessions`, or kept by the endpoint itself). Messages are recorded with the
 * channel the definition's `channelOf` reads. The endpoints they carry do not know which it is; the
 * commands add only what they print.
 */
import type {
  HttpMessage,
  Protocol,
  SansIoEndpoint,
  WireData,
  WirePeer,
} from '../../src/core/protocols/contract';
import { httpSessions } from '../../src/core/session/http-sessions';
import { recordingEndpoint } from '../../src/core/session/recording-endpoint';
import type { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { CliError, ExitCode, usageError } from '../command-line/exit-codes';
import { runHttpClient } from '../net/http-client';
import { HttpServer } from '../net/http-server';
import { describeByteCount } from '../net/frame-counter';
import { DEFAULT_MAX_FRAME_BYTES, TcpClient } from '../net/tcp-client';
import { describeListenError, TcpServer, type TcpServerLimits } from '../net/tcp-server';
import { runWebSocketClient, WebSocketOpenError } from '../net/websocket-client';
import { WebSocketEndpointServer } from '../net/websocket-server';

/** A listening server of the protocol's transport. */
export interface PlayServer {
  /** The bound port (the one picked when 0 was asked). */
  readonly port: number;
  /** Where clients reach it: `http://127.0.0.1:5000/`, `ws://127.0.0.1:3001`, `127.0.0.1:2323` (TCP). */
  readonly address: string;
  /** Connections opened and closed so far, and HTTP exchanges answered (0 for the other transports). */
  activity(): { opened: number; closed: number; exchanges: number };
  /** Closes every connection, with the reason where the transport can say it, and stops listening. */
  close(reason: string): Promise<void>;
}

/** How a command listens. */
export interface ListenOptions {
  host: string;
  port: number;
  /** The server's limits (`--max-connections`, `--idle-timeout`), for every transport. */
  limits: Partial<TcpServerLimits>;
  /** One line per event worth an operator's attention. */
  log(line: string): void;
  /**
   * One transcript of everything the server carries, recorded by the transport (with the channels of the
   * definition's `channelOf`); without it the endpoint records what it wants itself (`recordingEndpoint`).
   */
  recorder?: TranscriptRecorder;
  /** WebSocket: the longest frame accepted, in bytes. */
  maxFrameBytes?: number;
  /**
   * HTTP: the endpoint is a whole server keeping its sessions itself, handed every connection as it is;
   * by default it is one session's host, and requests are routed to a host per session (`sessionOf`).
   */
  endpointKeepsSessions?: boolean;
  /** WebSocket: a connection opened (with the peer's address), or closed (with why). */
  onOpen?(connection: string, remote: string): void;
  onClose?(connection: string, reason: string): void;
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

/** `host:port`, with an IPv6 address in brackets. */
function hostAndPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Starts the protocol's server carrying `endpoint`; a server that cannot listen ends the command (exit
 * code 4) saying why.
 */
export async function listenPlay(
  protocol: Protocol,
  endpoint: SansIoEndpoint<WireData, WireData>,
  options: ListenOptions,
): Promise<PlayServer> {
  try {
    return await startServer(protocol, endpoint, options);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(
      ExitCode.connection,
      `cannot listen on ${options.host}:${options.port}: ${describeListenError(error)}`,
    );
  }
}

async function startServer(
  protocol: Protocol,
  endpoint: SansIoEndpoint<WireData, WireData>,
  options: ListenOptions,
): Promise<PlayServer> {
  const transport = protocol.transport;
  const { host, recorder } = options;
  switch (transport.kind) {
    case 'tcp': {
      const counts = { opened: 0, closed: 0 };
      const clientTerminator = transport.framing.terminator ?? transport.framing.clientTerminator;
      const server = await TcpServer.start({
        endpoint: countingEndpoint(
          recorder
            ? recordingEndpoint(endpoint, { protocol, side: 'host', recorderFor: () => recorder })
            : endpoint,
          counts,
        ) as SansIoEndpoint<Uint8Array, Uint8Array>,
        host,
        port: options.port,
        ...(clientTerminator !== undefined ? { frameTerminator: clientTerminator } : {}),
        limits: options.limits,
        log: options.log,
      });
      return {
        port: server.address.port,
        address: hostAndPort(host, server.address.port),
        activity: () => ({ ...counts, exchanges: 0 }),
        close: (reason) => server.close(reason),
      };
    }
    case 'websocket': {
      const server = await WebSocketEndpointServer.start({
        endpoint: endpoint as SansIoEndpoint<string, string>,
        host,
        port: options.port,
        ...options.limits,
        ...(options.maxFrameBytes !== undefined ? { maxPayload: options.maxFrameBytes } : {}),
        ...(recorder ? { recorder } : {}),
        ...(transport.channelOf ? { channelOf: transport.channelOf } : {}),
        ...(options.onOpen ? { onOpen: options.onOpen } : {}),
        ...(options.onClose ? { onClose: options.onClose } : {}),
      });
      return {
        port: server.port,
        address: `ws://${hostAndPort(host, server.port)}${transport.path ?? ''}`,
        activity: () => ({ ...server.connections, exchanges: 0 }),
        close: (reason) => server.close(reason),
      };
    }
    case 'http': {
      const { sessionOf } = transport;
      let served = endpoint as SansIoEndpoint<HttpMessage, HttpMessage>;
      let closeSessions: (reason: string) => void = () => undefined;
      if (!options.endpointKeepsSessions) {
        if (!sessionOf) throw usageError(`protoplay serve ${protocol.id}: no sessions over http`);
        const sessions = httpSessions(sessionOf, served);
        served = sessions.endpoint;
        closeSessions = (reason) => sessions.close(reason);
      }
      const server = await HttpServer.start({
        endpoint: served,
        host,
        port: options.port,
        ...options.limits,
        ...(recorder ? { recorder } : {}),
        ...(transport.channelOf ? { channelOf: transport.channelOf } : {}),
        log: options.log,
      });
      return {
        port: server.address.port,
        address: `http://${hostAndPort(host, server.address.port)}/`,
        activity: () => ({ opened: 0, closed: 0, exchanges: server.exchanges }),
        close: async (reason) => {
          closeSessions(reason);
          await server.close(reason);
        },
      };
    }
  }
}

/** A peer with what the TCP server may read of it besides its messages (`ServedPeer`). */
type LabelledPeer = WirePeer<WireData> & { readonly label?: string; readonly waitingForServer?: boolean };

/** The endpoint, counting the connections it was handed and those that ended. */
function countingEndpoint(
  endpoint: SansIoEndpoint<WireData, WireData>,
  counts: { opened: number; closed: number },
): SansIoEndpoint<WireData, WireData> {
  return {
    connect(sink, connection) {
      counts.opened++;
      const peer: LabelledPeer = endpoint.connect(sink, connection);
      let ended = false;
      // The TCP server reads the peer's `label` and `waitingForServer` when it needs them: pass them on.
      return {
        get label() {
          return peer.label;
        },
        get waitingForServer() {
          return peer.waitingForServer;
        },
        receive: (data) => peer.receive(data),
        end(reason) {
          if (!ended) counts.closed++;
          ended = true;
          peer.end(reason);
        },
      };
    },
  };
}

/**
 * Serves until Ctrl-C or until `limit.reached` resolves, then closes the server with the reason
 * (`interrupted`, or the limit's).
 */
export async function serveUntilStopped(
  server: Pick<PlayServer, 'close'>,
  signal: AbortSignal,
  limit?: { reached: Promise<void>; reason: string },
): Promise<void> {
  const interrupted = new Promise<void>((stop) => {
    if (signal.aborted) stop();
    signal.addEventListener('abort', () => stop(), { once: true });
  });
  await Promise.race(limit ? [interrupted, limit.reached] : [interrupted]);
  await server.close(signal.aborted || !limit ? 'interrupted' : limit.reason);
}

/** How a client connection ended. */
export interface DialEnd {
  /**
   * Who ended it: the client endpoint closing, the server, the transport failing (also when it could not
   * connect), or the signal.
   */
  closedBy: 'client' | 'server' | 'failure' | 'interrupted';
  /** The transport's words for the end (`connection refused`, the close frame's reason...). */
  reason: string;
  /** Why, for people, when it was neither side closing nor the signal. */
  failure?: string;
  /** Set when no connection was made at all (refused, no such host, a failed handshake). */
  unreachable?: true;
}

/** Where `dialPlay` connects: a host and port, or (WebSocket and HTTP) the server's URL in full. */
export type DialTarget = { host: string; port: number; url?: never } | { url: string };

/** Options of `dialPlay`. */
export type DialOptions = DialTarget & {
  /** The connection id recorded. */
  connection: string;
  signal: AbortSignal;
  /** Records every message, by the transport, with the channels of the definition's `channelOf`. */
  recorder?: TranscriptRecorder;
  /** HTTP: give up on a request without an answer after this long, in ms; 0 = wait forever. */
  timeoutMs?: number;
  /**
   * WebSocket: the longest frame accepted, in bytes. TCP, with a framing that has a terminator: the longest
   * message accepted without it (default 64 MiB); the connection is dropped before anything holds more.
   */
  maxFrameBytes?: number;
};

/** Connects `endpoint` (a client) to the protocol's server and resolves once the connection is over. */
export async function dialPlay(
  protocol: Protocol,
  endpoint: SansIoEndpoint<WireData, WireData>,
  options: DialOptions,
): Promise<DialEnd> {
  const transport = protocol.transport;
  const { signal, recorder } = options;
  switch (transport.kind) {
    case 'tcp':
      if (options.url !== undefined)
        throw usageError(`${protocol.id} speaks TCP: give a host and a port, not a URL`);
      return openTcpDial(protocol, endpoint as SansIoEndpoint<Uint8Array, Uint8Array>, options).ended;
    case 'websocket': {
      const url = options.url ?? `ws://${hostAndPort(options.host, options.port)}${transport.path ?? '/'}`;
      try {
        const end = await runWebSocketClient({
          url,
          endpoint: endpoint as SansIoEndpoint<string, string>,
          connection: options.connection,
          ...(options.maxFrameBytes !== undefined ? { maxPayload: options.maxFrameBytes } : {}),
          ...(recorder ? { recorder } : {}),
          ...(transport.channelOf ? { channelOf: transport.channelOf } : {}),
          signal,
        });
        if (end.closedBy === 'failure') return { ...end, failure: `the connection failed: ${end.reason}` };
        return signal.aborted && end.closedBy === 'server'
          ? { closedBy: 'interrupted', reason: end.reason }
          : end;
      } catch (error) {
        if (error instanceof WebSocketOpenError)
          return { closedBy: 'failure', reason: error.message, failure: error.message, unreachable: true };
        throw error;
      }
    }
    case 'http': {
      const base = options.url ?? `http://${hostAndPort(options.host, options.port)}/`;
      // HTTP has no close of the server's: the connection ends by the client, the signal, or a failed
      // exchange, which the transport tells the client (`end`); the client may close in answer to it.
      const http = endpoint as SansIoEndpoint<HttpMessage, HttpMessage>;
      let failed: string | undefined;
      const end = await runHttpClient({
        baseUrl: base,
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
        ...(recorder ? { recorder } : {}),
        ...(transport.channelOf ? { channelOf: transport.channelOf } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        signal,
      });
      if (end.kind === 'aborted' || signal.aborted) return { closedBy: 'interrupted', reason: end.reason };
      if (failed === undefined) return { closedBy: 'client', reason: end.reason };
      if (failed === 'connection refused')
        return {
          closedBy: 'failure',
          reason: failed,
          failure: `cannot connect to ${base}: connection refused`,
          unreachable: true,
        };
      return { closedBy: 'failure', reason: failed, failure: `the exchange with ${base} failed: ${failed}` };
    }
  }
}

/** Options of `openTcpDial`: those of `dialPlay`, and what a stream protocol's own `connect` steers. */
export type TcpDialOptions = Omit<DialOptions, 'signal'> & {
  host: string;
  port: number;
  /**
   * Drops the connection when aborted. Optional here: a caller with many connections (a team of agents)
   * drops them itself rather than add a listener per connection to one signal.
   */
  signal?: AbortSignal;
  /**
   * Back-pressure for an endpoint that holds what it is handed while its policy thinks: it says how many
   * bytes it has read (`TcpDial.read`), and the socket stops reading while more than this many bytes handed
   * to it are unread, until every one is read. Without it the socket always reads.
   */
  maxUnreadBytes?: number;
  /** The connection failed, told as it happens, before the endpoint hears the end (a caller's report). */
  onFailure?(failure: DialFailure): void;
};

/** How a TCP connection failed; `message` says it for people (`cannot connect to 127.0.0.1:2323: connection refused`). */
export type DialFailure =
  /** No connection was made; `code` is the socket's (`ECONNREFUSED`, `ENOTFOUND`...). */
  | { kind: 'unreachable'; code: string; message: string }
  /** The connection broke after it was made (`ECONNRESET`...). */
  | { kind: 'socket'; code: string; message: string }
  /** The server sent more than `maxFrameBytes` without ending a message; the connection was dropped. */
  | { kind: 'frame-too-long'; maxFrameBytes: number; message: string };

/** A TCP connection being dialed, with the controls a stream protocol's `connect` uses. */
export interface TcpDial {
  /** Resolves once the connection is over, after the endpoint heard its end. */
  readonly ended: Promise<DialEnd>;
  /** The endpoint read `bytes` of what it was handed (with `maxUnreadBytes`). */
  read(bytes: number): void;
  /** The socket stopped reading: more than `maxUnreadBytes` handed to the endpoint are unread. */
  readonly readingPaused: boolean;
  /** Drops the connection at once, both ways, without waiting for the server (`closedBy: 'client'`). */
  drop(): void;
  /** Dropped, failed, or the endpoint heard the server's close: nothing more can be sent. */
  readonly closed: boolean;
}

/**
 * Connects `endpoint` (a client) to a TCP protocol's server through the command line's one TCP client:
 * with the protocol's terminator the server's messages are capped at `maxFrameBytes`; the endpoint is
 * handed the bytes as they come (the framing is its own), hears the server's close (FIN, or a reset or
 * failure with its reason), and its sink's `close` ends this side (FIN) after what it sent.
 */
export function openTcpDial(
  protocol: Protocol,
  client: SansIoEndpoint<Uint8Array, Uint8Array>,
  options: TcpDialOptions,
): TcpDial {
  const transport = protocol.transport;
  if (transport.kind !== 'tcp') throw usageError(`${protocol.id} does not speak TCP`);
  const { host, port, signal, recorder, maxUnreadBytes } = options;
  const endpoint = recorder
    ? (recordingEndpoint(client, {
        protocol,
        side: 'client',
        recorderFor: () => recorder,
      }) as SansIoEndpoint<Uint8Array, Uint8Array>)
    : client;
  const terminator = transport.framing.terminator;
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  let failure: DialFailure | undefined;
  let closedBy: DialEnd['closedBy'] | undefined;
  let peer: ReturnType<typeof endpoint.connect> | undefined;
  let ended = false;
  /** Bytes handed to the endpoint and not yet read by it (with `maxUnreadBytes`). */
  let unread = 0;
  const end = (reason?: string) => {
    if (ended || !peer) return;
    ended = true;
    peer.end(reason);
  };
  const fail = (found: DialFailure) => {
    if (failure) return;
    failure = found;
    options.onFailure?.(found);
  };
  let settle: (end: DialEnd) => void = () => undefined;
  const ended$ = new Promise<DialEnd>((done) => (settle = done));
  const socket: TcpClient = new TcpClient(
    { host, port, maxFrameBytes, ...(terminator !== undefined ? { frameTerminator: terminator } : {}) },
    {
      onConnect: () => {
        peer = endpoint.connect(
          {
            send: (bytes) => {
              if (!socket.destroyed) socket.send(bytes);
            },
            close: () => {
              closedBy ??= 'client';
              socket.end();
            },
          },
          { id: options.connection, remote: `${host}:${port}` },
        );
      },
      onData: (chunk) => {
        if (maxUnreadBytes !== undefined) {
          // Counted before the endpoint reads (it may read at once): a pause is only for what it holds.
          unread += chunk.length;
          if (unread > maxUnreadBytes) socket.pauseReading();
        }
        peer?.receive(chunk);
      },
      onEnd: () => {
        closedBy ??= 'server';
        end();
      },
      onFrameTooLong: () => {
        fail({
          kind: 'frame-too-long',
          maxFrameBytes,
          message: `the server sent more than ${describeByteCount(maxFrameBytes)} without ending a message; connection dropped`,
        });
        socket.destroy();
      },
      onError: (error) => {
        fail(
          error.connecting
            ? {
                kind: 'unreachable',
                code: error.code,
                message: `cannot connect to ${host}:${port}: ${error.description}`,
              }
            : { kind: 'socket', code: error.code, message: `the connection failed: ${error.description}` },
        );
      },
      onClose: () => {
        end(failure?.message);
        signal?.removeEventListener('abort', stop);
        if (failure !== undefined)
          settle({
            closedBy: 'failure',
            reason: failure.message,
            failure: failure.message,
            ...(failure.kind === 'unreachable' ? { unreachable: true } : {}),
          });
        else if (closedBy === undefined && signal?.aborted)
          settle({ closedBy: 'interrupted', reason: 'interrupted' });
        else settle({ closedBy: closedBy ?? 'server', reason: 'closed' });
      },
    },
  );
  const stop = () => socket.destroy();
  if (signal?.aborted) stop();
  signal?.addEventListener('abort', stop, { once: true });
  return {
    ended: ended$,
    read(bytes) {
      unread = Math.max(0, unread - bytes);
      if (unread === 0 && socket.readingPaused) socket.resumeReading();
    },
    get readingPaused() {
      return socket.readingPaused;
    },
    drop() {
      if (socket.destroyed) return;
      closedBy ??= 'client';
      socket.destroy();
    },
    get closed() {
      return ended || socket.destroyed;
    },
  };
}
