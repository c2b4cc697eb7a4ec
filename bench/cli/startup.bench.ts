/**
 * Start-up of the `protoplay` command: the command line compiled at pack time (what the package's bin
 * runs, `lib/cli/protoplay.js`) next to the TypeScript sources compiled by tsx as they load (what a clone
 * of the repository runs, and what the package ran before it was compiled), measured in the same run.
 * Each figure is the median wall time of a fresh process: until it exits for `--help` and a short run,
 * until its server accepts a TCP connection for `serve`. The compiled command line is built first.
 * `serve rddlsim` is timed on the built-in example and, when `../shared` is beside the repository, on the
 * 24 instances of IPPC 2011 (indexed by block headers; files are parsed after listening). On Linux the
 * CPU time the process had used when it printed its listening line is shown too: on a loaded machine it
 * moves much less than wall time. To compare with an older commit:
 * `npx tsx bench/compare-commits.ts <commit> cli/startup`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { DEFAULT_EXAMPLE, exampleSources } from '../../src/core/envs/rddl/index';
import { median, printTable } from '../lib';

const ROOT = resolve(import.meta.dirname, '../..');
const SOURCES = join(ROOT, 'cli/bin/protoplay.js');
const COMPILED = join(ROOT, 'lib/cli/protoplay.js');
const REPEATS = 7;
/** The goals on this kind of machine, in ms. */
const GOALS: Readonly<Record<string, number>> = {
  '--help': 150,
  'serve massim': 300,
  'serve rddlsim': 300,
  'serve rddlsim, IPPC 2011': 300,
};
const IPPC_2011 = resolve(ROOT, '../shared/rddl/ippc2011');

export default async function () {
  const built = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/build-package.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) throw new Error('building the compiled command line failed');
  const rddl = await mkdtemp(join(tmpdir(), 'protoplay-startup-'));
  try {
    for (const source of exampleSources(DEFAULT_EXAMPLE))
      await writeFile(join(rddl, source.name), source.text);
    const cases: { label: string; args: string[]; until: 'exit' | 'listening' }[] = [
      { label: '--help', args: ['--help'], until: 'exit' },
      { label: 'serve massim', args: ['serve', 'massim', '--port', '0'], until: 'listening' },
      {
        label: 'serve rddlsim',
        args: ['serve', 'rddlsim', '--port', '0', '--rddl-dir', rddl],
        until: 'listening',
      },
      ...(existsSync(IPPC_2011)
        ? [
            {
              label: 'serve rddlsim, IPPC 2011',
              args: ['serve', 'rddlsim', '--port', '0', '--rddl-dir', IPPC_2011],
              until: 'listening' as const,
            },
          ]
        : []),
      {
        label: 'run rddlsim, 1 round',
        args: ['run', 'rddlsim', '--domain', rddl, '--rounds', '1'],
        until: 'exit',
      },
    ];
    // Node's own start-up, the floor under every figure (it grows with the machine's load).
    const node = await timeRepeatedly('-e', [''], 'exit');
    const rows: (string | number)[][] = [
      ['command', 'tsx (ms)', 'compiled (ms)', 'faster', 'compiled CPU (ms)', 'goal (ms)'],
      ["node -e '' (no command)", '-', node.wall, '-', '-', '-'],
    ];
    for (const { label, args, until } of cases) {
      const sources = await timeRepeatedly(SOURCES, args, until);
      const compiled = await timeRepeatedly(COMPILED, args, until);
      rows.push([
        label,
        sources.wall,
        compiled.wall,
        `${(sources.wall / compiled.wall).toFixed(1)}x`,
        compiled.cpu ?? '-',
        GOALS[label] ?? '-',
      ]);
    }
    printTable(`protoplay start-up, median of ${REPEATS} fresh processes (node ${process.version})`, rows);
  } finally {
    await rm(rddl, { recursive: true, force: true });
  }
}

/** Median wall time, and for servers the median CPU time used up to the listening line (Linux only). */
async function timeRepeatedly(
  script: string,
  args: string[],
  until: 'exit' | 'listening',
): Promise<{ wall: number; cpu?: number }> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const { wall, cpu } = await timeOnce(script, args, until);
    walls.push(wall);
    if (cpu !== undefined) cpus.push(cpu);
  }
  return { wall: median(walls), ...(cpus.length === REPEATS ? { cpu: median(cpus) } : {}) };
}

/** CPU time (user + system, ms) a process has used so far, from /proc; undefined elsewhere. */
function cpuTimeOf(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Milliseconds from spawning the process to its exit, or to a TCP connection its server accepted. */
function timeOnce(
  script: string,
  args: string[],
  until: 'exit' | 'listening',
): Promise<{ wall: number; cpu?: number }> {
  return new Promise((done, failed) => {
    const started = performance.now();
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', failed);
    if (until === 'exit') {
      child.stdout.resume();
      child.once('close', (code) =>
        code === 0
          ? done({ wall: performance.now() - started })
          : failed(new Error(`exit ${code}: ${stderr}`)),
      );
      return;
    }
    child.once('close', (code) => failed(new Error(`exited (${code}) before listening: ${stderr}`)));
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const port = /listening on [^\s]+:(\d+)/.exec(line)?.[1];
      if (!port) return;
      const cpu = cpuTimeOf(child.pid);
      lines.close();
      const socket = connect(Number(port), '127.0.0.1', () => {
        const ms = performance.now() - started;
        socket.destroy();
        child.removeAllListeners('close');
        child.once('close', () => done({ wall: ms, ...(cpu !== undefined ? { cpu } : {}) }));
        child.kill('SIGTERM');
      });
      socket.once('error', failed);
    });
  });
}
