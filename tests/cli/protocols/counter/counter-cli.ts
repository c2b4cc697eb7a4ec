/**
 * What the counter protocol's command tests share: a fresh folder for each test, the real `protoplay`
 * binary with a variant of the tests-only counter protocol (tests/support/counter-protocol) loaded through
 * PROTOPLAY_EXTRA_PROTOCOLS, `serve` started as a child process, and transcripts read back.
 *
 * The variant is a TypeScript module, which the sources load through tsx. The compiled command line (and
 * its policy threads) has no TypeScript loader, as the package has none, so when the tests start the
 * compiled one the variant is compiled too, as a protocol's author would ship it: one ES module.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { NODE_BUNDLE } from '../../../../scripts/cli-bundle';
import { parseTranscriptJson } from '../../../../src/core/transcript/json-format';
import type { Transcript } from '../../../../src/core/transcript/model';
import { BIN, COMPILED_BIN, runChild, type CliResult } from '../../run-cli';

/** A `serve` child process. */
export interface CounterServe {
  /** The port it listens on, once it does (rejects when it exits first). */
  port: Promise<number>;
  /** Its exit code. */
  exited: Promise<number>;
  /** What it printed on stdout so far. */
  output(): string;
  /** What it printed on stderr so far. */
  errors(): string;
  kill(): void;
}

/** The commands of one counter variant, run in the current test's folder. */
export interface CounterCli {
  /** The current test's folder (a fresh one for each test, removed after it). */
  readonly dir: string;
  /** The variable that loads the variant into the binary. */
  readonly env: Record<string, string>;
  /** Runs `protoplay ...args` to its end, the variant loaded. */
  run(args: string[]): Promise<CliResult>;
  /** Runs `protoplay connect <protocol> --port <port> ...args --transcript client.json` to its end. */
  connect(port: number, args: string[]): Promise<CliResult>;
  /** Starts `protoplay serve <protocol> --port 0 ...args`. */
  startServe(args: string[]): CounterServe;
  /** Reads a Protoplay JSON transcript from a path under the test's folder. */
  readTranscript(...path: string[]): Promise<Transcript>;
}

/**
 * The commands of the counter variant `protocol`, whose definition is `module` under
 * tests/support/counter-protocol; `listening` finds the port in serve's first line. Call it at the top
 * of a test file: it adds the hooks that make and remove each test's folder.
 */
export function counterCli(protocol: string, module: string, listening: RegExp): CounterCli {
  const source = resolve(import.meta.dirname, '../../../support/counter-protocol', module);
  const env = { PROTOPLAY_EXTRA_PROTOCOLS: source };
  let compiled = '';
  beforeAll(async () => {
    if (!COMPILED_BIN) return;
    compiled = await mkdtemp(join(tmpdir(), `${protocol}-module-`));
    const outfile = join(compiled, module.replace(/\.ts$/, '.mjs'));
    await build({ ...NODE_BUNDLE, logLevel: 'error', entryPoints: [source], outfile });
    env.PROTOPLAY_EXTRA_PROTOCOLS = outfile;
  });
  afterAll(async () => {
    if (compiled) await rm(compiled, { recursive: true, force: true });
  });
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), `${protocol}-cli-`));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    env,
    run: (args) => runChild(args, { cwd: dir, env }),
    connect: (port, args) =>
      runChild(['connect', protocol, '--port', String(port), ...args, '--transcript', 'client.json'], {
        cwd: dir,
        env,
      }),
    startServe(args) {
      const child = spawn(process.execPath, [BIN, 'serve', protocol, '--port', '0', ...args], {
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
          const match = listening.exec(stdout);
          if (match) found(Number(match[1]));
        });
        void exited.then((code) => failed(new Error(`serve exited (${code}) before listening: ${stderr}`)));
      });
      return { port, exited, output: () => stdout, errors: () => stderr, kill: () => child.kill() };
    },
    async readTranscript(...path) {
      const file = join(dir, ...path);
      return parseTranscriptJson(await readFile(file, 'utf8'), file);
    },
  };
}

/** A loopback port nothing listens on (it was free a moment ago). */
export function unusedPort(): Promise<number> {
  return new Promise((found) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => found(port));
    });
  });
}
