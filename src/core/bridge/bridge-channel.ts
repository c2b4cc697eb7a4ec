/**
 * One connection the page drives through the bridge, seen as the contract's `WireSink`: a TCP stream
 * (bytes), a WebSocket (text frames, or bytes for binary frames) or HTTP (`HttpMessage` requests and
 * responses). A sans-IO endpoint's `WirePeer` attached to it receives what arrives; what arrives before it
 * is attached waits.
 */
import type { HttpMessage, WireData, WirePeer, WireSink } from '../protocols/contract';
import { BridgeError } from './bridge-errors';
import {
  bodyFromJson,
  type BridgeTransport,
  type DataKind,
  type HttpHeaders,
  type PageMessage,
  type RelayedBody,
} from './control-protocol';

/** Where a channel leads: a target the page opened, or a connection accepted on a listen port. */
export type ChannelEnd =
  { kind: 'target'; name: string } | { kind: 'accepted'; listen: string; remote: string };

/** How a channel reaches the bridge (the client implements it). */
export interface ChannelLink {
  sendControl(message: PageMessage): void;
  sendData(id: number, kind: DataKind, payload: Uint8Array): void;
  /** The channel is over: the client forgets it. */
  forget(id: number): void;
}

type Delivery = { data: WireData } | { end: string };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function bodyText(body: RelayedBody): string {
  const bytes = bodyFromJson(body);
  return typeof bytes === 'string' ? '' : decoder.decode(bytes);
}

/** One relayed connection. */
export class BridgeChannel implements WireSink<WireData> {
  /** Resolves with the reason once the channel is over, whoever ended it. */
  readonly ended: Promise<string>;
  private peer: WirePeer<WireData> | undefined;
  private readonly backlog: Delivery[] = [];
  private endReason: string | undefined;
  private endDelivered = false;
  /** TCP bytes sent in this turn, going out together at its end. */
  private readonly unsent: Uint8Array[] = [];
  private resolveEnded: (reason: string) => void = () => undefined;
  private nextExchange = 1;
  private readonly awaitingResponse = new Map<
    number,
    { resolve: (response: HttpMessage) => void; reject: (error: BridgeError) => void }
  >();
  /** Exchanges of an accepted HTTP connection waiting for the page's answer, oldest first. */
  private readonly awaitingAnswer: number[] = [];

  constructor(
    readonly id: number,
    readonly transport: BridgeTransport,
    readonly end: ChannelEnd,
    private readonly link: ChannelLink,
  ) {
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
  }

  /** Whether the channel is over. */
  get isOpen(): boolean {
    return this.endReason === undefined;
  }

  /** Routes what arrives to `peer` (first whatever arrived before). */
  attach(peer: WirePeer<WireData>): void {
    this.peer = peer;
    for (const delivery of this.backlog.splice(0)) this.deliver(delivery);
  }

  /**
   * Sends one piece: bytes on TCP (a string is sent as UTF-8), a frame on a WebSocket (text for a string),
   * a request on an HTTP target (its response reaches the peer) or the answer to the oldest waiting
   * request of an accepted HTTP connection.
   */
  send(data: WireData): void {
    if (this.endReason !== undefined)
      throw new BridgeError('bridge.channel', `channel ${this.id} is closed: ${this.endReason}`);
    if (this.transport === 'http') {
      if (typeof data === 'string' || data instanceof Uint8Array)
        throw new BridgeError('bridge.channel', 'an HTTP channel sends HttpMessage values, not raw data');
      if (this.end.kind === 'accepted') return this.answer(data);
      this.request(data).then(
        (response) => this.deliver({ data: response }),
        (error: BridgeError) => this.close(error.message),
      );
      return;
    }
    if (this.transport === 'tcp') {
      if (typeof data === 'string') return this.queueBytes(encoder.encode(data));
      if (data instanceof Uint8Array) return this.queueBytes(data.slice());
    } else {
      if (typeof data === 'string') return this.link.sendData(this.id, 'text', encoder.encode(data));
      if (data instanceof Uint8Array) return this.link.sendData(this.id, 'bytes', data);
    }
    throw new BridgeError(
      'bridge.channel',
      `a ${this.transport} channel sends bytes or text, not HTTP messages`,
    );
  }

  /** An HTTP request to the target; resolves with its response, rejects when it failed or timed out. */
  request(message: HttpMessage): Promise<HttpMessage> {
    if (this.transport !== 'http' || this.end.kind !== 'target')
      return Promise.reject(new BridgeError('bridge.channel', `channel ${this.id} is not an HTTP target`));
    if (this.endReason !== undefined)
      return Promise.reject(
        new BridgeError('bridge.channel', `channel ${this.id} is closed: ${this.endReason}`),
      );
    const exchange = this.nextExchange++;
    return new Promise((resolve, reject) => {
      this.awaitingResponse.set(exchange, { resolve, reject });
      this.link.sendControl({
        op: 'request',
        id: this.id,
        exchange,
        method: message.meta.method ?? 'GET',
        path: message.meta.path ?? '/',
        headers: message.meta.headers ?? {},
        body: message.body,
      });
    });
  }

  /** Closes the channel (the bridge closes the connection behind it) after what was sent. */
  close(reason = 'closed by the page'): void {
    if (this.endReason !== undefined) return;
    this.flushBytes();
    this.link.sendControl({ op: 'close', id: this.id, reason });
    this.finish(reason);
  }

  /** Data from the bridge. */
  receiveData(kind: DataKind, payload: Uint8Array): void {
    this.deliver({
      data: this.transport === 'websocket' && kind === 'text' ? decoder.decode(payload) : payload.slice(),
    });
  }

  /** A request accepted on an HTTP listen port: the peer answers it with `send`. */
  receiveRequest(
    exchange: number,
    method: string,
    path: string,
    headers: HttpHeaders,
    body: RelayedBody,
  ): void {
    this.awaitingAnswer.push(exchange);
    this.deliver({ data: { meta: { method, path, headers }, body: bodyText(body) } });
  }

  /** The response to one of this channel's requests. */
  receiveResponse(exchange: number, status: number, headers: HttpHeaders, body: RelayedBody): void {
    const waiting = this.awaitingResponse.get(exchange);
    this.awaitingResponse.delete(exchange);
    waiting?.resolve({ meta: { status, headers }, body: bodyText(body) });
  }

  /** The bridge refused or failed one exchange; the channel stays open. */
  exchangeFailed(exchange: number, message: string): void {
    const waiting = this.awaitingResponse.get(exchange);
    this.awaitingResponse.delete(exchange);
    waiting?.reject(new BridgeError('bridge.http', message));
  }

  /** The bridge closed the channel, or the connection to the bridge was lost. */
  terminate(reason: string): void {
    if (this.endReason !== undefined) return;
    this.finish(reason);
  }

  /**
   * A TCP stream has no message boundaries, so what is sent in one turn of the event loop goes as one data
   * frame: a burst of small messages costs one WebSocket frame, not one each.
   */
  private queueBytes(bytes: Uint8Array): void {
    this.unsent.push(bytes);
    if (this.unsent.length === 1) queueMicrotask(() => this.flushBytes());
  }

  private flushBytes(): void {
    if (this.unsent.length === 0 || this.endReason !== undefined) return;
    const parts = this.unsent.splice(0);
    let payload = parts[0]!;
    if (parts.length > 1) {
      payload = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
      let offset = 0;
      for (const part of parts) {
        payload.set(part, offset);
        offset += part.length;
      }
    }
    try {
      this.link.sendData(this.id, 'bytes', payload);
    } catch (error) {
      this.terminate((error as Error).message);
    }
  }

  private answer(response: HttpMessage): void {
    const exchange = this.awaitingAnswer.shift();
    if (exchange === undefined)
      throw new BridgeError('bridge.channel', `channel ${this.id} has no request waiting for an answer`);
    this.link.sendControl({
      op: 'response',
      id: this.id,
      exchange,
      status: response.meta.status ?? 200,
      headers: response.meta.headers ?? {},
      body: response.body,
    });
  }

  private finish(reason: string): void {
    this.endReason = reason;
    for (const waiting of this.awaitingResponse.values())
      waiting.reject(new BridgeError('bridge.channel', `channel ${this.id} closed: ${reason}`));
    this.awaitingResponse.clear();
    this.link.forget(this.id);
    this.deliver({ end: reason });
    this.resolveEnded(reason);
  }

  private deliver(delivery: Delivery): void {
    if (!this.peer) {
      this.backlog.push(delivery);
      return;
    }
    if (this.endDelivered) return;
    if ('end' in delivery) {
      this.endDelivered = true;
      this.peer.end(delivery.end);
    } else this.peer.receive(delivery.data);
  }
}
