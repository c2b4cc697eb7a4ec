/**
 * `protoplay connect massim` against small fake servers that misbehave. They speak with frames the real
 * massim_2022 server sent in a recorded run (agentA1's connection), cut and garbled as each case needs:
 * nothing listening, a refused login, a close in the middle of a simulation, silence, garbage, and a lost
 * bye. Each case must end with one clear line and the documented exit code, keeping the transcript.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transcript } from '../../src/core/transcript/model';
import { runInProcess } from './run-cli';
import { sharedPath } from './shared-folder';
import { readTranscript } from './massim-tcp';

/** What the real server sent agentA1: auth-response, sim-start, 20 request-actions, sim-end, bye. */
const recorded = readFileSync(
  sharedPath('conformance/massim/basic/connections/agentA1.conn1.s2c.bin'),
  'utf8',
)
  .split('\0')
  .filter((frame) => frame.length > 0);
const [authOk, simStart] = recorded;
const request = (step: number) => recorded[2 + step]!;
const simEnd = recorded.find((frame) => frame.startsWith('{"type":"sim-end"'))!;
const bye = recorded.find((frame) => frame.startsWith('{"type":"bye"'))!;

/** A fake server's reaction to the n-th frame (from 1) an agent sent on a connection. */
type Script = (frameNumber: number, frame: { type: string }, socket: Socket) => void;

let dir: string;
const servers: Server[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-massim-faults-'));
});

afterAll(async () => {
  for (const server of servers) server.close();
  await rm(dir, { recursive: true, force: true });
});

const send = (socket: Socket, ...frames: string[]) => socket.write(frames.map((f) => `${f}\0`).join(''));

/** A server on a free loopback port running the script on every frame of every connection. */
async function fakeServer(script: Script): Promise<number> {
  const server = createServer((socket) => {
    let count = 0;
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      buffer += text;
      let end;
      while ((end = buffer.indexOf('\0')) >= 0) {
        const frame = JSON.parse(buffer.slice(0, end)) as { type: string };
        buffer = buffer.slice(end + 1);
        script(++count, frame, socket);
      }
    });
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

async function connectTo(port: number, name: string, extra: string[] = []) {
  const transcriptPath = join(dir, `${name}.json`);
  const result = await runInProcess([
    'connect',
    'massim',
    '--port',
    String(port),
    '--team',
    'A',
    '--policy',
    'random',
    '--quiet',
    '--transcript',
    transcriptPath,
    ...extra,
  ]);
  const transcript = await readTranscript(transcriptPath);
  const errorLines = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
  return { ...result, transcript, errorLines };
}

function dataOf(transcript: Transcript, dir: 'c2s' | 's2c'): string[] {
  return transcript.messages.filter((m) => m.dir === dir && m.kind === 'data').map((m) => m.text ?? '');
}

/** Plays like the real server: each action gets the next request-action, then sim-end and bye. */
function playAlong(untilStep: number, finish: (socket: Socket) => void): Script {
  return (n, frame, socket) => {
    if (n === 1) send(socket, authOk!, simStart!, request(0));
    else if (frame.type === 'action' && n - 1 < untilStep) send(socket, request(n - 1));
    else if (frame.type === 'action') finish(socket);
  };
}

// Every case starts a policy thread first, which takes a few seconds on a busy machine.
describe('connect massim against misbehaving servers', () => {
  it('reports that nothing listens (exit 4)', async () => {
    const port = await fakeServer(() => undefined);
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const result = await runInProcess(['connect', 'massim', '--port', String(port), '--team', 'A']);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(`error: cannot connect to 127.0.0.1:${port}: connection refused\n`);
  });

  it('reports a refused login (exit 4)', async () => {
    const port = await fakeServer((n, _frame, socket) => {
      send(socket, '{"type":"auth-response","content":{"result":"fail"}}');
      socket.end();
    });
    const run = await connectTo(port, 'login', ['--agents', '2']);
    expect(run.code).toBe(4);
    expect(run.errorLines).toHaveLength(1);
    expect(run.errorLines[0]).toMatch(
      /^error: the server refused the login of agentA[12] \(unknown user or wrong password\)/,
    );
  });

  it('reports a connection closed in the middle of a simulation (exit 4), keeping the transcript', async () => {
    const port = await fakeServer(playAlong(3, (socket) => socket.end()));
    const run = await connectTo(port, 'closes');
    expect(run.code).toBe(4);
    expect(run.errorLines).toEqual([
      `error: the server closed agentA1's connection in simulation 1 at step 2, before sim-end (transcript written to ${join(dir, 'closes.json')})`,
    ]);
    const sent = dataOf(run.transcript, 'c2s').map((text) => JSON.parse(text) as { type: string });
    expect(sent.map((frame) => frame.type)).toEqual(['auth-request', 'action', 'action', 'action']);
    expect(dataOf(run.transcript, 's2c')).toEqual([authOk, simStart, request(0), request(1), request(2)]);
    expect(run.transcript.messages.at(-1)).toMatchObject({ dir: 's2c', kind: 'close' });
  });

  it('gives up on a server that stops answering, after --timeout (exit 4)', async () => {
    const port = await fakeServer(playAlong(2, () => undefined));
    // The silence is counted from the server's last frame, the policy's thinking included: a timeout no
    // decision of the random policy can take on a busy machine, so only the silent server reaches it.
    const run = await connectTo(port, 'silent', ['--timeout', '3']);
    expect(run.code).toBe(4);
    expect(run.errorLines[0]).toMatch(
      /^error: the server sent nothing to agentA1 for 3 s in simulation 1 after step 1/,
    );
    expect(dataOf(run.transcript, 's2c')).toHaveLength(4);
  });

  it('names the message and the rule when the server sends garbage (exit 1)', async () => {
    const port = await fakeServer(
      playAlong(2, (socket) => send(socket, '{"type":"request-action","content":')),
    );
    const run = await connectTo(port, 'garbage');
    expect(run.code).toBe(1);
    expect(run.errorLines[0]).toMatch(
      /^error: the server broke the protocol on agentA1\.conn1: message \d+: .*\[massim\.server\.bad-frame\]/,
    );
    expect(dataOf(run.transcript, 's2c').at(-1)).toBe('{"type":"request-action","content":');
  });

  it('takes a close after sim-end as the end when bye is lost (exit 0)', async () => {
    const port = await fakeServer(
      playAlong(20, (socket) => {
        send(socket, simEnd);
        socket.end();
      }),
    );
    const run = await connectTo(port, 'no-bye');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('1 agent(s) saw the connection close after sim-end without bye\n');
    expect(run.stdout).toMatch(/simulation 1 +A 0 {2}\(rank 1\)\n$/);
    expect(dataOf(run.transcript, 'c2s')).toHaveLength(21);
  });

  it('warns once about the steps an agent that joined late missed, and plays the rest (exit 0)', async () => {
    // The server's first request is for step 3: steps 0 to 2 were played before the agent came.
    let next = 3;
    const port = await fakeServer((n, frame, socket) => {
      if (n === 1) send(socket, authOk!, simStart!, request(next++));
      else if (frame.type === 'action' && next < 20) send(socket, request(next++));
      else if (frame.type === 'action') {
        send(socket, simEnd, bye);
        socket.end();
      }
    });
    const run = await connectTo(port, 'late');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      'warning: agentA1 joined the running simulation late (or lost its connection) and missed steps 0-2\n',
    );
    expect(dataOf(run.transcript, 'c2s')).toHaveLength(1 + 17);
  });
});
