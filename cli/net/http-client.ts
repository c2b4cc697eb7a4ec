/**
 * The one HTTP client of the command line: it drives any HTTP protocol's sans-IO client endpoint with
 * `fetch`. Each message the endpoint sends is a request to the server's origin (its path as the endpoint
 * wrote it), and the response is handed back to the endpoint; every exchange is recorded in a transcript
 * (`http` meta pairing request and response). A network failure or a request without an answer within the
 * timeout ends the endpoint's connection with the reason.
 */
import { describeError } from '../../src/core/errors';
import type { HttpMessage, SansIoEndpoint } from '../../src/core/protocols/contract';
import type { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { describeByteCount } from './frame-counter';
import { RECORDED_HEADERS } from './http-server';

/** Options of a client run. */
export interface HttpClientOptions {
  /** The server, e.g. `http://127.0.0.1:5000/` (only its origin is used: paths come from the endpoint). */
  baseUrl: string;
  endpoint: SansIoEndpoint<HttpMessage, HttpMessage>;
  /** Where every exchange is recorded. */
  recorder?: TranscriptRecorder;
  /** The connection id recorded (default `http`). */
  connection?: string;
  /** The conversation an exchange belongs to, recorded as the messages' channel. */
  channelOf?: (request: HttpMessage) => string | undefined;
  /** Give up on a request after this long, in ms; 0 = wait forever (default 30 s). */
  timeoutMs?: number;
  /** Longest response body taken, in bytes; a longer one ends the run (default 16 MiB). */
  maxBodyBytes?: number;
  /** Aborts the request under way and ends the run. */
  signal?: AbortSignal;
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
}

/** How a client run ended. */
export interface HttpClientEnd {
  /** The endpoint closed the connection (its reason), or the transport ended it (`failed`). */
  kind: 'closed' | 'failed' | 'aborted';
  reason: string;
}

/** Runs the endpoint against the server until it closes, the transport fails, or the signal aborts. */
export function runHttpClient(options: HttpClientOptions): Promise<HttpClientEnd> {
  const origin = originOf(options.baseUrl);
  const conn = options.connection ?? 'http';
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  return new Promise<HttpClientEnd>((resolve) => {
    let done = false;
    const finish = (end: HttpClientEnd) => {
      if (done) return;
      done = true;
      options.signal?.removeEventListener('abort', onAbort);
      resolve(end);
    };
    const onAbort = () => {
      peer.end('interrupted');
      finish({ kind: 'aborted', reason: 'interrupted' });
    };
    const send = async (request: HttpMessage) => {
      const channel = options.channelOf?.(request);
      const recorded = options.recorder?.httpRequest(conn, recordable(request), channel);
      const signals = [options.signal, timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined].filter(
        (signal): signal is AbortSignal => signal !== undefined,
      );
      let response: HttpMessage;
      try {
        const method = request.meta.method ?? 'GET';
        const answer = await doFetch(`${origin}${request.meta.path ?? '/'}`, {
          method,
          headers: request.meta.headers ?? {},
          ...(method === 'GET' || method === 'HEAD' ? {} : { body: request.body }),
          signal: AbortSignal.any(signals),
        });
        const headers: Record<string, string> = {};
        answer.headers.forEach((value, name) => (headers[name] = value));
        const body = await readCapped(answer, options.maxBodyBytes ?? 16 * 1024 * 1024);
        response = { meta: { status: answer.status, headers }, body };
      } catch (error) {
        if (done) return;
        if (options.signal?.aborted) return onAbort();
        const reason = describeFetchError(error, timeoutMs);
        options.recorder?.event(conn, 'c2s', 'error', reason);
        peer.end(reason);
        finish({ kind: 'failed', reason });
        return;
      }
      if (done) return;
      if (recorded) options.recorder!.httpResponse(conn, recorded.index, recordable(response), channel);
      peer.receive(response);
    };
    const peer = options.endpoint.connect(
      {
        send: (request) => void send(request),
        close: (reason) => finish({ kind: 'closed', reason: reason ?? 'closed' }),
      },
      { id: conn, remote: origin },
    );
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A response body that went past the client's cap. */
class BodyTooLargeError extends Error {}

/** A response's body as text, read no further than `cap` bytes (the download is cancelled there). */
async function readCapped(answer: Response, cap: number): Promise<string> {
  if (!answer.body) return '';
  const reader = answer.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > cap) {
      await reader.cancel();
      throw new BodyTooLargeError(`the server sent a response body over ${describeByteCount(cap)}`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `http://host:port` of a base URL. */
function originOf(url: string): string {
  const match = /^(https?:\/\/[^/?#]+)/i.exec(url.trim());
  if (!match) throw new Error(`not an http(s) URL: ${url}`);
  return match[1]!;
}

/** A message with only the headers a transcript keeps. */
function recordable(message: HttpMessage): HttpMessage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.meta.headers ?? {}))
    if (RECORDED_HEADERS.includes(name.toLowerCase())) headers[name.toLowerCase()] = value;
  return { meta: { ...message.meta, headers }, body: message.body };
}

/** Why a request failed, in words (`connection refused`, `no answer within 30 s`). */
export function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof BodyTooLargeError) return error.message;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused';
  if (cause?.code === 'ECONNRESET') return 'the server closed the connection';
  if (cause?.code === 'ENOTFOUND') return 'unknown host';
  return cause?.message ?? describeError(error);
}
