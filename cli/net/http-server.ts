/**
 * The one HTTP server of the command line: it serves any HTTP protocol's sans-IO endpoint (an emulated
 * aisysprojserver), one endpoint connection per TCP connection, each request handed to the endpoint as an
 * `HttpMessage` and each message the endpoint sends written as the response to the oldest request still
 * unanswered on that connection (HTTP/1.1 answers in order). It binds 127.0.0.1 unless told otherwise,
 * caps what it reads of a body (a client that sends more gets the endpoint's answer to the cut body and the
 * connection closed: an endless chunked body cannot hold it), hands over at once, unread, a request that
 * declares a body over the endpoint's limit when one is set (`maxDeclaredBodyBytes`, as Werkzeug answers
 * one over `MAX_CONTENT_LENGTH`), closes connections idle for too long and
 * refuses those beyond a limit, with one log line each, records every exchange in a transcript (`http`
 * meta pairing each request with its response), and never lets an exception from the endpoint escape:
 * that request gets a plain 500.
 */
import { isUtf8 } from 'node:buffer';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { describeError } from '../../src/core/errors';
import { describeByteCount } from './frame-counter';
import type { HttpMessage, SansIoEndpoint, WirePeer } from '../../src/core/protocols/contract';
import type { TranscriptRecorder } from '../../src/core/transcript/recorder';

/** The headers a transcript keeps by default: those the protocols read. */
export const RECORDED_HEADERS: readonly string[] = [
  'content-type',
  'content-length',
  'authorization',
  'allow',
  'retry-after',
];

/**
 * A request as the server hands it to the endpoint. `unreadBodyBytes` is set when the body was not read at
 * all, because the Content-Length it declares (this number) is over `maxDeclaredBodyBytes`: `body` is empty.
 */
export interface ServedHttpRequest extends HttpMessage {
  unreadBodyBytes?: number;
}

/**
 * An endpoint may say how large a body it reads at most (`maxDeclaredBodyBytes`, the emulated aisysprojserver's
 * `MAX_CONTENT_LENGTH`): the server then applies it unless its options say otherwise.
 */
export type HttpServerEndpoint = SansIoEndpoint<HttpMessage, HttpMessage> & {
  readonly maxDeclaredBodyBytes?: number;
};

/** Options of a server. */
export interface HttpServerOptions {
  /** What serves each connection. */
  endpoint: HttpServerEndpoint;
  /** Address to bind (default 127.0.0.1: only this machine). */
  host?: string;
  /** Port; 0 picks a free one. */
  port: number;
  /**
   * Bytes of a body kept (default 1 MiB). A body that goes past it is not read further: the endpoint sees
   * it cut there, with the Content-Length the client declared, so it can refuse it as too large, and the
   * connection is closed once that answer is written (one log line).
   */
  maxBodyBytes?: number;
  /**
   * A request whose Content-Length is over this many bytes is handed to the endpoint as soon as its head
   * has arrived, before any of its body is read, with an empty body and `unreadBodyBytes` set to the
   * declared length (`ServedHttpRequest`); the body is never read, and the connection is closed once the
   * answer is written (one log line). A client that waits for the answer before sending its body (or with
   * `Expect: 100-continue`) gets it at once. Default: the endpoint's own `maxDeclaredBodyBytes`, and
   * without one none (every body is read up to `maxBodyBytes`).
   */
  maxDeclaredBodyBytes?: number;
  /** Connections open at once; more are refused with a log line (default 512). */
  maxConnections?: number;
  /** A connection with no byte in either direction for this long is closed, in ms; 0 = never (default 1 h). */
  idleTimeoutMs?: number;
  /**
   * Responses written on a connection and not yet taken by the peer at which it is dropped (default 256): a
   * client that pipelines requests without reading the answers.
   */
  maxUnreadResponses?: number;
  /** Where every exchange is recorded. */
  recorder?: TranscriptRecorder;
  /** The conversation an exchange belongs to, recorded as the messages' channel (an agent). */
  channelOf?: (request: HttpMessage) => string | undefined;
  /** Headers recorded (lower case; default `RECORDED_HEADERS`). */
  recordedHeaders?: readonly string[];
  /** The `Server` header (default `protoplay`). */
  serverName?: string;
  /** One line per event worth an operator's attention (an endpoint error, a socket error). */
  log(line: string): void;
}

/** A request waiting for its response on a connection. */
interface Waiting {
  response: ServerResponse;
  /** Transcript index of the recorded request. */
  exchange?: number;
  channel?: string;
  /**
   * The request's body was not read to its end (it went past the cap, or was not read at all): the
   * connection closes after this answer.
   */
  bodyLeft?: boolean;
}

/** One TCP connection and the endpoint connection it carries. */
interface ServedConnection {
  id: string;
  peer: WirePeer<HttpMessage> | undefined;
  waiting: Waiting[];
  socket: Socket;
  closed: boolean;
  /** Responses handed to Node and not yet flushed to the socket. */
  unflushed: number;
  /** Requests begun (their head read), responses flushed, and the socket's bytes read when the last was. */
  begun: number;
  answered: number;
  readAtAnswer: number;
}

/** A listening HTTP server. */
export class HttpServer {
  readonly #options: HttpServerOptions;
  readonly #server: Server;
  readonly #connections = new Map<Socket, ServedConnection>();
  #serial = 0;
  #exchanges = 0;

  private constructor(options: HttpServerOptions) {
    this.#options = options;
    this.#server = createServer((request, response) => this.#request(request, response));
    this.#server.maxConnections = options.maxConnections ?? 512;
    this.#server.on('drop', (peer?: { remoteAddress?: string; remotePort?: number }) =>
      options.log(
        `${peer?.remoteAddress ?? '?'}:${peer?.remotePort ?? '?'}: refused, ${this.#server.maxConnections} connections are open (maxConnections)`,
      ),
    );
    const idleTimeoutMs = options.idleTimeoutMs ?? 60 * 60 * 1000;
    if (idleTimeoutMs > 0) {
      this.#server.timeout = idleTimeoutMs;
      // With a listener, Node leaves the idle socket to it instead of destroying it silently.
      this.#server.on('timeout', (socket: Socket) => {
        const connection = this.#connections.get(socket);
        // A kept-alive connection idle between requests (all answered, nothing begun since) is closed
        // quietly, as any HTTP server does; one idle before its first request or in the middle of one is
        // a misbehaving peer, and said so.
        const betweenRequests =
          connection !== undefined &&
          connection.answered > 0 &&
          connection.answered === connection.begun &&
          connection.waiting.length === 0 &&
          connection.unflushed === 0 &&
          socket.bytesRead === connection.readAtAnswer;
        if (!betweenRequests)
          options.log(
            `${connection?.id ?? socket.remoteAddress}: no traffic for ${idleTimeoutMs / 1000} s; closing the connection`,
          );
        socket.destroy();
      });
    }
    this.#server.on('connection', (socket) => this.#open(socket));
    this.#server.on('clientError', (error, socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      options.log(
        `bad request from ${(socket as Socket).remoteAddress ?? 'a client that already left'}: ${describeError(error)}`,
      );
    });
  }

  /** Starts listening; rejects with the socket error (address in use...) when it cannot. */
  static async start(options: HttpServerOptions): Promise<HttpServer> {
    const server = new HttpServer(options);
    await new Promise<void>((resolve, reject) => {
      server.#server.once('error', reject);
      server.#server.listen(options.port, options.host ?? '127.0.0.1', () => {
        server.#server.off('error', reject);
        resolve();
      });
    });
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

  /** Requests answered so far. */
  get exchanges(): number {
    return this.#exchanges;
  }

  /** Stops listening and closes every connection; resolves once they are closed. */
  async close(reason = 'the server stopped'): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const connection of this.#connections.values()) {
      connection.peer?.end(reason);
      connection.socket.destroy();
    }
    this.#server.closeAllConnections();
    await closed;
  }

  #open(socket: Socket): void {
    const connection: ServedConnection = {
      id: `http${++this.#serial}`,
      peer: undefined,
      waiting: [],
      socket,
      closed: false,
      unflushed: 0,
      begun: 0,
      answered: 0,
      readAtAnswer: 0,
    };
    this.#connections.set(socket, connection);
    socket.once('close', () => {
      this.#connections.delete(socket);
      connection.closed = true;
      connection.peer?.end('the client closed the connection');
    });
    try {
      connection.peer = this.#options.endpoint.connect(
        {
          send: (message) => this.#respond(connection, message),
          close: () => {
            connection.closed = true;
            // Whatever is being written goes out first.
            if (connection.waiting.length === 0) socket.end();
          },
        },
        { id: connection.id, remote: `${socket.remoteAddress}:${socket.remotePort}` },
      );
    } catch (error) {
      this.#options.log(`${connection.id}: the endpoint refused the connection: ${describeError(error)}`);
      socket.destroy();
    }
  }

  #request(request: IncomingMessage, response: ServerResponse): void {
    const connection = this.#connections.get(request.socket);
    if (!connection?.peer) {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('not accepting requests\n');
      return;
    }
    connection.begun++;
    const maxUnread = this.#options.maxUnreadResponses ?? 256;
    if (connection.unflushed >= maxUnread) {
      if (!connection.socket.destroyed)
        this.#options.log(
          `${connection.id}: does not read its responses (${connection.unflushed} waiting); dropping the connection`,
        );
      connection.socket.destroy();
      return;
    }
    const meta = { method: request.method ?? 'GET', path: request.url ?? '/', headers: headersOf(request) };
    const declared = declaredLength(meta.headers['content-length']);
    const unreadOver = this.#options.maxDeclaredBodyBytes ?? this.#options.endpoint.maxDeclaredBodyBytes;
    if (unreadOver !== undefined && declared !== undefined && declared > unreadOver) {
      // Answered from its head: the body is not read (what arrives of it waits, then is thrown away as
      // the connection closes after the answer).
      request.pause();
      this.#options.log(
        `${connection.id}: sent a body over ${unreadOver.toLocaleString('en-US')} bytes (Content-Length ${declared}, ${meta.method} ${meta.path}); answering without reading it and closing the connection`,
      );
      this.#hand(connection, response, { meta, body: '', unreadBodyBytes: declared });
      return;
    }
    const cap = this.#options.maxBodyBytes ?? 1024 * 1024;
    const chunks: Buffer[] = [];
    let kept = 0;
    let handed = false;
    const hand = (overflowed: boolean) => {
      if (handed) return;
      handed = true;
      const bytes = Buffer.concat(chunks);
      // Bytes that are not UTF-8 travel too: a server that reads bytes reads them, not their U+FFFD.
      const message: HttpMessage = {
        meta,
        body: bytes.toString('utf8'),
        ...(isUtf8(bytes) ? {} : { bytes: new Uint8Array(bytes) }),
      };
      if (overflowed) {
        // Stop reading: the rest of the body waits in the peer's socket until the connection closes.
        request.pause();
        this.#options.log(
          `${connection.id}: sent a body over ${describeByteCount(cap)} (${meta.method} ${meta.path}); answering it cut and closing the connection`,
        );
      }
      this.#hand(connection, response, message, overflowed);
    };
    request.on('data', (chunk: Buffer) => {
      if (handed) return;
      const part = chunk.subarray(0, cap - kept);
      chunks.push(part);
      kept += part.length;
      if (part.length < chunk.length) hand(true);
    });
    request.on('error', (error) => this.#options.log(`${connection.id}: ${describeError(error)}`));
    request.on('end', () => hand(false));
  }

  /**
   * Hands a request to the endpoint and queues its response; `bodyLeft` (a body cut, or not read at all)
   * closes the connection after the answer.
   */
  #hand(
    connection: ServedConnection,
    response: ServerResponse,
    message: ServedHttpRequest,
    bodyLeft = message.unreadBodyBytes !== undefined,
  ): void {
    if (bodyLeft) connection.closed = true;
    const waiting: Waiting = { response, ...(bodyLeft ? { bodyLeft } : {}) };
    const { recorder, channelOf } = this.#options;
    if (recorder) {
      const channel = channelOf?.(message);
      const recorded = recorder.httpRequest(connection.id, this.#recordable(message), channel);
      waiting.exchange = recorded.index;
      if (channel !== undefined) waiting.channel = channel;
    }
    connection.waiting.push(waiting);
    try {
      connection.peer!.receive(message);
    } catch (error) {
      this.#options.log(
        `${connection.id}: the endpoint failed on ${message.meta.method} ${message.meta.path}: ${describeError(error)}`,
      );
      this.#respond(connection, {
        meta: { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } },
        body: 'internal error of the emulated server\n',
      });
    }
  }

  #respond(connection: ServedConnection, message: HttpMessage): void {
    const waiting = connection.waiting.shift();
    if (!waiting) {
      this.#options.log(`${connection.id}: the endpoint sent a response no request asked for; dropped`);
      return;
    }
    this.#exchanges++;
    const { recorder } = this.#options;
    if (recorder && waiting.exchange !== undefined)
      recorder.httpResponse(connection.id, waiting.exchange, this.#recordable(message), waiting.channel);
    const body = Buffer.from(message.body, 'utf8');
    const headers: Record<string, string | number> = {
      server: this.#options.serverName ?? 'protoplay',
      ...message.meta.headers,
      'content-length': body.length,
    };
    if (connection.closed) headers.connection = 'close';
    waiting.response.writeHead(message.meta.status ?? 200, headers);
    connection.unflushed++;
    waiting.response.end(body, () => {
      connection.unflushed--;
      connection.answered++;
      connection.readAtAnswer = connection.socket.bytesRead;
      if (!connection.closed || connection.waiting.length > 0) return;
      connection.socket.end();
      // A peer still sending a body it was told is too large does not get to keep the connection.
      if (waiting.bodyLeft) setTimeout(() => connection.socket.destroy(), 5_000).unref();
    });
  }

  /** A message with only the recorded headers. */
  #recordable(message: HttpMessage): HttpMessage {
    const keep = this.#options.recordedHeaders ?? RECORDED_HEADERS;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(message.meta.headers ?? {}))
      if (keep.includes(name.toLowerCase())) headers[name.toLowerCase()] = value;
    return { ...message, meta: { ...message.meta, headers } };
  }
}

/** A Content-Length header's value as a number (Node has checked it is digits), or undefined. */
function declaredLength(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** A request's headers, names in lower case, repeated ones joined as HTTP joins them. */
function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}
