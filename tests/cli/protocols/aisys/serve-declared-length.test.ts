/**
 * `protoplay serve aisys` over raw TCP answers a request whose Content-Length is over the real server's
 * `MAX_CONTENT_LENGTH` (1,000,000) as soon as its head has arrived, without waiting for the body, and closes
 * the connection; a request of exactly that length waits for its body. Every expected answer below is what
 * aisysprojserver 0.1.3 (Flask 3.1, Werkzeug 3.1) answered to the same head alone, its reason phrases and
 * header names aside (Protoplay's are Node's).
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange } from '../../net/raw-exchange';
import { serveAisys, type ServedAisys } from './serve-child';

let served: ServedAisys;
let port: number;
let pwd: string;

beforeAll(async () => {
  served = await serveAisys('nim', { quiet: true });
  ({ port, pwd } = served);
});

afterAll(() => served.stop());

/** A request head declaring a body of `length` bytes. */
function head(method: string, path: string, length: number, headers = 'Content-Type: application/json\r\n') {
  return `${method} ${path} HTTP/1.1\r\nHost: x\r\n${headers}Content-Length: ${length}\r\n\r\n`;
}

/** Sends `bytes` (a head, without its body) and nothing more: what came back, without the Date header. */
async function headOnly(bytes: string, ms = 5_000): Promise<{ text: string; closed: boolean }> {
  const { text, closed } = await rawExchange(port, bytes, ms);
  return { text: text.replace(/\r\nDate: [^\r]*/, ''), closed };
}

const TOO_LARGE =
  '{"errorcode": 413, "errorname": "Request Entity Too Large", "description": "The data value transmitted exceeds the capacity limit."}';

const answer413 = [
  'HTTP/1.1 413 Payload Too Large',
  'server: protoplay',
  'content-type: application/json',
  'content-length: 132',
  'connection: close',
  '',
  TOO_LARGE,
].join('\r\n');

describe('serve aisys answers a declared length over 1,000,000 from the head', () => {
  it('answers 413 to /act without the body, and closes the connection', async () => {
    expect(await headOnly(head('PUT', '/act/nim', 1_000_001))).toEqual({ text: answer413, closed: true });
    expect(await headOnly(head('PUT', '/act/nim', 10 ** 12))).toEqual({ text: answer413, closed: true });
  });

  it('says 100 Continue to a client that expects it, then 413 at once', async () => {
    const expecting = head(
      'PUT',
      '/act/nim',
      1_000_001,
      'Content-Type: application/json\r\nExpect: 100-continue\r\n',
    );
    expect(await headOnly(expecting)).toEqual({
      text: `HTTP/1.1 100 Continue\r\n\r\n${answer413}`,
      closed: true,
    });
  });

  it('answers a 413 to an admin route that reads the body', async () => {
    expect(await headOnly(head('POST', '/makeagent/nim/bob', 1_000_001))).toEqual({
      text: answer413,
      closed: true,
    });
  });

  it('answers what a route that does not read the body answers anyway', async () => {
    const statusOf = async (bytes: string) => {
      const { text, closed } = await headOnly(bytes);
      expect(closed).toBe(true);
      expect(text).toMatch(/\r\nconnection: close\r\n/);
      return text.split('\r\n')[0];
    };
    expect(await statusOf(head('PUT', '/nothing', 1_000_001))).toBe('HTTP/1.1 404 Not Found');
    expect(await statusOf(head('POST', '/act/nim', 1_000_001))).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(await statusOf(head('PUT', '/act/nim', 1_000_001, 'Content-Type: text/plain\r\n'))).toBe(
      'HTTP/1.1 415 Unsupported Media Type',
    );
    expect(await statusOf(head('GET', '/results', 1_000_001))).toBe('HTTP/1.1 200 OK');
  });

  it('waits for a body of exactly 1,000,000 bytes, and reads it', async () => {
    expect(await headOnly(head('PUT', '/act/nim', 1_000_000), 500)).toEqual({ text: '', closed: false });
    const json = `{"protocol_version":1,"agent":"ann","pwd":"${pwd}"}`;
    const socket = connect({ host: '127.0.0.1', port });
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.write(head('PUT', '/act/nim', 1_000_000));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(text).toBe('');
    socket.write(json.padEnd(1_000_000, ' '));
    while (!text.includes('"action_requests"')) await new Promise((resolve) => setTimeout(resolve, 10));
    socket.destroy();
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });
});
