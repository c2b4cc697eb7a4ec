/**
 * `protoplay serve aisys` and `protoplay connect aisys` over real HTTP on 127.0.0.1: the server as a child
 * process of the package's binary, clients in this process and as a child. Both sides record the same
 * exchanges; a wrong password gets the real server's 401 body; abandoning old runs, one run at a time,
 * a method the server does not take, and a server that is not there. What a faulty policy must not do to a
 * shared server: an action that is not JSON is never sent, a refused action given again waits as for a
 * busy server, an environment without a built-in needs --policy; and runs past --runs are told apart.
 */
import { createServer } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveAisys, type ServedAisys } from './serve-child';
import { aisysProtocol } from '../../../../src/core/protocols/aisys/protocol';
import { validate } from '../../../../src/core/protocols/machine';
import { parseTranscriptJson } from '../../../../src/core/transcript/json-format';
import type { Transcript } from '../../../../src/core/transcript/model';
import { runCommandLine } from '../../../../cli/command-line/dispatch';
import { PROTOCOL_COMMANDS } from '../../../../cli/protocols';
import { TOOL_COMMANDS } from '../../../../cli/tools';
import { runChild, runInProcess } from '../../run-cli';

let served: ServedAisys;
let dir: string;
let serverExit: Promise<number | null>;
let url: string;
let config: string;

beforeAll(async () => {
  served = await serveAisys('nim', { more: (folder) => ['--record', join(folder, 'served.json')] });
  ({ dir, url, config, exited: serverExit } = served);
});

afterAll(() => served.stop());

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

  it.each([
    ['NaN', 'return NaN;', /NaN/],
    ['Infinity', 'return Infinity;', /Infinity/],
    ['nothing', 'return;', /undefined \(act returned nothing; return null to send null\)/],
  ])(
    'an action of %s is never sent: the command stops as a policy error naming the run',
    async (name, body, shown) => {
      const policy = join(dir, `unsendable-${name}.ts`);
      await writeFile(policy, `export function act(): any {\n  ${body}\n}\n`);
      const file = join(dir, `unsendable-${name}.json`);
      const result = await runInProcess(
        ['connect', 'aisys', '--config', config, '--policy', policy, '--runs', '3', '--transcript', file],
        { cwd: dir },
      );
      expect(result.code).toBe(3);
      const [line, ...more] = result.stderr.split('\n');
      expect(more).toEqual(['']);
      expect(line).toMatch(/^error: the action for run \d+ \(act_no \d+\) cannot be written as JSON: /);
      expect(line).toMatch(shown);
      expect(line).toContain(`it was not sent`);
      const sent = parseTranscriptJson(await readFile(file, 'utf8')).messages.filter(
        (message) => message.dir === 'c2s',
      );
      // Only the first request, which answers nothing, went out; every body is JSON.
      expect(sent).toHaveLength(1);
      expect(JSON.parse(sent[0]!.text!)).toMatchObject({ actions: [] });
    },
  );

  it('a refused action the policy gives again waits as for a busy server instead of flooding it', async () => {
    const policy = join(dir, 'five.ts');
    await writeFile(policy, 'export function act() {\n  return 5;\n}\n');
    const file = join(dir, 'five.json');
    const stop = new AbortController();
    // Stopped 1 s after it says it waits (3 s), or after 10 s when it never does.
    const giveUp = setTimeout(() => stop.abort(), 10_000);
    let stderr = '';
    const code = await runCommandLine(
      ['connect', 'aisys', '--config', config, '--policy', policy, '--transcript', file],
      PROTOCOL_COMMANDS,
      {
        io: {
          stdout: { isTTY: false, write: () => true },
          stderr: {
            isTTY: false,
            write: (text: string) => {
              if (!stderr.includes('waits') && text.includes('waits')) setTimeout(() => stop.abort(), 1000);
              stderr += text;
              return true;
            },
          },
          cwd: dir,
        },
        signal: stop.signal,
      },
      TOOL_COMMANDS,
    );
    clearTimeout(giveUp);
    expect(code).toBe(130);
    expect(stderr).toContain('You have to remove 1, 2, or 3 objects');
    expect(stderr).toMatch(
      /^run \d+: the server refused the action 5 once and the policy gives it again: the request waits 3 s$/m,
    );
    const sent = parseTranscriptJson(await readFile(file, 'utf8')).messages.filter(
      (message) => message.dir === 'c2s',
    );
    // The first request and the refused actions; the same actions again only after 3 s.
    expect(sent).toHaveLength(2);
  });

  it('runs past --runs that finish in the same answer are told as extra runs, not as a larger total', async () => {
    const result = await runInProcess(['connect', 'aisys', '--config', config, '--runs', '12']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n').filter((line) => line.startsWith('round '));
    const finished = Number(/^rounds +(\d+)$/m.exec(result.stdout)?.[1]);
    expect(lines).toHaveLength(finished);
    // Five runs play in parallel: the answer that finishes the 12th finishes others too.
    expect(finished).toBeGreaterThan(12);
    for (const [index, line] of lines.entries()) {
      if (index < 12) expect(line).toMatch(new RegExp(`^round +${index + 1}/12  reward`));
      else
        expect(line).toMatch(
          new RegExp(
            `^round +${index + 1}  reward +\\S+  turns \\d+  \\(extra run: finished in the answer that reached --runs 12\\)$`,
          ),
        );
    }
    expect(result.stdout).toContain(
      `extra runs      ${finished - 12} of the ${finished} (they finished in the answer that reached --runs 12)\n`,
    );
  });

  it('serve records what the clients recorded when it stops', async () => {
    served.process.kill('SIGINT');
    expect(await serverExit).toBe(0);
    const recorded = parseTranscriptJson(await readFile(join(dir, 'served.json'), 'utf8'));
    const first = exchanges(clientTranscript!);
    const ofServer = exchanges(recorded);
    expect(ofServer.slice(0, first.length)).toEqual(first);
    expect(recorded.messages[0]).toMatchObject({ conn: 'http1', channel: 'nim/ann' });
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

  it('asks for --policy on an environment no built-in is made for, before any request', async () => {
    const result = await runInProcess([
      'connect',
      'aisys',
      '--url',
      'http://127.0.0.1:1/',
      '--env',
      'probe',
      '--agent',
      'a',
      '--pwd',
      'p',
    ]);
    expect(result).toMatchObject({
      code: 2,
      stderr:
        "error: there is no built-in policy for the environment 'probe' (the built-ins are made for nim, nim-strong, wumpus-cave, halma, halma-3, halma-rhombus): give --policy FILE with your policy, or a built-in's name if the environment is a variant of one of these\n",
    });
  });

  it('asks for the agent when there is no config', async () => {
    const result = await runInProcess(['connect', 'aisys', '--url', 'http://127.0.0.1:1/']);
    expect(result).toMatchObject({
      code: 2,
      stderr: "error: the agent's agent is missing: give --config FILE or --agent\n",
    });
  });
});
