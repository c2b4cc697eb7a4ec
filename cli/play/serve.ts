/**
 * `protoplay serve <protocol>` for a protocol played through its endpoints: the command line's server of
 * the protocol's transport (TCP, WebSocket or HTTP, `transports.ts`) carrying a fresh emulated host per connection (session k plays with seed + k - 1), each
 * session recorded, checked by the protocol's machines when it ends, and written to `--record DIR`.
 */
import { join, resolve } from 'node:path';
import type { SansIoEndpoint, WireData } from '../../src/core/protocols/contract';
import { recordingEndpoint } from '../../src/core/session/recording-endpoint';
import { TranscriptRecorder } from '../../src/core/transcript/recorder';
import type { CommandContext, OptionValues } from '../command-line/command-spec';
import { ExitCode } from '../command-line/exit-codes';
import { OptionReader } from '../command-line/option-values';
import { RECORDED_HEADERS } from '../net/http-server';
import { readTcpLimits } from '../net/tcp-limit-options';
import { timeOfDay } from '../report/time-of-day';
import { writeTranscriptFile } from '../transcript-file';
import type { PlayableProtocol } from './play-commands';
import { reportSession } from './play-report';
import { readPlaySetup, setupMeta } from './setup';
import { checkPlayTransport, listenPlay, serveUntilStopped } from './transports';

/** Runs the command; resolves to its exit code once the server stopped. */
export async function servePlay(
  protocol: PlayableProtocol,
  values: OptionValues,
  context: CommandContext,
): Promise<number> {
  const { io } = context;
  const transport = protocol.transport;
  checkPlayTransport(protocol, 'serve');
  const options = new OptionReader(values);
  const host = options.string('host', '127.0.0.1');
  const port = options.integer('port', transport.defaultPort, { min: 0, max: 65535 });
  const setup = readPlaySetup(protocol, options, ['host']);
  const sessionLimit = options.integer('sessions', 0, { min: 0 });
  const record = options.string('record');
  const limits = readTcpLimits(options);
  const log = (line: string) => io.stdout.write(`${timeOfDay(context.now())} ${line}\n`);

  let sessions = 0;
  let ended = 0;
  const writes: Promise<unknown>[] = [];
  let allDone: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (allDone = resolve));
  const recorders = new Map<string, { session: number; recorder: TranscriptRecorder }>();
  const endpoint: SansIoEndpoint<WireData, WireData> = {
    connect(sink, connection) {
      const session = ++sessions;
      const sessionSetup = { ...setup, seed: setup.seed + session - 1 };
      log(`session ${session} from ${connection.remote ?? 'a client'} (${setup.environment})`);
      return recordingEndpoint(protocol.endpoints.host(sessionSetup), {
        protocol,
        side: 'host',
        recordedHeaders: RECORDED_HEADERS,
        recorderFor: () => {
          const recorder = new TranscriptRecorder({
            protocol: protocol.id,
            meta: { ...setupMeta(sessionSetup), session },
            now: context.now,
          });
          recorders.set(connection.id, { session, recorder });
          return recorder;
        },
        onEnd: (_, reason) => {
          const kept = recorders.get(connection.id);
          recorders.delete(connection.id);
          if (!kept) return;
          log(`session ${session} ended${reason ? `: ${reason}` : ''}`);
          reportSession(protocol, kept.recorder.transcript, io.stdout, `session ${session}: `);
          if (record) {
            const path = join(resolve(io.cwd, record), `${protocol.id}-session-${session}.json`);
            writes.push(
              writeTranscriptFile(path, kept.recorder.transcript, io.cwd).catch((error) =>
                log(String(error)),
              ),
            );
          }
          ended++;
          if (sessionLimit > 0 && ended >= sessionLimit) allDone();
        },
      }).connect(sink, connection);
    },
  };

  const server = await listenPlay(protocol, endpoint, { host, port, limits, log });
  io.stdout.write(
    `${protocol.id} server listening on ${host}:${server.port}${transport.kind === 'tcp' ? '' : ` (${transport.kind})`} (${setup.environment}, ${setup.rounds} rounds, seed ${setup.seed}${record ? `, recording to ${record}` : ''})\n`,
  );
  await serveUntilStopped(server, context.signal, { reached: finished, reason: 'session limit reached' });
  await Promise.all(writes);
  log(`stopped after ${ended} session(s)`);
  return ExitCode.ok;
}
