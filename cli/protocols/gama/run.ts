/**
 * `protoplay run gama`: plays episodes with both sides in memory (`playGamaEpisodes`, as the playground
 * does), prints each episode's rewards and social metrics, and writes the transcript when asked.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { playGamaEpisodes, writeGamaFrameLog } from '../../../src/core/protocols/gama';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import type { CommandContext, OptionValues } from '../../command-line/command-spec';
import { CliError, ExitCode } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { TranscriptFileStream } from '../../transcript-stream';
import { EpisodeReporter } from './episode-report';
import { prepareGamaPolicy } from './policies';
import { readSimulationOptions } from './simulation-options';

/** Runs `protoplay run gama` with parsed options; resolves to the exit code. */
export async function runGama(values: OptionValues, context: CommandContext): Promise<number> {
  const { io } = context;
  const options = new OptionReader(values);
  const simulation = readSimulationOptions(options);
  const episodes = options.integer('episodes', 1, { min: 1 });
  const transcriptPath = options.string('transcript');
  const frameLogPath = options.string('frame-log');
  const json = options.flag('json');
  const policy = await prepareGamaPolicy(options.string('policy', 'greedy'), {
    cwd: io.cwd,
    seed: simulation.seed ?? 0,
    budgetMs: options.integer('budget', 1000, { min: 1 }),
    onPolicyError: options.choice('on-policy-error', ['stop', 'idle'] as const, 'stop'),
  });
  // The transcript goes to its file as it happens; a frame log is written from the whole transcript, which
  // is then kept in memory.
  const stream = transcriptPath ? new TranscriptFileStream(transcriptPath, 'gama', io.cwd) : undefined;
  const recorder =
    transcriptPath || frameLogPath
      ? new TranscriptRecorder({
          protocol: 'gama',
          now: context.now,
          ...(stream ? { sink: stream } : {}),
          keep: frameLogPath !== undefined,
          meta: {
            tool: 'protoplay run',
            scenario: simulation.scenario.name,
            policy: policy.name,
            seed: simulation.seed ?? 0,
          },
        })
      : undefined;
  for (const line of policy.loadLogs) recorder?.annotate('policy-log', line);
  const reporter = new EpisodeReporter(io, json);
  try {
    await playGamaEpisodes({
      simulation,
      decide: policy.decide,
      episodes,
      ...(recorder ? { recorder } : {}),
      recordWorld: options.flag('record-world'),
      signal: context.signal,
      onEpisodeEnd: (result) => reporter.episode(result),
    });
  } finally {
    policy.dispose();
    if (stream && recorder) stream.finish(recorder.transcript);
  }
  const written = stream?.path;
  if (frameLogPath && recorder)
    await writeFile(resolve(io.cwd, frameLogPath), writeGamaFrameLog(recorder.transcript));
  reporter.finish({
    protocol: 'gama',
    scenario: simulation.scenario.name,
    policy: policy.name,
    seed: simulation.seed ?? 0,
    ...(written ? { transcript: written } : {}),
  });
  if (context.signal.aborted) {
    io.stderr.write('interrupted; the transcript keeps everything played so far\n');
    return ExitCode.interrupted;
  }
  if (policy.fault) throw new CliError(ExitCode.policy, policy.fault, { located: true });
  return ExitCode.ok;
}
