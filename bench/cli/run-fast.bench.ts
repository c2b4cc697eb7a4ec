/**
 * Steps per second of `protoplay run rddlsim` with the no-op policy on six large IPPC 2011 instances, as
 * a user runs it (a child process of the package's `bin`), played directly on the simulator (the default
 * without --transcript) and through the XML messages (`--wire`), next to rddlsim's own in-process
 * simulator (`rddl.sim.Simulator.run` per round with its NoopPolicy, research notes §5.1) measured in the
 * same run, with ratios; and the peak memory of the long sessions.
 *
 * Start-up is left out: a session's rate counts the rounds after its first, timed by the round lines the
 * child prints as rounds end (rddlsim's harness likewise warms up before it times). The machine is
 * shared, so besides wall-clock rates the table gives rates per second of the process's CPU time (read
 * from /proc for the children, from the JVM for rddlsim), which other processes' load does not lower.
 *
 * rddlsim is measured when RDDLSIM_HOME names a build of it (its `bin/` or `classes/` folder of compiled
 * classes and its `lib/` jars; `javac` and `java` on the PATH): the bench compiles its small harness
 * (rddlsim-rounds/RddlsimRounds.java) against it in a temporary folder. Otherwise it prints "rddlsim not
 * available" and the ratios to the figures in the research notes.
 *
 * RUN_FAST_ROUNDS (default 20000) sets the rounds of the direct sessions, RUN_FAST_WIRE_STEPS (default
 * 16000) the steps of the message-path ones, RUN_FAST_INSTANCES a comma-separated subset.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { formatNumber, printTable } from '../lib';

const RDDL_DIR = resolve(process.cwd(), '../shared/rddl/ippc2011');
const BIN = resolve(import.meta.dirname, '../../cli/bin/protoplay.js');
const PEAK_MEMORY = pathToFileURL(resolve(import.meta.dirname, 'peak-memory.mjs')).href;
const HARNESS = resolve(import.meta.dirname, 'rddlsim-rounds/RddlsimRounds.java');

/** rddlsim's in-process no-op steps/s including the per-round reset, from the research notes (§5.1). */
const NOTED: Record<string, number> = {
  sysadmin_inst_mdp__10: 5_539,
  game_of_life_inst_mdp__10: 4_575,
  elevators_inst_mdp__9: 21_554,
  navigation_inst_mdp__10: 473,
  traffic_inst_mdp__10: 176,
  crossing_traffic_inst_mdp__10: 2_715,
};
const INSTANCES = (process.env.RUN_FAST_INSTANCES?.split(',') ?? Object.keys(NOTED)).filter(Boolean);
const ROUNDS = Number(process.env.RUN_FAST_ROUNDS ?? 20_000);
const WIRE_STEPS = Number(process.env.RUN_FAST_WIRE_STEPS ?? 16_000);
/** rddlsim's warm-up and timed CPU seconds (counted in CPU time: its JIT must be done, however busy the machine). */
const RDDLSIM_WARMUP_CPU_S = 5;
const RDDLSIM_TIMED_CPU_S = 4;
const CLOCK_TICKS = 100;

/** A rate measured two ways. */
interface Rate {
  wall: number;
  cpu: number;
}

/** What one `protoplay run` child did. */
interface RunResult extends Rate {
  rounds: number;
  peakMb: number;
  /** Round rewards in order, as printed. */
  rewards: string[];
}

function domainOf(instance: string): string {
  return instance.replace(/_inst_(mdp|pomdp)__\d+$/, '_$1');
}

/** utime + stime of a process in seconds, from /proc (undefined elsewhere). */
function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Runs `protoplay run rddlsim` and times its rounds after the first. */
function runProtoplay(instance: string, rounds: number, extra: string[]): Promise<RunResult> {
  const args = [
    '--import',
    PEAK_MEMORY,
    BIN,
    'run',
    'rddlsim',
    '--domain',
    join(RDDL_DIR, `${domainOf(instance)}.rddl`),
    '--instance',
    join(RDDL_DIR, `${instance}.rddl`),
    '--rounds',
    String(rounds),
    '--time-limit',
    '0',
    ...extra,
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const rewards: string[] = [];
  let steps = 0;
  let first: { time: number; cpu: number | undefined } | undefined;
  let last: { time: number; cpu: number | undefined } | undefined;
  createInterface({ input: child.stdout }).on('line', (line) => {
    const round = /^round\s+(\d+)\/\d+\s+reward\s+(\S+)\s+turns (\d+)/.exec(line);
    if (!round) return;
    const number = Number(round[1]);
    rewards.push(round[2]!);
    if (number === 1) first = { time: performance.now(), cpu: processCpuSeconds(child.pid!) };
    else steps += Number(round[3]);
    if (number === rounds) last = { time: performance.now(), cpu: processCpuSeconds(child.pid!) };
  });
  return new Promise((done, failed) => {
    child.once('error', failed);
    child.once('close', (code) => {
      const peak = /protoplay-bench peak-rss-kb (\d+)/.exec(stderr);
      if (code !== 0 || !first || !last || !peak) {
        failed(
          new Error(`protoplay run ${instance} ${extra.join(' ')} failed (${code}): ${stderr.slice(-400)}`),
        );
        return;
      }
      const cpu = first.cpu !== undefined && last.cpu !== undefined ? last.cpu - first.cpu : NaN;
      done({
        rounds,
        wall: steps / ((last.time - first.time) / 1000),
        cpu: steps / cpu,
        peakMb: Number(peak[1]) / 1024,
        rewards,
      });
    });
  });
}

/** rddlsim's classpath from RDDLSIM_HOME, or why it cannot be used. */
function rddlsimClasspath(): { classpath: string } | { missing: string } {
  const home = process.env.RDDLSIM_HOME;
  if (!home) return { missing: 'RDDLSIM_HOME is not set' };
  const classes = ['bin', 'classes']
    .map((dir) => join(home, dir))
    .find((dir) => existsSync(join(dir, 'rddl')));
  if (!classes) return { missing: `no compiled classes in ${home}/bin or ${home}/classes` };
  return { classpath: [classes, join(home, 'lib', '*')].join(':') };
}

/** Compiles the harness; returns how to run it, or why not. */
function prepareRddlsim(): { run: (instance: string) => Rate; cleanup: () => void } | { missing: string } {
  const found = rddlsimClasspath();
  if ('missing' in found) return found;
  const work = mkdtempSync(join(tmpdir(), 'protoplay-rddlsim-bench-'));
  try {
    execFileSync('javac', ['-nowarn', '-cp', found.classpath, '-d', work, HARNESS], { stdio: 'pipe' });
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    return { missing: `the harness does not compile: ${(error as Error).message.split('\n')[0]}` };
  }
  const classpath = `${work}:${found.classpath}`;
  return {
    run(instance) {
      // rddlsim reads a whole folder: give it only this instance and its domain.
      const dir = join(work, instance);
      mkdirSync(dir, { recursive: true });
      for (const file of [domainOf(instance), instance])
        copyFileSync(join(RDDL_DIR, `${file}.rddl`), join(dir, `${file}.rddl`));
      const output = execFileSync(
        'java',
        [
          '-Xmx500M',
          '-cp',
          classpath,
          'RddlsimRounds',
          dir,
          instance,
          String(RDDLSIM_WARMUP_CPU_S),
          String(RDDLSIM_TIMED_CPU_S),
        ],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const figures = /steps (\d+) rounds \d+ seconds (\S+) cpu (\S+)/.exec(output);
      if (!figures) throw new Error(`unexpected rddlsim harness output: ${output}`);
      const steps = Number(figures[1]);
      return { wall: steps / Number(figures[2]), cpu: steps / Number(figures[3]) };
    },
    cleanup: () => rmSync(work, { recursive: true, force: true }),
  };
}

const ratio = (a: number, b: number | undefined) =>
  b !== undefined && Number.isFinite(b) && b > 0 ? `${formatNumber(a / b)}x` : '-';

export default async function () {
  const rddlsim = prepareRddlsim();
  if ('missing' in rddlsim)
    console.log(`rddlsim not available (${rddlsim.missing}); ratios use the research notes' figures`);
  const rows: (string | number)[][] = [
    [
      'instance',
      'wire steps/s (CPU)',
      'direct steps/s (CPU)',
      'x wire',
      'rddlsim steps/s (CPU)',
      'x rddlsim',
      'x rddlsim (CPU)',
      'x noted',
      'direct peak MB',
      'wire peak MB',
      'same rewards',
    ],
  ];
  try {
    for (const instance of INSTANCES) {
      const horizon = 40; // every IPPC 2011 instance's
      const wire = await runProtoplay(instance, Math.max(3, Math.ceil(WIRE_STEPS / horizon)), ['--wire']);
      const direct = await runProtoplay(instance, ROUNDS, []);
      const reference = 'missing' in rddlsim ? { wall: NOTED[instance]!, cpu: NaN } : rddlsim.run(instance);
      const compared = Math.min(wire.rewards.length, direct.rewards.length);
      const same = wire.rewards.slice(0, compared).every((reward, i) => reward === direct.rewards[i]);
      rows.push([
        instance,
        `${formatNumber(wire.wall)} (${formatNumber(wire.cpu)})`,
        `${formatNumber(direct.wall)} (${formatNumber(direct.cpu)})`,
        ratio(direct.wall, wire.wall),
        'missing' in rddlsim
          ? `${formatNumber(reference.wall)} (noted)`
          : `${formatNumber(reference.wall)} (${formatNumber(reference.cpu)})`,
        ratio(direct.wall, reference.wall),
        ratio(direct.cpu, reference.cpu),
        ratio(direct.wall, NOTED[instance]),
        `${formatNumber(direct.peakMb)} @ ${formatNumber(direct.rounds)} rounds`,
        `${formatNumber(wire.peakMb)} @ ${formatNumber(wire.rounds)}`,
        same ? `yes (${compared} rounds)` : 'NO',
      ]);
      console.log(`  ${instance} done`);
    }
  } finally {
    if (!('missing' in rddlsim)) rddlsim.cleanup();
  }
  printTable(
    `protoplay run rddlsim, noop policy: steps/s after the first round (wall, and per CPU second), peak RSS`,
    rows,
  );
  console.log(
    "x noted: the direct path's wall-clock rate against rddlsim's figure in the research notes (§5.1, a quieter machine)",
  );
}
