/**
 * `protoplay connect <protocol>` for a protocol played through its endpoints: its client, driven by the
 * policy in a supervised thread, over the one TCP client of the command line; the session recorded,
 * checked by the protocol's machines, its rewards printed and the transcript written when asked.
 */
import type { WirePeer } from '../../src/core/protocols/contract';
import { driveClient } from '../../src/core/session/client-driver';
import { recordingEndpoint } from '../../src/core/session/recording-endpoint';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import type { CommandContext, OptionValues } from '../command-line/command-spec';
import { CliError, ExitCode, usageError } from '../command-line/exit-codes';
import { OptionReader } from '../command-line/option-values';
import { TcpClient } from '../net/tcp-client';
import { writeTranscriptFile } from '../transcript-file';
import type { PlayableProtocol } from './play-commands';
import { loadPlayPolicy } from './play-policy';
import { meanLine, reportSession } from './play-report';

/** Runs the command; resolves to its exit code once the session ended. */
export async function connectPlay(
  protocol: PlayableProtocol,
  values: OptionValues,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const transport = protocol.transport;
  if (transport.kind !== 'tcp')
    throw usageError(`protoplay connect plays ${transport.kind} protocols only with commands of their own`);
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
    driveClient(protocol.endpoints.client({ seed }), (request) => policy.decide(request, recorder)),
    { protocol, side: 'client', recorderFor: () => recorder },
  );
  let failure: string | undefined;
  try {
    await new Promise<void>((done) => {
      let peer: WirePeer<Uint8Array> | undefined;
      let ended = false;
      const end = (reason?: string) => {
        if (ended || !peer) return;
        ended = true;
        peer.end(reason);
      };
      const socket: TcpClient = new TcpClient(
        {
          host,
          port,
          ...(transport.framing.terminator !== undefined
            ? { frameTerminator: transport.framing.terminator }
            : {}),
        },
        {
          onConnect: () => {
            peer = client.connect(
              { send: (bytes) => socket.send(bytes as Uint8Array), close: () => socket.end() },
              { id: 'agent-1', remote: `${host}:${port}` },
            );
          },
          onData: (chunk) => peer?.receive(chunk),
          onEnd: () => end(),
          onFrameTooLong: () => {
            failure = 'the server sent a message longer than the limit; connection dropped';
            socket.destroy();
          },
          onError: (error) => {
            failure ??= error.connecting
              ? `cannot connect to ${host}:${port}: ${error.description}`
              : `the connection failed: ${error.description}`;
          },
          onClose: () => {
            end(failure);
            done();
          },
        },
      );
      const stop = () => socket.destroy();
      if (context.signal.aborted) stop();
      context.signal.addEventListener('abort', stop, { once: true });
    });
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
