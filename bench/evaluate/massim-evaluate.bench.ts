/**
 * `protoplay evaluate massim` through the command users run (the same dispatcher as the binary, output
 * captured): matches per second and steps per second of small matches (2 x 3 agents, 20 x 20, 100 steps)
 * against the random opponent, in this process (the baseline, no isolation), in 1 and in 2 worker threads
 * (scaling efficiency). The time is the evaluation's own (from the report), command start-up excluded.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommandLine } from '../../cli/command-line/dispatch';
import { PROTOCOL_COMMANDS } from '../../cli/protocols';
import { TOOL_COMMANDS } from '../../cli/tools';
import type { EvaluationReport } from '../../src/core/evaluation/report';
import { formatNumber, printTable } from '../lib';

const SEEDS = Number(process.env.BENCH_EVALUATE_MASSIM_SEEDS ?? 12);
const STEPS = 100;
const MATCH = ['--agents', '3', '--steps', String(STEPS), '--grid', '20x20', '--opponent', 'random'];

interface Measured {
  seconds: number;
  matches: number;
}

async function evaluate(dir: string, extra: string[]): Promise<Measured> {
  let stdout = '';
  let stderr = '';
  const code = await runCommandLine(
    ['evaluate', 'massim', ...MATCH, '--seeds', `1..${SEEDS}`, '--json', ...extra],
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
  const report = JSON.parse(stdout) as EvaluationReport & { settings: { seconds: number } };
  return { seconds: report.settings.seconds, matches: report.policies.reduce((n, p) => n + p.rounds, 0) };
}

export default async function bench(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'protoplay-bench-evaluate-massim-'));
  try {
    await writeFile(
      join(dir, 'mover.js'),
      "const DIRS = ['n', 's', 'e', 'w'];\nexport function act(percept, agent, team, context) {\n  return { type: 'move', p: [DIRS[Math.floor(context.random() * 4)]] };\n}\n",
    );
    await evaluate(dir, ['--policies', 'mover.js', '--workers', '1', '--isolation', 'none']);
    const inProcess = await evaluate(dir, [
      '--policies',
      'mover.js',
      '--workers',
      '1',
      '--isolation',
      'none',
    ]);
    const one = await evaluate(dir, ['--policies', 'mover.js', '--workers', '1']);
    const two = await evaluate(dir, ['--policies', 'mover.js', '--workers', '2']);
    const rate = (m: Measured) => m.matches / m.seconds;
    printTable(
      `MASSim 2 x 3 agents, 20 x 20, ${STEPS} steps, random mover vs random, ${SEEDS} seeds x 2 matches (${availableParallelism()} processors)`,
      [
        ['configuration', 'matches', 'seconds', 'matches/s', 'steps/s', 'vs in-process'],
        ...(
          [
            ['in this process (no isolation), 1 thread', inProcess],
            ['1 worker thread', one],
            ['2 worker threads', two],
          ] as const
        ).map(([label, m]) => [
          label,
          m.matches,
          m.seconds.toFixed(2),
          rate(m),
          rate(m) * STEPS,
          `${(rate(m) / rate(inProcess)).toFixed(2)}x`,
        ]),
      ],
    );
    console.log(
      `\nscaling efficiency, 2 threads vs 1: ${formatNumber((100 * rate(two)) / (2 * rate(one)))}%`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
