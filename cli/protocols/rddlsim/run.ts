/**
 * `protoplay run rddlsim`: plays one session of N rounds against the emulated rddlsim server, through the
 * same `EmulatedSession` (host, client adapter, in-memory pipe) the playground runs in its worker, with
 * the same options, so the same seed, policy and instance give the same transcript in both. The
 * transcript is streamed to its file as the session runs, never held; without one (and without
 * `--wire`) the session is played directly on the simulator (`DirectSession`), with the same results.
 */
import { formatLocated } from '../../../src/core/errors';
import { openSession, type PlayedSession } from '../../../src/core/protocols/rddlsim/direct-session';
import { EmulatedSession } from '../../../src/core/protocols/rddlsim/session';
import type { CommandContext, OptionValues } from '../../command-line/command-spec';
import { CliError, ExitCode, usageError } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { RoundReporter } from '../../report/round-report';
import { TranscriptFileStream } from '../../transcript-stream';
import { preparePolicy, type InvalidActionsMode } from './policies';
import { RddlLibrary } from './rddl-library';

const INVALID_ACTIONS: readonly InvalidActionsMode[] = ['stop', 'send', 'drop'];

/** Runs `protoplay run rddlsim` with parsed options; resolves to the exit code. */
export async function runRddlsim(values: OptionValues, context: CommandContext): Promise<number> {
  const { io } = context;
  const options = new OptionReader(values);
  const domains = options.list('domain');
  const instanceFiles = options.list('instance');
  if (domains.length + instanceFiles.length === 0) {
    throw usageError(
      'give the RDDL: --domain FILE|DIR and --instance FILE (see protoplay run rddlsim --help)',
    );
  }
  const rounds = options.integer('rounds', 30, { min: 1 });
  const seed = options.integer('seed', 0);
  const budgetMs = options.integer('budget', 1000, { min: 1 });
  const timeLimitSeconds = options.integer('time-limit', 1080, { min: 0 });
  const invalidActions = options.choice('invalid-actions', INVALID_ACTIONS, 'stop');
  const onPolicyError = options.choice('on-policy-error', ['stop', 'noop'] as const, 'stop');
  const transcriptPath = options.string('transcript');
  const json = options.flag('json');
  const semantics = options.choice('semantics', ['protoplay', 'rddlsim'] as const, 'protoplay');

  const library = await RddlLibrary.fromPaths([...domains, ...instanceFiles], {
    cwd: io.cwd,
    mode: 'strict',
  });
  const instance = options.string('instance-name') ?? onlyInstance(library, instanceFiles);
  const { model, task, warnings } = library.load(instance, { rddlsimSemantics: semantics === 'rddlsim' });
  for (const warning of warnings)
    io.stderr.write(`warning: ${formatLocated(warning.message, warning.location)}\n`);
  const policy = await preparePolicy(options.string('policy', 'noop'), {
    cwd: io.cwd,
    seed,
    budgetMs,
    invalidActions,
  });

  const recordWorld = options.flag('record-world');
  const stream = transcriptPath ? new TranscriptFileStream(transcriptPath, 'rddlsim', io.cwd) : undefined;
  const session: PlayedSession = openSession(
    {
      model,
      task,
      policy: policy.forInstance(model.info),
      rounds,
      seed,
      timeLimitSeconds,
      clientName: options.string('client-name', 'protoplay'),
      rddlsimQuirks: semantics === 'rddlsim' || options.flag('rddlsim-quirks'),
      generator: semantics,
      // The world at every turn is the bulk of a transcript, and only the playground's world view reads it.
      recordWorld: recordWorld && stream !== undefined,
      // Invalid actions are judged by the policy wrapper (stop: they never reach the client), or sent /
      // dropped by the client adapter.
      sendInvalidActions: invalidActions === 'send',
      onPolicyFault: onPolicyError,
      now: context.now,
      meta: { tool: 'protoplay run', policy: policy.name, budgetMs, semantics },
      // Written to the file as it happens; nothing of it stays in memory.
      keepTranscript: false,
      ...(stream ? { transcriptSink: stream } : {}),
    },
    { wire: options.flag('wire') },
  );
  if (recordWorld && !stream) io.stderr.write('note: --record-world has no effect without --transcript\n');
  if (session instanceof EmulatedSession)
    for (const line of policy.loadLogs)
      session.recorder.annotate('policy-log', { ...line, round: 0, turn: 0 });

  const reporter = new RoundReporter({ io, json, totalRounds: rounds, label: instance });
  let interrupted = false;
  try {
    while (session.status === 'ready' || session.status === 'waiting') {
      if (context.signal.aborted) {
        interrupted = true;
        session.stop('interrupted');
        break;
      }
      const report = await session.step();
      for (const round of report.roundsEnded) reporter.round(round);
      // A built-in policy answers without ever leaving the microtask queue; let signals and the progress
      // bar's timer in once per round.
      if (report.roundsEnded.length > 0) await new Promise((resolve) => setImmediate(resolve));
      if (report.observation) reporter.turn(report.observation.turn);
    }
  } finally {
    reporter.stop();
    policy.dispose();
    if (stream && session instanceof EmulatedSession) stream.finish(session.transcript);
  }

  const written = stream?.path;
  const endedEarly = session.totalReward === undefined;
  const status = interrupted
    ? 'interrupted'
    : policy.fault
      ? 'policy-error'
      : endedEarly
        ? 'ended-early'
        : 'finished';
  reporter.finish(
    {
      protocol: 'rddlsim',
      instance,
      domain: model.info.domain,
      policy: policy.name,
      seed,
      semantics,
      status,
      ...(written ? { transcript: written } : {}),
    },
    session.totalReward,
  );
  if (interrupted) {
    io.stderr.write('interrupted; the transcript keeps everything played so far\n');
    return ExitCode.interrupted;
  }
  if (policy.fault) throw new CliError(ExitCode.policy, policy.fault, { located: true });
  if (endedEarly) {
    throw new CliError(
      ExitCode.failure,
      `the session ended early: ${session.lastNote ?? 'the server closed the connection'}`,
    );
  }
  return ExitCode.ok;
}

/** The instance to play when --instance-name is not given: the only one in the instance files (or in all). */
function onlyInstance(library: RddlLibrary, instanceFiles: readonly string[]): string {
  const candidates = instanceFiles.length ? library.instancesInFiles(instanceFiles) : library.instanceNames();
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) throw usageError('the RDDL files define no instance; add --instance FILE');
  const shown = candidates.length > 12 ? `${candidates.slice(0, 12).join(', ')}, ...` : candidates.join(', ');
  throw usageError(
    `the files define ${candidates.length} instances (${shown}); choose one with --instance-name`,
  );
}
