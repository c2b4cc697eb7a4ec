/**
 * `protoplay run gama`: plays episodes with both sides in memory (`playGamaEpisodes`, as the playground
 * does), prints each episode's rewards and social metrics, and writes the transcript when asked. A sample
 * plays in this process; a policy file plays in its worker thread, the episodes beside it, a chunk of
 * cycles per round trip (`chunked-run.ts`): the same transcript, without a round trip per request.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { PolicySupervisor } from '../../../src/core/policy/supervisor';
import type { PolicyLogLine } from '../../../src/core/policy/types';
import {
  playGamaEpisodes,
  writeGamaFrameLog,
  type GamaEpisodeResult,
} from '../../../src/core/protocols/gama';
import {
  GAMA_CHUNK_MS,
  GAMA_CHUNK_SLACK_MS,
  GAMA_FREE_CYCLES,
  GAMA_PLAY_CONTINUE,
  GAMA_RUN_START,
} from '../../../src/core/protocols/gama/chunked-play';
import {
  describeGamaPolicyFault,
  type GamaRunNews,
  type GamaRunPlan,
} from '../../../src/core/protocols/gama/chunked-run';
import { gamaProtocol } from '../../../src/core/protocols/gama/protocol';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import type { CommandContext, OptionValues } from '../../command-line/command-spec';
import { CliError, ExitCode } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { TranscriptFileStream } from '../../transcript-stream';
import { loadPolicyFile } from '../../policy/policy-file';
import { EpisodeReporter } from './episode-report';
import { GAMA_POLICY_NAMES, prepareGamaPolicy } from './policies';
import { readSimulationOptions } from './simulation-options';

/** What plays the episodes: returns the first policy fault, if any. */
type Play = (run: {
  recorder: TranscriptRecorder | undefined;
  onEpisodeEnd(result: GamaEpisodeResult): void;
}) => Promise<string | undefined>;

/** Runs `protoplay run gama` with parsed options; resolves to the exit code. */
export async function runGama(values: OptionValues, context: CommandContext): Promise<number> {
  const { io } = context;
  const options = new OptionReader(values);
  const simulation = readSimulationOptions(options);
  const episodes = options.integer('episodes', 1, { min: 1 });
  const transcriptPath = options.string('transcript');
  const frameLogPath = options.string('frame-log');
  const json = options.flag('json');
  const recordWorld = options.flag('record-world');
  const policyArgument = options.string('policy', 'greedy');
  const budgetMs = options.integer('budget', 1000, { min: 1 });
  const onPolicyError = options.choice('on-policy-error', ['stop', 'idle'] as const, 'stop');
  const seed = simulation.seed ?? 0;

  let name: string;
  let loadLogs: PolicyLogLine[];
  let dispose: () => void;
  let play: Play;
  if (GAMA_POLICY_NAMES.includes(policyArgument)) {
    const policy = await prepareGamaPolicy(policyArgument, { cwd: io.cwd, seed, budgetMs, onPolicyError });
    ({ name, loadLogs } = policy);
    dispose = () => policy.dispose();
    play = async ({ recorder, onEpisodeEnd }) => {
      await playGamaEpisodes({
        simulation,
        decide: policy.decide,
        episodes,
        ...(recorder ? { recorder } : {}),
        recordWorld,
        signal: context.signal,
        onEpisodeEnd,
      });
      return policy.fault;
    };
  } else {
    // A chunk lasts at most its own time and one call: its deadline is one call's.
    const loaded = await loadPolicyFile(policyArgument, {
      cwd: io.cwd,
      seed,
      protocol: gamaProtocol,
      budgetMs: budgetMs + GAMA_CHUNK_SLACK_MS,
    });
    name = loaded.source.fileName;
    loadLogs = loaded.logs;
    dispose = () => loaded.supervisor.dispose();
    play = ({ recorder, onEpisodeEnd }) =>
      playInThread(loaded.supervisor, {
        plan: {
          simulation,
          episodes,
          record: recorder !== undefined,
          recordWorld,
          budgetMs,
          onPolicyError,
          fileName: name,
        },
        recorder,
        signal: context.signal,
        onEpisodeEnd,
      });
  }

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
          meta: { tool: 'protoplay run', scenario: simulation.scenario.name, policy: name, seed },
        })
      : undefined;
  for (const line of loadLogs) recorder?.annotate('policy-log', line);
  const reporter = new EpisodeReporter(io, json);
  let fault: string | undefined;
  try {
    fault = await play({ recorder, onEpisodeEnd: (result) => reporter.episode(result) });
  } finally {
    dispose();
    if (stream && recorder) stream.finish(recorder.transcript);
  }
  const written = stream?.path;
  if (frameLogPath && recorder)
    await writeFile(resolve(io.cwd, frameLogPath), writeGamaFrameLog(recorder.transcript));
  reporter.finish({
    protocol: 'gama',
    scenario: simulation.scenario.name,
    policy: name,
    seed,
    ...(written ? { transcript: written } : {}),
  });
  if (context.signal.aborted) {
    io.stderr.write('interrupted; the transcript keeps everything played so far\n');
    return ExitCode.interrupted;
  }
  if (fault) throw new CliError(ExitCode.policy, fault, { located: true });
  return ExitCode.ok;
}

/**
 * Plays the episodes inside the policy thread, a chunk at a time, appending what each chunk recorded to
 * the transcript. A chunk that does not come back in time (a policy stuck in a call) kills the thread:
 * the fault is reported, and the frames of that chunk are lost with it.
 */
export async function playInThread(
  supervisor: PolicySupervisor,
  run: {
    plan: GamaRunPlan;
    recorder: TranscriptRecorder | undefined;
    signal: { readonly aborted: boolean };
    onEpisodeEnd(result: GamaEpisodeResult): void;
  },
): Promise<string | undefined> {
  const { plan, recorder } = run;
  let site = { round: 1, turn: 0 };
  const started = await supervisor.call(GAMA_RUN_START, [plan], {}, site);
  if (!started.ok) return describeGamaPolicyFault(started.fault, plan.fileName);
  let fault: string | undefined;
  for (;;) {
    const limit = { cycles: GAMA_FREE_CYCLES, ms: GAMA_CHUNK_MS, interrupted: run.signal.aborted };
    const outcome = await supervisor.call(GAMA_PLAY_CONTINUE, [limit], {}, site);
    if (!outcome.ok) {
      const stuck =
        outcome.fault.kind === 'timeout'
          ? `${plan.fileName}: policy exceeded ${plan.budgetMs} ms on episode ${site.round}; the thread was stopped, and what it played since the last report is lost`
          : describeGamaPolicyFault(outcome.fault, plan.fileName);
      return fault ?? stuck;
    }
    const news = outcome.value as GamaRunNews;
    recorder?.adopt(news, news.startedAt - recorder.transcript.startedAt);
    for (const { episode, result } of news.results) {
      run.onEpisodeEnd(result);
      site = { round: episode + 1, turn: 0 };
    }
    fault ??= news.fault;
    if (news.end === 'done') return fault;
  }
}
