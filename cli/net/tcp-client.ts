/**
 * The one TCP client of the command line, for every stream protocol's `connect`: it opens the connection
 * (TCP_NODELAY: each burst of messages is one write), names a failure to connect the same way for every
 * protocol, can stop reading while the protocol client is busy, and, when the protocol ends its messages
 * with a terminator byte, refuses a server that sends more than `maxFrameBytes` without one before
 * anything holds it.
 */
import { connect, type Socket } from 'node:net';
import { TerminatorCounter } from './frame-counter';

/** A socket error, with the phase it happened in. */
export interface TcpClientError {
  /** The connection was never made (refused, unreachable...). */
  connecting: boolean;
  /** `ECONNRESET`, or the message when there is no code. */
  code: string;
  /** For people: `connection refused`, else the code. */
  description: string;
}

/** What the client reports, in the order it happens. */
export interface TcpClientHandlers {
  onConnect(): void;
  /** Bytes from the server. */
  onData(chunk: Uint8Array): void;
  /** The server closed its side (FIN). */
  onEnd(): void;
  onError(error: TcpClientError): void;
  /** The server sent more than `maxFrameBytes` without the terminator; nothing after is delivered. */
  onFrameTooLong?(): void;
  /** The socket closed (always last). */
  onClose(): void;
}

/** Options of a client connection. */
export interface TcpClientOptions {
  host: string;
  port: number;
  /** The byte that ends every message the server sends, when it has one (MASSim: 0). */
  frameTerminator?: number;
  /** Longest message accepted from the server (with `frameTerminator`; default 64 MiB). */
  maxFrameBytes?: number;
}

/** The longest message accepted from a server by default: 64 MiB. */
export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** One connection to a server. */
export class TcpClient {
  readonly #socket: Socket;
  #connected = false;
  #refused = false;

  constructor(options: TcpClientOptions, handlers: TcpClientHandlers) {
    const socket = connect({ host: options.host, port: options.port, noDelay: true });
    this.#socket = socket;
    const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    const frames =
      options.frameTerminator === undefined
        ? undefined
        : new TerminatorCounter(options.frameTerminator, maxFrameBytes);
    socket.on('connect', () => {
      this.#connected = true;
      handlers.onConnect();
    });
    socket.on('data', (chunk: Buffer) => {
      if (this.#refused) return;
      if (frames && !frames.push(chunk)) {
        this.#refused = true;
        handlers.onFrameTooLong?.();
        return;
      }
      handlers.onData(chunk);
    });
    socket.on('end', () => handlers.onEnd());
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.message;
      handlers.onError({
        connecting: !this.#connected,
        code,
        description: code === 'ECONNREFUSED' ? 'connection refused' : code,
      });
    });
    socket.on('close', () => handlers.onClose());
  }

  /** The connection was made (it may have closed since). */
  get connected(): boolean {
    return this.#connected;
  }

  /** Closed, or being closed, from this side. */
  get destroyed(): boolean {
    return this.#socket.destroyed;
  }

  /** Reading is paused (`pauseReading`). */
  get readingPaused(): boolean {
    return this.#socket.isPaused();
  }

  /** Writes bytes (or ASCII/UTF-8 text) to the server. */
  send(data: Uint8Array | string): void {
    this.#socket.write(data);
  }

  /** Stops reading: the server's writes wait in the network until `resumeReading`. */
  pauseReading(): void {
    this.#socket.pause();
  }

  resumeReading(): void {
    this.#socket.resume();
  }

  /** Closes this side after what was written (FIN); the server may still send. */
  end(): void {
    this.#socket.end();
  }

  /** Drops the connection at once. */
  destroy(): void {
    this.#socket.destroy();
  }
}
