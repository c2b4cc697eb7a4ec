/**
 * `protoplay connect gama`: plays the GAMA side (`GamaSimulation`) over the command line's WebSocket
 * client (`dialPlay`), one connection per episode, printing each episode's rewards and social metrics.
 */
import { GamaSimulation, type GamaEpisodeResult } from '../../../src/core/protocols/gama';
import { gamaProtocol } from '../../../src/core/protocols/gama/protocol';
import type { SansIoEndpoint } from '../../../src/core/protocols/contract';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import type { CommandContext, OptionValues } from '../../command-line/command-spec';
import { CliError, ExitCode, usageError } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { dialPlay } from '../../play/transports';
import { writeTranscriptFile } from '../../transcript-file';
import { EpisodeReporter } from './episode-report';
import { readSimulationOptions } from './simulation-options';

/** Runs `protoplay connect gama` with parsed options; resolves to the exit code. */
export async function connectGama(values: OptionValues, context: CommandContext): Promise<number> {
  const { io } = context;
  const options = new OptionReader(values);
  const url = options.string('url', 'ws://127.0.0.1:3001');
  if (!/^wss?:\/\//.test(url)) throw usageError(`--url must start with ws:// or wss://, got '${url}'`);
  const simulationOptions = readSimulationOptions(options);
  const episodes = options.integer('episodes', 1, { min: 1 });
  const timeoutSeconds = options.number('timeout', 30, { min: 0 });
  const maxFrameBytes = options.integer('max-frame-bytes', 1024 * 1024, { min: 64 });
  const transcriptPath = options.string('transcript');
  const recorder = new TranscriptRecorder({
    protocol: 'gama',
    now: context.now,
    meta: {
      tool: 'protoplay connect',
      url,
      scenario: simulationOptions.scenario.name,
      seed: simulationOptions.seed ?? 0,
    },
  });
  const reporter = new EpisodeReporter(io, options.flag('json'));
  let ended: GamaEpisodeResult | undefined;
  const simulation = new GamaSimulation({
    ...simulationOptions,
    onNote: (note) =>
      recorder.annotate(note.kind, { text: note.text, ...(note.channel ? { channel: note.channel } : {}) }),
    onEpisodeEnd: (result) => (ended = result),
  });
  let failure: CliError | undefined;
  for (let episode = 1; episode <= episodes && !context.signal.aborted && !failure; episode++) {
    ended = undefined;
    const silence = new AbortController();
    const endpoint = withSilenceLimit(simulation, timeoutSeconds * 1000, silence);
    const end = await dialPlay(gamaProtocol, endpoint, {
      url,
      connection: `episode ${episode}`,
      maxFrameBytes,
      recorder,
      signal: AbortSignal.any([context.signal, silence.signal]),
    });
    if (silence.signal.aborted)
      failure = new CliError(
        ExitCode.connection,
        `no reply from ${url} within ${timeoutSeconds} s (episode ${episode})`,
      );
    else if (end.unreachable) failure = new CliError(ExitCode.connection, end.reason);
    else if (end.closedBy !== 'client' && !context.signal.aborted)
      failure = new CliError(
        ExitCode.connection,
        `the API server closed the connection during episode ${episode}: ${end.reason}`,
      );
    if (ended) reporter.episode(ended);
  }
  const written = transcriptPath
    ? await writeTranscriptFile(transcriptPath, recorder.transcript, io.cwd)
    : undefined;
  reporter.finish({
    protocol: 'gama',
    url,
    scenario: simulationOptions.scenario.name,
    seed: simulationOptions.seed ?? 0,
    ...(written ? { transcript: written } : {}),
  });
  if (context.signal.aborted) {
    io.stderr.write('interrupted; the transcript keeps everything played so far\n');
    return ExitCode.interrupted;
  }
  if (failure) throw failure;
  return ExitCode.ok;
}

/**
 * The endpoint, watched: when `limitMs` pass after a request without the simulation sending anything
 * more (no reply it could use came), `silence` is aborted (GAMA itself would wait for ever).
 */
function withSilenceLimit(
  endpoint: SansIoEndpoint<string, string>,
  limitMs: number,
  silence: AbortController,
): SansIoEndpoint<string, string> {
  if (limitMs <= 0) return endpoint;
  return {
    connect(sink, connection) {
      let timer: NodeJS.Timeout | undefined;
      const rearm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => silence.abort(), limitMs);
      };
      const peer = endpoint.connect(
        {
          send: (text) => {
            sink.send(text);
            rearm();
          },
          close: (reason) => {
            clearTimeout(timer);
            sink.close(reason);
          },
        },
        connection,
      );
      // Replies that do not move the episode on (addressed to another scavenger...) leave the timer running.
      return {
        receive: (text) => peer.receive(text),
        end: (reason) => {
          clearTimeout(timer);
          peer.end(reason);
        },
      };
    },
  };
}
