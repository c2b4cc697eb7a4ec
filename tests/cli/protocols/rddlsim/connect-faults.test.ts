/**
 * `protoplay connect rddlsim` against small fake servers that misbehave: one closes in the middle of a
 * round, one sends garbage, one never answers. Each must end with one clear error line, the documented
 * exit code, and a transcript that keeps everything exchanged until then.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serialiseServerMessage } from '../../../../src/core/protocols/rddlsim/codec';
import { encodeFrame } from '../../../../src/core/protocols/rddlsim/framing';
import type { RddlsimServerMessage } from '../../../../src/core/protocols/rddlsim/messages';
import type { Transcript } from '../../../../src/core/transcript/model';
import { runInProcess } from '../../run-cli';
import { sharedPath } from '../../shared-folder';

/** What a fake server does after each client message (1st, 2nd...): bytes to send, then maybe close. */
type Script = (messageNumber: number, socket: Socket) => void;

const frame = (message: RddlsimServerMessage) =>
  Buffer.from(encodeFrame(serialiseServerMessage(message), 'nul'));
/** The RDDL a real server sends for sysadmin_inst_mdp__1: domain file, blank line, instance file. */
const task = Buffer.from(
  ['sysadmin_mdp', 'sysadmin_inst_mdp__1']
    .map((name) => readFileSync(sharedPath(`rddl/ippc2011/${name}.rddl`), 'utf8'))
    .join('\n\n') + '\n',
).toString('base64');
const sessionInit = frame({
  type: 'session-init',
  task,
  sessionId: 1,
  numRounds: 2,
  timeAllowed: 1080000,
});
const roundInit = frame({ type: 'round-init', roundNum: 1, roundLeft: 1, timeLeft: 1079000 });
const turn = (turnNum: number) =>
  frame({
    type: 'turn',
    turnNum,
    timeLeft: 1078000,
    immediateReward: 0,
    fluents: [{ name: 'running', args: ['c1'], value: 'true' }],
  });

let dir: string;
const servers: Server[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-connect-'));
});

afterAll(async () => {
  for (const server of servers) server.close();
  await rm(dir, { recursive: true, force: true });
});

/** A server on a free loopback port that answers each NUL-terminated client message with the script. */
async function fakeServer(script: Script): Promise<number> {
  const server = createServer((socket) => {
    let count = 0;
    socket.on('data', (chunk: Buffer) => {
      for (let i = 0; i < chunk.filter((byte) => byte === 0).length; i++) script(++count, socket);
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
    'rddlsim',
    '--port',
    String(port),
    '--instance',
    'sysadmin_inst_mdp__1',
    '--policy',
    'noop',
    '--transcript',
    transcriptPath,
    ...extra,
  ]);
  const transcript = JSON.parse(await readFile(transcriptPath, 'utf8')) as Transcript;
  const errorLines = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
  return { ...result, transcript, errorLines };
}

function texts(transcript: Transcript, dir: 'c2s' | 's2c') {
  return transcript.messages.filter((m) => m.dir === dir && m.kind === 'data').map((m) => m.text ?? '');
}

describe('connect against misbehaving servers', () => {
  it('reports a server that closes in the middle of a round (exit 4), keeping the transcript', async () => {
    const port = await fakeServer((n, socket) => {
      if (n === 1) socket.write(sessionInit);
      if (n === 2) socket.write(Buffer.concat([roundInit, turn(1)]));
      if (n === 3) socket.write(turn(2));
      if (n === 4) socket.end();
    });
    const run = await connectTo(port, 'closes');
    expect(run.code).toBe(4);
    expect(run.errorLines).toHaveLength(1);
    expect(run.errorLines[0]).toMatch(
      /^error: the server closed the connection before the session ended in round 1, after turn 2/,
    );
    expect(
      texts(run.transcript, 'c2s').map(
        (text) => /<([a-z-]+)/.exec(text.replace(/^<\?xml[^>]*\?>\s*/, ''))![1],
      ),
    ).toEqual(['session-request', 'round-request', 'actions', 'actions']);
    expect(texts(run.transcript, 's2c')).toHaveLength(4);
    expect(run.transcript.messages.at(-2)).toMatchObject({ dir: 's2c', kind: 'close' });
  });

  it('reports a server that resets the connection in the middle of a round with the socket code (exit 4)', async () => {
    const port = await fakeServer((n, socket) => {
      if (n === 1) socket.write(sessionInit);
      if (n === 2) socket.write(Buffer.concat([roundInit, turn(1)]));
      if (n === 3) socket.resetAndDestroy();
    });
    const run = await connectTo(port, 'resets');
    expect(run.code).toBe(4);
    expect(run.errorLines).toHaveLength(1);
    expect(run.errorLines[0]).toMatch(
      /^error: the server closed the connection before the session ended in round 1, after turn 1 \(ECONNRESET\)/,
    );
    // The socket's error is recorded where it happened, then this side's close.
    expect(run.transcript.messages.slice(-2)).toMatchObject([
      { dir: 's2c', kind: 'error', text: 'ECONNRESET' },
      { dir: 'c2s', kind: 'close' },
    ]);
  });

  it('names the message and the rule when the server sends garbage (exit 1)', async () => {
    const garbage = '<?xml version="1.0" encoding="UTF-8"?>\n<turn><turn-num>1</turn-num><oops></turn>';
    const port = await fakeServer((n, socket) => {
      if (n === 1) socket.write(sessionInit);
      if (n === 2) socket.write(Buffer.concat([roundInit, Buffer.from(`${garbage}\0`)]));
    });
    const run = await connectTo(port, 'garbage');
    expect(run.code).toBe(1);
    expect(run.errorLines).toHaveLength(1);
    const line = run.errorLines[0]!;
    // Records from 0: session-request, session-init, round-request, round-init, then the garbage.
    expect(line).toMatch(/^error: the server broke the protocol: message 4: /);
    expect(line).toMatch(/malformed XML/);
    expect(line).toMatch(/\[rddlsim\.[a-z.-]+\]/);
    expect(run.transcript.messages[4]).toMatchObject({ dir: 's2c', text: garbage });
    expect(run.transcript.annotations.some((a) => a.type === 'violation' && a.index === 4)).toBe(true);
  });

  it('gives up on a server that never answers after the timeout (exit 4)', async () => {
    const port = await fakeServer(() => undefined);
    const started = Date.now();
    const run = await connectTo(port, 'silent', ['--timeout', '0.5']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(run.code).toBe(4);
    expect(run.errorLines).toEqual([
      expect.stringMatching(/^error: the server did not answer within 0\.5 s \(waiting for <session-init>\)/),
    ]);
    expect(texts(run.transcript, 'c2s')).toHaveLength(1);
    expect(run.transcript.messages.some((m) => m.kind === 'error')).toBe(true);
  });

  it('leaves after --rounds N even when the server keeps talking to a closed connection', async () => {
    // rddlsim's server answers a half-closed connection with resource-notifications until a write fails.
    const roundEnd = frame({
      type: 'round-end',
      instanceName: 'sysadmin_inst_mdp__1',
      clientName: 'protoplay',
      roundNum: 0,
      roundReward: 10,
      turnsUsed: 1,
      timeLeft: 1077000,
      immediateReward: 10,
    });
    const notification = frame({ type: 'resource-notification', timeLeft: 1076000, memoryLeft: 'enough' });
    const port = await fakeServer((n, socket) => {
      if (n === 1) socket.write(sessionInit);
      if (n === 2) socket.write(Buffer.concat([roundInit, turn(1)]));
      if (n === 3) socket.write(roundEnd);
      if (n === 3) {
        socket.once('end', () => {
          const timer = setInterval(() => socket.write(notification), 5);
          socket.once('close', () => clearInterval(timer));
        });
      }
    });
    const run = await connectTo(port, 'leaves', ['--rounds', '1', '--timeout', '10']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('left after 1 rounds as asked (the server offers 2)\n');
    expect(run.transcript.messages.at(-1)).toMatchObject({ dir: 'c2s', kind: 'close' });
  });

  it('finishes after session-end even when the server keeps the connection open', async () => {
    const oneRound = frame({ type: 'session-init', task, sessionId: 1, numRounds: 1, timeAllowed: 1080000 });
    const onlyRoundInit = frame({ type: 'round-init', roundNum: 1, roundLeft: 0, timeLeft: 1079000 });
    const end = frame({
      type: 'round-end',
      instanceName: 'sysadmin_inst_mdp__1',
      clientName: 'protoplay',
      roundNum: 0,
      roundReward: 10,
      turnsUsed: 1,
      timeLeft: 1077000,
      immediateReward: 10,
    });
    const sessionEnd = frame({
      type: 'session-end',
      instanceName: 'sysadmin_inst_mdp__1',
      totalReward: 10,
      roundsUsed: 1,
      clientName: 'protoplay',
      sessionId: 1,
      timeLeft: 1077000,
    });
    const port = await fakeServer((n, socket) => {
      if (n === 1) socket.write(oneRound);
      if (n === 2) socket.write(Buffer.concat([onlyRoundInit, turn(1)]));
      if (n === 3) socket.write(Buffer.concat([end, sessionEnd]));
    });
    const run = await connectTo(port, 'lingers', ['--timeout', '20', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'finished', totalReward: 10 });
  });

  it('says when nothing listens (exit 4)', async () => {
    const port = await fakeServer(() => undefined);
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const result = await runInProcess(['connect', 'rddlsim', '--port', String(port), '--instance', 'x']);
    expect(result.code).toBe(4);
    expect(result.stderr.trim()).toBe(`error: cannot connect to 127.0.0.1:${port}: connection refused`);
  });
});
