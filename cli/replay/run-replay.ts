/**
 * `protoplay replay FILE...`: "continue in the playground" on the command line. Reads the recordings as
 * `inspect` does, plays every session's agent side again against its protocol's emulated server
 * (`Protocol.replay`, the same code the page runs) and prints where the emulator and the recording
 * differ. Exit 0 when every session was reproduced, 1 otherwise (a difference, a session that cannot be
 * replayed, unreadable parts), 2 on usage, 130 when interrupted.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import cliProgress from 'cli-progress';
import { describeError, ProtoplayError } from '../../src/core/errors';
import type { ImportProblem } from '../../src/core/protocols/contract';
import { PROTOCOLS } from '../../src/core/protocols/registry';
import {
  REPLAY_CANCELLED,
  type ReplayDifference,
  type ReplayPlan,
  type ReplayReport,
  type ReplaySetup,
} from '../../src/core/protocols/replay';
import { importRecording } from '../../src/core/transcript/import';
import type { Transcript } from '../../src/core/transcript/model';
import type { CommandContext, OptionValues } from '../command-line/command-spec';
import { CliError, ExitCode, usageError } from '../command-line/exit-codes';
import type { CliIo, CliOutput } from '../command-line/io';
import {
  checkFormatChoice,
  expandFolders,
  problemJson,
  readWhole,
  writeProblems,
} from '../inspect/run-inspect';

/** What became of one session. */
type SessionOutcome =
  | { session: number; report: ReplayReport }
  /** It could not be replayed: why, and the environments to choose from when that is why. */
  | { session: number; error: string; choices?: ReplayPlan['choices']; file?: string };

/** Runs `protoplay replay`; resolves to the exit code. */
export async function runReplay(
  values: OptionValues,
  positionals: readonly string[],
  { io, signal }: CommandContext,
): Promise<number> {
  if (positionals.length === 0)
    throw usageError('which files? protoplay replay FILE... (see protoplay replay --help)');
  const protocolId = typeof values.protocol === 'string' ? values.protocol : undefined;
  const format = typeof values.format === 'string' ? values.format : undefined;
  if (protocolId && !PROTOCOLS.some((p) => p.id === protocolId))
    throw usageError(`unknown protocol '${protocolId}'; one of ${PROTOCOLS.map((p) => p.id).join(', ')}`);
  if (format) checkFormatChoice(format, protocolId);
  const setup = await setupOf(values, io.cwd);
  const files = await expandFolders(positionals, io.cwd);
  const imported = importRecording(await readWhole(files, io.cwd), PROTOCOLS, {
    ...(protocolId ? { protocol: protocolId } : {}),
    ...(format ? { format } : {}),
  });
  const protocol = PROTOCOLS.find((p) => p.id === imported.protocol);
  if (!protocol?.replay)
    throw new CliError(
      ExitCode.failure,
      `${protocol?.label ?? imported.protocol} has no emulated server to play recordings against`,
    );
  const replay = await protocol.replay.load();
  if (setup.environment !== undefined) {
    const known = new Set(imported.transcripts.flatMap((t) => replay.plan(t).choices.map((c) => c.id)));
    if (known.size > 0 && !known.has(setup.environment))
      throw usageError(`unknown environment '${setup.environment}'; one of ${[...known].join(', ')}`);
  }
  const outcomes: SessionOutcome[] = [];
  for (const [i, transcript] of imported.transcripts.entries()) {
    const session = i + 1;
    const plan = replay.plan(transcript);
    if (plan.impossible) {
      outcomes.push({ session, error: plan.impossible });
      continue;
    }
    const chosen = setup.environment !== undefined || setup.file !== undefined;
    if (plan.environment === undefined && plan.choices.length > 0 && !chosen) {
      outcomes.push({
        session,
        error: `the recording does not say which environment it played: give --environment ID${plan.file ? ' or --config FILE' : ''}`,
        choices: plan.choices,
        ...(plan.file ? { file: plan.file.label } : {}),
      });
      continue;
    }
    const progress = new ReplayProgress(io, session, imported.transcripts.length);
    try {
      const report = await replay.run(transcript, setup, {
        progress: (done, total) => progress.update(done, total),
        cancelled: () => signal.aborted,
      });
      outcomes.push({ session, report });
    } catch (error) {
      if (error instanceof ProtoplayError && error.code === REPLAY_CANCELLED) {
        progress.stop();
        io.stderr.write('replay interrupted\n');
        return ExitCode.interrupted;
      }
      outcomes.push({ session, error: describeError(error) });
    } finally {
      progress.stop();
    }
  }
  const document = {
    protocol: imported.protocol,
    format: imported.format,
    description: imported.description,
    confidence: imported.confidence,
    problems: imported.problems,
    outcomes,
  };
  if (values.json === true) io.stdout.write(`${JSON.stringify(replayJson(document), null, 2)}\n`);
  else printOutcomes(document, imported.transcripts, io.stdout);
  const reproduced = outcomes.every((o) => 'report' in o && o.report.differing === 0);
  return reproduced && imported.problems.length === 0 && outcomes.length > 0 ? ExitCode.ok : ExitCode.failure;
}

/** `--environment`, `--seed` and `--config` as a replay setup. */
async function setupOf(values: OptionValues, cwd: string): Promise<ReplaySetup> {
  const setup: ReplaySetup = {};
  if (typeof values.environment === 'string') setup.environment = values.environment;
  if (typeof values.seed === 'string') {
    const seed = Number(values.seed);
    if (values.seed.trim() === '' || !Number.isSafeInteger(seed))
      throw usageError(`--seed wants a whole number, not '${values.seed}'`);
    setup.seed = seed;
  }
  if (typeof values.config === 'string') {
    try {
      setup.file = { name: values.config, text: await readFile(resolve(cwd, values.config), 'utf8') };
    } catch (error) {
      throw usageError(
        `cannot read --config '${values.config}': ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
  }
  return setup;
}

interface ReplayDocument {
  protocol: string;
  format: string;
  description: string;
  confidence: number;
  problems: readonly ImportProblem[];
  outcomes: readonly SessionOutcome[];
}

const differenceJson = (d: ReplayDifference) => ({
  index: d.recordedIndex ?? null,
  position: d.position,
  conn: d.conn,
  ...(d.channel !== undefined ? { channel: d.channel } : {}),
  path: d.path,
  recorded: d.recorded ?? null,
  emulated: d.emulated ?? null,
  recordedText: d.recordedText ?? null,
  emulatedText: d.emulatedText ?? null,
});

/** The documented `--json` document (docs/cli.md). */
export function replayJson(document: ReplayDocument) {
  const reports = document.outcomes.flatMap((o) => ('report' in o ? [o.report] : []));
  return {
    protocol: document.protocol,
    format: document.format,
    confidence: document.confidence,
    sessions: document.outcomes.map((o) =>
      'report' in o
        ? {
            session: o.session,
            environment: o.report.environment,
            environmentFrom: o.report.environmentFrom,
            seed: o.report.seed,
            seedFrom: o.report.seedFrom,
            compared: o.report.compared,
            differing: o.report.differing,
            first: o.report.first ? differenceJson(o.report.first) : null,
            notes: o.report.notes,
          }
        : {
            session: o.session,
            error: o.error,
            ...(o.choices ? { choices: o.choices } : {}),
            ...(o.file ? { file: o.file } : {}),
          },
    ),
    compared: reports.reduce((sum, r) => sum + r.compared, 0),
    differing: reports.reduce((sum, r) => sum + r.differing, 0),
    errors: document.problems.map(problemJson),
  };
}

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** A value of a difference on one line: long texts cut. */
const shown = (text: string | undefined) =>
  text === undefined ? 'nothing' : text.length > 160 ? `${text.slice(0, 157)}...` : text;

function printOutcomes(document: ReplayDocument, transcripts: readonly Transcript[], out: CliOutput): void {
  const confidence = `${Math.round(document.confidence * 100)}%`;
  out.write(`${document.protocol}: ${document.description} (${document.format}, confidence ${confidence})\n`);
  for (const outcome of document.outcomes) {
    if (!('report' in outcome)) {
      out.write(`session ${outcome.session}: not replayed: ${outcome.error}\n`);
      const options = [
        ...(outcome.choices ?? []).map((c) => [`--environment ${c.id}`, c.label] as const),
        ...(outcome.file ? [['--config FILE', outcome.file] as const] : []),
      ];
      const width = Math.max(0, ...options.map(([option]) => option.length));
      for (const [option, label] of options) out.write(`  ${option.padEnd(width)}  ${label}\n`);
      continue;
    }
    const r = outcome.report;
    const seed = `seed ${r.seed}${r.seedFrom === 'recording' ? '' : r.seedFrom === 'chosen' ? ' (given)' : ' (the recording has none)'}`;
    out.write(
      `session ${outcome.session}: ${r.environment} (${r.environmentFrom === 'recording' ? 'as recorded' : 'chosen'}), ${seed}\n`,
    );
    if (!r.first)
      out.write(`  no difference in ${plural(r.compared, 'message')}: the emulator answers as recorded\n`);
    else {
      const d = r.first;
      const where = `${d.channel ? `${d.conn} ${d.channel}` : d.conn}${d.path !== '$' ? `, ${d.path}` : ''}`;
      const at =
        d.recordedIndex !== undefined
          ? `at message ${d.recordedIndex}`
          : 'where the recording ends and the emulator still sends';
      const kind = transcripts[outcome.session - 1]?.messages[d.recordedIndex ?? -1]?.dir;
      out.write(`  ${r.differing} of ${plural(r.compared, 'message')} differ\n`);
      out.write(`  first difference ${at} (${where}${kind ? `, ${kind}` : ''})\n`);
      out.write(`    recorded: ${shown(d.recorded)}\n`);
      out.write(`    emulator: ${shown(d.emulated)}\n`);
    }
    for (const note of r.notes) out.write(`  note: ${note}\n`);
  }
  writeProblems(document.problems, out);
}

/** A bar on stderr while a session replays, on a terminal only (a pipe gets the result alone). */
class ReplayProgress {
  readonly #io: CliIo;
  readonly #label: string;
  #bar: cliProgress.SingleBar | undefined;

  constructor(io: CliIo, session: number, sessions: number) {
    this.#io = io;
    this.#label = sessions > 1 ? `replaying session ${session}/${sessions}` : 'replaying';
  }

  update(done: number, total: number): void {
    if (!this.#io.stderr.isTTY) return;
    if (!this.#bar) {
      this.#bar = new cliProgress.SingleBar(
        {
          stream: this.#io.stderr as NodeJS.WritableStream,
          format: `${this.#label} [{bar}] {value}/{total} messages | {eta_formatted} left`,
          hideCursor: true,
          clearOnComplete: true,
          barsize: 24,
        },
        cliProgress.Presets.shades_classic,
      );
      this.#bar.start(total, done);
    } else this.#bar.update(done);
  }

  stop(): void {
    this.#bar?.stop();
    this.#bar = undefined;
  }
}
