/**
 * Relays HTTP exchanges. Outbound, the page's requests go to an HTTP target and its responses come back
 * whatever CORS headers the server sends (or, like aisysprojserver, does not send): that is why a page
 * needs the bridge for HTTP at all. Inbound, requests accepted on a listen port go to the page, which
 * answers them. Bodies are capped in both directions.
 */
import {
  Agent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { bodyFromJson, bodyToJson, type HttpHeaders } from '../../src/core/bridge/control-protocol';
import type { TargetSpec } from './bridge-config';
import {
  formatBytes,
  formatDuration,
  IdleTimer,
  NOT_ACCEPTED_HTTP,
  NOT_STREAM,
  type PageLink,
  type PageRequest,
  type PageResponse,
  type RelayChannel,
} from './relay-channel';

/** Headers that describe one hop, not the message: the bridge sets its own. */
const HOP_BY_HOP = new Set([
  'connection',
  'content-length',
  'host',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The headers worth relaying, names in lower case, repeated ones joined as HTTP allows. */
export function relayableHeaders(headers: IncomingHttpHeaders | HttpHeaders): HttpHeaders {
  const kept: HttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(lower)) continue;
    kept[lower] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}

/**
 * Reads a message's body up to `cap` bytes; rejects with a sentence beyond it. A response is then cut off;
 * a request is read to its end and dropped, so its client can still be told why (413).
 */
export function readCappedBody(
  message: IncomingMessage,
  cap: number,
  overflow: 'cut' | 'drain' = 'cut',
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    message.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > cap) {
        reject(new Error(`the body is over the ${formatBytes(cap)} HTTP body cap`));
        if (overflow === 'cut') message.destroy();
        else message.removeAllListeners('data').resume();
        return;
      }
      chunks.push(chunk);
    });
    message.on('end', () => resolve(Buffer.concat(chunks)));
    message.on('error', (error) => reject(error));
    message.on('aborted', () => reject(new Error('the connection closed in the middle of the body')));
  });
}

/** The page's channel to an HTTP target: each `request` becomes one HTTP request to it. */
export class HttpTargetRelay implements RelayChannel {
  readonly transport = 'http' as const;
  private readonly idle: IdleTimer;
  private readonly inFlight = new Set<{ destroy(): void }>();
  private ended = false;

  constructor(
    readonly id: number,
    private readonly target: TargetSpec,
    private readonly agent: Agent,
    private readonly link: PageLink,
  ) {
    this.idle = new IdleTimer(link.limits.idleTimeoutMs, (reason) => this.end(reason));
  }

  start(): void {
    this.idle.touch();
  }

  fromPage(): string | undefined {
    return NOT_STREAM;
  }

  request(message: PageRequest): string | undefined {
    if (!message.path.startsWith('/'))
      return `the path must start with '/', got '${message.path.slice(0, 40)}'`;
    if (!/^[A-Z]{1,16}$/.test(message.method))
      return `'${message.method.slice(0, 20)}' is not an HTTP method`;
    const body = bodyFromJson(message);
    if (typeof body === 'string') return body;
    const cap = this.link.limits.httpBodyBytes;
    if (body.length > cap)
      return `a request body of ${body.length} bytes is over the ${formatBytes(cap)} HTTP body cap`;
    this.idle.touch();
    const { exchange } = message;
    const fail = (why: string) => {
      if (!this.ended) this.link.sendControl({ op: 'error', id: this.id, exchange, message: why });
    };
    const outgoing = httpRequest({
      host: this.target.host,
      port: this.target.port,
      method: message.method,
      path: message.path,
      headers: { ...relayableHeaders(message.headers), 'content-length': String(body.length) },
      agent: this.agent,
    });
    this.inFlight.add(outgoing);
    let settled = false;
    // Exactly one of timeout, error and response reports; the others find the exchange settled.
    const settle = () => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      this.inFlight.delete(outgoing);
      return true;
    };
    const timer = setTimeout(() => {
      if (!settle()) return;
      outgoing.destroy();
      fail(`no response within ${formatDuration(this.link.limits.responseTimeoutMs)}`);
    }, this.link.limits.responseTimeoutMs);
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (!settle()) return;
      fail(
        error.code === 'ECONNREFUSED'
          ? 'connection refused'
          : `request failed: ${error.code ?? error.message}`,
      );
    });
    outgoing.on('response', (response) => {
      readCappedBody(response, cap).then(
        (bytes) => {
          if (!settle()) return;
          this.idle.touch();
          if (this.ended) return;
          this.link.sendControl({
            op: 'response',
            id: this.id,
            exchange,
            status: response.statusCode ?? 502,
            headers: relayableHeaders(response.headers),
            ...bodyToJson(bytes),
          });
        },
        (error: Error) => {
          if (!settle()) return;
          outgoing.destroy();
          fail(`the response failed: ${error.message}`);
        },
      );
    });
    outgoing.end(body);
    return undefined;
  }

  respond(): string | undefined {
    return NOT_ACCEPTED_HTTP;
  }

  close(): void {
    this.ended = true;
    this.idle.stop();
    for (const request of this.inFlight) request.destroy();
    this.inFlight.clear();
  }

  private end(reason: string): void {
    if (this.ended) return;
    this.close();
    this.link.channelEnded(this.id, reason);
  }
}

/**
 * One connection accepted on an HTTP listen port: its requests go to the page, which answers each with a
 * `response` (or the external client gets a 504 after the response timeout).
 */
export class AcceptedHttpRelay implements RelayChannel {
  readonly transport = 'http' as const;
  private readonly idle: IdleTimer;
  private readonly waiting = new Map<number, { response: ServerResponse; timer: NodeJS.Timeout }>();
  private nextExchange = 1;
  private ended = false;

  constructor(
    readonly id: number,
    private readonly socket: Socket,
    private readonly link: PageLink,
  ) {
    this.idle = new IdleTimer(link.limits.idleTimeoutMs, (reason) => this.end(reason));
    socket.on('close', () => this.end('the client closed the connection'));
  }

  start(): void {
    this.idle.touch();
  }

  /** A request arrived on this connection: its body is read (capped) and it goes to the page. */
  accept(request: IncomingMessage, response: ServerResponse): void {
    this.idle.touch();
    const cap = this.link.limits.httpBodyBytes;
    readCappedBody(request, cap, 'drain').then(
      (bytes) => {
        if (this.ended) return;
        const exchange = this.nextExchange++;
        const timer = setTimeout(() => {
          this.waiting.delete(exchange);
          answer(
            response,
            504,
            `the page gave no response within ${formatDuration(this.link.limits.responseTimeoutMs)}\n`,
          );
        }, this.link.limits.responseTimeoutMs);
        this.waiting.set(exchange, { response, timer });
        this.link.sendControl({
          op: 'request',
          id: this.id,
          exchange,
          method: request.method ?? 'GET',
          path: request.url ?? '/',
          headers: relayableHeaders(request.headers),
          ...bodyToJson(bytes),
        });
      },
      (error: Error) => answer(response, 413, `${error.message}\n`, { connection: 'close' }),
    );
  }

  fromPage(): string | undefined {
    return NOT_STREAM;
  }

  request(): string | undefined {
    return 'this channel was accepted on an HTTP listen port: answer its requests with "response"';
  }

  respond(message: PageResponse): string | undefined {
    const waiting = this.waiting.get(message.exchange);
    if (!waiting) return `no request ${message.exchange} is waiting on channel ${this.id}`;
    const body = bodyFromJson(message);
    if (typeof body === 'string') return body;
    const cap = this.link.limits.httpBodyBytes;
    if (body.length > cap) {
      answer(waiting.response, 502, 'the page answered with a body over the cap\n');
      this.forget(message.exchange);
      return `a response body of ${body.length} bytes is over the ${formatBytes(cap)} HTTP body cap`;
    }
    this.idle.touch();
    this.forget(message.exchange);
    waiting.response.writeHead(message.status, {
      ...relayableHeaders(message.headers),
      'content-length': String(body.length),
    });
    waiting.response.end(body);
    return undefined;
  }

  close(): void {
    this.ended = true;
    this.idle.stop();
    for (const exchange of [...this.waiting.keys()]) this.forget(exchange);
    this.socket.destroy();
  }

  private forget(exchange: number): void {
    const waiting = this.waiting.get(exchange);
    if (waiting) clearTimeout(waiting.timer);
    this.waiting.delete(exchange);
  }

  private end(reason: string): void {
    if (this.ended) return;
    this.close();
    this.link.channelEnded(this.id, reason);
  }
}

/** Answers a request with plain text (the bridge's own errors on a listen port). */
export function answer(
  response: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  response.end(text);
}
