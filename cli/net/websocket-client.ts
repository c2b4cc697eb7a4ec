/**
 * A WebSocket client for any text protocol whose client side is a sans-IO endpoint: connects, hands the
 * connection to the endpoint, carries its frames both ways and records them, and resolves when the
 * connection is closed, by either side.
 */
import WebSocket from 'ws';
import type { SansIoEndpoint } from '../../src/core/protocols/contract';
import type { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { describeClose, rawText, recordFrame, type ChannelOf } from './websocket-server';

/** How long a close the client started waits for the server's close frame before the socket is dropped. */
const CLOSE_WAIT_MS = 2_000;

/** Options of `runWebSocketClient`. */
export interface WebSocketClientOptions {
  /** `ws://host:port/path`. */
  url: string;
  endpoint: SansIoEndpoint<string, string>;
  /** Connection id in the transcript and for the endpoint. */
  connection?: string;
  /** Longest frame accepted, in bytes (default 1 MiB). */
  maxPayload?: number;
  /** Time allowed to open the connection, in ms (default 10 s). */
  openTimeoutMs?: number;
  recorder?: TranscriptRecorder;
  channelOf?: ChannelOf;
  /** Closes the connection (1001) when aborted. */
  signal?: AbortSignal;
}

/** How a client connection ended. */
export interface WebSocketClientEnd {
  /** Who closed: the endpoint (`client`), the server, or nobody (the connection failed or was lost). */
  closedBy: 'client' | 'server' | 'failure';
  reason: string;
}

/** The connection could not be opened (refused, timed out, bad URL...). */
export class WebSocketOpenError extends Error {}

/** Connects and runs the endpoint until the connection closes. Rejects only when it cannot connect. */
export function runWebSocketClient(options: WebSocketClientOptions): Promise<WebSocketClientEnd> {
  const conn = options.connection ?? 'c1';
  const { recorder, channelOf } = options;
  return new Promise((resolve, reject) => {
    let socket: WebSocket;
    try {
      socket = new WebSocket(options.url, {
        maxPayload: options.maxPayload ?? 1024 * 1024,
        handshakeTimeout: options.openTimeoutMs ?? 10_000,
      });
    } catch (error) {
      reject(new WebSocketOpenError(`cannot connect to ${options.url}: ${(error as Error).message}`));
      return;
    }
    let opened = false;
    let closedByClient: string | undefined;
    let failure: string | undefined;
    const abort = () => {
      socket.close(1001, 'interrupted');
      setTimeout(() => socket.terminate(), CLOSE_WAIT_MS).unref();
    };
    options.signal?.addEventListener('abort', abort, { once: true });
    socket.on('error', (error) => {
      failure ??= error.message || (error as NodeJS.ErrnoException).code || String(error);
      if (opened) recorder?.event(conn, 's2c', 'error', failure);
    });
    socket.on('open', () => {
      opened = true;
      recorder?.event(conn, 'c2s', 'open', options.url);
      const peer = options.endpoint.connect(
        {
          send: (text) => {
            if (socket.readyState !== WebSocket.OPEN) return;
            recordFrame(recorder, conn, 'c2s', text, channelOf);
            socket.send(text);
          },
          close: (reason) => {
            if (closedByClient !== undefined) return;
            closedByClient = reason ?? '';
            recorder?.event(conn, 'c2s', 'close', reason);
            socket.close(1000, closedByClient.slice(0, 120));
            // A server that stopped answering does not answer the close either: do not wait 30 s for it.
            setTimeout(() => socket.terminate(), CLOSE_WAIT_MS).unref();
          },
        },
        { id: conn, remote: options.url },
      );
      socket.on('message', (data, isBinary) => {
        if (isBinary) {
          recorder?.event(conn, 's2c', 'error', 'a binary frame; this protocol speaks text frames');
          return;
        }
        const text = rawText(data);
        recordFrame(recorder, conn, 's2c', text, channelOf);
        peer.receive(text);
      });
      socket.on('close', (code, reason) => {
        const why = describeClose(code, reason.toString());
        if (closedByClient === undefined)
          recorder?.event(conn, 's2c', 'close', failure ? `${why} (${failure})` : why);
        // The endpoint learns once that the connection is over, also when it closed first (as over TCP).
        peer.end(why);
      });
    });
    socket.on('close', (code, reason) => {
      options.signal?.removeEventListener('abort', abort);
      if (!opened) {
        reject(
          new WebSocketOpenError(`cannot connect to ${options.url}: ${failure ?? describeClose(code, '')}`),
        );
        return;
      }
      if (closedByClient !== undefined) resolve({ closedBy: 'client', reason: closedByClient });
      else if (code === 1006) resolve({ closedBy: 'failure', reason: failure ?? 'connection lost' });
      else resolve({ closedBy: 'server', reason: describeClose(code, reason.toString()) });
    });
  });
}
