/**
 * The generic `serve` and `connect` over HTTP: the tests-only counter game in its HTTP variant
 * (tests/support/counter-protocol/http-protocol.ts, transport `http` with sessions keyed by the player in
 * the path), loaded by the real `protoplay` binary through PROTOPLAY_EXTRA_PROTOCOLS. The command line's
 * HTTP server and client carry it because its definition says so: nothing was added for it outside its
 * folder.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Transcript } from '../../../../src/core/transcript/model';
import { validateTranscript } from '../../../../src/core/transcript/validate';
import { counterHttpProtocol } from '../../../support/counter-protocol/http-protocol';
import { counterCli, unusedPort } from './counter-cli';

const cli = counterCli('counter-http', 'http-protocol.ts', /listening on 127\.0\.0\.1:(\d+) \(http\)/);

/** Each exchange as the transcript pairs it: direction, method or status, body. */
const exchanges = (transcript: Transcript) =>
  transcript.messages
    .filter((m) => m.kind === 'data')
    .map((m) => [m.dir, m.http?.method ?? m.http?.status, m.text]);

describe('the generic commands over HTTP', () => {
  it('serve keys sessions by the request, connect plays one; both sides record the same valid exchanges', async () => {
    const serve = cli.startServe(['--sessions', '1', '--rounds', '2', '--record', 'served']);
    try {
      const port = await serve.port;
      const base = `http://127.0.0.1:${port}`;
      // A plain HTTP client: each request on a connection of its own, the session kept by the path.
      const get = async (path: string) => {
        const response = await fetch(`${base}${path}`, { headers: { connection: 'close' } });
        return { status: response.status, body: await response.text() };
      };
      expect(await get('/counter/probe')).toEqual({
        status: 200,
        body: JSON.stringify({ type: 'start', target: 10, round: 1 }),
      });
      expect(await get('/counter/probe')).toEqual({
        status: 200,
        body: JSON.stringify({ type: 'state', value: 0, reward: 0 }),
      });
      const unnamed = await get('/elsewhere');
      expect(unnamed.status).toBe(400);
      expect(unnamed.body).toContain('names no session: /elsewhere');
      const connect = await cli.connect(port, ['--policy', 'careful', '--player', 'alice']);
      expect(connect.stderr).toBe('');
      expect(connect.code).toBe(0);
      expect(connect.stdout).toContain('mean reward 10.0 over 2 rounds');
      // connect's session ended: serve stops, ending the probe's session that was never finished.
      expect(await serve.exited).toBe(0);
      expect(serve.output()).toContain('session 1 ended: session limit reached');
    } finally {
      serve.kill();
    }
    const recorded = await readdir(join(cli.dir, 'served'));
    expect(recorded.sort()).toEqual(['counter-http-session-1.json', 'counter-http-session-2.json']);
    const client = await cli.readTranscript('client.json');
    expect(validateTranscript(client, counterHttpProtocol).violations).toEqual([]);
    // Every response is paired with its request.
    const data = client.messages.filter((m) => m.kind === 'data');
    // The protocol's own option named the session.
    expect(data.filter((m) => m.dir === 'c2s').every((m) => m.http?.path === '/counter/alice')).toBe(true);
    for (const response of data.filter((m) => m.dir === 's2c'))
      expect(client.messages[response.http!.exchange]!.http!.method).toMatch(/^(GET|POST)$/);
    // Per round: GET start, GET state, 5 POST add answered with 4 states and the end; then the closing 410.
    expect(data).toHaveLength(2 * 2 * (2 + 5) + 2);
    expect(exchanges(client).slice(-2)).toEqual([
      ['c2s', 'GET', ''],
      ['s2c', 410, ''],
    ]);
    const served = await Promise.all(recorded.map((name) => cli.readTranscript('served', name)));
    const probe = served.find((transcript) => exchanges(transcript).length === 4);
    expect(probe?.messages.filter((m) => m.kind === 'data').every((m) => m.conn === 'probe')).toBe(true);
    const same = served.find((transcript) => transcript !== probe);
    expect(same!.messages.find((m) => m.kind === 'data')?.conn).toBe('alice');
    expect(exchanges(same!)).toEqual(exchanges(client));
    expect(validateTranscript(same!, counterHttpProtocol).violations).toEqual([]);
  });

  it("the protocol's own option shows in connect's help, and serve does not take it", async () => {
    const help = await cli.run(['connect', 'counter-http', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--player NAME\s+the player the requests name/);
    const serve = await cli.run(['serve', 'counter-http', '--player', 'bob']);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain('--player');
  });

  it('connect names a server that does not listen (exit 4)', async () => {
    const port = await unusedPort();
    const connect = await cli.run(['connect', 'counter-http', '--port', String(port)]);
    expect(connect.code).toBe(4);
    expect(connect.stderr).toContain(`cannot connect to http://127.0.0.1:${port}/: connection refused`);
  });
});
