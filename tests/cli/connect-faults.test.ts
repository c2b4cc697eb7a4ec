/**
 * `protoplay connect aisys` (HTTP) and `connect gama` (WebSocket) against fake servers on loopback that
 * misbehave: close in the middle of a message, send garbage, stall, send 100 MiB without ending a message.
 * Each run must end with one clear error line and the connection exit code, in bounded time and memory,
 * with its transcript written. (rddlsim and MASSim: tests/cli/protocols/rddlsim/connect-faults.test.ts and
 * tests/cli/massim-connect-faults.test.ts.)
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTranscriptJson } from '../../src/core/transcript/json-format';
import { runInProcess } from './run-cli';

let dir: string;
const servers: Server[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-connect-faults-'));
});
afterAll(async () => {
  for (const server of servers) server.close();
  await rm(dir, { recursive: true, force: true });
});

/** A raw TCP server whose every connection is handled by `script`; resolves with its port. */
async function fakeServer(script: (socket: Socket) => void): Promise<number> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    script(socket);
  });
  servers.push(server);
  server.on('close', () => sockets.forEach((socket) => socket.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** Calls `then` once a whole HTTP request head has arrived (and its body, when it declares one). */
function onRequest(socket: Socket, then: () => void): void {
  let text = '';
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) return;
    const length = Number(/content-length: *(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
    if (text.length - end - 4 < length) return;
    text = '';
    then();
  });
}

/** Answers a WebSocket handshake, then calls `then`. */
function onUpgrade(socket: Socket, then: () => void): void {
  let text = '';
  const listener = (chunk: Buffer) => {
    text += chunk.toString('latin1');
    if (!text.includes('\r\n\r\n')) return;
    socket.off('data', listener);
    const key = /sec-websocket-key: *(\S+)/i.exec(text)![1]!;
    const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    then();
  };
  socket.on('data', listener);
}

/** An unmasked server text frame header for `length` bytes. */
function frameHeader(length: number): Buffer {
  if (length < 126) return Buffer.from([0x81, length]);
  if (length < 65536) return Buffer.from([0x81, 126, length >> 8, length & 255]);
  const head = Buffer.alloc(10);
  head[0] = 0x81;
  head[1] = 127;
  head.writeBigUInt64BE(BigInt(length), 2);
  return head;
}

/** Writes 1 MiB chunks until `total` or the peer is gone. */
async function flood(socket: Socket, total: number): Promise<number> {
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  let sent = 0;
  while (sent < total && !socket.destroyed) {
    const ok = await new Promise<boolean>((done) => socket.write(chunk, (error) => done(!error)));
    if (!ok) break;
    sent += chunk.length;
  }
  return sent;
}

const MiB = 1024 * 1024;

async function connectAisys(port: number, name: string, extra: string[] = []) {
  const transcript = join(dir, `${name}.json`);
  const result = await runInProcess([
    'connect',
    'aisys',
    '--url',
    `http://127.0.0.1:${port}/`,
    '--env',
    'nim',
    '--agent',
    'a',
    '--pwd',
    'p',
    '--transcript',
    transcript,
    ...extra,
  ]);
  const recorded = parseTranscriptJson(await readFile(transcript, 'utf8'));
  return {
    ...result,
    recorded,
    errorLines: result.stderr.split('\n').filter((line) => line.startsWith('error:')),
  };
}

async function connectGama(port: number, name: string, extra: string[] = []) {
  const transcript = join(dir, `${name}.json`);
  const result = await runInProcess([
    'connect',
    'gama',
    '--url',
    `ws://127.0.0.1:${port}`,
    '--scenario',
    'C',
    '--transcript',
    transcript,
    ...extra,
  ]);
  const recorded = parseTranscriptJson(await readFile(transcript, 'utf8'));
  return {
    ...result,
    recorded,
    errorLines: result.stderr.split('\n').filter((line) => line.startsWith('error:')),
  };
}

describe('connect aisys against misbehaving HTTP servers', () => {
  it('reports a response cut off by the server closing', async () => {
    const port = await fakeServer((socket) =>
      onRequest(socket, () => {
        socket.write(
          'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"acti',
        );
        socket.destroy();
      }),
    );
    const run = await connectAisys(port, 'aisys-cut');
    expect(run.code).toBe(4);
    expect(run.errorLines).toHaveLength(1);
    expect(run.errorLines[0]).toMatch(/closed the connection|terminated|other side closed/);
    expect(run.recorded.messages.some((message) => message.dir === 'c2s' && message.kind === 'data')).toBe(
      true,
    );
  });

  it('reports garbage instead of HTTP', async () => {
    const port = await fakeServer((socket) =>
      onRequest(socket, () => socket.end(Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0a, 0x0d]))),
    );
    const run = await connectAisys(port, 'aisys-garbage');
    expect(run.code).toBe(4);
    expect(run.errorLines).toHaveLength(1);
  });

  it('gives up on a server that never answers after --timeout', async () => {
    const port = await fakeServer(() => undefined);
    const run = await connectAisys(port, 'aisys-stall', ['--timeout', '1']);
    expect(run.code).toBe(4);
    expect(run.errorLines).toEqual([expect.stringContaining('no answer within 1 s')]);
  });

  it('stops reading a body of 100 MiB at 16 MiB and says so, holding none of it', async () => {
    let sent = 0;
    const port = await fakeServer((socket) =>
      onRequest(socket, () => {
        socket.write(
          'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
        );
        const chunk = Buffer.concat([
          Buffer.from('100000\r\n'),
          Buffer.alloc(MiB, 0x20),
          Buffer.from('\r\n'),
        ]);
        void (async () => {
          while (sent < 100 * MiB && !socket.destroyed) {
            const ok = await new Promise<boolean>((done) => socket.write(chunk, (error) => done(!error)));
            if (!ok) break;
            sent += MiB;
          }
        })();
      }),
    );
    const before = process.memoryUsage().rss;
    const run = await connectAisys(port, 'aisys-flood');
    expect(run.code).toBe(4);
    expect(run.errorLines).toEqual([expect.stringContaining('a response body over 16 MiB')]);
    expect(sent).toBeLessThan(100 * MiB);
    expect(process.memoryUsage().rss - before).toBeLessThan(80 * MiB);
  });
});

describe('connect gama against misbehaving WebSocket servers', () => {
  it('reports a server that closes in the middle of a frame', async () => {
    const port = await fakeServer((socket) =>
      onUpgrade(socket, () => {
        socket.write(Buffer.concat([frameHeader(40), Buffer.from('Scav. 1;')]));
        socket.destroy();
      }),
    );
    const run = await connectGama(port, 'gama-cut');
    expect(run.code, run.stderr).toBe(4);
    expect(run.errorLines).toHaveLength(1);
    expect(run.recorded.messages.length).toBeGreaterThan(0);
  });

  it('reports garbage instead of frames', async () => {
    const port = await fakeServer((socket) =>
      onUpgrade(socket, () => socket.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x41]))),
    );
    const run = await connectGama(port, 'gama-garbage');
    expect(run.code, run.stderr).toBe(4);
    expect(run.errorLines).toHaveLength(1);
  });

  it('gives up on a server that never answers after --timeout', async () => {
    const port = await fakeServer((socket) => onUpgrade(socket, () => undefined));
    const run = await connectGama(port, 'gama-stall', ['--timeout', '1']);
    expect(run.code, run.stderr).toBe(4);
    expect(run.errorLines).toHaveLength(1);
  });

  it('closes on a 100 MiB frame without reading it, and says so', async () => {
    let sent = -1;
    const port = await fakeServer((socket) =>
      onUpgrade(socket, () => {
        socket.write(frameHeader(100 * MiB));
        void flood(socket, 100 * MiB).then((bytes) => (sent = bytes));
      }),
    );
    const run = await connectGama(port, 'gama-flood');
    expect(run.code, run.stderr).toBe(4);
    expect(run.errorLines).toEqual([expect.stringMatching(/too large|Max payload/i)]);
    await expect.poll(() => sent, { timeout: 60_000 }).toBeGreaterThanOrEqual(0);
    expect(sent).toBeLessThan(100 * MiB);
  });
});
