/**
 * `protoplay serve` and `protoplay connect` talking over loopback, as separate processes of the package's
 * binary (plus one in-process client at the same time, in no-header mode): several rounds each, and the
 * transcript each side recorded holds the same messages, byte for byte, in the same order.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTranscriptJson } from '../../../../src/core/transcript/json-format';
import type { Transcript } from '../../../../src/core/transcript/model';
import { validateTranscript } from '../../../../src/core/transcript/validate';
import { rddlsimProtocol } from '../../../../src/core/protocols/rddlsim/protocol';
import { BIN, runChild, runInProcess } from '../../run-cli';
import { sharedPath } from '../../shared-folder';

let dir: string;
let server: ChildProcess;
let serverExit: Promise<number | null>;
let port: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-pair-'));
  server = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      'rddlsim',
      '--rddl-dir',
      sharedPath('rddl/ippc2011'),
      '--port',
      '0',
      '--rounds',
      '3',
      '--record',
      join(dir, 'served'),
      '--sessions',
      '2',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  serverExit = new Promise((resolve) => server.once('exit', resolve));
  port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: server.stdout! }).on('line', (line) => {
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(line);
      if (match) resolve(Number(match[1]));
    });
    void serverExit.then((code) => reject(new Error(`serve exited early with ${code}`)));
  });
});

afterAll(async () => {
  server.kill();
  await rm(dir, { recursive: true, force: true });
});

/** The data messages of a transcript as (direction, framing, text), the part both sides must agree on. */
function wire(transcript: Transcript) {
  return transcript.messages
    .filter((message) => message.kind === 'data')
    .map((message) => ({ dir: message.dir, framing: message.framing ?? 'nul', text: message.text }));
}

describe('serve and connect over loopback', () => {
  it('play whole sessions, and both sides record the same messages', async () => {
    const [child, inProcess] = await Promise.all([
      runChild([
        'connect',
        'rddlsim',
        '--port',
        String(port),
        '--instance',
        'sysadmin_inst_mdp__1',
        '--policy',
        'random',
        '--seed',
        '5',
        '--json',
        '--transcript',
        join(dir, 'client-a.json'),
      ]),
      runInProcess([
        'connect',
        'rddlsim',
        '--port',
        String(port),
        '--instance',
        'game_of_life_inst_mdp__1',
        '--policy',
        'noop',
        '--no-header',
        '--transcript',
        join(dir, 'client-b.json'),
      ]),
    ]);
    expect(child.stderr).toBe('');
    expect(child.code).toBe(0);
    expect(inProcess.code).toBe(0);
    const report = JSON.parse(child.stdout) as { rounds: unknown[]; totalReward: number; status: string };
    expect(report.status).toBe('finished');
    expect(report.rounds).toHaveLength(3);
    // The text report of the in-process client: three round lines and the summary.
    expect(inProcess.stdout.split('\n').filter((line) => /^round +\d\/3 /.test(line))).toHaveLength(3);

    // serve exits by itself after its two sessions, having written both transcripts.
    expect(await serverExit).toBe(0);
    const served = await Promise.all(
      (await readdir(join(dir, 'served'))).map(async (name) =>
        parseTranscriptJson(await readFile(join(dir, 'served', name), 'utf8')),
      ),
    );
    expect(served).toHaveLength(2);
    for (const name of ['client-a', 'client-b']) {
      const client = parseTranscriptJson(await readFile(join(dir, `${name}.json`), 'utf8'));
      const instance = client.meta.instance;
      const server = served.find((transcript) => transcript.meta.instance === instance)!;
      expect(server).toBeDefined();
      expect(wire(client)).toEqual(wire(server));
      expect(wire(client).length).toBeGreaterThan(3 * 2 * 40);
      expect(validateTranscript(client, rddlsimProtocol).violations).toEqual([]);
      expect(validateTranscript(server, rddlsimProtocol).violations).toEqual([]);
    }
    const sessionEnd = served
      .find((transcript) => transcript.meta.instance === 'sysadmin_inst_mdp__1')!
      .messages.find((message) => message.text?.includes('<session-end>'))!;
    expect(Number(/<total-reward>([^<]*)</.exec(sessionEnd.text!)![1])).toBe(report.totalReward);
    // The no-header client got every server message without declaration and terminator.
    const noHeader = parseTranscriptJson(await readFile(join(dir, 'client-b.json'), 'utf8'));
    const fromServer = noHeader.messages.filter(
      (message) => message.dir === 's2c' && message.kind === 'data',
    );
    expect(
      fromServer.every((message) => message.framing === 'none' && !message.text!.startsWith('<?xml')),
    ).toBe(true);
  });
});
