/**
 * The generic `serve` and `connect` over WebSocket: the tests-only counter game in its WebSocket variant
 * (tests/support/counter-protocol/websocket-protocol.ts, transport `websocket`), loaded by the real
 * `protoplay` binary through PROTOPLAY_EXTRA_PROTOCOLS. The command line's WebSocket server and client carry
 * it because its definition says so: nothing was added for it outside its folder.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Transcript } from '../../../../src/core/transcript/model';
import { validateTranscript } from '../../../../src/core/transcript/validate';
import { counterWebSocketProtocol } from '../../../support/counter-protocol/websocket-protocol';
import { counterCli, unusedPort } from './counter-cli';

const cli = counterCli(
  'counter-ws',
  'websocket-protocol.ts',
  /listening on 127\.0\.0\.1:(\d+) \(websocket\)/,
);

const dataFrames = (transcript: Transcript) =>
  transcript.messages.filter((m) => m.kind === 'data').map((m) => [m.dir, m.text, m.framing]);

describe('the generic commands over WebSocket', () => {
  it('serve and connect play over a real WebSocket; both sides record the same valid frames', async () => {
    const serve = cli.startServe(['--sessions', '2', '--rounds', '2', '--record', 'served']);
    try {
      const port = await serve.port;
      // A plain WebSocket client sees the game's JSON, one message per text frame.
      const first = await new Promise<string>((done, failed) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/`);
        socket.once('message', (data: Buffer) => {
          done(data.toString());
          socket.close();
        });
        socket.once('error', failed);
      });
      expect(JSON.parse(first)).toEqual({ type: 'start', target: 10, round: 1 });
      const connect = await cli.connect(port, ['--policy', 'careful']);
      expect(connect.stderr).toBe('');
      expect(connect.code).toBe(0);
      expect(connect.stdout).toContain('mean reward 10.0 over 2 rounds');
      // The plain client's session and connect's: serve stops after the two.
      expect(await serve.exited).toBe(0);
    } finally {
      serve.kill();
    }
    const recorded = await readdir(join(cli.dir, 'served'));
    expect(recorded.sort()).toEqual(['counter-ws-session-1.json', 'counter-ws-session-2.json']);
    const client = await cli.readTranscript('client.json');
    expect(validateTranscript(client, counterWebSocketProtocol).violations).toEqual([]);
    // Every message is one frame: none carries a line terminator.
    expect(
      dataFrames(client).every(([, text, framing]) => framing === 'frame' && !text!.includes('\n')),
    ).toBe(true);
    expect(dataFrames(client)).toHaveLength(2 * (1 + 5 + 5 + 1));
    const served = await Promise.all(recorded.map((name) => cli.readTranscript('served', name)));
    const same = served.find((transcript) => dataFrames(transcript).length === dataFrames(client).length);
    expect(same).toBeDefined();
    expect(dataFrames(same!)).toEqual(dataFrames(client));
  });

  it('connect names a server that does not listen (exit 4)', async () => {
    const port = await unusedPort();
    const connect = await cli.run(['connect', 'counter-ws', '--port', String(port)]);
    expect(connect.code).toBe(4);
    expect(connect.stderr).toContain(`cannot connect to ws://127.0.0.1:${port}/`);
  });
});
