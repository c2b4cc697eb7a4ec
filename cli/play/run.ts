/**
 * `protoplay run <protocol>` for a protocol played through its endpoints: its emulated server and its
 * client in memory (no socket), the policy in a supervised thread, the rewards printed per round, the
 * transcript checked by the protocol's machines and written when asked.
 */
import type { CommandContext, OptionValues } from '../command-line/command-spec';
import { CliError, ExitCode } from '../command-line/exit-codes';
import { OptionReader } from '../command-line/option-values';
import { driveClient } from '../../src/core/session/client-driver';
import { playInMemory } from '../../src/core/session/in-memory-play';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import { writeTranscriptFile } from '../transcript-file';
import type { PlayableProtocol } from './play-commands';
import { loadPlayPolicy } from './play-policy';
import { meanLine, reportSession } from './play-report';
import { readPlaySetup, setupMeta } from './setup';

/** Runs the command; resolves to its exit code. */
export async function runPlay(
  protocol: PlayableProtocol,
  values: OptionValues,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const options = new OptionReader(values);
  const setup = readPlaySetup(protocol, options);
  const transcriptPath = options.string('transcript');
  const policy = await loadPlayPolicy(protocol, options, context, setup.seed);
  const recorder = new TranscriptRecorder({
    protocol: protocol.id,
    meta: { ...setupMeta(setup), policy: policy.source.fileName },
    now: context.now,
  });
  try {
    const play = playInMemory({
      protocol,
      host: protocol.endpoints.host(setup),
      client: driveClient(protocol.endpoints.client(setup), (request) => policy.decide(request, recorder)),
      recorder,
    });
    const stop = () => play.stop('interrupted');
    context.signal.addEventListener('abort', stop, { once: true });
    await play.done;
    context.signal.removeEventListener('abort', stop);
  } finally {
    policy.supervisor.dispose();
  }
  const report = reportSession(protocol, recorder.transcript, io.stdout);
  io.stdout.write(`${meanLine(report.rewards)}\n`);
  if (transcriptPath) await writeTranscriptFile(transcriptPath, recorder.transcript, io.cwd);
  if (context.signal.aborted) return ExitCode.interrupted;
  if (policy.fault) throw new CliError(ExitCode.policy, policy.fault, { located: true });
  if (report.violations.length > 0)
    throw new CliError(ExitCode.failure, `the session broke ${report.violations.length} protocol rule(s)`);
  return ExitCode.ok;
}
