/**
 * `protoplay run aisys`: plays N runs of an environment against the emulated course server, through the
 * same `AisysSession` (client, host, in-memory pipe) the playground runs in its worker, and prints each
 * finished run and a summary.
 */
import { findAisysEnvironment, AISYS_ENVIRONMENTS } from '../../../src/core/protocols/aisys/environments';
import { AisysSession } from '../../../src/core/protocols/aisys/session';
import type { AisysDecide } from '../../../src/core/protocols/aisys/policy-api';
import type { CommandContext, OptionValues } from '../../command-line/command-spec';
import { CliError, ExitCode, usageError } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { TranscriptFileStream } from '../../transcript-stream';
import { extraRunsRows, pastLimitWords } from './extra-runs';
import { AisysRoundReporter } from './outcome-report';
import { aisysPolicyArgument, prepareAisysPolicy } from './policies';
import { readParallelRuns } from './shared-options';

/** Runs `protoplay run aisys` with parsed options; resolves to the exit code. */
export async function runAisys(values: OptionValues, context: CommandContext): Promise<number> {
  const { io } = context;
  const options = new OptionReader(values);
  const env = options.string('env', 'nim');
  if (!findAisysEnvironment(env))
    throw usageError(
      `unknown environment '${env}'; one of ${AISYS_ENVIRONMENTS.map((e) => e.id).join(', ')}`,
    );
  const runs = options.integer('runs', 100, { min: 1 });
  const seed = options.integer('seed', 0);
  const budgetMs = options.integer('budget', 1000, { min: 1 });
  const parallelRuns = readParallelRuns(options);
  const transcriptPath = options.string('transcript');
  const json = options.flag('json');

  const policy = await prepareAisysPolicy(aisysPolicyArgument(options.string('policy'), env), {
    cwd: io.cwd,
    seed,
    budgetMs,
    env,
  });
  const reporter = new AisysRoundReporter({ io, json, totalRounds: runs, label: env });
  // Each run is listed in the JSON document; otherwise only counted.
  const played: { run: string; outcome: unknown; actions: number }[] = [];
  let finishedRuns = 0;
  const stream = transcriptPath ? new TranscriptFileStream(transcriptPath, 'aisys', io.cwd) : undefined;
  const session = new AisysSession({
    env,
    decide: yielding(policy.decide),
    runs,
    parallelRuns,
    seed,
    host: { faithfulBugs: !options.flag('no-faithful-bugs') },
    now: context.now,
    meta: { tool: 'protoplay run', policy: policy.name, budgetMs },
    // Streamed to the file as it happens, or not recorded at all: nothing grows with the runs.
    record: stream !== undefined,
    keepTranscript: false,
    ...(stream ? { transcriptSink: stream } : {}),
    onEvent: (event) => {
      if (event.kind !== 'run-finished') return;
      finishedRuns++;
      if (json) played.push({ run: event.run, outcome: event.outcome, actions: event.actions });
      const reward = typeof event.outcome === 'number' ? event.outcome : Number(event.outcome);
      // Several runs can finish in the last response: the limit is a minimum, as for client.py.
      const pastTotal = pastLimitWords(finishedRuns, runs);
      reporter.round({
        round: finishedRuns,
        reward,
        turns: event.actions,
        counted: true,
        ...(pastTotal ? { pastTotal } : {}),
      });
    },
  });
  for (const line of policy.loadLogs) session.recorder.annotate('policy-log', line);
  const stop = () => session.stop('interrupted');
  context.signal.addEventListener('abort', stop, { once: true });
  let outcome;
  try {
    outcome = await session.run();
  } finally {
    context.signal.removeEventListener('abort', stop);
    reporter.stop();
    policy.dispose();
    stream?.finish(session.transcript);
  }

  const written = stream?.path;
  const status =
    outcome.kind === 'finished' ? 'finished' : outcome.kind === 'stopped' ? 'interrupted' : outcome.kind;
  reporter.finish(
    {
      protocol: 'aisys',
      env,
      policy: policy.name,
      seed,
      parallelRuns,
      status,
      runLimit: runs,
      runs: played,
      ...(written ? { transcript: written } : {}),
    },
    undefined,
    extraRunsRows(finishedRuns, runs),
  );
  switch (outcome.kind) {
    case 'finished':
      return ExitCode.ok;
    case 'stopped':
      io.stderr.write('interrupted; the transcript keeps everything played so far\n');
      return ExitCode.interrupted;
    case 'policy-error':
      throw new CliError(ExitCode.policy, policy.fault ?? outcome.message, {
        located: policy.fault !== undefined,
      });
    default:
      throw new CliError(ExitCode.failure, `the session ended early: ${outcome.message}`);
  }
}

/**
 * Decisions that let the event loop in now and then: an in-process policy answers within microtasks, so
 * without a pause Ctrl-C and the progress bar would wait for the whole session.
 */
function yielding(decide: AisysDecide): AisysDecide {
  let batches = 0;
  return async (batch) => {
    if (++batches % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
    return decide(batch);
  };
}
