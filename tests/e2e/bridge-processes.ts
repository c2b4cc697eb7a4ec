import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

/** Starting `protoplay bridge` and `protoplay serve` as child processes for the Connect panel's tests. */

/**
 * The `protoplay` the tests start: the command line Playwright's global setup compiled
 * (tests/setup/e2e-compiled-cli.ts), or the sources through tsx when the run compiled nothing.
 */
export const BIN = process.env.PROTOPLAY_E2E_CLI || resolve('cli/bin/protoplay.js');

/** A free loopback port (the kernel picks it; it is free again once the probe closes). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A running `protoplay` process and what it printed. */
export interface Started {
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** Starts `protoplay ARGS` and waits until its output matches `ready` (or it exits, which fails). */
export function startProtoplay(args: string[], ready: RegExp): Promise<Started> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return new Promise((done, fail) => {
    const look = (chunk: Buffer) => {
      text += chunk.toString();
      if (ready.test(text)) done({ child, output: () => text, stop });
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => fail(new Error(`protoplay ${args.join(' ')} exited (${code}): ${text}`)));
  });
}

/** The page link `protoplay bridge` printed, made relative to the test's page. */
export function bridgeFragment(output: string): string {
  const link = /#bridge=\S+/.exec(output);
  if (!link) throw new Error(`protoplay bridge printed no link: ${output}`);
  return link[0];
}
