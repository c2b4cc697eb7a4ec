/**
 * The one TCP server of the command line: it serves any stream protocol's sans-IO endpoint (an emulated
 * rddlsim or MASSim server), one endpoint connection per TCP connection, and keeps every peer within
 * bounds, so one client that misbehaves (never reads, never ends a message, holds a connection open doing
 * nothing) costs that connection and a log line, never the process's memory or the other clients:
 *
 * - backpressure: a peer whose answers are not drained is not read from until they are, and a peer that
 *   lets more than `maxQueuedBytes` pile up (it does not read what the server sends unasked) is dropped;
 * - a frame cap: a peer that sends more than `maxFrameBytes` without the protocol's terminator is dropped;
 * - a connection limit and an idle timeout.
 *
 * It binds 127.0.0.1 unless told otherwise, sets TCP_NODELAY (the endpoints write each burst of messages in
 * one write), and never lets an exception from an endpoint escape into the accept loop.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { SansIoEndpoint, WirePeer } from '../../src/core/protocols/contract';
import { describeError } from '../../src/core/errors';
import { describeByteCount, TerminatorCounter } from './frame-counter';

/** What the server guards against, per connection unless said otherwise. Every limit has a safe default. */
export interface TcpServerLimits {
  /** Connections open at once; one more is closed at once with a log line (default 512). */
  maxConnections: number;
  /** A connection with no byte in either direction for this long is closed, in ms; 0 = never (default 1 h). */
  idleTimeoutMs: number;
  /**
   * Bytes written and not yet taken by the peer at which the server stops reading from it, until they
   * drain (default 1 MiB; at least the socket's own 16 KiB buffer). A peer that sends requests without
   * reading the answers is slowed to the pace it reads at.
   */
  pauseReadingBytes: number;
  /**
   * Bytes written and not yet taken by the peer beyond which it is dropped (default 16 MiB): a peer that
   * does not read what the endpoint sends without being asked (MASSim's percepts every step).
   */
  maxQueuedBytes: number;
  /**
   * Longest message a peer may send, in bytes before its terminator, when the server knows the terminator
   * (`frameTerminator`); a peer that goes past it is dropped (default 1 MiB).
   */
  maxFrameBytes: number;
  /** How long a connection the endpoint closed waits for the peer to close its side, in ms (default 5 s). */
  lingerMs: number;
}

/** The defaults of `TcpServerLimits`. */
export const DEFAULT_TCP_SERVER_LIMITS: Readonly<TcpServerLimits> = {
  maxConnections: 512,
  idleTimeoutMs: 60 * 60 * 1000,
  pauseReadingBytes: 1024 * 1024,
  maxQueuedBytes: 16 * 1024 * 1024,
  maxFrameBytes: 1024 * 1024,
  lingerMs: 5_000,
};

/** A peer as the server sees it: what the endpoint returned, with the name logs use for it. */
export type ServedPeer = WirePeer<Uint8Array> & {
  /**
   * How log lines name this connection (`session 3`, `agentA1.conn1`); read when a line is written, so it
   * may change (a MASSim connection is named after the agent that logs in). Absent: its address.
   */
  readonly label?: string;
  /**
   * True while the peer has nothing to say until the server speaks (a MASSim agent logged in and waiting
   * for the match): the idle timeout does not close it then. Read when the timeout fires.
   */
  readonly waitingForServer?: boolean;
};

/** Options of a server. */
export interface TcpServerOptions {
  /** What serves each connection. */
  endpoint: SansIoEndpoint<Uint8Array, Uint8Array> & {
    connect(...args: Parameters<SansIoEndpoint<Uint8Array, Uint8Array>['connect']>): ServedPeer;
  };
  /** Address to bind (default 127.0.0.1: only this machine). */
  host?: string;
  /** Port; 0 picks a free one. */
  port: number;
  /** The byte that ends every message a peer sends (0 for rddlsim and MASSim); without it frames are not capped. */
  frameTerminator?: number;
  limits?: Partial<TcpServerLimits>;
  /** One line per event worth an operator's attention (a refused or dropped peer, a socket error). */
  log(line: string): void;
}

/** Why listening failed, in words (`the address is in use`). */
export function describeListenError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return 'the address is in use';
  if (code === 'EACCES') return 'permission denied';
  return code ?? describeError(error);
}

/** A listening server. */
export class TcpServer {
  readonly #options: TcpServerOptions;
  readonly #limits: TcpServerLimits;
  readonly #server: Server;
  readonly #connections = new Set<ServedConnection>();
  #serial = 0;

  private constructor(options: TcpServerOptions) {
    this.#options = options;
    this.#limits = { ...DEFAULT_TCP_SERVER_LIMITS, ...options.limits };
    this.#server = createServer(
      // Half-open: a peer's FIN must not end our side before the requests that came before it are answered
      // (some may still wait to be fed); the connection ends its side itself once they are.
      { noDelay: true, allowHalfOpen: true },
      (socket) => this.#accept(socket),
    );
  }

  /** Starts listening; rejects with the socket error (address in use...) when it cannot. */
  static async start(options: TcpServerOptions): Promise<TcpServer> {
    const server = new TcpServer(options);
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.#server.once('error', reject);
      server.#server.listen(options.port, host, () => {
        server.#server.off('error', reject);
        resolve();
      });
    });
    // Later server errors (out of file descriptors...) are logged; they never end the process.
    server.#server.on('error', (error) => options.log(`server error: ${describeError(error)}`));
    return server;
  }

  /** The bound address and port. */
  get address(): { host: string; port: number } {
    const address = this.#server.address();
    if (address === null || typeof address === 'string')
      return { host: this.#options.host ?? '127.0.0.1', port: this.#options.port };
    return { host: address.address, port: address.port };
  }

  /** Connections open now. */
  get openConnections(): number {
    return this.#connections.size;
  }

  /**
   * Stops listening and drops every open connection (each endpoint connection is told, with `reason`);
   * resolves once they are all closed.
   */
  async close(reason = 'the server stopped'): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    await Promise.all([...this.#connections].map((connection) => connection.drop(reason)));
    await closed;
  }

  #accept(socket: Socket): void {
    const remote = `${socket.remoteAddress}:${socket.remotePort}`;
    if (this.#connections.size >= this.#limits.maxConnections) {
      this.#options.log(
        `connection from ${remote} refused: ${this.#limits.maxConnections} connections are open (the limit)`,
      );
      socket.destroy();
      return;
    }
    const connection = new ServedConnection(socket, `tcp${++this.#serial}`, remote, this.#limits, {
      ...this.#options,
      onClosed: () => this.#connections.delete(connection),
    });
    this.#connections.add(connection);
    connection.open(this.#options.endpoint);
  }
}

/**
 * What the endpoint is handed at most at a time: a turn's message fits in one slice, and the answers to
 * one slice stay far below the limits.
 */
const FEED_SLICE_BYTES = 4 * 1024;

interface ConnectionHooks extends TcpServerOptions {
  onClosed(): void;
}

/** One TCP connection and the endpoint connection it carries. */
class ServedConnection {
  readonly #socket: Socket;
  readonly #id: string;
  readonly #remote: string;
  readonly #limits: TcpServerLimits;
  readonly #hooks: ConnectionHooks;
  readonly #frames: TerminatorCounter | undefined;
  readonly #closed: Promise<void>;
  #peer: ServedPeer | undefined;
  /** Set once the peer has been told the connection ended. */
  #ended = false;
  /** The server closed or dropped the connection: later socket errors are expected, not news. */
  #closing = false;
  #pausedForWrites = false;
  /** Bytes read but not yet handed to the endpoint (reading paused in the middle of a read). */
  #unfed: Uint8Array | undefined;
  /** The peer's FIN came while bytes were waiting to be fed. */
  #endWhenFed = false;

  constructor(socket: Socket, id: string, remote: string, limits: TcpServerLimits, hooks: ConnectionHooks) {
    this.#socket = socket;
    this.#id = id;
    this.#remote = remote;
    this.#limits = limits;
    this.#hooks = hooks;
    this.#frames =
      hooks.frameTerminator === undefined
        ? undefined
        : new TerminatorCounter(hooks.frameTerminator, limits.maxFrameBytes);
    this.#closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  open(endpoint: TcpServerOptions['endpoint']): void {
    const socket = this.#socket;
    socket.setNoDelay(true);
    if (this.#limits.idleTimeoutMs > 0) {
      socket.setTimeout(this.#limits.idleTimeoutMs, () => {
        if (this.#waitingForServer()) socket.setTimeout(this.#limits.idleTimeoutMs);
        else
          this.#misbehaved(`no traffic for ${this.#limits.idleTimeoutMs / 1000} s; closing the connection`);
      });
    }
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('drain', () => this.#drained());
    socket.on('end', () => {
      // The FIN comes after every byte: what is still waiting to be fed goes first.
      if (this.#unfed) this.#endWhenFed = true;
      else this.#peerFinished();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!this.#closing) this.#log(`connection error: ${error.code ?? error.message}`);
      this.#end(error.code ?? error.message);
    });
    socket.on('close', () => {
      this.#end(this.#closing ? undefined : 'the connection closed');
      this.#hooks.onClosed();
    });
    this.#guard(() => {
      this.#peer = endpoint.connect(
        { send: (bytes) => this.#send(bytes), close: () => this.#closeFromEndpoint() },
        { id: this.#id, remote: this.#remote },
      );
    });
    // What the endpoint sent while connecting is judged now that the peer can be named and told.
    this.#checkQueue(false);
  }

  /** Drops the connection (server shutdown); resolves once the socket has closed. */
  drop(reason: string): Promise<void> {
    if (!this.#socket.destroyed) {
      this.#closing = true;
      this.#end(reason);
      this.#socket.destroy();
    }
    return this.#closed;
  }

  /** Bytes from the peer (the path every message takes: no closure is made here). */
  #onData(chunk: Buffer): void {
    if (this.#ended) return;
    if (this.#frames && !this.#frames.push(chunk)) {
      const cap = describeByteCount(this.#limits.maxFrameBytes);
      this.#misbehaved(`sent more than ${cap} without ending a message; dropping the connection`);
      return;
    }
    this.#feed(chunk);
  }

  /**
   * Hands bytes to the endpoint a slice at a time, so that the answers to one read (64 KiB of pipelined
   * requests can ask for megabytes) stop at the limit: once reading is paused, the rest waits for 'drain'.
   */
  #feed(bytes: Uint8Array): void {
    const peer = this.#peer;
    if (!peer) return;
    let offset = 0;
    try {
      while (offset < bytes.length) {
        const end = Math.min(bytes.length, offset + FEED_SLICE_BYTES);
        peer.receive(offset === 0 && end === bytes.length ? bytes : bytes.subarray(offset, end));
        offset = end;
        if (this.#ended || this.#socket.destroyed) return;
        if (this.#pausedForWrites && offset < bytes.length) {
          this.#unfed = bytes.subarray(offset);
          return;
        }
      }
    } catch (error) {
      this.#internalError(error);
    }
  }

  /** The peer took what was written: feed what waited, then read again. */
  #drained(): void {
    if (!this.#pausedForWrites) return;
    this.#pausedForWrites = false;
    const unfed = this.#unfed;
    this.#unfed = undefined;
    if (unfed) this.#feed(unfed);
    if (this.#pausedForWrites) return;
    if (this.#endWhenFed) this.#peerFinished();
    else this.#socket.resume();
  }

  /** The peer sent its FIN and all it sent before was fed: the endpoint is told, then our side ends too. */
  #peerFinished(): void {
    this.#end();
    const socket = this.#socket;
    if (!socket.destroyed && !socket.writableEnded) socket.end();
  }

  #send(bytes: Uint8Array): void {
    const socket = this.#socket;
    if (this.#closing || socket.destroyed) return;
    const drained = socket.write(bytes);
    if (this.#peer) this.#checkQueue(!drained);
  }

  /** Drops a peer that lets too much pile up; stops reading one whose answers are not drained. */
  #checkQueue(writeRefused: boolean): void {
    const socket = this.#socket;
    if (this.#closing || socket.destroyed) return;
    const queued = socket.writableLength;
    if (queued > this.#limits.maxQueuedBytes) {
      this.#misbehaved(
        `does not read what it is sent (${describeByteCount(queued)} waiting); dropping the connection`,
      );
    } else if (writeRefused && !this.#pausedForWrites && queued >= this.#limits.pauseReadingBytes) {
      // Read no more requests until the answers are taken: 'drain' resumes.
      this.#pausedForWrites = true;
      socket.pause();
    }
  }

  /** The endpoint closes: the peer gets what was written, then a FIN, and some time to close its side. */
  #closeFromEndpoint(): void {
    if (this.#closing) return;
    this.#closing = true;
    const socket = this.#socket;
    socket.end();
    setTimeout(() => socket.destroy(), this.#limits.lingerMs).unref();
  }

  /** Tells the peer once that the connection ended. */
  #end(reason?: string): void {
    if (this.#ended) return;
    this.#ended = true;
    const peer = this.#peer;
    if (!peer) return;
    try {
      peer.end(reason);
    } catch (error) {
      this.#internalError(error);
    }
  }

  /** A peer broke a limit: one log line, and the connection is dropped. */
  #misbehaved(what: string): void {
    if (this.#closing) return;
    this.#log(what);
    this.#closing = true;
    this.#end(what);
    this.#socket.destroy();
  }

  /** A bug must cost one connection, never the server. */
  #internalError(error: unknown): void {
    this.#log(`internal error, closing the connection: ${describeError(error)}`);
    this.#closing = true;
    this.#socket.destroy();
  }

  #guard(action: () => void): void {
    try {
      action();
    } catch (error) {
      this.#internalError(error);
    }
  }

  #waitingForServer(): boolean {
    try {
      return this.#peer?.waitingForServer === true;
    } catch {
      return false;
    }
  }

  #log(line: string): void {
    let label = `connection from ${this.#remote}`;
    try {
      label = this.#peer?.label ?? label;
    } catch {
      // A label that cannot be read is no reason to lose the line.
    }
    this.#hooks.log(`${label}: ${line}`);
  }
}
