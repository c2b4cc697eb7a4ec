/**
 * The command line's one TCP server, with small limits so every misbehaving peer is caught in a few
 * kilobytes: backpressure on a peer that does not read its answers, the drop of a peer that lets too much
 * pile up or never ends a message, the connection limit, the idle timeout, and an endpoint that throws.
 * Every wait is for an event (bytes read, a close, a log line), never for a length of time.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { WireSink } from '../../../src/core/protocols/contract';
import { TcpServer, type ServedPeer, type TcpServerLimits } from '../../../cli/net/tcp-server';

/** An endpoint for tests: answers each chunk as `answer` says, counts what it got, and logs its ends. */
class TestEndpoint {
  received = 0;
  /** `received` when each end came. */
  readonly receivedAtEnd: number[] = [];
  readonly ends: (string | undefined)[] = [];
  readonly sinks: WireSink<Uint8Array>[] = [];
  constructor(
    readonly answer: (chunk: Uint8Array, sink: WireSink<Uint8Array>) => void = () => undefined,
    readonly onConnect: (sink: WireSink<Uint8Array>) => void = () => undefined,
  ) {}
  connect(sink: WireSink<Uint8Array>, connection: { id: string }): ServedPeer {
    this.sinks.push(sink);
    this.onConnect(sink);
    return {
      label: `peer ${connection.id}`,
      receive: (chunk) => {
        this.received += chunk.length;
        this.answer(chunk, sink);
      },
      end: (reason) => {
        this.ends.push(reason);
        this.receivedAtEnd.push(this.received);
      },
    };
  }
}

/** Log lines, with a wait for the first one matching a pattern. */
class Log {
  readonly lines: string[] = [];
  #watchers: (() => void)[] = [];
  readonly write = (line: string) => {
    this.lines.push(line);
    for (const watch of this.#watchers) watch();
  };
  waitFor(pattern: RegExp): Promise<string> {
    return new Promise((resolve) => {
      const check = () => {
        const line = this.lines.find((candidate) => pattern.test(candidate));
        if (line !== undefined) resolve(line);
      };
      this.#watchers.push(check);
      check();
    });
  }
}

const servers: TcpServer[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(endpoint: TestEndpoint, limits: Partial<TcpServerLimits>, frameTerminator?: number) {
  const log = new Log();
  const server = await TcpServer.start({
    endpoint,
    port: 0,
    limits,
    ...(frameTerminator !== undefined ? { frameTerminator } : {}),
    log: log.write,
  });
  servers.push(server);
  return { server, log };
}

async function open(port: number): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port });
  sockets.push(socket);
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** Resolves once `condition` holds, checked after each turn of the event loop. */
function until(condition: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (condition() ? resolve() : setImmediate(check));
    check();
  });
}

function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => (socket.closed ? resolve() : socket.once('close', () => resolve())));
}

/** Reads from a paused socket until `total` bytes came. */
function readAll(socket: Socket, total: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let got = 0;
    socket.on('data', (chunk: Buffer) => {
      got += chunk.length;
      if (got >= total) resolve(got);
    });
    socket.once('close', () =>
      got >= total ? resolve(got) : reject(new Error(`closed after ${got} bytes`)),
    );
    socket.resume();
  });
}

describe('TcpServer', () => {
  it('binds 127.0.0.1 and serves an endpoint, one peer per connection', async () => {
    const endpoint = new TestEndpoint((chunk, sink) => sink.send(chunk));
    const { server } = await serve(endpoint, {});
    expect(server.address.host).toBe('127.0.0.1');
    const [a, b] = await Promise.all([open(server.address.port), open(server.address.port)]);
    const echoed = (socket: Socket) =>
      new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    const answers = Promise.all([echoed(a), echoed(b)]);
    a.write('hello a');
    b.write('hello b');
    expect(await answers).toEqual(['hello a', 'hello b']);
    expect(endpoint.sinks).toHaveLength(2);
    a.end();
    await closed(a);
  });

  it('stops reading a peer that does not read its answers, and resumes when it does', async () => {
    const piece = 64 * 1024;
    // Each request is answered with four times its size: unread answers would pile up fast.
    const endpoint = new TestEndpoint((chunk, sink) => sink.send(new Uint8Array(chunk.length * 4)));
    // Without backpressure the answers would pass the drop limit long before the requests are all read.
    const { server, log } = await serve(endpoint, {
      pauseReadingBytes: 32 * 1024,
      maxQueuedBytes: 1024 * 1024,
    });
    const client = await open(server.address.port);
    client.pause();
    const sent = 16 * 1024 * 1024;
    for (let offset = 0; offset < sent; offset += piece) client.write(new Uint8Array(piece));
    // Its FIN comes after every request: the endpoint must see them all before the end.
    client.end();
    // Reading the answers lets the server read every request.
    const got = await readAll(client, sent * 4);
    expect(got).toBe(sent * 4);
    await until(() => endpoint.ends.length > 0);
    expect(endpoint.receivedAtEnd).toEqual([sent]);
    expect(log.lines).toEqual([]);
  });

  it('drops a peer that lets more than maxQueuedBytes pile up, with one log line', async () => {
    // Sends unasked, as a MASSim server sends percepts, to a peer that never reads.
    const endpoint = new TestEndpoint(undefined, (sink) => {
      for (let i = 0; i < 256; i++) sink.send(new Uint8Array(64 * 1024));
    });
    const { server, log } = await serve(endpoint, { maxQueuedBytes: 256 * 1024 });
    const client = await open(server.address.port);
    client.pause();
    const line = await log.waitFor(/does not read/);
    expect(line).toMatch(
      /^peer tcp1: does not read what it is sent \(.+ waiting\); dropping the connection$/,
    );
    await until(() => endpoint.ends.length > 0);
    expect(log.lines).toHaveLength(1);
    expect(endpoint.ends).toEqual(['does not read what it is sent' + line.slice(line.indexOf(' ('))]);
  });

  it('drops a peer that sends more than maxFrameBytes without the terminator, holding none of it', async () => {
    const endpoint = new TestEndpoint();
    const { server, log } = await serve(endpoint, { maxFrameBytes: 4096 }, 0);
    const client = await open(server.address.port);
    // Short messages are fine.
    client.write('{"ok":1}\0{"ok":2}\0');
    client.write(new Uint8Array(1024 * 1024).fill(65));
    const line = await log.waitFor(/without ending a message/);
    expect(line).toBe('peer tcp1: sent more than 4 KiB without ending a message; dropping the connection');
    await until(() => endpoint.ends.length > 0);
    expect(endpoint.received).toBeLessThan(8192);
    expect(endpoint.ends).toHaveLength(1);
  });

  it('refuses connections beyond maxConnections and keeps serving the others', async () => {
    const endpoint = new TestEndpoint((chunk, sink) => sink.send(chunk));
    const { server, log } = await serve(endpoint, { maxConnections: 2 });
    const first = await open(server.address.port);
    await open(server.address.port);
    const third = await open(server.address.port);
    await closed(third);
    expect(await log.waitFor(/refused/)).toMatch(
      /^connection from 127\.0\.0\.1:\d+ refused: 2 connections are open \(the limit\)$/,
    );
    const echo = new Promise<string>((resolve) =>
      first.once('data', (chunk: Buffer) => resolve(String(chunk))),
    );
    first.write('still here');
    expect(await echo).toBe('still here');
    // A place frees up when a connection closes.
    first.destroy();
    await until(() => server.openConnections < 2);
    const fourth = await open(server.address.port);
    const answer = new Promise<string>((resolve) =>
      fourth.once('data', (chunk: Buffer) => resolve(String(chunk))),
    );
    fourth.write('in');
    expect(await answer).toBe('in');
  });

  it('closes a connection idle for idleTimeoutMs', async () => {
    const endpoint = new TestEndpoint();
    const { server, log } = await serve(endpoint, { idleTimeoutMs: 50 });
    const client = await open(server.address.port);
    await closed(client);
    expect(await log.waitFor(/no traffic/)).toBe('peer tcp1: no traffic for 0.05 s; closing the connection');
  });

  it('closes with a FIN when the endpoint closes, after what it sent', async () => {
    const endpoint = new TestEndpoint((_, sink) => {
      sink.send(new TextEncoder().encode('bye'));
      sink.close();
    });
    const { server } = await serve(endpoint, {});
    const client = await open(server.address.port);
    let text = '';
    client.on('data', (chunk: Buffer) => (text += String(chunk)));
    const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
    client.write('hi');
    await ended;
    expect(text).toBe('bye');
    client.end();
    await until(() => endpoint.ends.length > 0);
    expect(endpoint.ends).toEqual([undefined]);
  });

  it('costs one connection when the endpoint throws, never the server', async () => {
    const endpoint = new TestEndpoint((chunk, sink) => {
      if (String.fromCharCode(chunk[0]!) === '!') throw new Error('boom');
      sink.send(chunk);
    });
    const { server, log } = await serve(endpoint, {});
    const bad = await open(server.address.port);
    bad.write('!');
    await closed(bad);
    expect(await log.waitFor(/internal error/)).toBe(
      'peer tcp1: internal error, closing the connection: boom',
    );
    const good = await open(server.address.port);
    const answer = new Promise<string>((resolve) =>
      good.once('data', (chunk: Buffer) => resolve(String(chunk))),
    );
    good.write('fine');
    expect(await answer).toBe('fine');
  });

  it('tells every open peer why when it stops', async () => {
    const endpoint = new TestEndpoint();
    const { server } = await serve(endpoint, {});
    const client = await open(server.address.port);
    await until(() => endpoint.sinks.length > 0);
    await server.close('stopping for the test');
    servers.length = 0;
    await closed(client);
    expect(endpoint.ends).toEqual(['stopping for the test']);
  });
});
