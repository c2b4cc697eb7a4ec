/**
 * Relays a TCP connection (to a target, or accepted on a listen port) as a byte stream: chunks go through
 * as they arrive, in both directions, without looking for message boundaries (the page's protocol code
 * frames them). Each direction holds at most the buffer cap.
 */
import { connect, type Socket } from 'node:net';
import type { DataKind } from '../../src/core/bridge/control-protocol';
import type { TargetSpec } from './bridge-config';
import {
  formatBytes,
  formatDuration,
  IdleTimer,
  NOT_ACCEPTED_HTTP,
  NOT_HTTP,
  PageBackpressure,
  type PageLink,
  type RelayChannel,
} from './relay-channel';

/** A relayed TCP connection. */
export class TcpRelay implements RelayChannel {
  readonly transport = 'tcp' as const;
  private readonly idle: IdleTimer;
  private readonly backpressure: PageBackpressure;
  private ended = false;
  private corked = false;

  constructor(
    readonly id: number,
    private readonly socket: Socket,
    private readonly link: PageLink,
  ) {
    socket.setNoDelay(true);
    this.idle = new IdleTimer(link.limits.idleTimeoutMs, (reason) => this.end(reason));
    this.backpressure = new PageBackpressure(
      link.limits.bufferBytes,
      () => socket.pause(),
      () => socket.resume(),
    );
    socket.on('end', () => this.end('the other end closed the connection'));
    socket.on('close', () => this.end('the connection closed'));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      this.end(`connection failed: ${error.code ?? error.message}`),
    );
  }

  start(): void {
    this.idle.touch();
    this.socket.on('data', (chunk: Buffer) => {
      this.idle.touch();
      this.link.sendData(this.id, 'bytes', chunk, this.backpressure.sending(chunk.length));
    });
  }

  fromPage(kind: DataKind, payload: Uint8Array): string | undefined {
    if (kind !== 'bytes') return 'a TCP channel carries bytes, not text frames';
    this.idle.touch();
    // A page's frames often come many to a read: one write of them all per tick, not a syscall each.
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(payload);
    // The page cannot be paused per channel: a peer that stops reading gets its connection cut instead.
    if (this.socket.writableLength > this.link.limits.bufferBytes) {
      const waiting = this.socket.writableLength;
      this.end(
        `the other end is not reading: ${waiting} bytes waiting (cap ${formatBytes(this.link.limits.bufferBytes)})`,
      );
    }
    return undefined;
  }

  request(): string | undefined {
    return NOT_HTTP;
  }

  respond(): string | undefined {
    return NOT_ACCEPTED_HTTP;
  }

  close(): void {
    this.ended = true;
    this.idle.stop();
    // What the page sent before closing still goes out: end after it, and drop a peer that does not close.
    if (this.corked) this.socket.uncork();
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 1000).unref();
  }

  private end(reason: string): void {
    if (this.ended) return;
    this.close();
    this.link.channelEnded(this.id, reason);
  }
}

/** Connects to a TCP target; rejects with a sentence (refused, timed out) when it cannot. */
export function connectTcp(target: TargetSpec, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: target.host, port: target.port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no connection within ${formatDuration(timeoutMs)}`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new Error(error.code === 'ECONNREFUSED' ? 'connection refused' : (error.code ?? error.message)));
    });
  });
}
