/**
 * The shared transports every `serve` and `connect` goes through (`cli/play/transports.ts`), over real
 * sockets on 127.0.0.1: what the definition's transport names is what listens and dials; messages are
 * recorded with the channel the definition's `channelOf` reads, on both sides; a whole HTTP server that
 * keeps its sessions itself is served as it is; a port in use is exit 4 naming it; a server that is not
 * there is told apart from one that closed; the server stops at its limit or on the signal.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../../cli/command-line/exit-codes';
import {
  dialPlay,
  listenPlay,
  openTcpDial,
  serveUntilStopped,
  type DialFailure,
  type PlayServer,
  type TcpDial,
} from '../../../cli/play/transports';
import { massimProtocol } from '../../../src/core/protocols/massim/protocol';
import type { HttpMessage, Protocol, SansIoEndpoint, WireData } from '../../../src/core/protocols/contract';
import { recordingEndpoint } from '../../../src/core/session/recording-endpoint';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import type { Transcript } from '../../../src/core/transcript/model';
import { counterProtocol } from '../../support/counter-protocol/protocol';

/** `A: text` speaks for agent A. */
const agentOf = (text: string) => /^(\w+):/.exec(text)?.[1];

const wsProtocol: Protocol = {
  ...counterProtocol,
  id: 'channels-ws',
  transport: { kind: 'websocket', defaultPort: 0, channelOf: (text) => agentOf(text) },
};
const httpProtocol: Protocol = {
  ...counterProtocol,
  id: 'channels-http',
  // No sessionOf: the served endpoint keeps its sessions itself.
  transport: { kind: 'http', defaultPort: 0, channelOf: (request) => agentOf(request.body) },
};

/** A host answering every message with `<message> back`, in the transport's shape. */
function echoHost<T extends WireData>(answer: (data: T) => T): SansIoEndpoint<WireData, WireData> {
  return {
    connect(sink) {
      return {
        receive: (data) => sink.send(answer(data as T)),
        end: () => undefined,
      };
    },
  };
}

/** A client that sends `messages` one at a time, each after the answer to the last, then closes. */
function scriptedClient<T extends WireData>(messages: readonly T[]): SansIoEndpoint<WireData, WireData> {
  return {
    connect(sink) {
      let next = 0;
      const sendNext = () => {
        if (next < messages.length) sink.send(messages[next++]!);
        else sink.close('done');
      };
      queueMicrotask(sendNext);
      return { receive: () => sendNext(), end: () => undefined };
    },
  };
}

const recorder = (protocol: Protocol) => new TranscriptRecorder({ protocol: protocol.id });
const data = (transcript: Transcript) =>
  transcript.messages.filter((m) => m.kind === 'data').map((m) => [m.dir, m.channel, m.text]);

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** A port nobody listens on (bound once, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const ignore = () => undefined;

describe('listenPlay and dialPlay', () => {
  it('carry WebSocket frames and record each with the channel the definition reads, on both sides', async () => {
    const served = recorder(wsProtocol);
    const server = await listenPlay(
      wsProtocol,
      echoHost<string>((text) => `${text} back`),
      { host: '127.0.0.1', port: 0, limits: {}, recorder: served, log: ignore },
    );
    expect(server.address).toBe(`ws://127.0.0.1:${server.port}`);
    const played = recorder(wsProtocol);
    const end = await dialPlay(wsProtocol, scriptedClient(['A: one', 'B: two']), {
      host: '127.0.0.1',
      port: server.port,
      connection: 'c1',
      recorder: played,
      signal: new AbortController().signal,
    });
    expect(end.closedBy).toBe('client');
    const expected = [
      ['c2s', 'A', 'A: one'],
      ['s2c', 'A', 'A: one back'],
      ['c2s', 'B', 'B: two'],
      ['s2c', 'B', 'B: two back'],
    ];
    expect(data(played.transcript)).toEqual(expected);
    await until(() => server.activity().closed === 1);
    expect(data(served.transcript)).toEqual(expected);
    expect(server.activity()).toMatchObject({ opened: 1, closed: 1 });
    await server.close('test over');
  });

  it.each([
    ['WebSocket', wsProtocol],
    ['HTTP', { ...httpProtocol, transport: { ...httpProtocol.transport, sessionOf: () => 'one' } }],
  ])(
    "give the generic commands' own recording (recordingEndpoint) the same channels over %s",
    async (_, protocol: Protocol) => {
      const served = recorder(protocol);
      const http = protocol.transport.kind === 'http';
      const host = echoHost<WireData>((message) =>
        typeof message === 'string'
          ? `${message} back`
          : { meta: { status: 200, headers: {} }, body: `${(message as HttpMessage).body} back` },
      );
      const server = await listenPlay(
        protocol,
        recordingEndpoint(host, { protocol, side: 'host', recorderFor: () => served }),
        { host: '127.0.0.1', port: 0, limits: {}, log: ignore },
      );
      const message = (text: string): WireData =>
        http ? { meta: { method: 'PUT', path: '/act' }, body: text } : text;
      const played = recorder(protocol);
      await dialPlay(protocol, scriptedClient([message('A: one'), message('B: two')]), {
        host: '127.0.0.1',
        port: server.port,
        connection: 'c1',
        signal: new AbortController().signal,
        recorder: played,
      });
      await until(() => data(served.transcript).length === 4);
      expect(data(served.transcript)).toEqual(data(played.transcript));
      expect(data(served.transcript).map(([, channel]) => channel)).toEqual(['A', 'A', 'B', 'B']);
      await server.close('test over');
    },
  );

  it('serve a whole HTTP server as it is, recording exchanges paired and with their agent', async () => {
    const served = recorder(httpProtocol);
    const server = await listenPlay(
      httpProtocol,
      echoHost<HttpMessage>((request) => ({
        meta: { status: 200, headers: {} },
        body: `${request.body} back`,
      })),
      { host: '127.0.0.1', port: 0, limits: {}, recorder: served, endpointKeepsSessions: true, log: ignore },
    );
    expect(server.address).toBe(`http://127.0.0.1:${server.port}/`);
    const request = (body: string): HttpMessage => ({ meta: { method: 'PUT', path: '/act' }, body });
    const played = recorder(httpProtocol);
    const end = await dialPlay(httpProtocol, scriptedClient([request('A: one'), request('B: two')]), {
      url: server.address,
      connection: 'c1',
      recorder: played,
      signal: new AbortController().signal,
    });
    expect(end).toMatchObject({ closedBy: 'client' });
    const expected = [
      ['c2s', 'A', 'A: one'],
      ['s2c', 'A', 'A: one back'],
      ['c2s', 'B', 'B: two'],
      ['s2c', 'B', 'B: two back'],
    ];
    expect(data(played.transcript)).toEqual(expected);
    expect(data(served.transcript)).toEqual(expected);
    expect(server.activity().exchanges).toBe(2);
    // Each response names the request it answers.
    const exchanges = played.transcript.messages
      .filter((m) => m.kind === 'data')
      .map((m) => m.http?.exchange);
    expect(exchanges[1]).toBe(exchanges[0]);
    expect(exchanges[3]).toBe(exchanges[2]);
    await server.close('test over');
  });

  it('record TCP messages cut by the protocol framing and count connections', async () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    const served = recorder(counterProtocol);
    const server = await listenPlay(
      counterProtocol,
      echoHost<Uint8Array>((chunk) => chunk),
      { host: '127.0.0.1', port: 0, limits: {}, recorder: served, log: ignore },
    );
    expect(server.address).toBe(`127.0.0.1:${server.port}`);
    const played = recorder(counterProtocol);
    const end = await dialPlay(counterProtocol, scriptedClient([bytes('one\n'), bytes('two\n')]), {
      host: '127.0.0.1',
      port: server.port,
      connection: 'c1',
      recorder: played,
      signal: new AbortController().signal,
    });
    expect(end.closedBy).toBe('client');
    const texts = (t: Transcript) => t.messages.filter((m) => m.kind === 'data').map((m) => [m.dir, m.text]);
    const expected = [
      ['c2s', 'one'],
      ['s2c', 'one'],
      ['c2s', 'two'],
      ['s2c', 'two'],
    ];
    expect(texts(played.transcript)).toEqual(expected);
    await until(() => server.activity().closed === 1);
    expect(texts(served.transcript)).toEqual(expected);
    await server.close('test over');
  });

  it('end the command with exit 4 naming the address when the port is taken', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const listening = listenPlay(
        wsProtocol,
        echoHost<string>((text) => text),
        {
          host: '127.0.0.1',
          port,
          limits: {},
          log: ignore,
        },
      );
      await expect(listening).rejects.toBeInstanceOf(CliError);
      await expect(listening).rejects.toMatchObject({
        exitCode: ExitCode.connection,
        message: `cannot listen on 127.0.0.1:${port}: the address is in use`,
      });
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it.each([
    ['TCP', counterProtocol],
    ['WebSocket', wsProtocol],
    ['HTTP', httpProtocol],
  ])('tell a %s server that is not there from one that closed', async (_, protocol) => {
    const port = await freePort();
    const message: WireData =
      protocol.transport.kind === 'http'
        ? { meta: { method: 'GET', path: '/' }, body: '' }
        : protocol.transport.kind === 'tcp'
          ? new TextEncoder().encode('one\n')
          : 'A: one';
    const end = await dialPlay(protocol, scriptedClient([message]), {
      host: '127.0.0.1',
      port,
      connection: 'c1',
      signal: new AbortController().signal,
    });
    expect(end).toMatchObject({ closedBy: 'failure', unreachable: true });
    expect(end.failure).toContain(`127.0.0.1:${port}`);
  });

  it('serve until the limit is reached, or until the signal, and close with that reason', async () => {
    const reasons: string[] = [];
    const endpoint: SansIoEndpoint<WireData, WireData> = {
      connect: () => ({ receive: ignore, end: (reason) => void reasons.push(reason ?? '') }),
    };
    const start = () =>
      listenPlay(wsProtocol, endpoint, { host: '127.0.0.1', port: 0, limits: {}, log: ignore });

    let server: PlayServer = await start();
    let reach: () => void = ignore;
    const reached = new Promise<void>((resolve) => (reach = resolve));
    const silentClient: SansIoEndpoint<WireData, WireData> = {
      connect: () => ({ receive: ignore, end: ignore }),
    };
    const client = dialPlay(wsProtocol, silentClient, {
      host: '127.0.0.1',
      port: server.port,
      connection: 'c1',
      signal: new AbortController().signal,
    });
    const serving = serveUntilStopped(server, new AbortController().signal, {
      reached,
      reason: 'limit reached',
    });
    await until(() => server.activity().opened === 1);
    reach();
    await serving;
    const closed = await client;
    expect(closed.closedBy).toBe('server');
    expect(closed.reason).toContain('limit reached');
    // The host is told its connection is over, once.
    await until(() => reasons.length > 0);
    expect(reasons).toHaveLength(1);

    server = await start();
    const interrupt = new AbortController();
    const stopped = serveUntilStopped(server, interrupt.signal);
    interrupt.abort();
    await stopped;
    // Closed: a client now finds nobody there.
    const end = await dialPlay(wsProtocol, scriptedClient<string>([]), {
      host: '127.0.0.1',
      port: server.port,
      connection: 'c2',
      signal: new AbortController().signal,
    });
    expect(end).toMatchObject({ closedBy: 'failure', unreachable: true });
  });
});

/** A raw TCP server that does `serve` with each connection; closed by the returned function. */
async function rawServer(serve: (socket: Socket) => void): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', ignore);
    socket.on('close', () => sockets.delete(socket));
    serve(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A client that keeps what it is handed and what it hears, and never sends. */
function keepingClient() {
  const kept = { bytes: 0, ends: [] as (string | undefined)[] };
  const endpoint: SansIoEndpoint<Uint8Array, Uint8Array> = {
    connect: () => ({
      receive: (chunk) => (kept.bytes += chunk.length),
      end: (reason) => kept.ends.push(reason),
    }),
  };
  return { kept, endpoint };
}

describe('openTcpDial (the TCP dial of connect rddlsim and connect massim)', () => {
  it('stops reading while the endpoint holds more than maxUnreadBytes, and reads on once it has read them', async () => {
    const total = 4 * 1024 * 1024;
    const server = await rawServer((socket) => socket.end(new Uint8Array(total).fill(7)));
    const maxUnreadBytes = 64 * 1024;
    let received = 0;
    let readAtOnce = false;
    let pausedWhileReadingAtOnce = false;
    const ends: (string | undefined)[] = [];
    const dial: TcpDial = openTcpDial(
      counterProtocol,
      {
        connect: () => ({
          receive: (chunk) => {
            received += chunk.length;
            if (!readAtOnce) return;
            dial.read(chunk.length);
            if (dial.readingPaused) pausedWhileReadingAtOnce = true;
          },
          end: (reason) => ends.push(reason),
        }),
      },
      {
        host: '127.0.0.1',
        port: server.port,
        connection: 'c1',
        signal: new AbortController().signal,
        maxUnreadBytes,
      },
    );
    await until(() => dial.readingPaused);
    // Paused at the first chunk over the limit: far from everything the server wrote.
    const held = received;
    expect(held).toBeGreaterThan(maxUnreadBytes);
    expect(held).toBeLessThan(total);
    readAtOnce = true;
    dial.read(held);
    expect(dial.readingPaused).toBe(false);
    // Every later chunk is read as it comes: the socket does not pause again, and the whole stream arrives.
    expect((await dial.ended).closedBy).toBe('server');
    expect(received).toBe(total);
    expect(pausedWhileReadingAtOnce).toBe(false);
    expect(ends).toEqual([undefined]);
    await server.close();
  });

  it('reports a reset with its socket code before the endpoint hears the end', async () => {
    let accepted: (socket: Socket) => void = ignore;
    const serverSide = new Promise<Socket>((resolve) => (accepted = resolve));
    const server = await rawServer((socket) => accepted(socket));
    const order: string[] = [];
    const failures: DialFailure[] = [];
    const dial = openTcpDial(
      counterProtocol,
      {
        connect: () => {
          // Reset once this side is connected (a reset before that is a failure to connect).
          void serverSide.then((socket) => socket.resetAndDestroy());
          return { receive: ignore, end: (reason) => order.push(`end: ${reason}`) };
        },
      },
      {
        host: '127.0.0.1',
        port: server.port,
        connection: 'c1',
        signal: new AbortController().signal,
        onFailure: (failure) => {
          failures.push(failure);
          order.push('failure');
        },
      },
    );
    const end = await dial.ended;
    expect(failures).toEqual([
      { kind: 'socket', code: 'ECONNRESET', message: 'the connection failed: ECONNRESET' },
    ]);
    expect(order).toEqual(['failure', 'end: the connection failed: ECONNRESET']);
    expect(end).toMatchObject({ closedBy: 'failure', failure: 'the connection failed: ECONNRESET' });
    expect(end.unreachable).toBeUndefined();
    expect(dial.closed).toBe(true);
    await server.close();
  });

  it('names the code of a server that is not there', async () => {
    const port = await freePort();
    const failures: DialFailure[] = [];
    const { kept, endpoint } = keepingClient();
    const end = await openTcpDial(counterProtocol, endpoint, {
      host: '127.0.0.1',
      port,
      connection: 'c1',
      signal: new AbortController().signal,
      onFailure: (failure) => failures.push(failure),
    }).ended;
    expect(failures).toEqual([
      {
        kind: 'unreachable',
        code: 'ECONNREFUSED',
        message: `cannot connect to 127.0.0.1:${port}: connection refused`,
      },
    ]);
    expect(end).toMatchObject({ closedBy: 'failure', unreachable: true });
    // No connection, so no endpoint connection to end.
    expect(kept.ends).toEqual([]);
  });

  it("drops a server that sends more than maxFrameBytes without the framing's terminator, before handing it on", async () => {
    // MASSim's framing ends every message with a 0 byte: 3 KiB without one, after a whole message.
    const server = await rawServer((socket) =>
      socket.write(Buffer.concat([Buffer.from('{}\0'), Buffer.alloc(3 * 1024, 0x61)])),
    );
    const failures: DialFailure[] = [];
    const { kept, endpoint } = keepingClient();
    const end = await openTcpDial(massimProtocol, endpoint, {
      host: '127.0.0.1',
      port: server.port,
      connection: 'c1',
      signal: new AbortController().signal,
      maxFrameBytes: 1024,
      onFailure: (failure) => failures.push(failure),
    }).ended;
    expect(failures).toEqual([
      {
        kind: 'frame-too-long',
        maxFrameBytes: 1024,
        message: 'the server sent more than 1 KiB without ending a message; connection dropped',
      },
    ]);
    expect(end).toMatchObject({ closedBy: 'failure' });
    expect(kept.bytes).toBe(0);
    await server.close();
  });

  it('drops the connection at once when asked, and the server sees it close', async () => {
    let serverSaw: Promise<void> = Promise.resolve();
    const server = await rawServer((socket) => {
      serverSaw = new Promise((resolve) => socket.on('close', () => resolve()));
    });
    let connected = false;
    const dial = openTcpDial(
      counterProtocol,
      {
        connect: () => {
          connected = true;
          return { receive: ignore, end: ignore };
        },
      },
      { host: '127.0.0.1', port: server.port, connection: 'c1', signal: new AbortController().signal },
    );
    await until(() => connected);
    dial.drop();
    expect(dial.closed).toBe(true);
    expect((await dial.ended).closedBy).toBe('client');
    await serverSaw;
    await server.close();
  });
});
