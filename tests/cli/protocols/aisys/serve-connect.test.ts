/**
 * `protoplay serve aisys` and `protoplay connect aisys` over real HTTP on 127.0.0.1: the server as a child
 * process of the package's binary, clients in this process and as a child. Both sides record the same
 * exchanges; a wrong password gets the real server's 401 body; abandoning old runs, one run at a time,
 * a method the server does not take, and a server that is not there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aisysProtocol } from '../../../../src/core/protocols/aisys/protocol';
import { validate } from '../../../../src/core/protocols/machine';
import { parseTranscriptJson } from '../../../../src/core/transcript/json-format';
import type { Transcript } from '../../../../src/core/transcript/model';
import { BIN, runChild, runInProcess } from '../../run-cli';

let dir: string;
let server: ChildProcess;
let serverExit: Promise<number | null>;
let url: string;
let config: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-aisys-pair-'));
  config = join(dir, 'agent.json');
  server = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      'aisys',
      '--port',
      '0',
      '--env',
      'nim',
      '--agent',
      'ann',
      '--agent-config',
      config,
      '--record',
      join(dir, 'served.json'),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  serverExit = new Promise((resolve) => server.once('exit', resolve));
  // The config file is written right after the listening line: wait for both.
  url = await new Promise<string>((resolve, reject) => {
    let listening: string | undefined;
    createInterface({ input: server.stdout! }).on('line', (line) => {
      listening ??= /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(line)?.[1];
      if (listening && line.includes('agent config written')) resolve(listening);
    });
    void serverExit.then((code) => reject(new Error(`serve exited early with ${code}`)));
  });
});

afterAll(async () => {
  server.kill();
  await rm(dir, { recursive: true, force: true });
});

/** Request and response bodies in order, with status: what both sides must agree on. */
function exchanges(transcript: Transcript) {
  return transcript.messages
    .filter((message) => message.kind === 'data')
    .map((message) => ({
      dir: message.dir,
      status: message.http?.status,
      path: message.http?.path,
      text: message.text,
    }));
}

describe('serve and connect over HTTP', () => {
  it('serve writes the config file the course clients read', async () => {
    const written = JSON.parse(await readFile(config, 'utf8')) as Record<string, string>;
    expect(Object.keys(written).sort()).toEqual(['agent', 'env', 'pwd', 'url']);
    expect(written).toMatchObject({ agent: 'ann', env: 'nim', url });
    expect(written.pwd).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('connect plays the runs, and the transcripts of both sides agree', async () => {
    const clientFile = join(dir, 'client.json');
    const result = await runInProcess([
      'connect',
      'aisys',
      '--config',
      config,
      '--policy',
      'optimal',
      '--runs',
      '10',
      '--json',
      '--transcript',
      clientFile,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { status: string; runs: { outcome: number }[] };
    expect(report.status).toBe('finished');
    expect(report.runs.length).toBeGreaterThanOrEqual(10);
    expect(report.runs.every((run) => run.outcome === 1)).toBe(true);
    const client = parseTranscriptJson(await readFile(clientFile, 'utf8'));
    for (const machine of aisysProtocol.machines)
      expect(validate(machine, client.messages).violations).toEqual([]);
    expect(client.messages[0]).toMatchObject({
      channel: 'nim/ann',
      http: { method: 'PUT', path: '/act/nim' },
    });
    expect(JSON.parse(client.messages[0]!.text!)).toMatchObject({
      protocol_version: 1,
      agent: 'ann',
      client: 'protoplay',
    });
    clientTranscript = client;
  });

  it('connect as a child process plays one run at a time with a policy file', async () => {
    const policy = join(dir, 'policy.ts');
    await writeFile(policy, 'export function act(percept: number) {\n  return percept % 4 || 1;\n}\n');
    const result = await runChild(
      [
        'connect',
        'aisys',
        '--config',
        config,
        '--policy',
        policy,
        '--runs',
        '2',
        '--no-parallel-runs',
        '--transcript',
        join(dir, 'serial.json'),
      ],
      { cwd: dir },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^round +1\/2 +reward +1\.0 +turns \d$/m);
    const serial = parseTranscriptJson(await readFile(join(dir, 'serial.json'), 'utf8'));
    const answers = serial.messages.filter((message) => message.dir === 's2c');
    // The first answer is the outstanding run the last session left: then one run at a time.
    for (const answer of answers.slice(1)) expect(JSON.parse(answer.text!).action_requests).toHaveLength(1);
  });

  it('connect --abandon-old-runs gives up the runs left outstanding before it', async () => {
    const result = await runInProcess([
      'connect',
      'aisys',
      '--config',
      config,
      '--abandon-old-runs',
      '--runs',
      '3',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { runs: { outcome: number; actions: number }[] };
    expect(report.runs.filter((run) => run.actions === 0 && run.outcome === 0).length).toBeGreaterThan(0);
  });

  it("a wrong password gets the real server's 401 body and ends the command", async () => {
    const file = join(dir, 'denied.json');
    const result = await runInProcess([
      'connect',
      'aisys',
      '--config',
      config,
      '--pwd',
      'wrong',
      '--transcript',
      file,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: the server answered 401: Unauthorized: wrong password (transcript written to ${file})\n`,
    );
    const denied = parseTranscriptJson(await readFile(file, 'utf8'));
    expect(denied.messages[1]).toMatchObject({
      http: { status: 401, headers: { 'content-type': 'application/json' } },
      text: '{"errorcode": 401, "errorname": "Unauthorized", "description": "wrong password"}',
    });
  });

  it('the server answers other methods as the real one, with its 405 page', async () => {
    const response = await fetch(`${url}act/nim`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('OPTIONS, HEAD, GET, PUT');
    expect(await response.text()).toContain('<title>405 Method Not Allowed</title>');
  });

  it('serve records what the clients recorded when it stops', async () => {
    server.kill('SIGINT');
    expect(await serverExit).toBe(0);
    const served = parseTranscriptJson(await readFile(join(dir, 'served.json'), 'utf8'));
    const first = exchanges(clientTranscript!);
    const ofServer = exchanges(served);
    expect(ofServer.slice(0, first.length)).toEqual(first);
    expect(served.messages[0]).toMatchObject({ conn: 'http1', channel: 'nim/ann' });
  });
});

let clientTranscript: Transcript | undefined;

describe('connect without a server', () => {
  it('says it cannot reach it and exits with the connection code', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
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
    ]);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(`error: cannot reach http://127.0.0.1:${port}/: connection refused\n`);
  });

  it('asks for the agent when there is no config', async () => {
    const result = await runInProcess(['connect', 'aisys', '--url', 'http://127.0.0.1:1/']);
    expect(result).toMatchObject({
      code: 2,
      stderr: "error: the agent's agent is missing: give --config FILE or --agent\n",
    });
  });
});
