/**
 * `protoplay run|serve|connect` for a protocol that gives only its definition: the tests-only counter
 * protocol (tests/support/counter-protocol), loaded by the real `protoplay` binary through
 * PROTOPLAY_EXTRA_PROTOCOLS, with nothing added for it in `cli/` or `src/`. Real child processes, real TCP
 * on 127.0.0.1, policies in real policy threads.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Transcript } from '../../../../src/core/transcript/model';
import { validateTranscript } from '../../../../src/core/transcript/validate';
import { counterProtocol } from '../../../support/counter-protocol/protocol';
import { runChild } from '../../run-cli';
import { counterCli } from './counter-cli';

const cli = counterCli('counter', 'protocol.ts', /listening on 127\.0\.0\.1:(\d+)/);

const dataFrames = (transcript: Transcript) =>
  transcript.messages.filter((m) => m.kind === 'data').map((m) => [m.dir, m.text]);

describe('the generic commands over a protocol that gives only its definition', () => {
  it('run counter plays the emulated server in memory, prints the rewards and writes a valid transcript', async () => {
    const result = await cli.run([
      'run',
      'counter',
      '--environment',
      'to-five',
      '--rounds',
      '2',
      '--policy',
      'hasty',
      '--transcript',
      'out.json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // Hasty adds 2, 2, 2: the third step overshoots 5 by 1 and earns 2 - 2 = 0.
    expect(result.stdout).toContain('round 1: reward 4.0 in 3 steps');
    expect(result.stdout).toContain('round 2: reward 4.0 in 3 steps');
    expect(result.stdout).toContain('mean reward 4.0 over 2 rounds');
    const transcript = await cli.readTranscript('out.json');
    expect(transcript.protocol).toBe('counter');
    expect(validateTranscript(transcript, counterProtocol)).toEqual({ checked: true, violations: [] });
    expect(dataFrames(transcript).filter(([d]) => d === 'c2s')).toHaveLength(6);
  });

  it('serve counter and connect counter play over real TCP; both sides record the same valid session', async () => {
    await writeFile(
      join(cli.dir, 'policy.ts'),
      'export function act(o: { value: number; target: number }): number {\n' +
        '  console.log(`at ${o.value}`);\n' +
        '  return o.target - o.value >= 2 ? 2 : 1;\n}\n',
    );
    const serve = cli.startServe(['--sessions', '1', '--rounds', '3', '--record', 'served']);
    try {
      const port = await serve.port;
      const connect = await cli.connect(port, ['--policy', 'policy.ts']);
      expect(connect.stderr).toBe('');
      expect(connect.code).toBe(0);
      expect(connect.stdout).toContain('mean reward 10.0 over 3 rounds');
      expect(await serve.exited).toBe(0);
    } finally {
      serve.kill();
    }
    expect(serve.output()).toContain('session 1: round 3: reward 10.0 in 5 steps');
    expect(await readdir(join(cli.dir, 'served'))).toEqual(['counter-session-1.json']);
    const served = await cli.readTranscript('served', 'counter-session-1.json');
    const client = await cli.readTranscript('client.json');
    for (const transcript of [served, client])
      expect(validateTranscript(transcript, counterProtocol).violations).toEqual([]);
    expect(dataFrames(client)).toEqual(dataFrames(served));
    expect(dataFrames(client)).toHaveLength(3 * (1 + 5 + 5 + 1) - 0);
    // What the policy printed is kept with the session.
    expect(client.annotations.find((a) => a.type === 'policy-log')?.data).toMatchObject({ text: 'at 0' });
  });

  it('a policy that throws ends connect with exit code 3 and the located error', async () => {
    await writeFile(join(cli.dir, 'bad.js'), 'export function act() {\n  throw new Error("no idea");\n}\n');
    const serve = cli.startServe(['--sessions', '1']);
    try {
      const port = await serve.port;
      const connect = await cli.connect(port, ['--policy', 'bad.js']);
      expect(connect.code).toBe(3);
      expect(connect.stderr).toMatch(/^bad\.js:2:\d+: .*no idea/m);
      const client = await cli.readTranscript('client.json');
      expect(client.messages.some((m) => m.kind === 'close' && /the policy failed/.test(m.text ?? ''))).toBe(
        true,
      );
    } finally {
      serve.kill();
    }
  });

  it('without the variable the product offers no counter protocol; a module that is no protocol is refused', async () => {
    const plain = await runChild(['run', 'counter'], { cwd: cli.dir });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain("unknown protocol 'counter'");
    await writeFile(join(cli.dir, 'nothing.mjs'), 'export default 42;\n');
    const wrong = await runChild(['run', 'counter'], {
      cwd: cli.dir,
      env: { PROTOPLAY_EXTRA_PROTOCOLS: 'nothing.mjs' },
    });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("'nothing.mjs' has no Protocol as its default export");
  });
});
