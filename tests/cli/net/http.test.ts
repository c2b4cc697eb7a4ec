/**
 * The command line's HTTP transport, written once for every HTTP protocol: the server hands each request
 * to a sans-IO endpoint and answers in order, caps bodies, records the exchanges and survives an endpoint
 * that throws; the client drives an endpoint with fetch, records the exchanges and ends on a network
 * failure or a timeout.
 */
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpMessage, SansIoEndpoint, WireSink } from '../../../src/core/protocols/contract';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import { runHttpClient } from '../../../cli/net/http-client';
import { HttpServer, type ServedHttpRequest } from '../../../cli/net/http-server';
import { rawExchange } from './raw-exchange';

/** An endpoint that answers each request with its method, path and body length; `/boom` throws. */
const echo: SansIoEndpoint<HttpMessage, HttpMessage> = {
  connect(sink: WireSink<HttpMessage>) {
    return {
      receive(request) {
        if (request.meta.path === '/boom') throw new Error('boom');
        sink.send({
          meta: {
            status: request.meta.path === '/teapot' ? 418 : 200,
            headers: { 'content-type': 'text/plain', 'x-extra': 'yes' },
          },
          body: `${request.meta.method} ${request.meta.path} ${request.body.length} ${request.meta.headers?.['content-type'] ?? '-'}`,
        });
      },
      end: () => undefined,
    };
  },
};

/** An endpoint that tells the request's method, path, body length and `unreadBodyBytes`. */
const unread: SansIoEndpoint<HttpMessage, HttpMessage> = {
  connect(sink: WireSink<HttpMessage>) {
    return {
      receive(request: ServedHttpRequest) {
        sink.send({
          meta: { status: 200, headers: { 'content-type': 'text/plain' } },
          body: `${request.meta.method} ${request.meta.path} body ${request.body.length}, unread ${request.unreadBodyBytes ?? '-'}`,
        });
      },
      end: () => undefined,
    };
  },
};

/** Waits until `test` holds (checked every 10 ms). */
async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 10));
}

let server: HttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Partial<Parameters<typeof HttpServer.start>[0]> = {}) {
  const logs: string[] = [];
  server = await HttpServer.start({ endpoint: echo, port: 0, log: (line) => logs.push(line), ...options });
  return { base: `http://127.0.0.1:${server.address.port}`, logs };
}

describe('the HTTP server', () => {
  it('binds 127.0.0.1 and answers each request through the endpoint', async () => {
    const { base } = await start();
    expect(server!.address.host).toBe('127.0.0.1');
    const response = await fetch(`${base}/act/x?y=1`, {
      method: 'PUT',
      body: 'hello',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-extra')).toBe('yes');
    expect(response.headers.get('server')).toBe('protoplay');
    expect(await response.text()).toBe('PUT /act/x?y=1 5 application/json');
    expect((await fetch(`${base}/teapot`)).status).toBe(418);
  });

  it('closes an idle kept-alive connection quietly, and says so of one idle before or inside a request', async () => {
    const { logs } = await start({ idleTimeoutMs: 200 });
    const port = server!.address.port;
    const closedAfter = (socket: Socket) => new Promise<void>((done) => socket.once('close', () => done()));
    // Kept alive after a whole exchange: closed without a line.
    const kept = connect({ host: '127.0.0.1', port });
    let answer = '';
    kept.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    kept.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n');
    await closedAfter(kept);
    expect(answer).toContain('GET /a 0');
    // Silent from the start, and stopped in the middle of a second request: one line each.
    const silent = connect({ host: '127.0.0.1', port });
    await closedAfter(silent);
    const halfway = connect({ host: '127.0.0.1', port });
    halfway.on('data', () => undefined);
    halfway.write(
      'GET /b HTTP/1.1\r\nHost: x\r\n\r\nPUT /c HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\nabc',
    );
    await closedAfter(halfway);
    expect(logs.filter((line) => /no traffic for 0\.2 s/.test(line))).toEqual([
      'http2: no traffic for 0.2 s; closing the connection',
      'http3: no traffic for 0.2 s; closing the connection',
    ]);
  });

  it('cuts bodies at the cap and keeps the declared length for the endpoint', async () => {
    const { base } = await start({ maxBodyBytes: 10 });
    const response = await fetch(`${base}/big`, { method: 'POST', body: 'x'.repeat(1000) });
    expect(await response.text()).toBe('POST /big 10 text/plain;charset=UTF-8');
  });

  it('hands a request declaring a body over the limit to the endpoint at once, unread, and closes after the answer', async () => {
    const { logs } = await start({ endpoint: unread, maxDeclaredBodyBytes: 10 });
    const port = server!.address.port;
    // Only the head: the answer comes without the body, and the connection closes after it.
    const over = await rawExchange(port, 'PUT /big HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n');
    expect(over.closed).toBe(true);
    expect(over.text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(over.text).toMatch(/\r\nconnection: close\r\n/);
    expect(over.text.endsWith('\r\n\r\nPUT /big body 0, unread 11')).toBe(true);
    expect(logs).toEqual([
      'http1: sent a body over 10 bytes (Content-Length 11, PUT /big); answering without reading it and closing the connection',
    ]);
    // The limit itself is allowed: the request waits for its body, then is answered on a kept connection.
    const limit = connect({ host: '127.0.0.1', port });
    let answer = '';
    limit.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    limit.write('PUT /ten HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answer).toBe('');
    limit.write('0123456789');
    await until(() => answer.endsWith('PUT /ten body 10, unread -'));
    expect(answer).toMatch(/\r\nconnection: keep-alive\r\n/i);
    limit.destroy();
  });

  it("takes the endpoint's own limit, and reads every body without one (the default)", async () => {
    const limited = Object.assign(Object.create(unread) as typeof unread, { maxDeclaredBodyBytes: 10 });
    await start({ endpoint: limited });
    const over = await rawExchange(
      server!.address.port,
      'PUT /big HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n',
    );
    expect(over.text.endsWith('PUT /big body 0, unread 11')).toBe(true);
    await server!.close();
    await start({ endpoint: unread });
    const waiting = await rawExchange(
      server!.address.port,
      'PUT /big HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n',
      300,
    );
    expect(waiting).toEqual({ text: '', closed: false });
  });

  it('answers 500 when the endpoint throws, and keeps serving', async () => {
    const { base, logs } = await start();
    const response = await fetch(`${base}/boom`);
    expect(response.status).toBe(500);
    expect(logs.join('\n')).toContain('the endpoint failed on GET /boom: boom');
    expect((await fetch(`${base}/fine`)).status).toBe(200);
  });

  it('records each exchange with its HTTP meta, the kept headers only, and the channel', async () => {
    const recorder = new TranscriptRecorder({ protocol: 'test', now: () => 0 });
    const { base } = await start({ recorder, channelOf: (request) => request.meta.path });
    await fetch(`${base}/a`, {
      method: 'PUT',
      body: '{}',
      headers: { 'content-type': 'application/json', 'x-secret': 's' },
    });
    const [request, response] = recorder.transcript.messages;
    expect(request).toMatchObject({
      dir: 'c2s',
      conn: 'http1',
      channel: '/a',
      text: '{}',
      http: {
        exchange: 0,
        method: 'PUT',
        path: '/a',
        headers: { 'content-type': 'application/json', 'content-length': '2' },
      },
    });
    expect(response).toMatchObject({
      dir: 's2c',
      channel: '/a',
      http: { exchange: 0, status: 200, headers: { 'content-type': 'text/plain' } },
    });
  });

  it('says when the port is taken', async () => {
    await start();
    await expect(
      HttpServer.start({ endpoint: echo, port: server!.address.port, log: () => undefined }),
    ).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
  });
});

/** A client endpoint that sends `requests` one after another and closes after the last answer. */
function sequence(requests: HttpMessage[], answers: HttpMessage[]): SansIoEndpoint<HttpMessage, HttpMessage> {
  return {
    connect(sink) {
      let next = 0;
      queueMicrotask(() => sink.send(requests[next++]!));
      return {
        receive(response) {
          answers.push(response);
          if (next < requests.length) sink.send(requests[next++]!);
          else sink.close('done');
        },
        end: () => undefined,
      };
    },
  };
}

describe('the HTTP client', () => {
  it('sends what the endpoint sends, to the base URL, and records both halves', async () => {
    const { base } = await start();
    const recorder = new TranscriptRecorder({ protocol: 'test', now: () => 0 });
    const answers: HttpMessage[] = [];
    const requests: HttpMessage[] = [
      {
        meta: { method: 'PUT', path: '/act/x', headers: { 'content-type': 'application/json' } },
        body: '{"a":1}',
      },
      { meta: { method: 'GET', path: '/results' }, body: '' },
    ];
    const end = await runHttpClient({
      baseUrl: `${base}/ignored/`,
      endpoint: sequence(requests, answers),
      recorder,
    });
    expect(end).toEqual({ kind: 'closed', reason: 'done' });
    expect(answers.map((answer) => answer.body)).toEqual([
      'PUT /act/x 7 application/json',
      'GET /results 0 -',
    ]);
    expect(recorder.transcript.messages.map((message) => [message.dir, message.http?.exchange])).toEqual([
      ['c2s', 0],
      ['s2c', 0],
      ['c2s', 2],
      ['s2c', 2],
    ]);
  });

  it('ends with the reason when the server cannot be reached or does not answer in time', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await runHttpClient({
      baseUrl: `http://127.0.0.1:${closedPort}/`,
      endpoint: sequence([{ meta: { method: 'GET', path: '/' }, body: '' }], []),
    });
    expect(refused).toEqual({ kind: 'failed', reason: 'connection refused' });

    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const recorder = new TranscriptRecorder({ protocol: 'test', now: () => 0 });
    const timedOut = await runHttpClient({
      baseUrl: `http://127.0.0.1:${port}/`,
      endpoint: sequence([{ meta: { method: 'GET', path: '/' }, body: '' }], []),
      timeoutMs: 200,
      recorder,
    });
    silent.closeAllConnections();
    silent.close();
    expect(timedOut).toEqual({ kind: 'failed', reason: 'no answer within 0.2 s' });
    expect(recorder.transcript.messages.at(-1)).toMatchObject({
      kind: 'error',
      text: 'no answer within 0.2 s',
    });
  });

  it('stops when the signal aborts', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const end = await runHttpClient({
      baseUrl: `http://127.0.0.1:${port}/`,
      endpoint: sequence([{ meta: { method: 'GET', path: '/' }, body: '' }], []),
      signal: controller.signal,
    });
    silent.closeAllConnections();
    silent.close();
    expect(end).toEqual({ kind: 'aborted', reason: 'interrupted' });
  });
});
