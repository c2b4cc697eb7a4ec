/**
 * The package as a user gets it: `npm pack` (which builds the playground and compiles the command line),
 * then `npm install <tarball>` into an empty folder with dependencies from the registry, then the
 * `protoplay` command and the library from there. Slow (a build and an install), never timed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXAMPLE, exampleSources } from '../../src/core/envs/rddl/index';
import { AISYS_SAMPLES } from '../../src/core/protocols/aisys/samples';
import { GAMA_SAMPLES } from '../../src/core/protocols/gama/samples';

const REPOSITORY = resolve(import.meta.dirname, '../..');
/** A build and an install on a loaded machine: a limit for a hang, not a speed requirement. */
const SETUP_TIMEOUT = 30 * 60_000;

let work: string;
let user: string;
let installLog: string;

/**
 * Child processes get the environment of a user's shell: without what an enclosing `npm run` adds about
 * this repository, and without the test runner's NODE_ENV=test, which would make the packed build of the
 * playground a development build (no service worker).
 */
function childEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) =>
        !/^npm_(package_|lifecycle_|config_local_prefix|command)/i.test(key) &&
        !/^(NODE_ENV|VITEST.*|TEST)$/.test(key),
    ),
  );
}

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: readonly string[], cwd: string): Promise<Finished> {
  return new Promise((done, failed) => {
    const child = spawn(command, args, { cwd, env: childEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', failed);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The installed command, as `npx protoplay` runs it. */
const protoplay = (args: readonly string[]) =>
  run(process.execPath, [join(user, 'node_modules/.bin/protoplay'), ...args], user);

/** Starts a long-running command and resolves with the first stdout line matching `pattern`. */
function startUntil(
  args: readonly string[],
  pattern: RegExp,
): Promise<{ child: ChildProcess; match: RegExpMatchArray; exited: Promise<number | null> }> {
  return new Promise((found, failed) => {
    const child = spawn(process.execPath, [join(user, 'node_modules/.bin/protoplay'), ...args], {
      cwd: user,
      env: childEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((ended) => child.once('close', ended));
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    void exited.then((code) => failed(new Error(`exited (${code}) before printing ${pattern}: ${stderr}`)));
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = pattern.exec(line);
      if (match) found({ child, match, exited });
    });
  });
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'protoplay-package-'));
  const packed = await run('npm', ['pack', '--pack-destination', work], REPOSITORY);
  expect(packed.code, packed.stderr).toBe(0);
  const tarball = (await readdir(work)).find((name) => name.endsWith('.tgz'));
  expect(tarball).toBeDefined();
  user = join(work, 'user');
  await mkdir(user);
  const installed = await run('npm', ['install', '--no-audit', '--no-fund', join(work, tarball!)], user);
  installLog = installed.stdout + installed.stderr;
  expect(installed.code, installLog).toBe(0);
}, SETUP_TIMEOUT);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the installed package', () => {
  it('installs without warnings (no install scripts waiting for approval)', () => {
    expect(installLog).not.toMatch(/warn/i);
    expect(installLog).toMatch(/added \d+ packages?/);
  });

  it('ships compiled JavaScript and the built playground, not the TypeScript sources or tsx', () => {
    const installedPackage = join(user, 'node_modules/protoplay');
    expect(existsSync(join(installedPackage, 'lib/cli/protoplay.js'))).toBe(true);
    expect(existsSync(join(installedPackage, 'dist/index.html'))).toBe(true);
    expect(existsSync(join(installedPackage, 'LICENSE'))).toBe(true);
    expect(existsSync(join(installedPackage, 'cli'))).toBe(false);
    expect(existsSync(join(installedPackage, 'src'))).toBe(false);
    expect(existsSync(join(user, 'node_modules/tsx'))).toBe(false);
    expect(existsSync(join(user, 'node_modules/esbuild'))).toBe(false);
  });

  it('answers npx protoplay --help', async () => {
    const result = await run('npx', ['--no-install', 'protoplay', '--help'], user);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Usage: protoplay <command> <protocol> [options]');
    expect(result.stdout).toMatch(/^\s+open\s/m);
  });

  it('runs an rddlsim session with a TypeScript policy file in a policy thread', async () => {
    for (const source of exampleSources(DEFAULT_EXAMPLE))
      await writeFile(join(user, source.name), source.text);
    await writeFile(
      join(user, 'reboot.ts'),
      [
        'interface Context { instance: { objects: Record<string, string[]> } }',
        'export function act(observation: { values: Record<string, unknown> }, context: Context) {',
        '  const down = (context.instance.objects.computer ?? []).filter(',
        '    (c: string) => observation.values[`running(${c})`] === false,',
        '  );',
        "  return down.length ? { name: 'reboot', args: [down[0]!] } : null;",
        '}',
      ].join('\n'),
    );
    const result = await protoplay([
      'run',
      'rddlsim',
      '--domain',
      '.',
      '--policy',
      'reboot.ts',
      '--rounds',
      '3',
      '--transcript',
      'session.json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/rounds\s+3/);
    expect(result.stdout).toMatch(/total reward\s+-?\d/);
    const inspected = await protoplay(['inspect', 'session.json']);
    expect(inspected.code, inspected.stdout).toBe(0);
    expect(inspected.stdout).toMatch(/^rddlsim: /);
    expect(inspected.stdout).toContain('3 rounds, 0 violations');
  });

  it('connects to its own rddlsim server and plays a policy file there', async () => {
    const { child, match, exited } = await startUntil(
      ['serve', 'rddlsim', '--port', '0', '--rddl-dir', '.', '--rounds', '2'],
      /listening on [^\s]+:(\d+)/,
    );
    try {
      const instance = /instance\s+(\w+)\s*\{/.exec(exampleSources(DEFAULT_EXAMPLE)[1]!.text)![1]!;
      const result = await protoplay([
        'connect',
        'rddlsim',
        '--port',
        match[1]!,
        '--instance',
        instance,
        '--policy',
        'reboot.ts',
      ]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/rounds\s+2/);
    } finally {
      child.kill('SIGINT');
      await exited;
    }
  });

  it("locates a policy's syntax error in the user's file", async () => {
    await writeFile(join(user, 'broken.ts'), 'export function act() {\n  const x = ;\n  return x;\n}\n');
    const result = await protoplay([
      'run',
      'rddlsim',
      '--domain',
      '.',
      '--policy',
      'broken.ts',
      '--rounds',
      '1',
    ]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/broken\.ts:2:\d+/);
  });

  it('serves MASSim: a TCP client logs in', async () => {
    const { child, match, exited } = await startUntil(
      ['serve', 'massim', '--port', '0'],
      /listening on [^\s]+:(\d+)/,
    );
    try {
      const reply = await new Promise<string>((answered, failed) => {
        const socket = connect(Number(match[1]), '127.0.0.1', () => {
          const request = { type: 'auth-request', content: { user: 'agentA1', pw: '1' } };
          socket.write(`${JSON.stringify(request)}\0`);
        });
        let received = '';
        socket.on('data', (chunk) => {
          received += chunk.toString();
          const end = received.indexOf('\0');
          if (end >= 0) {
            socket.destroy();
            answered(received.slice(0, end));
          }
        });
        socket.once('error', failed);
      });
      expect(JSON.parse(reply)).toEqual({ type: 'auth-response', content: { result: 'ok' } });
    } finally {
      child.kill('SIGINT');
      await exited;
    }
  });

  it('runs a MASSim match with built-in team policies in team policy threads', async () => {
    const result = await protoplay([
      'run',
      'massim',
      '--policy-a',
      'fetcher',
      '--policy-b',
      'random',
      '--steps',
      '5',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toBeTypeOf('object');
  });

  it('runs GAMA and aisys sessions with TypeScript policy files in their policy threads', async () => {
    const greedy = GAMA_SAMPLES.find((sample) => sample.id === 'greedy')!;
    await writeFile(join(user, 'greedy.ts'), greedy.code);
    const gama = await protoplay([
      'run',
      'gama',
      '--policy',
      'greedy.ts',
      '--episodes',
      '1',
      '--cycles',
      '20',
    ]);
    expect(gama.code, gama.stderr).toBe(0);
    expect(gama.stdout).toMatch(/sustainability/);

    const nim = AISYS_SAMPLES.find((sample) => sample.id === 'nim-optimal')!;
    await writeFile(join(user, 'nim.ts'), nim.code);
    const aisys = await protoplay(['run', 'aisys', '--env', 'nim', '--policy', 'nim.ts', '--runs', '3']);
    expect(aisys.code, aisys.stderr).toBe(0);
    expect(aisys.stdout).toMatch(/mean reward/);
  });

  it('evaluates two policy files on the same seeds in evaluation threads', async () => {
    const nim = AISYS_SAMPLES.find((sample) => sample.id === 'nim-optimal')!;
    const random = AISYS_SAMPLES.find((sample) => sample.id === 'nim-random')!;
    await writeFile(join(user, 'eval-optimal.ts'), nim.code);
    await writeFile(join(user, 'eval-random.ts'), random.code);
    const result = await protoplay([
      'evaluate',
      'aisys',
      '--env',
      'nim',
      '--policies',
      'eval-optimal.ts',
      'eval-random.ts',
      '--seeds',
      '1..4',
      '--out',
      'evaluation.json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const written = JSON.parse(await readFile(join(user, 'evaluation.json'), 'utf8')) as {
      seeds: number[];
      roundsPerSeed: number;
      policies: { policy: string; status: string; rounds: number; mean: number }[];
    };
    expect(written.seeds).toEqual([1, 2, 3, 4]);
    expect(written.policies.map(({ policy, status, rounds }) => ({ policy, status, rounds }))).toEqual(
      ['eval-optimal.ts', 'eval-random.ts'].map((policy) => ({
        policy,
        status: 'evaluated',
        rounds: 4 * written.roundsPerSeed,
      })),
    );
    // The optimal Nim player wins every run against the weak opponent.
    expect(written.policies[0]!.mean).toBe(1);
  });

  it('opens the playground: serves the built page and its assets on 127.0.0.1', async () => {
    const { child, match, exited } = await startUntil(
      ['open', '--port', '0'],
      /(http:\/\/localhost:(\d+)\/)/,
    );
    try {
      const base = `http://127.0.0.1:${match[2]}/`;
      const page = await fetch(base);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(new URL(script!, base));
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(asset.headers.get('cache-control')).toContain('immutable');
      // A production build: it registers the service worker that keeps the page working offline.
      expect(await (await fetch(asset.url)).text()).toContain('pwa-register');
      expect((await fetch(new URL('sw.js', base))).status).toBe(200);
      expect((await fetch(new URL('../../package.json', base))).status).toBe(404);
      const second = await protoplay(['open', '--port', match[2]!]);
      expect(second.code).toBe(4);
      expect(second.stderr).toContain('the port is in use (choose one with --port)');
    } finally {
      child.kill('SIGINT');
      await exited;
    }
  });

  it('is a library: runSession from another program, with types', async () => {
    await writeFile(
      join(user, 'consumer.ts'),
      [
        "import { EXAMPLE_DOMAINS, exampleSources, runSession, type SessionResult } from 'protoplay';",
        '',
        'const result: SessionResult = await runSession({',
        '  rddl: exampleSources(EXAMPLE_DOMAINS[0]!),',
        '  act: (observation) => (observation.turn % 2 ? null : []),',
        '  rounds: 2,',
        '  seed: 4,',
        '});',
        'console.log(JSON.stringify({ status: result.status, rounds: result.rounds.length,',
        '  total: result.totalReward, messages: result.transcript.messages.length }));',
      ].join('\n'),
    );
    await writeFile(
      join(user, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noUncheckedIndexedAccess: true,
          outDir: 'out',
          types: [],
        },
        files: ['consumer.ts'],
      }),
    );
    const manifest = JSON.parse(await readFile(join(user, 'package.json'), 'utf8')) as object;
    await writeFile(join(user, 'package.json'), JSON.stringify({ ...manifest, type: 'module' }));
    const tsc = join(REPOSITORY, 'node_modules/typescript/bin/tsc');
    const compiled = await run(process.execPath, [tsc, '-p', '.'], user);
    expect(compiled.code, compiled.stdout).toBe(0);
    const result = await run(process.execPath, ['out/consumer.js'], user);
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as { status: string; rounds: number; total: number };
    expect(summary).toMatchObject({ status: 'finished', rounds: 2 });
    expect(summary.total).toBeTypeOf('number');

    // The declarations are real types: a wrong option is a compile error.
    await writeFile(
      join(user, 'consumer.ts'),
      "import { runSession } from 'protoplay';\nawait runSession({ rddl: 'not a list', act: () => null });\n",
    );
    const wrong = await run(process.execPath, [tsc, '-p', '.', '--noEmit'], user);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout).toContain("Type 'string' is not assignable");
  });
});
