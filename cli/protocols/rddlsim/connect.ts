/**
 * `protoplay connect rddlsim`: resolves the options, loads the policy (a syntax error stops here, before
 * connecting), plays one remote session with a live progress line, writes the transcript whatever
 * happened, and turns the outcome into a summary and an exit code.
 */
import type { CommandContext, OptionValues } from '../../command-line/command-spec';
import { CliError, ExitCode } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { RoundReporter } from '../../report/round-report';
import { writeTranscriptFile } from '../../transcript-file';
import { preparePolicy, type InvalidActionsMode } from './policies';
import { RddlLibrary } from './rddl-library';
import { playRemoteSession } from './remote-session';

const INVALID_ACTIONS: readonly InvalidActionsMode[] = ['stop', 'send', 'drop'];

/** Runs `protoplay connect rddlsim` with parsed options; resolves to the exit code. */
export async function connectRddlsim(values: OptionValues, context: CommandContext): Promise<number> {
  const { io } = context;
  const options = new OptionReader(values);
  const problemName = options.required('instance', 'the instance to ask the server for');
  const host = options.string('host', '127.0.0.1');
  const port = options.integer('port', 2323, { min: 1, max: 65535 });
  const maxRounds =
    options.string('rounds') === undefined ? undefined : options.integer('rounds', 0, { min: 1 });
  const timeoutSeconds = options.number('timeout', 30, { min: 0 });
  const seed = options.integer('seed', 0);
  const budgetMs = options.integer('budget', 1000, { min: 1 });
  const invalidActions = options.choice('invalid-actions', INVALID_ACTIONS, 'stop');
  const onPolicyFault = options.choice('on-policy-error', ['stop', 'noop'] as const, 'stop');
  const transcriptPath = options.string('transcript');
  const json = options.flag('json');
  const rddlDir = options.string('rddl-dir');

  const library = rddlDir
    ? await RddlLibrary.fromPaths([rddlDir], { cwd: io.cwd, mode: 'lenient' })
    : undefined;
  if (library) {
    for (const warning of library.warnings) io.stderr.write(`warning: ${warning}\n`);
    library.load(problemName);
  }
  const policy = await preparePolicy(options.string('policy', 'noop'), {
    cwd: io.cwd,
    seed,
    budgetMs,
    invalidActions,
  });

  const reporter = new RoundReporter({
    io,
    json,
    label: problemName,
    ...(maxRounds ? { totalRounds: maxRounds } : {}),
  });
  let result;
  try {
    result = await playRemoteSession({
      host,
      port,
      problemName,
      clientName: options.string('client-name', 'protoplay'),
      noHeader: options.flag('no-header'),
      ...(maxRounds !== undefined ? { maxRounds } : {}),
      timeoutMs: timeoutSeconds * 1000,
      policy,
      sendInvalidActions: invalidActions !== 'drop',
      onPolicyFault,
      ...(library ? { library } : {}),
      now: context.now,
      signal: context.signal,
      onSessionInit: (rounds) => reporter.setTotal(rounds),
      onTurn: (observation) => reporter.turn(observation.turn),
      onRound: (round) => reporter.round(round),
      onWarning: (message) => io.stderr.write(`warning: ${message}\n`),
    });
  } finally {
    reporter.stop();
    policy.dispose();
  }

  const written = transcriptPath
    ? await writeTranscriptFile(transcriptPath, result.transcript, io.cwd)
    : undefined;
  const { outcome } = result;
  reporter.finish(
    {
      protocol: 'rddlsim',
      server: `${host}:${port}`,
      instance: problemName,
      policy: policy.name,
      status: outcome.kind,
      ...(outcome.kind === 'failed' ? { error: outcome.message } : {}),
      ...(written ? { transcript: written } : {}),
    },
    result.totalReward,
  );
  switch (outcome.kind) {
    case 'finished':
      return ExitCode.ok;
    case 'stopped':
      io.stderr.write(
        `left after ${maxRounds} rounds as asked (the server offers ${outcome.roundsOffered})\n`,
      );
      return ExitCode.ok;
    case 'interrupted':
      io.stderr.write(`interrupted${written ? `; the transcript keeps everything played so far` : ''}\n`);
      return ExitCode.interrupted;
    case 'failed':
      throw new CliError(
        outcome.exitCode,
        written ? `${outcome.message} (transcript written to ${transcriptPath})` : outcome.message,
      );
  }
}
