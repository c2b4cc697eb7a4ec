/**
 * The command line's one TCP client: connection failures named alike for every protocol, a server that
 * never ends its message refused before anything holds it, reading paused and resumed, and the order of
 * what it reports.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TcpClient, type TcpClientHandlers } from '../../../cli/net/tcp-client';

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A loopback server running `onSocket` for each connection; resolves to its port. */
async function serve(onSocket: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    onSocket(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** Handlers that write down what happens, and resolve `closed` at the end. */
function recorder() {
  const events: string[] = [];
  let data = '';
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const handlers: TcpClientHandlers = {
    onConnect: () => events.push('connect'),
    onData: (chunk) => (data += new TextDecoder().decode(chunk)),
    onEnd: () => events.push('end'),
    onError: (error) =>
      events.push(`error ${error.connecting ? 'connecting' : 'connected'} ${error.description}`),
    onFrameTooLong: () => events.push('frame too long'),
    onClose: () => {
      events.push('close');
      resolveClosed();
    },
  };
  return { handlers, events, data: () => data, closed };
}

describe('TcpClient', () => {
  it('names a refused connection', async () => {
    // A port that was just free: nothing listens there.
    const port = await serve(() => undefined);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const { handlers, events, closed } = recorder();
    new TcpClient({ host: '127.0.0.1', port }, handlers);
    await closed;
    expect(events).toEqual(['error connecting connection refused', 'close']);
  });

  it('sends and receives, and reports the server closing', async () => {
    const port = await serve((socket) => socket.once('data', (chunk) => socket.end(`echo ${chunk}`)));
    const { handlers, events, data, closed } = recorder();
    const client = new TcpClient(
      { host: '127.0.0.1', port },
      { ...handlers, onConnect: () => client.send('hi') },
    );
    await closed;
    expect(data()).toBe('echo hi');
    expect(events).toEqual(['end', 'close']);
    expect(client.connected).toBe(true);
  });

  it('refuses a server that sends more than maxFrameBytes without the terminator', async () => {
    const port = await serve((socket) => {
      socket.write('short\0');
      socket.write(Buffer.alloc(256 * 1024, 'x'));
    });
    const { handlers, events, data } = recorder();
    const client = new TcpClient(
      { host: '127.0.0.1', port, frameTerminator: 0, maxFrameBytes: 1024 },
      handlers,
    );
    await new Promise<void>((resolve) => {
      const check = () => (events.includes('frame too long') ? resolve() : setImmediate(check));
      check();
    });
    client.destroy();
    // At most what came in reads before the overlong message was delivered: none of it.
    expect(['', 'short\0']).toContain(data());
  });

  it('pauses reading until told to resume', async () => {
    const port = await serve((socket) => socket.end('later'));
    const { handlers, data, closed } = recorder();
    const client = new TcpClient(
      { host: '127.0.0.1', port },
      {
        ...handlers,
        onConnect: () => {
          client.pauseReading();
          expect(client.readingPaused).toBe(true);
          setImmediate(() => {
            expect(data()).toBe('');
            client.resumeReading();
          });
        },
      },
    );
    await closed;
    expect(data()).toBe('later');
  });
});
