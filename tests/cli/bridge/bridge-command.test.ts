/** `protoplay bridge` on the command line: the printed link, the options, the config file, usage errors. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommandLine } from '../../../cli/command-line/dispatch';
import { PROTOCOL_COMMANDS } from '../../../cli/protocols';
import { TOOL_COMMANDS } from '../../../cli/tools';
import { BridgeClient } from '../../../src/core/bridge/bridge-client';
import { readBridgeLink } from '../../../src/core/bridge/bridge-link';
import { runInProcess } from '../run-cli';
import { afterTest } from './cleanup';
import { socketFrom } from './bridge-fixture';

class Captured {
  text = '';
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

/** Starts `protoplay bridge ARGS` in this process; `stop()` is Ctrl-C and resolves to the exit code. */
async function startCommand(args: string[], cwd = process.cwd()) {
  const stdout = new Captured();
  const stderr = new Captured();
  const controller = new AbortController();
  const finished = runCommandLine(
    ['bridge', ...args],
    PROTOCOL_COMMANDS,
    { io: { stdout, stderr, cwd }, signal: controller.signal },
    TOOL_COMMANDS,
  );
  let code: number | undefined;
  void finished.then((exit) => (code = exit));
  while (!stdout.text.includes('#bridge=') && code === undefined)
    await new Promise((done) => setTimeout(done, 10));
  const stop = async () => {
    controller.abort();
    return finished;
  };
  afterTest(stop);
  return { stdout, stderr, stop, finished: () => code };
}

describe('protoplay bridge', () => {
  it('prints the page link with the token in its fragment; the page connects with it', async () => {
    const run = await startCommand([
      '--port',
      '0',
      '--target',
      'rddlsim',
      '--listen',
      'massim=0',
      '--response-timeout',
      '4',
    ]);
    const link = run.stdout.text.match(/(\S+)#(bridge=\S+)/)!;
    expect(link[1]).toBe('http://localhost:4173/');
    const address = readBridgeLink(link[2]!)!;
    expect(address.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect(address.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const page = await BridgeClient.connect({ ...address, WebSocket: socketFrom('http://localhost:4173') });
    expect(page.targets).toEqual([{ name: 'rddlsim', transport: 'tcp', url: 'tcp://127.0.0.1:2323' }]);
    expect(page.listens).toEqual([
      {
        name: 'massim',
        transport: 'tcp',
        url: expect.stringMatching(/^tcp:\/\/127\.0\.0\.1:\d+$/) as string,
      },
    ]);
    // The page learns how long the bridge lets an answer take, and waits that long for a silent server.
    expect(page.responseTimeoutMs).toBe(4000);
    page.close();
    expect(await run.stop()).toBe(0);
    const afterLink = run.stdout.text.slice(run.stdout.text.indexOf(address.token) + address.token.length);
    expect(afterLink).toMatch(/welcomed/);
    expect(afterLink).not.toContain(address.token);
    expect(run.stdout.text).toMatch(/bridge stopped\n$/);
  });

  it('warns when told to listen beyond this machine', async () => {
    const run = await startCommand(['--port', '0', '--host', '0.0.0.0', '--quiet']);
    expect(run.stderr.text).toMatch(/^warning: the bridge listens on 0\.0\.0\.0, not only on this machine/);
    expect(run.stdout.text).toMatch(/protoplay bridge on ws:\/\/0\.0\.0\.0:\d+/);
    expect(await run.stop()).toBe(0);
  });

  it('reads targets, listens, origins and limits from a config file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'protoplay-bridge-'));
    afterTest(() => rm(dir, { recursive: true, force: true }));
    await writeFile(
      join(dir, 'bridge.json'),
      JSON.stringify({
        targets: { aisys: 'http://127.0.0.1:5000', gama: 'ws://127.0.0.1:3001/scavengers' },
        listens: { agents: 'tcp://:0' },
        origins: ['https://play.example.org/'],
        limits: { maxPages: 2 },
      }),
    );
    const run = await startCommand(['--port', '0', '--config', 'bridge.json'], dir);
    expect(run.stdout.text).toMatch(
      /targets: aisys http:\/\/127\.0\.0\.1:5000, gama ws:\/\/127\.0\.0\.1:3001\/scavengers\n/,
    );
    expect(run.stdout.text).toMatch(/listens: agents tcp:\/\/127\.0\.0\.1:\d+\n/);
    expect(run.stdout.text).toMatch(/pages from: https:\/\/play\.example\.org\n/);
    expect(run.stdout.text).toMatch(/https:\/\/play\.example\.org\/#bridge=ws:/);
    expect(await run.stop()).toBe(0);
  });

  it.each([
    [['--target', 'prost'], /--target prost: 'prost' is not a protocol id \(.*\), so give an address/],
    [['--target', 'x=ftp://127.0.0.1:21'], /--target x: scheme 'ftp:' is not one of tcp:, http:, ws:/],
    [['--target', 'x=tcp://127.0.0.1'], /--target x: 'tcp:\/\/127\.0\.0\.1' names no port/],
    [['--target', 'bad name=1'], /a name is letters, digits/],
    [
      ['--listen', 'x=tcp://0.0.0.0:0'],
      /listening on 0\.0\.0\.0 would let other machines in; start the bridge with --host 0\.0\.0\.0/,
    ],
    [['--target', 'rddlsim', '--target', 'rddlsim=2324'], /two targets are named 'rddlsim'/],
    [['--origin', 'localhost'], /--origin: 'localhost' is not an origin like http:\/\/localhost:4173/],
    [['--config', 'missing.json'], /cannot read 'missing\.json': ENOENT/],
    [['--idle-timeout', '0'], /--idle-timeout must be at least 1/],
    [['stray.txt'], /takes no file \('stray\.txt'\)/],
  ])('refuses %j with a usage error', async (args, message) => {
    const result = await runInProcess(['bridge', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('locates mistakes in the config file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'protoplay-bridge-'));
    afterTest(() => rm(dir, { recursive: true, force: true }));
    const cases: [unknown, RegExp][] = [
      ['{', /^error: bad\.json: not JSON/],
      [{ target: {} }, /bad\.json: unknown key "target" \(known: targets, listens, origins, limits\)/],
      [{ limits: { maxPages: -1 } }, /bad\.json: limits\.maxPages must be a positive whole number/],
      [{ limits: { speed: 1 } }, /bad\.json: unknown limit "speed"/],
      [{ targets: { x: 'nowhere' } }, /bad\.json: targets x: 'nowhere' is not an address/],
    ];
    for (const [content, message] of cases) {
      await writeFile(join(dir, 'bad.json'), typeof content === 'string' ? content : JSON.stringify(content));
      const result = await runInProcess(['bridge', '--config', 'bad.json'], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
    }
  });

  it('fails with the connection exit code when its port is taken', async () => {
    const run = await startCommand(['--port', '0', '--quiet']);
    const port = run.stdout.text.match(/ws:\/\/127\.0\.0\.1:(\d+)/)![1]!;
    const second = await runInProcess(['bridge', '--port', port]);
    expect(second.code).toBe(4);
    expect(second.stderr).toBe(`error: cannot listen on 127.0.0.1:${port}: the port is in use\n`);
  });

  it('has help', async () => {
    const result = await runInProcess(['bridge', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/protoplay bridge \[--target NAME=ADDRESS\]/);
    expect(result.stdout).toMatch(/--listen NAME=PORT/);
    const general = await runInProcess(['--help']);
    expect(general.stdout).toMatch(/bridge\s+let the playground page reach real servers/);
  });
});
