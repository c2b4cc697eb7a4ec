/**
 * One page connected to the bridge: checks its hello, carries out its control messages, routes data frames
 * to its channels and back. Every refusal is an `error` message naming the channel and the reason; nothing
 * the page sends can crash the bridge or make it connect to an address the command line did not name.
 */
import type { Agent } from 'node:http';
import WebSocket from 'ws';
import {
  BRIDGE_PROTOCOL_VERSION,
  BridgeCloseCode,
  decodeDataFrame,
  encodeDataFrame,
  FIRST_ACCEPTED_CHANNEL_ID,
  MAX_CHANNEL_ID,
  type BridgeMessage,
  type DataKind,
  type ListenInfo,
  type PageMessage,
} from '../../src/core/bridge/control-protocol';
import { readPageMessage } from '../../src/core/bridge/control-parsing';
import { tokenMatches } from './access-token';
import { endpointUrl, type BridgeLimits, type TargetSpec } from './bridge-config';
import { HttpTargetRelay } from './http-relay';
import { formatDuration, type PageLink, type RelayChannel } from './relay-channel';
import { connectTcp, TcpRelay } from './tcp-relay';
import { connectWebSocket, WebSocketRelay } from './websocket-relay';

/** What every page session shares: the bridge's configuration and its bookkeeping of pages. */
export interface BridgeContext {
  readonly token: string;
  readonly targets: readonly TargetSpec[];
  readonly listens: () => readonly ListenInfo[];
  readonly limits: BridgeLimits;
  /** Keeps connections to HTTP targets alive between requests. */
  readonly httpAgent: Agent;
  log(line: string): void;
  /** The page proved it has the token: it may now be handed accepted connections. */
  welcomed(session: PageSession): void;
  /** The page is gone. */
  gone(session: PageSession): void;
}

/** A page's connection to the bridge. */
export class PageSession implements PageLink {
  readonly limits: BridgeLimits;
  private readonly channels = new Map<number, RelayChannel>();
  /** Channels being connected: closing one of these drops the connection once made. */
  private readonly connecting = new Set<number>();
  private nextAcceptedId = FIRST_ACCEPTED_CHANNEL_ID;
  private welcomed = false;
  private closed = false;
  private readonly helloTimer: NodeJS.Timeout;

  constructor(
    /** For the log: `page 3 (http://localhost:5173)`. */
    readonly label: string,
    private readonly socket: WebSocket,
    private readonly bridge: BridgeContext,
  ) {
    this.limits = bridge.limits;
    this.helloTimer = setTimeout(
      () =>
        this.refuse(BridgeCloseCode.noHello, `no hello within ${formatDuration(this.limits.helloTimeoutMs)}`),
      this.limits.helloTimeoutMs,
    );
    socket.on('message', (data: Buffer, isBinary: boolean) => this.onFrame(data, isBinary));
    socket.on('close', () => this.onGone());
    socket.on('error', (error) => this.log(`connection error: ${error.message}`));
  }

  /** Whether the page is welcomed and still there. */
  get active(): boolean {
    return this.welcomed && !this.closed;
  }

  sendControl(message: BridgeMessage): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  sendData(id: number, kind: DataKind, payload: Uint8Array, written: () => void): void {
    if (this.socket.readyState !== WebSocket.OPEN) return written();
    this.socket.send(encodeDataFrame(id, kind, payload), { binary: true }, written);
  }

  channelEnded(id: number, reason: string): void {
    if (!this.channels.delete(id)) return;
    this.log(`channel ${id} closed: ${reason}`);
    this.sendControl({ op: 'closed', id, reason });
  }

  log(line: string): void {
    this.bridge.log(`${this.label}: ${line}`);
  }

  /**
   * Hands the page a connection accepted on listen port `listen`: a channel id is picked, the page told,
   * and the relay made by `relay` started. A string says why the page cannot take it.
   */
  adopt(
    listen: string,
    remote: string,
    relay: (id: number, link: PageLink) => RelayChannel,
  ): RelayChannel | string {
    if (!this.active) return 'no page is connected to the bridge';
    if (this.channels.size >= this.limits.maxChannels)
      return `the page has ${this.limits.maxChannels} channels open, the bridge's limit`;
    const id = this.nextAcceptedId;
    this.nextAcceptedId = id === MAX_CHANNEL_ID ? FIRST_ACCEPTED_CHANNEL_ID : id + 1;
    const channel = relay(id, this);
    this.channels.set(id, channel);
    this.sendControl({ op: 'accepted', id, listen, remote });
    this.log(`channel ${id} accepted on ${listen} from ${remote}`);
    channel.start();
    return channel;
  }

  /** Closes the page's connection and every channel (the bridge is stopping). */
  shutDown(): void {
    this.refuse(BridgeCloseCode.shuttingDown, 'the bridge is stopping');
  }

  private refuse(code: number, reason: string): void {
    if (this.closed) return;
    this.log(`closing: ${reason}`);
    this.socket.close(code, reason);
    this.onGone();
  }

  private onGone(): void {
    clearTimeout(this.helloTimer);
    if (this.closed) return;
    this.closed = true;
    for (const channel of this.channels.values()) channel.close('the page left');
    this.channels.clear();
    this.connecting.clear();
    this.bridge.gone(this);
    this.log('disconnected');
  }

  private onFrame(data: Buffer, isBinary: boolean): void {
    if (this.closed) return;
    if (!this.welcomed) return this.onHello(data, isBinary);
    if (isBinary) return this.onData(data);
    const message = readPageMessage(data.toString('utf8'));
    if (typeof message === 'string') return this.sendControl({ op: 'error', message });
    this.onControl(message);
  }

  private onHello(data: Buffer, isBinary: boolean): void {
    const message = isBinary ? undefined : readPageMessage(data.toString('utf8'));
    if (typeof message !== 'object' || message.op !== 'hello')
      return this.refuse(BridgeCloseCode.noHello, 'the first message must be {"op":"hello","token":...}');
    if (!tokenMatches(message.token, this.bridge.token))
      return this.refuse(BridgeCloseCode.wrongToken, 'wrong token: open the link protoplay bridge printed');
    clearTimeout(this.helloTimer);
    this.welcomed = true;
    this.sendControl({
      op: 'welcome',
      version: BRIDGE_PROTOCOL_VERSION,
      targets: this.bridge.targets.map((target) => ({
        name: target.name,
        transport: target.transport,
        url: endpointUrl(target),
      })),
      listens: [...this.bridge.listens()],
      responseTimeoutMs: this.limits.responseTimeoutMs,
    });
    this.log('welcomed');
    this.bridge.welcomed(this);
  }

  private onData(data: Buffer): void {
    const frame = decodeDataFrame(data);
    if (typeof frame === 'string') return this.sendControl({ op: 'error', message: frame });
    const channel = this.channels.get(frame.id);
    if (!channel)
      return this.sendControl({ op: 'error', id: frame.id, message: `no channel ${frame.id} is open` });
    const refusal = channel.fromPage(frame.kind, frame.payload);
    if (refusal !== undefined) {
      this.channels.delete(frame.id);
      channel.close(refusal);
      this.log(`channel ${frame.id} closed: ${refusal}`);
      this.sendControl({ op: 'error', id: frame.id, message: refusal });
    }
  }

  private onControl(message: PageMessage): void {
    switch (message.op) {
      case 'hello':
        return this.sendControl({ op: 'error', message: 'hello was already said' });
      case 'ping':
        return this.sendControl({ op: 'pong', nonce: message.nonce });
      case 'open':
        return void this.open(message.id, message.target);
      case 'close': {
        this.connecting.delete(message.id);
        const channel = this.channels.get(message.id);
        if (!channel) return;
        this.channels.delete(message.id);
        channel.close(message.reason ?? 'closed by the page');
        this.log(`channel ${message.id} closed by the page`);
        return;
      }
      case 'request':
      case 'response': {
        const channel = this.channels.get(message.id);
        const refusal = !channel
          ? `no channel ${message.id} is open`
          : message.op === 'request'
            ? channel.request(message)
            : channel.respond(message);
        if (refusal !== undefined)
          this.sendControl({ op: 'error', id: message.id, exchange: message.exchange, message: refusal });
        return;
      }
    }
  }

  private async open(id: number, name: string): Promise<void> {
    const target = this.bridge.targets.find((candidate) => candidate.name === name);
    const refuse = (message: string) => this.sendControl({ op: 'error', id, message });
    if (!target) {
      const offered = this.bridge.targets.map((candidate) => candidate.name);
      return refuse(
        `no target named '${name.slice(0, 64)}'; the bridge offers ${offered.length ? offered.join(', ') : 'none (start it with --target NAME=ADDRESS)'}`,
      );
    }
    if (this.channels.has(id) || this.connecting.has(id)) return refuse(`channel ${id} is already in use`);
    if (this.channels.size + this.connecting.size >= this.limits.maxChannels)
      return refuse(`the page has ${this.limits.maxChannels} channels open, the bridge's limit`);
    const url = endpointUrl(target);
    if (target.transport === 'http') {
      this.install(new HttpTargetRelay(id, target, this.bridge.httpAgent, this), `to ${name} (${url})`);
      return;
    }
    this.connecting.add(id);
    try {
      const channel =
        target.transport === 'tcp'
          ? new TcpRelay(id, await connectTcp(target, this.limits.connectTimeoutMs), this)
          : new WebSocketRelay(
              id,
              await connectWebSocket(target, {
                timeoutMs: this.limits.connectTimeoutMs,
                maxFrameBytes: this.limits.websocketFrameBytes,
              }),
              this,
            );
      if (!this.connecting.delete(id)) return channel.close('the page closed the channel while connecting');
      this.install(channel, `to ${name} (${url})`);
    } catch (error) {
      if (!this.connecting.delete(id)) return;
      this.log(`channel ${id} to ${name} failed: ${(error as Error).message}`);
      refuse(`cannot connect to ${name} (${url}): ${(error as Error).message}`);
    }
  }

  private install(channel: RelayChannel, what: string): void {
    this.channels.set(channel.id, channel);
    this.sendControl({ op: 'opened', id: channel.id });
    this.log(`channel ${channel.id} opened ${what}`);
    channel.start();
  }
}
