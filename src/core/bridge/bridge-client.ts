/**
 * The page's side of `protoplay bridge`: connects with the token from the link, lists the targets and
 * listen ports, opens channels the page's protocol code drives through the contract's sans-IO shape, hands
 * connections accepted on listen ports to the endpoint serving them, and reconnects (with backoff) when
 * the connection to the bridge drops. Knows no protocol; uses no DOM and no Node API.
 */
import type { SansIoEndpoint, WireData } from '../protocols/contract';
import { BridgeChannel, type ChannelLink } from './bridge-channel';
import { BridgeError, explainRefusal, type PageSurroundings } from './bridge-errors';
import { SOCKET_OPEN, type BridgeSocket, type BridgeSocketConstructor } from './bridge-socket';
import { readBridgeMessage } from './control-parsing';
import {
  decodeDataFrame,
  encodeDataFrame,
  FIRST_ACCEPTED_CHANNEL_ID,
  type BridgeMessage,
  type DataKind,
  type ListenInfo,
  type PageMessage,
  type TargetInfo,
} from './control-protocol';

/** How the client retries after the connection to the bridge dropped. */
export interface ReconnectPolicy {
  /** Wait before the first retry (default 250 ms); each retry waits twice as long... */
  initialDelayMs?: number;
  /** ...up to this (default 5 s). */
  maxDelayMs?: number;
  /** Retries before giving up (default 8). */
  maxAttempts?: number;
}

/** How to reach a bridge. */
export interface BridgeClientOptions {
  /** `ws://127.0.0.1:8787`, from the link (`readBridgeLink`). */
  url: string;
  token: string;
  /** The WebSocket constructor: the browser's, or a `ws` subclass in Node. */
  WebSocket: BridgeSocketConstructor;
  /** `false`: never reconnect. */
  reconnect?: ReconnectPolicy | false;
  /** Where the page runs, to explain a bridge that cannot be reached. */
  surroundings?: PageSurroundings;
  /** How long the bridge may take to welcome the page (default 10 s). */
  welcomeTimeoutMs?: number;
}

/** The client's connection, for the page's status line. */
export type BridgeStatus =
  | { state: 'connected'; targets: readonly TargetInfo[]; listens: readonly ListenInfo[] }
  | { state: 'reconnecting'; attempt: number; delayMs: number; reason: string }
  | { state: 'closed'; error?: BridgeError };

interface Welcome {
  socket: BridgeSocket;
  targets: TargetInfo[];
  listens: ListenInfo[];
  /** How long the bridge lets an answer take, when it says (see the `welcome` message). */
  responseTimeoutMs?: number;
  /**
   * Where the socket's later messages go. `ws` may deliver several messages of one read at once, so what
   * follows the welcome waits here until the client takes the socket over.
   */
  deliver: (data: unknown) => void;
  early: unknown[];
}

/** A connection to the bridge. */
export class BridgeClient {
  private socket: BridgeSocket;
  private welcome: Welcome;
  private currentStatus: BridgeStatus;
  private readonly channels = new Map<number, BridgeChannel>();
  private readonly opening = new Map<
    number,
    { target: TargetInfo; resolve: (channel: BridgeChannel) => void; reject: (error: BridgeError) => void }
  >();
  private readonly servers = new Map<string, SansIoEndpoint<WireData, WireData>>();
  private readonly statusListeners = new Set<(status: BridgeStatus) => void>();
  private readonly pings = new Map<number, { resolve: () => void; reject: (error: BridgeError) => void }>();
  private nextChannelId = 1;
  private nextPing = 1;
  private closedByPage = false;
  private readonly link: ChannelLink = {
    sendControl: (message) => this.sendControl(message),
    sendData: (id, kind, payload) => this.sendData(id, kind, payload),
    forget: (id) => this.channels.delete(id),
  };

  private constructor(
    private readonly options: BridgeClientOptions,
    welcome: Welcome,
  ) {
    this.welcome = welcome;
    this.socket = welcome.socket;
    this.currentStatus = { state: 'connected', targets: welcome.targets, listens: welcome.listens };
    this.listen(welcome);
  }

  /** Connects and says hello; rejects with a `BridgeError` saying why the bridge cannot be used. */
  static async connect(options: BridgeClientOptions): Promise<BridgeClient> {
    return new BridgeClient(options, await BridgeClient.handshake(options));
  }

  /** The targets the bridge offers (names and transports). */
  get targets(): readonly TargetInfo[] {
    return this.welcome.targets;
  }

  /** The bridge's listen ports. */
  get listens(): readonly ListenInfo[] {
    return this.welcome.listens;
  }

  /** How long the bridge lets an answer take (`--response-timeout`), when it says. */
  get responseTimeoutMs(): number | undefined {
    return this.welcome.responseTimeoutMs;
  }

  get status(): BridgeStatus {
    return this.currentStatus;
  }

  /** Calls `listener` on every status change; returns the function that stops it. */
  onStatus(listener: (status: BridgeStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Opens a channel to the named target; rejects naming the targets there are when it is unknown. */
  open(targetName: string): Promise<BridgeChannel> {
    const target = this.welcome.targets.find((candidate) => candidate.name === targetName);
    if (!target) {
      const offered = this.welcome.targets.map((candidate) => candidate.name);
      return Promise.reject(
        new BridgeError(
          'bridge.unknown-target',
          `the bridge has no target named '${targetName}'; it offers ${offered.length ? offered.join(', ') : 'none (start it with --target NAME=ADDRESS)'}`,
        ),
      );
    }
    if (this.currentStatus.state !== 'connected')
      return Promise.reject(
        new BridgeError('bridge.gone', `the bridge is not connected (${this.currentStatus.state})`),
      );
    const id = this.nextChannelId;
    this.nextChannelId = id + 1 >= FIRST_ACCEPTED_CHANNEL_ID ? 1 : id + 1;
    return new Promise((resolve, reject) => {
      this.opening.set(id, { target, resolve, reject });
      this.sendControl({ op: 'open', id, target: targetName });
    });
  }

  /**
   * Opens a channel to the target and connects a sans-IO client endpoint to it: the endpoint sends through
   * the channel and its peer receives what the target sends.
   */
  async connectEndpoint(
    targetName: string,
    endpoint: SansIoEndpoint<WireData, WireData>,
  ): Promise<BridgeChannel> {
    const channel = await this.open(targetName);
    channel.attach(endpoint.connect(channel, { id: `${targetName}#${channel.id}` }));
    return channel;
  }

  /**
   * Serves the connections accepted on listen port `listenName` with a sans-IO host endpoint (an emulated
   * server); returns the function that stops serving. Connections on a port nobody serves are closed.
   */
  serve(listenName: string, endpoint: SansIoEndpoint<WireData, WireData>): () => void {
    if (!this.welcome.listens.some((listen) => listen.name === listenName)) {
      const offered = this.welcome.listens.map((listen) => listen.name);
      throw new BridgeError(
        'bridge.unknown-target',
        `the bridge has no listen port named '${listenName}'; it has ${offered.length ? offered.join(', ') : 'none (start it with --listen NAME=PORT)'}`,
      );
    }
    this.servers.set(listenName, endpoint);
    return () => {
      if (this.servers.get(listenName) === endpoint) this.servers.delete(listenName);
    };
  }

  /** Round trip to the bridge in ms. */
  ping(): Promise<number> {
    const nonce = this.nextPing++;
    const start = performance.now();
    if (this.currentStatus.state !== 'connected')
      return Promise.reject(
        new BridgeError('bridge.gone', `the bridge is not connected (${this.currentStatus.state})`),
      );
    return new Promise((resolve, reject) => {
      this.pings.set(nonce, { resolve: () => resolve(performance.now() - start), reject });
      this.sendControl({ op: 'ping', nonce });
    });
  }

  /** Leaves the bridge: every channel closes, nothing reconnects. */
  close(): void {
    if (this.closedByPage) return;
    this.closedByPage = true;
    this.socket.close(1000, 'the page left');
    this.lose('the page closed the bridge connection');
    this.setStatus({ state: 'closed' });
  }

  private static handshake(options: BridgeClientOptions): Promise<Welcome> {
    const { url, token, surroundings = {} } = options;
    return new Promise((resolve, reject) => {
      let socket: BridgeSocket;
      try {
        socket = new options.WebSocket(url);
      } catch (error) {
        reject(new BridgeError('bridge.unreachable', `cannot open a WebSocket to ${url}: ${String(error)}`));
        return;
      }
      socket.binaryType = 'arraybuffer';
      let settled = false;
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        socket.close();
        reject(
          new BridgeError('bridge.protocol', `${url} did not answer like protoplay bridge (no welcome)`),
        );
      }, options.welcomeTimeoutMs ?? 10_000);
      socket.addEventListener('open', () => socket.send(JSON.stringify({ op: 'hello', token })));
      let welcome: Welcome | undefined;
      socket.addEventListener('message', (event) => {
        if (welcome) return welcome.deliver(event.data);
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const message = typeof event.data === 'string' ? readBridgeMessage(event.data) : undefined;
        if (typeof message !== 'object' || message.op !== 'welcome') {
          socket.close();
          reject(new BridgeError('bridge.protocol', `${url} did not answer like protoplay bridge`));
          return;
        }
        const early: unknown[] = [];
        welcome = {
          socket,
          targets: message.targets,
          listens: message.listens,
          ...(message.responseTimeoutMs === undefined
            ? {}
            : { responseTimeoutMs: message.responseTimeoutMs }),
          early,
          deliver: (data) => early.push(data),
        };
        resolve(welcome);
      });
      socket.addEventListener('close', (event) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // A close event without a code of the bridge's means the socket never opened (or was cut).
        explainRefusal(url, event.code === 1006 ? undefined : event, surroundings).then(reject);
      });
      // Browsers give no detail on `error`; the `close` that follows says what can be said.
      socket.addEventListener('error', () => undefined);
    });
  }

  private listen(welcome: Welcome): void {
    const { socket } = welcome;
    welcome.deliver = (data) => {
      if (socket !== this.socket) return;
      if (typeof data === 'string') this.onControl(data);
      else if (data instanceof ArrayBuffer) this.onData(new Uint8Array(data));
    };
    for (const data of welcome.early.splice(0)) welcome.deliver(data);
    socket.addEventListener('close', (event) => {
      if (socket !== this.socket || this.closedByPage) return;
      void this.reconnect(
        `the connection to the bridge was lost (${event.code}${event.reason ? ` ${event.reason}` : ''})`,
      );
    });
  }

  private onControl(text: string): void {
    const message = readBridgeMessage(text);
    if (typeof message === 'string') return; // A newer bridge's message this client does not know.
    this.route(message);
  }

  private route(message: BridgeMessage): void {
    switch (message.op) {
      case 'opened': {
        const opening = this.opening.get(message.id);
        if (!opening) return;
        this.opening.delete(message.id);
        const channel = new BridgeChannel(
          message.id,
          opening.target.transport,
          { kind: 'target', name: opening.target.name },
          this.link,
        );
        this.channels.set(message.id, channel);
        opening.resolve(channel);
        return;
      }
      case 'error': {
        if (message.id === undefined) return;
        const opening = this.opening.get(message.id);
        if (opening) {
          this.opening.delete(message.id);
          // The name was checked against the welcome, so this is a connection that failed.
          opening.reject(new BridgeError('bridge.open', message.message));
          return;
        }
        const channel = this.channels.get(message.id);
        if (message.exchange !== undefined) channel?.exchangeFailed(message.exchange, message.message);
        else channel?.terminate(message.message);
        return;
      }
      case 'closed':
        this.channels.get(message.id)?.terminate(message.reason ?? 'closed by the other end');
        return;
      case 'accepted':
        return this.accept(message.id, message.listen, message.remote);
      case 'request':
        this.channels
          .get(message.id)
          ?.receiveRequest(message.exchange, message.method, message.path, message.headers, message);
        return;
      case 'response':
        this.channels
          .get(message.id)
          ?.receiveResponse(message.exchange, message.status, message.headers, message);
        return;
      case 'pong': {
        const done = this.pings.get(message.nonce);
        this.pings.delete(message.nonce);
        done?.resolve();
        return;
      }
      case 'welcome':
        return;
    }
  }

  private accept(id: number, listenName: string, remote: string): void {
    const listen = this.welcome.listens.find((candidate) => candidate.name === listenName);
    const channel = new BridgeChannel(
      id,
      listen?.transport ?? 'tcp',
      { kind: 'accepted', listen: listenName, remote },
      this.link,
    );
    this.channels.set(id, channel);
    const endpoint = this.servers.get(listenName);
    if (!listen || !endpoint) {
      channel.close(`the page serves nothing on ${listenName}`);
      return;
    }
    channel.attach(endpoint.connect(channel, { id: `${listenName}#${id}`, remote }));
  }

  private onData(frame: Uint8Array): void {
    const data = decodeDataFrame(frame);
    if (typeof data === 'string') return;
    this.channels.get(data.id)?.receiveData(data.kind, data.payload);
  }

  private sendControl(message: PageMessage): void {
    if (this.socket.readyState === SOCKET_OPEN) this.socket.send(JSON.stringify(message));
  }

  private sendData(id: number, kind: DataKind, payload: Uint8Array): void {
    if (this.socket.readyState !== SOCKET_OPEN)
      throw new BridgeError('bridge.gone', 'the bridge is not connected: the data was not sent');
    this.socket.send(encodeDataFrame(id, kind, payload));
  }

  /** Ends every channel and pending open: the connection behind them is gone. */
  private lose(reason: string): void {
    for (const waiting of [...this.opening.values(), ...this.pings.values()])
      waiting.reject(new BridgeError('bridge.gone', reason));
    this.opening.clear();
    this.pings.clear();
    for (const channel of [...this.channels.values()]) channel.terminate(reason);
    this.channels.clear();
  }

  private async reconnect(reason: string): Promise<void> {
    const lost = `the bridge is gone: ${reason}`;
    this.lose(lost);
    const policy = this.options.reconnect === false ? { maxAttempts: 0 } : (this.options.reconnect ?? {});
    const { initialDelayMs = 250, maxDelayMs = 5000, maxAttempts = 8 } = policy;
    let lastError = new BridgeError(
      'bridge.gone',
      `${lost}; start protoplay bridge again and open the link it prints`,
    );
    for (let attempt = 1; attempt <= maxAttempts && !this.closedByPage; attempt++) {
      const delayMs = Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
      this.setStatus({ state: 'reconnecting', attempt, delayMs, reason });
      await new Promise<void>((wake) => setTimeout(wake, delayMs));
      if (this.closedByPage) return;
      try {
        const welcome = await BridgeClient.handshake(this.options);
        if (this.closedByPage) return welcome.socket.close();
        this.welcome = welcome;
        this.socket = welcome.socket;
        this.listen(welcome);
        this.setStatus({ state: 'connected', targets: welcome.targets, listens: welcome.listens });
        return;
      } catch (error) {
        lastError = error as BridgeError;
        // A bridge that answers but refuses (a restarted bridge has a new token) will not change its mind.
        if (lastError.code !== 'bridge.unreachable' && lastError.code !== 'bridge.protocol') break;
        if (lastError.code === 'bridge.unreachable')
          lastError = new BridgeError(
            'bridge.gone',
            `${lost}; start protoplay bridge again and open the link it prints`,
          );
      }
    }
    if (!this.closedByPage) this.setStatus({ state: 'closed', error: lastError });
  }

  private setStatus(status: BridgeStatus): void {
    this.currentStatus = status;
    for (const listener of this.statusListeners) listener(status);
  }
}
