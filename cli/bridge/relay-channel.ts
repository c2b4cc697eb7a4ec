/**
 * A channel is one connection the page drives through the bridge: to a target it opened, or accepted on a
 * listen port. Each transport's relay implements `RelayChannel`; the page's session gives it a `PageLink`
 * to reach the page.
 */
import type {
  BridgeMessage,
  BridgeTransport,
  DataKind,
  PageMessage,
} from '../../src/core/bridge/control-protocol';
import type { BridgeLimits } from './bridge-config';

/** A page's HTTP request on an outbound channel. */
export type PageRequest = Extract<PageMessage, { op: 'request' }>;

/** A page's HTTP response on an accepted channel. */
export type PageResponse = Extract<PageMessage, { op: 'response' }>;

/** How a channel reaches the page. */
export interface PageLink {
  readonly limits: BridgeLimits;
  sendControl(message: BridgeMessage): void;
  /** Sends data to the page; `written` runs once the bytes left the bridge (the channel's backpressure). */
  sendData(id: number, kind: DataKind, payload: Uint8Array, written: () => void): void;
  /** The channel ended by itself (the other end closed, failed or idled): tell the page and forget it. */
  channelEnded(id: number, reason: string): void;
  log(line: string): void;
}

/** One relayed connection, as the page's session drives it. */
export interface RelayChannel {
  readonly id: number;
  readonly transport: BridgeTransport;
  /** Starts relaying, after the page was told the channel exists. */
  start(): void;
  /** Data from the page (TCP bytes, WebSocket frames); a string is why it was refused. */
  fromPage(kind: DataKind, payload: Uint8Array): string | undefined;
  /** An HTTP request from the page (outbound HTTP channels); a string is why it was refused. */
  request(message: PageRequest): string | undefined;
  /** The page's answer to an accepted HTTP request; a string is why it was refused. */
  respond(message: PageResponse): string | undefined;
  /** The page closed it or the bridge is letting go: release everything, tell nobody. */
  close(reason: string): void;
}

/** Closes a channel that saw no data either way for `ms`; `touch` on every piece of data. */
export class IdleTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ms: number,
    private readonly onIdle: (reason: string) => void,
  ) {}

  touch(): void {
    this.timer?.refresh();
    this.timer ??= setTimeout(() => this.onIdle(`idle for ${formatDuration(this.ms)}`), this.ms);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/**
 * Counts the bytes sent to the page but not yet written out, and pauses the source while they exceed the
 * channel's buffer cap: a fast server can never fill the bridge's memory with a slow page.
 */
export class PageBackpressure {
  private pending = 0;
  private paused = false;

  constructor(
    private readonly cap: number,
    private readonly pause: () => void,
    private readonly resume: () => void,
  ) {}

  /** Records `bytes` on their way; returns the callback to run once they are written. */
  sending(bytes: number): () => void {
    this.pending += bytes;
    if (!this.paused && this.pending > this.cap) {
      this.paused = true;
      this.pause();
    }
    return () => {
      this.pending -= bytes;
      if (this.paused && this.pending <= this.cap / 2) {
        this.paused = false;
        this.resume();
      }
    };
  }
}

/** `1 MiB`, `1000000 bytes`: a cap as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** `30 s`, `250 ms`. */
export function formatDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** Refusals shared by the relays that do not speak HTTP, or only HTTP. */
export const NOT_HTTP = 'this channel is not an HTTP target: send data frames';
export const NOT_ACCEPTED_HTTP = 'this channel has no request waiting for a response';
export const NOT_STREAM = 'this channel is HTTP: send "request" messages, not data frames';
