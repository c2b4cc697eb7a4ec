/**
 * `protoplay inspect FILE...`: reads recordings of any registered protocol (several files of one session
 * together), and prints what the playground would show: the detected protocol and format with its
 * confidence, sessions, connections, messages, rounds with rewards, violations of the protocol's rules and
 * unreadable parts, located. Exit 0 when all was read and nothing broke a rule, 1 otherwise, 2 on usage.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ImportInput, ImportProblem } from '../../src/core/protocols/contract';
import {
  inspectionIsClean,
  inspectRecordingWithRoundEnds,
  loadRoundEnds,
  type InspectionReport,
} from '../../src/core/protocols/inspection';
import { PROTOCOLS } from '../../src/core/protocols/registry';
import {
  ImportRefusedError,
  PROTOPLAY_JSON_FORMAT,
  type ImportChoice,
} from '../../src/core/transcript/import';
import type { CommandContext, OptionValues } from '../command-line/command-spec';
import { CliError, ExitCode, usageError } from '../command-line/exit-codes';
import type { CliOutput } from '../command-line/io';
import { EarlyEndWords } from '../report/round-report';
import { inspectInChunks } from './inspect-stream';

/** The protocols and formats `--protocol` and `--format` accept, for the command's help. */
export function formatList(): string {
  return [
    `Protocols: ${PROTOCOLS.map((p) => p.id).join(', ')}`,
    'Formats:',
    '  protoplay-json            a Protoplay JSON transcript',
    ...PROTOCOLS.flatMap((protocol) =>
      protocol.recordingFormats.map((format) => `  ${format.id.padEnd(24)} ${format.description}`),
    ),
  ].join('\n');
}

/** Runs `protoplay inspect`; resolves to the exit code. */
export async function runInspect(
  values: OptionValues,
  positionals: readonly string[],
  { io }: CommandContext,
): Promise<number> {
  if (positionals.length === 0)
    throw usageError('which files? protoplay inspect FILE... (see protoplay inspect --help)');
  const protocol = typeof values.protocol === 'string' ? values.protocol : undefined;
  const format = typeof values.format === 'string' ? values.format : undefined;
  if (protocol && !PROTOCOLS.some((p) => p.id === protocol))
    throw usageError(`unknown protocol '${protocol}'; one of ${PROTOCOLS.map((p) => p.id).join(', ')}`);
  if (format) checkFormatChoice(format, protocol);
  const choice = { ...(protocol ? { protocol } : {}), ...(format ? { format } : {}) };
  const files = await expandFolders(positionals, io.cwd);
  const json = values.json === true;
  const report =
    (await inspectInChunks(files, io.cwd, choice, values.stream === true, loadRoundEnds)) ??
    (await inspectWhole(files, io.cwd, choice, json));
  if (json) io.stdout.write(`${JSON.stringify(reportJson(report), null, 2)}\n`);
  else printReport(report, io.stdout);
  return inspectionIsClean(report) ? ExitCode.ok : ExitCode.failure;
}

/**
 * `--format F` is a usage error unless F is Protoplay JSON or a format of the chosen protocol (of any
 * protocol when none is chosen), as an unknown `--protocol` is.
 */
export function checkFormatChoice(format: string, protocolId: string | undefined): void {
  const protocols = PROTOCOLS.filter((p) => protocolId === undefined || p.id === protocolId);
  const ids = [PROTOPLAY_JSON_FORMAT, ...protocols.flatMap((p) => p.recordingFormats.map((f) => f.id))];
  if (ids.includes(format)) return;
  const owner = PROTOCOLS.find((p) => p.recordingFormats.some((f) => f.id === format));
  throw usageError(
    owner
      ? `${protocolId} has no format '${format}' (it is a format of ${owner.id}); one of ${ids.join(', ')}`
      : `unknown format '${format}'; one of ${ids.join(', ')}`,
  );
}

/**
 * The files read whole and inspected. With `--json` (`document`), files that cannot be read, or that no
 * format reads, give a report of nothing but those errors, so that one document is printed all the same;
 * without, they are an error (exit 1).
 */
async function inspectWhole(
  files: readonly string[],
  cwd: string,
  choice: ImportChoice,
  document: boolean,
): Promise<InspectionReport> {
  const { inputs, unreadable } = await readFiles(files, cwd);
  const nothingRead = (problems: readonly ImportProblem[]): InspectionReport => ({
    protocol: choice.protocol ?? '',
    format: choice.format ?? '',
    description: '',
    confidence: 0,
    sessions: [],
    problems: [...problems],
    transcripts: [],
  });
  if (unreadable.length > 0) {
    if (document) return nothingRead(unreadable);
    throw new CliError(ExitCode.failure, `cannot read '${unreadable[0]!.file}': ${unreadable[0]!.code}`);
  }
  try {
    return await inspectRecordingWithRoundEnds(inputs, PROTOCOLS, choice);
  } catch (error) {
    if (document && error instanceof ImportRefusedError) return nothingRead(error.problems);
    throw error;
  }
}

/**
 * Every file under the folders among `paths` (a MASSim replay folder, a whole run folder), in name order;
 * files are kept as given. A path that does not exist is left for the reading to report.
 */
export async function expandFolders(paths: readonly string[], cwd: string): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    const isFolder = await stat(resolve(cwd, path)).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!isFolder) {
      files.push(path);
      continue;
    }
    const inside = (await filesUnder(resolve(cwd, path))).map((file) => join(path, file)).sort();
    if (inside.length === 0) throw usageError(`the folder '${path}' holds no files`);
    files.push(...inside);
  }
  return files;
}

/** The files under a folder, as paths relative to it (walked by hand: any Node 20 lists the same). */
async function filesUnder(folder: string, prefix = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(join(folder, prefix), { withFileTypes: true })) {
    const relative = join(prefix, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(folder, relative)));
    else if (entry.isFile()) files.push(relative);
  }
  return files;
}

/** The files' bytes, and the files that could not be read, each with why (`ENOENT`...). */
async function readFiles(
  paths: readonly string[],
  cwd: string,
): Promise<{ inputs: ImportInput[]; unreadable: (ImportProblem & { code: string })[] }> {
  const inputs: ImportInput[] = [];
  const unreadable: (ImportProblem & { code: string })[] = [];
  for (const path of paths) {
    try {
      inputs.push({ name: path, bytes: new Uint8Array(await readFile(resolve(cwd, path))) });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      unreadable.push({ file: path, message: `cannot read the file: ${code}`, code });
    }
  }
  return { inputs, unreadable };
}

/** The files' bytes; throws (exit 1) at the first file that cannot be read. */
export async function readWhole(paths: readonly string[], cwd: string): Promise<ImportInput[]> {
  const { inputs, unreadable } = await readFiles(paths, cwd);
  const first = unreadable[0];
  if (first) throw new CliError(ExitCode.failure, `cannot read '${first.file}': ${first.code}`);
  return inputs;
}

/** The documented `--json` document (docs/cli.md). */
export function reportJson(report: InspectionReport) {
  return {
    protocol: report.protocol,
    format: report.format,
    confidence: report.confidence,
    sessions: report.sessions.length,
    sources: report.sessions.map((session) => ({ session: session.session, files: session.files })),
    unchecked: report.sessions.flatMap((session) =>
      session.unchecked ? [{ session: session.session, reason: session.unchecked }] : [],
    ),
    connections: report.sessions.reduce((sum, session) => sum + session.connections, 0),
    messages: report.sessions.reduce((sum, session) => sum + session.messages, 0),
    rounds: report.sessions.flatMap((session) =>
      session.rounds.map((round) => ({
        session: session.session,
        round: round.round,
        reward: round.reward,
        ...(round.endedEarly !== undefined ? { endedEarly: round.endedEarly } : {}),
      })),
    ),
    violations: report.sessions.flatMap((session) =>
      session.violations.map((violation) => ({
        session: session.session,
        index: violation.index,
        conn: violation.conn,
        ...(violation.channel !== undefined ? { channel: violation.channel } : {}),
        role: violation.role,
        rule: violation.rule,
        message: violation.message,
      })),
    ),
    unreadable: report.sessions.flatMap((session) =>
      session.unreadable.map((part) => ({
        session: session.session,
        index: part.index,
        reason: part.reason,
      })),
    ),
    errors: report.problems.map(problemJson),
  };
}

function printReport(report: InspectionReport, out: CliOutput): void {
  const confidence = `${Math.round(report.confidence * 100)}%`;
  out.write(`${report.protocol}: ${report.description} (${report.format}, confidence ${confidence})\n`);
  out.write(`${report.sessions.length} session${report.sessions.length === 1 ? '' : 's'}\n`);
  // Read from several files, each session says which.
  const severalFiles = new Set(report.sessions.flatMap((session) => session.files)).size > 1;
  for (const session of report.sessions) {
    const from = severalFiles && session.files.length > 0 ? ` (from ${fileNames(session.files)})` : '';
    out.write(
      `session ${session.session}: ${session.connections} connection${session.connections === 1 ? '' : 's'}, ${session.messages} messages, ${session.rounds.length} rounds, ${session.violations.length} violations${from}\n`,
    );
    if (session.unchecked) out.write(`  rules not checked: ${session.unchecked}\n`);
    const earlyEnds = new EarlyEndWords();
    for (const round of session.rounds) {
      const reward = round.reward === null ? 'no total reported' : `reward ${round.reward}`;
      const ended = earlyEnds.words(round.round, round.endedEarly);
      out.write(`  round ${round.round}: ${reward}${ended === undefined ? '' : ` ${ended}`}\n`);
    }
    for (const violation of session.violations)
      out.write(
        `  violation at message ${violation.index} (${violation.conn}${violation.channel ? ` ${violation.channel}` : ''}, ${violation.role}): ${violation.rule}: ${violation.message}\n`,
      );
    for (const part of session.unreadable) out.write(`  unreadable message ${part.index}: ${part.reason}\n`);
  }
  writeProblems(report.problems, out);
}

/**
 * A session's files for its line: all of them when few, else the folder they share and how many (a MASSim
 * replay folder), or how many and the first.
 */
function fileNames(files: readonly string[]): string {
  if (files.length <= 3) return files.join(', ');
  const folderOf = (file: string) =>
    file.slice(0, Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
  const folder = folderOf(files[0]!);
  if (folder !== '' && files.every((file) => folderOf(file) === folder))
    return `${folder}: ${files.length} files`;
  return `${files.length} files: ${files[0]}, ...`;
}

/** An unreadable part as `--json` gives it: its file, line (or null) and byte when known, and why. */
export function problemJson(problem: ImportProblem) {
  return {
    file: problem.file,
    line: problem.line ?? null,
    ...(problem.byte !== undefined ? { byte: problem.byte } : {}),
    message: problem.message,
  };
}

/** Unreadable parts as text, one line each: `file:line: why` (or `file (byte N): why`). */
export function writeProblems(problems: readonly ImportProblem[], out: CliOutput): void {
  for (const problem of problems) {
    const where =
      problem.line !== undefined
        ? `:${problem.line}`
        : problem.byte !== undefined
          ? ` (byte ${problem.byte})`
          : '';
    out.write(`${problem.file}${where}: ${problem.message}\n`);
  }
}
