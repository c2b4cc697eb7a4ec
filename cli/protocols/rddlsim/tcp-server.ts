/**
 * The TCP side of `protoplay serve rddlsim`: one emulated rddlsim server process (`RddlsimHost`: session
 * ids, seeds, the no-header flag) behind a listening socket, each connection served concurrently by its
 * own `ServedSession`. Unlike rddlsim's server it binds 127.0.0.1 unless told otherwise, serves many
 * clients at once, and never exits because of one client: where the real server would, that session
 * closes and a note says so.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RddlsimHost, type HostedInstance } from '../../../src/core/protocols/rddlsim/host';
import { describeError } from '../../../src/core/errors';
import { serialiseTranscript } from '../../../src/core/transcript/json-format';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import type { RddlLibrary } from './rddl-library';
import { ServedSession, type SessionEnd } from './served-session';
import { boundAddress, listen } from '../../net/tcp-listen';

/** Options of a server. */
export interface RddlsimTcpServerOptions {
  library: RddlLibrary;
  /** Address to bind (127.0.0.1 unless the user says otherwise). */
  host: string;
  /** Port; 0 picks a free one. */
  port: number;
  rounds: number;
  seed: number;
  /** Session time limit in seconds; 0 = reported but not enforced. */
  timeLimitSeconds: number;
  monitorExecution: boolean;
  /** Whether `<no-header/>` affects only the client that asked, or every client (as rddlsim does). */
  noHeaderScope: 'connection' | 'process';
  /** Longest client message read; longer ones are cut as the real server cuts them. */
  maxMessageBytes: number;
  /** `rddlsim`: its random number generator and evaluation quirks, so trajectories match a real server's. */
  semantics: 'rddlsim' | 'protoplay';
  /** Folder for one transcript per session; none when absent. */
  recordDir?: string;
  log(line: string): void;
  /** Called when a session's socket has closed (after its transcript was written). */
  onSessionEnd?(end: SessionEnd): void;
  now?: () => number;
}

/** A listening server. */
export class RddlsimTcpServer {
  readonly #options: RddlsimTcpServerOptions;
  readonly #server: Server;
  readonly #host: RddlsimHost;
  readonly #sessions = new Set<ServedSession>();
  readonly #pendingWrites = new Set<Promise<void>>();
  readonly #stamp: string;
  #ended = 0;

  private constructor(options: RddlsimTcpServerOptions) {
    this.#options = options;
    const now = options.now ?? Date.now;
    this.#stamp = fileStamp(new Date(now()));
    this.#host = new RddlsimHost({
      resolveInstance: (name) => this.#resolve(name),
      rounds: options.rounds,
      seed: options.seed,
      timeLimitSeconds: options.timeLimitSeconds,
      monitorExecution: options.monitorExecution,
      noHeaderScope: options.noHeaderScope,
      maxMessageBytes: options.maxMessageBytes,
      rddlsimQuirks: options.semantics === 'rddlsim',
      generator: options.semantics,
      now,
    });
    this.#server = createServer({ noDelay: true }, (socket) => this.#accept(socket));
  }

  /** Starts listening; rejects with the socket error (address in use...) when it cannot. */
  static async start(options: RddlsimTcpServerOptions): Promise<RddlsimTcpServer> {
    const server = new RddlsimTcpServer(options);
    if (options.recordDir) await mkdir(options.recordDir, { recursive: true });
    await listen(server.#server, options.port, options.host, options.log);
    return server;
  }

  /** The bound address and port. */
  get address(): { host: string; port: number } {
    return boundAddress(this.#server, this.#options);
  }

  /** Sessions whose sockets are still open. */
  get activeSessions(): number {
    return this.#sessions.size;
  }

  /** Sessions that have ended (completed or not). */
  get endedSessions(): number {
    return this.#ended;
  }

  /** Stops listening, closes every open session and waits until their transcripts are written. */
  async close(reason = 'server stopped'): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const session of this.#sessions) session.abort(reason);
    await closed;
    await Promise.all(this.#pendingWrites);
  }

  #resolve(name: string): HostedInstance | undefined {
    const { library, log } = this.#options;
    if (!library.has(name)) return undefined;
    try {
      return library.load(name);
    } catch (error) {
      log(`cannot load ${name}: ${describeError(error)}`);
      return undefined;
    }
  }

  #accept(socket: Socket): void {
    const connection = this.#host.accept();
    const options = this.#options;
    const id = connection.sessionId;
    const connectionId = `session-${id}`;
    const remote = `${socket.remoteAddress}:${socket.remotePort}`;
    let recorder: TranscriptRecorder | undefined;
    if (options.recordDir) {
      recorder = new TranscriptRecorder({
        protocol: 'rddlsim',
        now: options.now,
        meta: {
          source: 'protoplay serve',
          sessionId: id,
          seed: options.seed + id - 1,
          rounds: options.rounds,
          client: remote,
          semantics: options.semantics,
        },
      });
      recorder.transcript.connections.push({ id: connectionId, label: `session ${id} (${remote})` });
    }
    options.log(`session ${id}: connection from ${remote}`);
    const session = new ServedSession({
      socket,
      connection,
      recorder,
      connectionId,
      log: options.log,
      onEnd: (end) => {
        this.#sessions.delete(session);
        const written = this.#save(end).finally(() => {
          this.#pendingWrites.delete(written);
          this.#ended++;
          options.onSessionEnd?.(end);
        });
        this.#pendingWrites.add(written);
      },
    });
    this.#sessions.add(session);
  }

  async #save(end: SessionEnd): Promise<void> {
    const { recordDir, log } = this.#options;
    if (!recordDir || !end.transcript) return;
    const instance = (end.instance ?? 'no-instance').replace(/[^A-Za-z0-9_.-]/g, '_');
    const name = `${this.#stamp}-session-${String(end.sessionId).padStart(3, '0')}-${instance}.json`;
    try {
      await writeFile(join(recordDir, name), serialiseTranscript(end.transcript));
    } catch (error) {
      log(`session ${end.sessionId}: cannot write its transcript: ${describeError(error)}`);
    }
  }
}

/** `20261121-220412`: sorts by time and is safe in file names. */
function fileStamp(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
}
