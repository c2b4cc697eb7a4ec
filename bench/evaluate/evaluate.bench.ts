/**
 * `protoplay evaluate rddlsim` through the command users run (the same dispatcher as the binary, output
 * captured): rounds per second with 1 and 2 worker threads (scaling efficiency), and what isolation costs
 * a policy: a trivial policy in its own worker thread against the same policy in this process. The time is
 * the evaluation's own (from the report), command start-up excluded; the figures depend on the machine's
 * load, the ratios less so.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCommandLine } from '../../cli/command-line/dispatch';
import { PROTOCOL_COMMANDS } from '../../cli/protocols';
import { TOOL_COMMANDS } from '../../cli/tools';
import type { EvaluationReport } from '../../src/core/evaluation/report';
import { formatNumber, printTable } from '../lib';

const RDDL = resolve(import.meta.dirname, '../../../shared/rddl/ippc2011');
const INSTANCE = 'sysadmin_inst_mdp__1';
const SEEDS = Number(process.env.BENCH_EVALUATE_SEEDS ?? 200);

interface Measured {
  seconds: number;
  rounds: number;
  /** Mean time a thread took to be ready, ms. */
  startMs: number;
}

async function evaluate(dir: string, extra: string[]): Promise<Measured> {
  let stdout = '';
  let stderr = '';
  const code = await runCommandLine(
    [
      'evaluate',
      'rddlsim',
      '--domain',
      join(RDDL, 'sysadmin_mdp.rddl'),
      '--instance',
      join(RDDL, `${INSTANCE}.rddl`),
      '--seeds',
      `1..${SEEDS}`,
      '--json',
      ...extra,
    ],
    PROTOCOL_COMMANDS,
    {
      io: {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text) },
        cwd: dir,
      },
    },
    TOOL_COMMANDS,
  );
  if (code !== 0) throw new Error(`evaluate exited with ${code}: ${stderr}`);
  const report = JSON.parse(stdout) as EvaluationReport & {
    settings: { seconds: number; threadStartMs: number | null };
  };
  return {
    seconds: report.settings.seconds,
    rounds: report.policies.reduce((n, p) => n + p.rounds, 0),
    startMs: report.settings.threadStartMs ?? 0,
  };
}

export default async function bench(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'protoplay-bench-evaluate-'));
  try {
    await writeFile(join(dir, 'noop.js'), 'export function act() { return null; }\n');
    await writeFile(join(dir, 'noop-b.js'), 'export function act() { return []; }\n');
    // Warm the file cache and the compile caches once.
    await evaluate(dir, ['--policies', 'noop.js', '--workers', '1', '--isolation', 'none']);
    const inProcess = await evaluate(dir, ['--policies', 'noop.js', '--workers', '1', '--isolation', 'none']);
    const one = await evaluate(dir, ['--policies', 'noop.js', '--workers', '1']);
    const two = await evaluate(dir, ['--policies', 'noop.js', '--workers', '2']);
    const pair = await evaluate(dir, ['--policies', 'noop.js', 'noop-b.js', '--workers', '2']);
    const rate = (r: Measured) => r.rounds / r.seconds;
    printTable(`${INSTANCE}, noop policy, ${SEEDS} seeds x 1 round (${availableParallelism()} processors)`, [
      ['configuration', 'rounds', 'seconds', 'rounds/s', 'vs in-process', 'thread start ms'],
      ...(
        [
          ['in this process (no isolation), 1 thread', inProcess],
          ['1 worker thread', one],
          ['2 worker threads, one policy', two],
          ['2 worker threads, two policies', pair],
        ] as const
      ).map(([label, r]) => [
        label,
        r.rounds,
        r.seconds.toFixed(2),
        rate(r),
        `${(rate(r) / rate(inProcess)).toFixed(2)}x`,
        r.startMs,
      ]),
    ]);
    console.log(
      `\nscaling efficiency, 2 threads vs 1: ${formatNumber((100 * rate(two)) / (2 * rate(one)))}% (rounds/s ${formatNumber(rate(two))} vs ${formatNumber(rate(one))})`,
    );
    const isolationSeconds = one.seconds - inProcess.seconds;
    console.log(
      `isolation cost per policy (a worker thread: start, load, messages): ${isolationSeconds.toFixed(2)} s over ${SEEDS} seeds, ${formatNumber((1000 * isolationSeconds) / SEEDS)} ms per seed`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
