/**
 * `protoplay connect <protocol>` for a protocol played through its endpoints: its client, driven by the
 * policy in a supervised thread, over the command line's client of the protocol's transport (TCP,
 * WebSocket or HTTP, `transports.ts`); the session recorded,
 * checked by the protocol's machines, its rewards printed and the transcript written when asked.
 */
import { driveClient } from '../../src/core/session/client-driver';
import { recordingEndpoint } from '../../src/core/session/recording-endpoint';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import type { CommandContext, OptionValues } from '../command-line/command-spec';
import { CliError, ExitCode } from '../command-line/exit-codes';
import { OptionReader } from '../command-line/option-values';
import { RECORDED_HEADERS } from '../net/http-server';
import { writeTranscriptFile } from '../transcript-file';
import type { PlayableProtocol } from './play-commands';
import { protocolOptions } from './setup';
import { loadPlayPolicy } from './play-policy';
import { meanLine, reportSession } from './play-report';
import { checkPlayTransport, dialPlay } from './transports';

/** Runs the command; resolves to its exit code once the session ended. */
export async function connectPlay(
  protocol: PlayableProtocol,
  values: OptionValues,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const transport = protocol.transport;
  checkPlayTransport(protocol, 'connect');
  const options = new OptionReader(values);
  const host = options.string('host', '127.0.0.1');
  const port = options.integer('port', transport.defaultPort, { min: 1, max: 65535 });
  const seed = options.integer('seed', 0);
  const transcriptPath = options.string('transcript');
  const policy = await loadPlayPolicy(protocol, options, context, seed);
  const recorder = new TranscriptRecorder({
    protocol: protocol.id,
    meta: { server: `${host}:${port}`, seed, policy: policy.source.fileName },
    now: context.now,
  });
  const client = recordingEndpoint(
    driveClient(
      protocol.endpoints.client({ seed, ...protocolOptions(protocol, options, ['client']) }),
      (request) => policy.decide(request, recorder),
    ),
    { protocol, side: 'client', recorderFor: () => recorder, recordedHeaders: RECORDED_HEADERS },
  );
  let failure: string | undefined;
  try {
    ({ failure } = await dialPlay(protocol, client, {
      host,
      port,
      connection: 'agent-1',
      signal: context.signal,
    }));
  } finally {
    policy.supervisor.dispose();
  }
  const report = reportSession(protocol, recorder.transcript, io.stdout);
  io.stdout.write(`${meanLine(report.rewards)}\n`);
  if (transcriptPath) await writeTranscriptFile(transcriptPath, recorder.transcript, io.cwd);
  if (context.signal.aborted) return ExitCode.interrupted;
  if (failure) throw new CliError(ExitCode.connection, failure);
  if (policy.fault) throw new CliError(ExitCode.policy, policy.fault, { located: true });
  if (report.violations.length > 0)
    throw new CliError(ExitCode.failure, `the session broke ${report.violations.length} protocol rule(s)`);
  return ExitCode.ok;
}
