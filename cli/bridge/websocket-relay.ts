/**
 * Relays a WebSocket (to a target, or accepted on a listen port) frame by frame: a text frame stays a text
 * frame, a binary one binary. Frames above the cap are refused in both directions.
 */
import WebSocket from 'ws';
import type { DataKind } from '../../src/core/bridge/control-protocol';
import type { TargetSpec } from './bridge-config';
import { endpointUrl } from './bridge-config';
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

/** A relayed WebSocket connection. */
export class WebSocketRelay implements RelayChannel {
  readonly transport = 'websocket' as const;
  private readonly idle: IdleTimer;
  private readonly backpressure: PageBackpressure;
  private ended = false;

  constructor(
    readonly id: number,
    private readonly socket: WebSocket,
    private readonly link: PageLink,
  ) {
    this.idle = new IdleTimer(link.limits.idleTimeoutMs, (reason) => this.end(reason));
    this.backpressure = new PageBackpressure(
      link.limits.bufferBytes,
      () => socket.pause(),
      () => socket.resume(),
    );
    socket.on('close', (code, reason) => this.end(closeReason(code, reason.toString(), link)));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      this.end(
        error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'
          ? `a frame was over the ${formatBytes(link.limits.websocketFrameBytes)} WebSocket frame cap`
          : `connection failed: ${error.message}`,
      ),
    );
  }

  start(): void {
    this.idle.touch();
    this.socket.on('message', (data: Buffer, isBinary: boolean) => {
      this.idle.touch();
      this.link.sendData(this.id, isBinary ? 'bytes' : 'text', data, this.backpressure.sending(data.length));
    });
    // A target's socket waits paused from its handshake until now (see `connectWebSocket`).
    this.socket.resume();
  }

  fromPage(kind: DataKind, payload: Uint8Array): string | undefined {
    const cap = this.link.limits.websocketFrameBytes;
    if (payload.length > cap)
      return `a frame of ${payload.length} bytes is over the ${formatBytes(cap)} WebSocket frame cap`;
    if (this.socket.readyState !== WebSocket.OPEN) return 'the WebSocket is closing';
    this.idle.touch();
    this.socket.send(payload, { binary: kind === 'bytes' });
    if (this.socket.bufferedAmount > this.link.limits.bufferBytes)
      this.end(
        `the other end is not reading: ${this.socket.bufferedAmount} bytes waiting (cap ${formatBytes(this.link.limits.bufferBytes)})`,
      );
    return undefined;
  }

  request(): string | undefined {
    return NOT_HTTP;
  }

  respond(): string | undefined {
    return NOT_ACCEPTED_HTTP;
  }

  close(reason: string): void {
    this.ended = true;
    this.idle.stop();
    if (this.socket.readyState === WebSocket.OPEN) this.socket.close(1000, reason.slice(0, 120));
    else this.socket.terminate();
  }

  private end(reason: string): void {
    if (this.ended) return;
    this.close(reason);
    this.link.channelEnded(this.id, reason);
  }
}

function closeReason(code: number, reason: string, link: PageLink): string {
  if (code === 1009)
    return `a frame was over the ${formatBytes(link.limits.websocketFrameBytes)} WebSocket frame cap`;
  return `the other end closed the WebSocket (${code}${reason ? ` ${reason}` : ''})`;
}

/** Connects to a WebSocket target; rejects with a sentence (refused, timed out, not a WebSocket). */
export function connectWebSocket(
  target: TargetSpec,
  { timeoutMs, maxFrameBytes }: { timeoutMs: number; maxFrameBytes: number },
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(endpointUrl({ ...target, path: target.path || '/' }), {
      handshakeTimeout: timeoutMs,
      maxPayload: maxFrameBytes,
      perMessageDeflate: false,
    });
    const fail = (why: string) => {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
      reject(new Error(why));
    };
    socket.once('open', () => {
      socket.removeAllListeners();
      // Frames that came with the handshake are read as soon as the socket flows, before the relay listens:
      // hold them until it starts (a message would be lost, an oversized frame's error would be unheard).
      socket.pause();
      socket.on('error', () => undefined);
      resolve(socket);
    });
    socket.once('unexpected-response', (_request, response) =>
      fail(`the server answered HTTP ${response.statusCode} instead of accepting a WebSocket`),
    );
    socket.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        error.code === 'ECONNREFUSED'
          ? 'connection refused'
          : /timeout/i.test(error.message)
            ? `no connection within ${formatDuration(timeoutMs)}`
            : (error.code ?? error.message),
      ),
    );
  });
}
