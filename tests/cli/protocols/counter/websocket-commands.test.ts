/**
 * The generic `serve` and `connect` over WebSocket: the tests-only counter game in its WebSocket variant
 * (tests/support/counter-protocol/websocket-protocol.ts, transport `websocket`), loaded by the real
 * `protoplay` binary through PROTOPLAY_EXTRA_PROTOCOLS. The command line's WebSocket server and client carry
 * it because its definition says so: nothing was added for it outside its folder.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseTranscriptJson } from '../../../../src/core/transcript/json-format';
import type { Transcript } from '../../../../src/core/transcript/model';
import { validateTranscript } from '../../../../src/core/transcript/validate';
import { counterWebSocketProtocol } from '../../../support/counter-protocol/websocket-protocol';
import { BIN, runChild } from '../../run-cli';

const MODULE = resolve(import.meta.dirname, '../../../support/counter-protocol/websocket-protocol.ts');
const env = { PROTOPLAY_EXTRA_PROTOCOLS: MODULE };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'counter-ws-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function readTranscript(path: string): Promise<Transcript> {
  return parseTranscriptJson(await readFile(path, 'utf8'), path);
}

const dataFrames = (transcript: Transcript) =>
  transcript.messages.filter((m) => m.kind === 'data').map((m) => [m.dir, m.text, m.framing]);

/** Starts `protoplay serve counter-ws ...`; resolves with the port once it listens. */
function startServe(args: string[]) {
  const child = spawn(process.execPath, [BIN, 'serve', 'counter-ws', '--port', '0', ...args], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number>((done) => child.once('close', (code) => done(code ?? -1)));
  const port = new Promise<number>((found, failed) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on 127\.0\.0\.1:(\d+) \(websocket\)/.exec(stdout);
      if (match) found(Number(match[1]));
    });
    void exited.then((code) => failed(new Error(`serve exited (${code}) before listening: ${stderr}`)));
  });
  return { port, exited, output: () => stdout, kill: () => child.kill() };
}

describe('the generic commands over WebSocket', () => {
  it('serve and connect play over a real WebSocket; both sides record the same valid frames', async () => {
    const serve = startServe(['--sessions', '2', '--rounds', '2', '--record', 'served']);
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
      const connect = await runChild(
        [
          'connect',
          'counter-ws',
          '--port',
          String(port),
          '--policy',
          'careful',
          '--transcript',
          'client.json',
        ],
        { cwd: dir, env },
      );
      expect(connect.stderr).toBe('');
      expect(connect.code).toBe(0);
      expect(connect.stdout).toContain('mean reward 10.0 over 2 rounds');
      // The plain client's session and connect's: serve stops after the two.
      expect(await serve.exited).toBe(0);
    } finally {
      serve.kill();
    }
    const recorded = await readdir(join(dir, 'served'));
    expect(recorded.sort()).toEqual(['counter-ws-session-1.json', 'counter-ws-session-2.json']);
    const client = await readTranscript(join(dir, 'client.json'));
    expect(validateTranscript(client, counterWebSocketProtocol).violations).toEqual([]);
    // Every message is one frame: none carries a line terminator.
    expect(
      dataFrames(client).every(([, text, framing]) => framing === 'frame' && !text!.includes('\n')),
    ).toBe(true);
    expect(dataFrames(client)).toHaveLength(2 * (1 + 5 + 5 + 1));
    const served = await Promise.all(recorded.map((name) => readTranscript(join(dir, 'served', name))));
    const same = served.find((transcript) => dataFrames(transcript).length === dataFrames(client).length);
    expect(same).toBeDefined();
    expect(dataFrames(same!)).toEqual(dataFrames(client));
  });

  it('connect names a server that does not listen (exit 4)', async () => {
    const port = await new Promise<number>((found) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => found(port));
      });
    });
    const connect = await runChild(['connect', 'counter-ws', '--port', String(port)], { cwd: dir, env });
    expect(connect.code).toBe(4);
    expect(connect.stderr).toContain(`cannot connect to ws://127.0.0.1:${port}/`);
  });
});
