/**
 * `protoplay evaluate <protocol>`: reads the policies and the seeds, runs the core's `Evaluation` with a
 * worker thread per policy (a memory cap on each, a budget on every call), shows progress, then prints
 * the summary and writes the CSV / JSON report.
 */
import { readdir, stat, mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import cliProgress from 'cli-progress';
import {
  countOf,
  describeEarlyEnds,
  Evaluation,
  type EvaluatedPolicy,
  type EvaluationPlan,
} from '../../src/core/evaluation/evaluation';
import { plural } from '../../src/core/evaluation/statistics';
import {
  buildReport,
  reportCsv,
  type EvaluationReport,
  type PolicyReport,
} from '../../src/core/evaluation/report';
import { parseSeeds } from '../../src/core/evaluation/seeds';
import { findProtocol } from '../../src/core/protocols/registry';
import type { CommandContext, OptionValues } from '../command-line/command-spec';
import { CliError, ExitCode, usageError } from '../command-line/exit-codes';
import type { CliIo } from '../command-line/io';
import { OptionReader } from '../command-line/option-values';
import { readPolicySource } from '../policy/policy-file';
import type { EvaluateEnvironment } from './evaluate-command';
import { inProcessThread, spawnEvaluationThread } from './threads';

const POLICY_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs']);

/** Runs the command; resolves to the exit code. */
export async function runEvaluate(
  values: OptionValues,
  context: CommandContext,
  environment: EvaluateEnvironment,
): Promise<number> {
  const { io } = context;
  const options = new OptionReader(values);
  const policyPaths = options.list('policies');
  if (policyPaths.length === 0) {
    throw usageError(
      `give the policies: --policies DIR|FILE... (see protoplay evaluate ${environment.protocol} --help)`,
    );
  }
  let seeds: number[];
  try {
    seeds = parseSeeds(options.string('seeds', '1..30'));
  } catch (error) {
    throw usageError(`--seeds: ${(error as Error).message}`);
  }
  const rounds = options.integer('rounds', environment.defaultRounds, { min: 1 });
  const workers = options.integer('workers', availableParallelism(), { min: 1, max: 256 });
  const budgetMs = options.integer('budget', 1000, { min: 1 });
  const memoryMb = options.integer('memory', 512, { min: 16 });
  const isolation = options.choice('isolation', ['thread', 'none'] as const, 'thread');
  const json = options.flag('json');
  const outs = options.list('out');
  for (const out of outs) {
    if (!['.csv', '.json'].includes(extname(out).toLowerCase()))
      throw usageError(`--out '${out}' must end in .csv or .json`);
  }
  const evaluation = findProtocol(environment.protocol)?.evaluation;
  if (!evaluation) throw usageError(`${environment.protocol} cannot be evaluated yet`);

  const { settings, label } = await environment.settings(values, context);
  const policies = await readPolicies(policyPaths, io.cwd);
  const plan: EvaluationPlan = {
    protocol: environment.protocol,
    unit: evaluation.unit,
    settings,
    policies,
    seeds,
    rounds,
    workers,
    budgetMs,
  };
  const progress = new EvaluateProgress(io, plan.policies.length * seeds.length);
  const run = new Evaluation(plan, {
    spawn: () => (isolation === 'none' ? inProcessThread() : spawnEvaluationThread(memoryMb)),
    listener: {
      episode: () => progress.update(run.progress.ended, failures),
      failure: (policy, failure) => {
        failures++;
        progress.log(
          `${policies[policy]!.label}: ${failure.kind} on seed ${failure.seed}: ${failure.reason}`,
        );
        progress.update(run.progress.ended, failures);
      },
    },
  });
  let failures = 0;
  const onAbort = () => run.cancel();
  context.signal.addEventListener('abort', onAbort);
  const started = performance.now();
  try {
    await run.run();
  } finally {
    context.signal.removeEventListener('abort', onAbort);
    progress.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const report = buildReport(plan, run.results, {
    environment: label,
    cancelled: run.cancelled,
    settings: {
      isolation,
      memoryMb,
      seconds,
      threads: run.threadStarts.count,
      threadStartMs: run.threadStarts.count ? run.threadStarts.ms / run.threadStarts.count : null,
    },
  });
  for (const out of outs) await writeReport(out, report, io.cwd);
  if (json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout.write(formatReport(report, seconds));
  if (run.cancelled) {
    io.stderr.write('interrupted; the results above are of the episodes that ended\n');
    return ExitCode.interrupted;
  }
  return report.status === 'complete' ? ExitCode.ok : ExitCode.failure;
}

/** The policy files named: files as they are, directories by their .ts/.js files (sorted), each once. */
async function readPolicies(paths: readonly string[], cwd: string): Promise<EvaluatedPolicy[]> {
  const files: string[] = [];
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    const isDirectory = await stat(absolute).then(
      (info) => info.isDirectory(),
      () => {
        throw usageError(`cannot read policy '${path}': no such file or directory`);
      },
    );
    if (!isDirectory) {
      files.push(path);
      continue;
    }
    const entries = (await readdir(absolute, { withFileTypes: true }))
      .filter(
        (e) =>
          e.isFile() && POLICY_EXTENSIONS.has(extname(e.name).toLowerCase()) && !e.name.endsWith('.d.ts'),
      )
      .map((e) => e.name)
      .sort();
    if (entries.length === 0) throw usageError(`directory '${path}' holds no .ts or .js policy`);
    files.push(...entries.map((name) => join(path, name)));
  }
  const seen = new Set<string>();
  const policies: EvaluatedPolicy[] = [];
  for (const file of files) {
    const key = resolve(cwd, file);
    if (seen.has(key)) continue;
    seen.add(key);
    const { seed: _seed, context: _context, ...source } = await readPolicySource(file, { cwd, seed: 0 });
    policies.push({ label: source.fileName, source });
  }
  return policies;
}

async function writeReport(path: string, report: EvaluationReport, cwd: string): Promise<void> {
  const absolute = resolve(cwd, path);
  const text =
    extname(path).toLowerCase() === '.csv' ? reportCsv(report) : `${JSON.stringify(report, null, 2)}\n`;
  try {
    await mkdir(dirname(absolute), { recursive: true });
    await writeFile(absolute, text);
  } catch (error) {
    throw new CliError(
      ExitCode.failure,
      `cannot write the results to '${path}': ${(error as Error).message}`,
    );
  }
}

/** The report as text: a table of policies, then the comparisons. */
export function formatReport(report: EvaluationReport, seconds: number): string {
  const unit = report.unit;
  const lines: string[] = [];
  const seedText = `${report.seeds.length} seed${report.seeds.length === 1 ? '' : 's'}`;
  lines.push(
    `${report.protocol} ${report.environment}: ${report.policies.length} polic${report.policies.length === 1 ? 'y' : 'ies'}, ${seedText} x ${countOf(report.roundsPerSeed, unit)}, ${seconds.toFixed(1)} s`,
  );
  const header = ['policy', 'status', plural(unit), 'mean', 'sd', '95% CI', `ms/${unit}`];
  const rows = report.policies.map((p) => [
    p.policy,
    p.status,
    String(p.rounds),
    p.mean === null ? '-' : formatReward(p.mean),
    p.sd === null ? '-' : formatReward(p.sd),
    p.ci95 === null ? '-' : `[${formatReward(p.ci95[0])}, ${formatReward(p.ci95[1])}]`,
    p.msPerRound === null ? '-' : p.msPerRound.toFixed(2),
  ]);
  lines.push(...table([header, ...rows]));
  for (const p of report.policies) {
    for (const f of p.failures) lines.push(`  ${p.policy}: ${f.kind} on seed ${f.seed}: ${f.reason}`);
  }
  for (const p of report.policies) lines.push(...earlyEndLines(p, unit));
  if (report.comparisons.some((c) => c.pairs > 0)) {
    lines.push('', `paired comparisons (same seed, same ${unit}; difference = policy - baseline):`);
    for (const c of report.comparisons) {
      if (c.pairs === 0) continue;
      const diff =
        c.meanDifference === null
          ? '-'
          : `${c.meanDifference >= 0 ? '+' : ''}${formatReward(c.meanDifference)}${c.ci95 ? ` [${formatReward(c.ci95[0])}, ${formatReward(c.ci95[1])}]` : ''}`;
      lines.push(`  ${c.policy} vs ${c.baseline}: ${diff} over ${countOf(c.pairs, unit)}: ${c.verdict}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** What a policy's early-ended units were, under the table (see `describeEarlyEnds`). */
function earlyEndLines(p: PolicyReport, unit: string): string[] {
  if (p.endedEarly.units === 0) return [];
  const { summary, reasons } = describeEarlyEnds(p.endedEarly, p.rounds, unit);
  return [`  ${p.policy}: ${summary}:`, ...reasons.map((reason) => `    ${reason}`)];
}

/** A number for the table: six significant digits, no float noise. */
function formatReward(value: number): string {
  return Number.isFinite(value) ? String(Number(value.toPrecision(6))) : String(value);
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) =>
    row
      .map((cell, i) => (i >= 2 && i !== 5 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

/** A bar on a terminal, a plain line at every tenth (and every failure) otherwise; both on stderr. */
class EvaluateProgress {
  readonly #io: CliIo;
  readonly #total: number;
  #bar: cliProgress.SingleBar | undefined;
  #shownTenth = 0;

  constructor(io: CliIo, total: number) {
    this.#io = io;
    this.#total = total;
    if (io.stderr.isTTY) {
      this.#bar = new cliProgress.SingleBar(
        {
          stream: io.stderr as NodeJS.WritableStream,
          format: 'evaluating [{bar}] {value}/{total} episodes | {failures} failed | {eta_formatted} left',
          hideCursor: true,
          clearOnComplete: true,
          barsize: 24,
        },
        cliProgress.Presets.shades_classic,
      );
      this.#bar.start(total, 0, { failures: 0 });
    }
  }

  update(ended: number, failures: number): void {
    if (this.#bar) {
      this.#bar.update(ended, { failures });
      return;
    }
    const tenth = Math.floor((ended * 10) / Math.max(1, this.#total));
    if (tenth > this.#shownTenth) {
      this.#shownTenth = tenth;
      this.#io.stderr.write(
        `evaluated ${ended}/${this.#total} episodes${failures ? `, ${failures} failed` : ''}\n`,
      );
    }
  }

  log(line: string): void {
    if (this.#bar) {
      // Above the bar on the same terminal.
      this.#io.stderr.write(`\r\x1b[K${line}\n`);
      this.#bar.render();
    } else this.#io.stderr.write(`${line}\n`);
  }

  stop(): void {
    this.#bar?.stop();
    this.#bar = undefined;
  }
}
