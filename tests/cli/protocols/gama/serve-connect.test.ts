import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommandLine } from '../../../../cli/command-line/dispatch';
import { PROTOCOL_COMMANDS } from '../../../../cli/protocols';
import { validate } from '../../../../src/core/protocols/machine';
import { gamaClientMachine, gamaServerMachine } from '../../../../src/core/protocols/gama';
import { parseTranscriptJson } from '../../../../src/core/transcript/json-format';
import type { Transcript } from '../../../../src/core/transcript/model';
import { WebSocketEndpointServer } from '../../../../cli/net/websocket-server';
import { runInProcess } from '../../run-cli';

/** `serve gama` running in this process; resolves once it listens, with its port and its end. */
async function startServe(args: string[], cwd: string) {
  let output = '';
  let listening: (port: number) => void = () => undefined;
  const port = new Promise<number>((resolve) => (listening = resolve));
  const controller = new AbortController();
  const stdout = {
    write(text: string) {
      output += text;
      const match = /listening on ws:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) listening(Number(match[1]));
      return true;
    },
  };
  let stderr = '';
  const done = runCommandLine(['serve', 'gama', '--port', '0', ...args], PROTOCOL_COMMANDS, {
    io: { stdout, stderr: { write: (t: string) => (stderr += t) }, cwd },
    signal: controller.signal,
  });
  const bound = await Promise.race([
    port,
    done.then((code) => Promise.reject(new Error(`serve exited ${code}: ${stderr}`))),
  ]);
  return { port: bound, done, stop: () => controller.abort(), output: () => output, stderr: () => stderr };
}

/** A written transcript, checked by the format's reader but taken as written (the reader drops `channel`). */
async function readTranscript(path: string): Promise<Transcript> {
  const text = await readFile(path, 'utf8');
  parseTranscriptJson(text, path);
  return JSON.parse(text) as Transcript;
}

const dataFrames = (t: Transcript) =>
  t.messages.filter((m) => m.kind === 'data').map((m) => [m.dir, m.channel, m.text]);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gama-cli-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('serve gama and connect gama over a real WebSocket on 127.0.0.1', () => {
  it('play episodes against each other; both transcripts hold the same frames, channels and no violation', async () => {
    const serve = await startServe(
      ['--policy', 'greedy', '--connections', '2', '--transcript', 'served.json'],
      dir,
    );
    const connect = await runInProcess(
      [
        'connect',
        'gama',
        '--url',
        `ws://127.0.0.1:${serve.port}`,
        '--scenario',
        'B',
        '--cycles',
        '40',
        '--episodes',
        '2',
        '--transcript',
        'played.json',
        '--json',
      ],
      { cwd: dir },
    );
    expect(connect.stderr).toBe('');
    expect(connect.code).toBe(0);
    const report = JSON.parse(connect.stdout);
    expect(report.episodes).toHaveLength(2);
    expect(
      report.episodes.map((e: { cycles: number; completed: boolean }) => [e.cycles, e.completed]),
    ).toEqual([
      [40, true],
      [40, true],
    ]);
    expect(await serve.done).toBe(0);
    const served = await readTranscript(join(dir, 'served.json'));
    const played = await readTranscript(join(dir, 'played.json'));
    expect(dataFrames(served)).toEqual(dataFrames(played));
    // 9 connects, 40 cycles and the terminal requests of 9 scavengers, each answered, per episode.
    expect(dataFrames(played)).toHaveLength(2 * (1 + 9 + 41 * 9 * 2));
    expect(new Set(played.messages.filter((m) => m.kind === 'data').map((m) => m.channel))).toContain(
      'Scav. 9',
    );
    for (const transcript of [served, played]) {
      for (const conn of new Set(transcript.messages.map((m) => m.conn))) {
        const messages = transcript.messages.filter((m) => m.conn === conn);
        for (const machine of [gamaServerMachine, gamaClientMachine])
          expect(validate(machine as never, messages).violations).toEqual([]);
      }
    }
  });

  it('serve answers with a policy file in a worker thread, per-scavenger memory included', async () => {
    await writeFile(
      join(dir, 'turner.ts'),
      `export function act(observation: number[][], reward: number, scavenger: { id: string; memory: { n?: number } }) {
        scavenger.memory.n = (scavenger.memory.n ?? 0) + 1;
        return scavenger.memory.n % 2 === 1 ? 'face_right' : 'idle';
      }\n`,
    );
    const serve = await startServe(
      ['--policy', 'turner.ts', '--connections', '1', '--transcript', 's.json'],
      dir,
    );
    const connect = await runInProcess(
      ['connect', 'gama', '--url', `ws://127.0.0.1:${serve.port}`, '--scenario', 'C', '--cycles', '3'],
      {
        cwd: dir,
      },
    );
    expect(connect.code).toBe(0);
    expect(await serve.done).toBe(0);
    const replies = (await readTranscript(join(dir, 's.json'))).messages
      .filter((m) => m.dir === 's2c' && m.kind === 'data')
      .map((m) => m.text);
    expect(replies.slice(0, 13)).toEqual([
      ...Array.from({ length: 12 }, (_, i) => `Scav. ${i + 1};face_right`),
      'Scav. 1;idle',
    ]);
  });

  it('serve refuses a broken policy file before listening (exit 3, located)', async () => {
    await writeFile(join(dir, 'broken.ts'), 'export function act( {\n');
    const result = await runInProcess(['serve', 'gama', '--port', '0', '--policy', 'broken.ts'], {
      cwd: dir,
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^broken\.ts:\d+:\d+: /m);
  });

  it('connect exits 4 when nobody listens, and 2 on a bad scenario', async () => {
    const serve = await startServe(['--policy', 'random'], dir);
    serve.stop();
    expect(await serve.done).toBe(0);
    const refused = await runInProcess(['connect', 'gama', '--url', `ws://127.0.0.1:${serve.port}`], {
      cwd: dir,
    });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(`cannot connect to ws://127.0.0.1:${serve.port}`);
    const bad = await runInProcess(['connect', 'gama', '--scenario', 'Q'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--scenario: no scenario 'Q'");
  });

  it('connect gives up with exit 4 when replies never reach the waiting scavenger, and notes why', async () => {
    // An API server that answers in JSON quotes: GAMA's scavengers never recognise their name in it.
    const server = await WebSocketEndpointServer.start({
      port: 0,
      endpoint: {
        connect: (sink) => ({
          receive: (text) => {
            const id = /"id": "([^"]+)", "request"/.exec(text)?.[1];
            if (id) sink.send(JSON.stringify(`${id};idle`));
          },
          end: () => undefined,
        }),
      },
    });
    try {
      const result = await runInProcess(
        [
          'connect',
          'gama',
          '--url',
          `ws://127.0.0.1:${server.port}`,
          '--scenario',
          'A',
          '--timeout',
          '1',
          '--transcript',
          't.json',
        ],
        { cwd: dir },
      );
      expect(result.code).toBe(4);
      expect(result.stderr).toContain('no reply from');
      const transcript = JSON.parse(await readFile(join(dir, 't.json'), 'utf8')) as Transcript;
      const notes = transcript.annotations.map((a) => (a.data as { text: string }).text);
      expect(notes[0]).toContain('(send the bare text, without JSON quotes)');
    } finally {
      await server.close();
    }
  });
});
