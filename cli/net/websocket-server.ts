/**
 * A WebSocket server for any text protocol whose server side is a sans-IO endpoint: each connection is
 * handed to the endpoint, each text frame is one message, and everything that crosses the socket is
 * recorded in a transcript (connection events, frames, the channel of each frame when the protocol names
 * one). Binds 127.0.0.1 unless told otherwise, and keeps every peer within bounds: frames longer than
 * `maxPayload` close the connection (1009), a text frame of invalid UTF-8 too (1007), a peer that lets more
 * than `maxQueuedBytes` of frames pile up unread is dropped, a connection idle for `idleTimeoutMs` is
 * closed, connections beyond `maxConnections` are refused (1013). Each such end is the reason `onClose`
 * gets, so the command logs one line per misbehaving peer.
 */
import type { Socket } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { SansIoEndpoint } from '../../src/core/protocols/contract';
import type { Direction } from '../../src/core/transcript/model';
import type { TranscriptRecorder } from '../../src/core/transcript/recorder';

/** The channel (agent) a frame is for or from, when several agents share a connection. */
export type ChannelOf = (text: string, dir: Direction) => string | undefined;

/** Options of a WebSocket endpoint server. */
export interface WebSocketEndpointServerOptions {
  endpoint: SansIoEndpoint<string, string>;
  /** Default 127.0.0.1: only this machine can connect. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** Longest frame accepted, in bytes (default 1 MiB). */
  maxPayload?: number;
  /** Connections open at once; one more is closed at once (1013) (default 512). */
  maxConnections?: number;
  /** A connection with no byte in either direction for this long is closed, in ms; 0 = never (default 1 h). */
  idleTimeoutMs?: number;
  /**
   * Bytes of frames sent and not yet taken by the peer at which the server stops reading from it, until
   * they drain (default 1 MiB): a peer that sends requests without reading the answers is slowed to the
   * pace it reads at.
   */
  pauseReadingBytes?: number;
  /** Bytes of frames sent and not yet taken by the peer beyond which it is dropped (default 16 MiB). */
  maxQueuedBytes?: number;
  recorder?: TranscriptRecorder;
  channelOf?: ChannelOf;
  /** A connection opened (with the peer's address) or closed (with why). */
  onOpen?(connection: string, remote: string): void;
  onClose?(connection: string, reason: string): void;
}

/** Records one frame and its channel. */
export function recordFrame(
  recorder: TranscriptRecorder | undefined,
  conn: string,
  dir: Direction,
  text: string,
  channelOf: ChannelOf | undefined,
): void {
  if (!recorder) return;
  recorder.text(conn, dir, text, 'frame', channelOf?.(text, dir));
}

/** Why a WebSocket closed, in words. */
export function describeClose(code: number, reason: string): string {
  const known: Record<number, string> = {
    1000: 'closed normally',
    1001: 'going away',
    1003: 'unsupported data',
    1005: 'closed without status',
    1006: 'connection lost',
    1007: 'invalid UTF-8 in a text frame',
    1008: 'policy violation',
    1009: 'frame too large',
    1013: 'try again later',
  };
  return `${known[code] ?? `code ${code}`}${reason ? `: ${reason}` : ''}`;
}

/** A listening WebSocket server serving one endpoint. */
export class WebSocketEndpointServer {
  readonly #server: WebSocketServer;
  readonly #sockets = new Set<WebSocket>();
  #connections = 0;
  #closedConnections = 0;

  private constructor(server: WebSocketServer) {
    this.#server = server;
  }

  /** Starts listening; rejects with the socket error (address in use...) when it cannot. */
  static async start(options: WebSocketEndpointServerOptions): Promise<WebSocketEndpointServer> {
    const server = new WebSocketServer({
      host: options.host ?? '127.0.0.1',
      port: options.port,
      maxPayload: options.maxPayload ?? 1024 * 1024,
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.once('listening', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const instance = new WebSocketEndpointServer(server);
    server.on('connection', (socket, request) => instance.#serve(socket, request.socket, options));
    // Later server errors must not crash the process; each socket reports its own.
    server.on('error', () => undefined);
    return instance;
  }

  /** The bound port. */
  get port(): number {
    const address = this.#server.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  /** Connections accepted so far, and those that closed. */
  get connections(): { opened: number; closed: number } {
    return { opened: this.#connections, closed: this.#closedConnections };
  }

  /** Closes every connection (1001, with the reason) and stops listening. */
  async close(reason = 'server stopping'): Promise<void> {
    for (const socket of this.#sockets) socket.close(1001, reason.slice(0, 120));
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.terminate();
  }

  #serve(socket: WebSocket, raw: Socket, options: WebSocketEndpointServerOptions): void {
    const remote = raw.remoteAddress ?? '?';
    const conn = `c${++this.#connections}`;
    const { recorder, channelOf } = options;
    const maxConnections = options.maxConnections ?? 512;
    if (this.#sockets.size >= maxConnections) {
      socket.close(1013, 'too many connections');
      socket.once('close', () => this.#closedConnections++);
      options.onOpen?.(conn, remote);
      options.onClose?.(conn, `refused: ${maxConnections} connections are open (maxConnections)`);
      return;
    }
    this.#sockets.add(socket);
    /** Why the server ended the connection itself, when the peer misbehaved. */
    let dropped: string | undefined;
    const drop = (why: string) => {
      if (dropped !== undefined) return;
      dropped = why;
      socket.terminate();
    };
    const idleTimeoutMs = options.idleTimeoutMs ?? 60 * 60 * 1000;
    if (idleTimeoutMs > 0)
      raw.setTimeout(idleTimeoutMs, () =>
        drop(`no traffic for ${idleTimeoutMs / 1000} s; connection closed`),
      );
    const maxQueuedBytes = options.maxQueuedBytes ?? 16 * 1024 * 1024;
    const pauseReadingBytes = options.pauseReadingBytes ?? 1024 * 1024;
    raw.on('drain', () => {
      if (!raw.destroyed) raw.resume();
    });
    recorder?.event(conn, 'c2s', 'open', remote);
    options.onOpen?.(conn, remote);
    let ended = false;
    const peer = options.endpoint.connect(
      {
        send: (text) => {
          if (socket.readyState !== socket.OPEN) return;
          recordFrame(recorder, conn, 's2c', text, channelOf);
          socket.send(text);
          if (socket.bufferedAmount > maxQueuedBytes)
            drop(`does not read what it is sent (over ${maxQueuedBytes} bytes waiting); dropped`);
          else if (socket.bufferedAmount >= pauseReadingBytes) raw.pause();
        },
        close: (reason) => {
          if (ended) return;
          ended = true;
          recorder?.event(conn, 's2c', 'close', reason);
          socket.close(1000, (reason ?? '').slice(0, 120));
        },
      },
      { id: conn, remote },
    );
    socket.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) {
        recorder?.event(conn, 'c2s', 'error', 'a binary frame; this protocol speaks text frames');
        socket.close(1003, 'text frames only');
        return;
      }
      const text = rawText(data);
      recordFrame(recorder, conn, 'c2s', text, channelOf);
      peer.receive(text);
    });
    socket.on('error', (error: Error & { code?: string }) => {
      // ws closes the connection after an error of the peer's; its reason is the one worth logging.
      dropped ??=
        error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'
          ? `frame too large (over ${options.maxPayload ?? 1024 * 1024} bytes); connection closed`
          : error.code === 'WS_ERR_INVALID_UTF8'
            ? 'invalid UTF-8 in a text frame; connection closed'
            : `broke the WebSocket protocol (${error.message}); connection closed`;
      recorder?.event(conn, 'c2s', 'error', error.message);
    });
    socket.on('close', (code, reason) => {
      this.#sockets.delete(socket);
      this.#closedConnections++;
      const why = dropped ?? describeClose(code, reason.toString());
      if (!ended) {
        ended = true;
        recorder?.event(conn, 'c2s', 'close', why);
      }
      // The endpoint learns once that the connection is over, also when it closed first (as over TCP).
      peer.end(why);
      options.onClose?.(conn, why);
    });
  }
}

/** A frame's payload as text. */
export function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
