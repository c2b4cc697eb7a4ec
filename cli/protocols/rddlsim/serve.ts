/**
 * `protoplay serve rddlsim`: loads the RDDL directory, listens, logs sessions, and stops on Ctrl-C (or
 * after `--sessions N`), writing the transcripts of sessions still open.
 */
import { resolve } from 'node:path';
import type { CommandContext, OptionValues } from '../../command-line/command-spec';
import { CliError, ExitCode } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { readTcpLimits } from '../../net/tcp-limit-options';
import { serveUntilStopped } from '../../play/transports';
import { timeOfDay } from '../../report/time-of-day';
import { RddlLibrary } from './rddl-library';
import { RddlsimServer } from './server';

/** Runs `protoplay serve rddlsim` with parsed options; resolves to the exit code once the server stopped. */
export async function serveRddlsim(values: OptionValues, context: CommandContext): Promise<number> {
  const { io } = context;
  const options = new OptionReader(values);
  const rddlDir = options.required('rddl-dir', 'the directory of .rddl files to serve');
  const host = options.string('host', '127.0.0.1');
  const port = options.integer('port', 2323, { min: 0, max: 65535 });
  const rounds = options.integer('rounds', 30, { min: 1 });
  const seed = options.integer('seed', 0);
  const timeLimitSeconds = options.integer('time-limit', 1080, { min: 0 });
  const noHeaderScope = options.choice('no-header-scope', ['connection', 'process'] as const, 'connection');
  const maxMessageBytes = options.integer('max-message-bytes', 1024 * 1024, { min: 64 });
  const semantics = options.choice('semantics', ['rddlsim', 'protoplay'] as const, 'rddlsim');
  const sessionLimit = options.integer('sessions', 0, { min: 0 });
  const record = options.string('record');
  const quiet = options.flag('quiet');
  const limits = readTcpLimits(options);

  // Indexed by block headers only: files are parsed when first asked for, and checked after listening.
  const library = await RddlLibrary.fromServerDirectory(rddlDir, { cwd: io.cwd, mode: 'lenient' });
  const instances = library.instanceNames();
  if (instances.length === 0)
    throw new CliError(ExitCode.failure, `'${rddlDir}' holds no RDDL instance to serve`);

  const log = (line: string) => {
    if (!quiet) io.stdout.write(`${timeOfDay(context.now())} ${line}\n`);
  };
  let finishedAll: () => void = () => undefined;
  const allDone = new Promise<void>((done) => (finishedAll = done));
  const server: RddlsimServer = await RddlsimServer.start({
    library,
    host,
    port,
    rounds,
    seed,
    timeLimitSeconds,
    monitorExecution: options.flag('monitor'),
    noHeaderScope,
    maxMessageBytes,
    semantics,
    limits,
    ...(record ? { recordDir: resolve(io.cwd, record) } : {}),
    log,
    onSessionEnd: () => {
      if (sessionLimit > 0 && server.endedSessions >= sessionLimit) finishedAll();
    },
    now: context.now,
  });
  const { port: boundPort } = server.address;
  io.stdout.write(
    `rddlsim server listening on ${host}:${boundPort} (${instances.length} instances from ${rddlDir}; ` +
      `${rounds} rounds, seed ${seed}, time limit ${timeLimitSeconds} s${record ? `, recording to ${record}` : ''})\n`,
  );
  // Every file is parsed once the server listens, a file per turn of the event loop, so a broken one is
  // reported now rather than when a client first asks for it.
  const checking = new AbortController();
  const checked = library.checkAll((warning) => io.stderr.write(`warning: ${warning}\n`), checking.signal);

  await serveUntilStopped(
    {
      close: async (reason) => {
        checking.abort();
        await checked;
        await server.close(reason);
      },
    },
    context.signal,
    { reached: allDone, reason: 'session limit reached' },
  );
  log(`stopped after ${server.endedSessions} session(s)`);
  return ExitCode.ok;
}
