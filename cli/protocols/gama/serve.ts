/**
 * `protoplay serve gama`: the API side on the command line's WebSocket server (`listenPlay`); logs
 * connections and notes, stops on Ctrl-C (or after `--connections N`) and writes the transcript.
 */
import { GamaApi } from '../../../src/core/protocols/gama';
import { gamaProtocol } from '../../../src/core/protocols/gama/protocol';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import type { CommandContext, OptionValues } from '../../command-line/command-spec';
import { CliError, ExitCode } from '../../command-line/exit-codes';
import { OptionReader } from '../../command-line/option-values';
import { readTcpLimits } from '../../net/tcp-limit-options';
import { listenPlay, serveUntilStopped, type PlayServer } from '../../play/transports';
import { writeTranscriptFile } from '../../transcript-file';
import { prepareGamaPolicy } from './policies';

/** Notes of one connection written to the log; the transcript keeps them all. */
const NOTES_LOGGED_PER_CONNECTION = 10;

/** Runs `protoplay serve gama` with parsed options; resolves to the exit code once the server stopped. */
export async function serveGama(values: OptionValues, context: CommandContext): Promise<number> {
  const { io } = context;
  const options = new OptionReader(values);
  const host = options.string('host', '127.0.0.1');
  const port = options.integer('port', 3001, { min: 0, max: 65535 });
  const maxFrameBytes = options.integer('max-frame-bytes', 1024 * 1024, { min: 64 });
  const connectionLimit = options.integer('connections', 0, { min: 0 });
  const limits = readTcpLimits(options);
  const transcriptPath = options.string('transcript');
  const quiet = options.flag('quiet');
  const log = (line: string) => {
    if (!quiet) io.stdout.write(`${new Date(context.now()).toISOString().slice(11, 19)} ${line}\n`);
  };
  const recorder = new TranscriptRecorder({
    protocol: 'gama',
    now: context.now,
    meta: { tool: 'protoplay serve' },
  });
  const policy = await prepareGamaPolicy(options.string('policy', 'greedy'), {
    cwd: io.cwd,
    seed: options.integer('seed', 0),
    budgetMs: options.integer('budget', 1000, { min: 1 }),
    onPolicyError: options.choice('on-policy-error', ['stop', 'idle'] as const, 'stop'),
    onLog: (line, scavenger) => recorder.annotate('policy-log', { ...line, channel: scavenger }),
  });
  recorder.transcript.meta.policy = policy.name;
  const notesLogged = new Map<string, number>();
  const api = new GamaApi({
    decide: policy.decide,
    onNote: (note, connection) => {
      recorder.annotate(note.kind, { text: note.text, ...(note.channel ? { channel: note.channel } : {}) });
      // A client that breaks a rule on every frame gets a few lines, not one per frame.
      const count = (notesLogged.get(connection) ?? 0) + 1;
      notesLogged.set(connection, count);
      if (count <= NOTES_LOGGED_PER_CONNECTION)
        log(`${connection}: ${note.channel ? `${note.channel}: ` : ''}${note.text}`);
      if (count === NOTES_LOGGED_PER_CONNECTION)
        log(`${connection}: further notes of this connection are in the transcript only`);
    },
  });
  let finishedAll: () => void = () => undefined;
  const allDone = new Promise<void>((done) => (finishedAll = done));
  let server: PlayServer;
  try {
    server = await listenPlay(gamaProtocol, api, {
      host,
      port,
      limits,
      maxFrameBytes,
      recorder,
      log,
      onOpen: (connection, remote) => log(`${connection}: GAMA connected from ${remote}`),
      onClose: (connection, reason) => {
        log(`${connection}: closed (${reason})`);
        if (connectionLimit > 0 && server.activity().closed >= connectionLimit) finishedAll();
      },
    });
  } catch (error) {
    policy.dispose();
    throw error;
  }
  io.stdout.write(`gama API server listening on ${server.address} (policy ${policy.name})\n`);
  await serveUntilStopped(server, context.signal, {
    reached: allDone,
    reason: 'connection limit reached',
  });
  policy.dispose();
  if (transcriptPath) {
    const written = await writeTranscriptFile(transcriptPath, recorder.transcript, io.cwd);
    log(`transcript written to ${written}`);
  }
  log(`stopped after ${server.activity().opened} connection(s)`);
  if (policy.fault) throw new CliError(ExitCode.policy, policy.fault, { located: true });
  return ExitCode.ok;
}
