/**
 * The server of `protoplay serve rddlsim`: one emulated rddlsim server process (`RddlsimHost`: session ids,
 * seeds, the no-header flag) behind the command line's TCP server (`listenPlay`), each connection served concurrently.
 * Unlike rddlsim's server it binds 127.0.0.1 unless told otherwise, serves many clients at once, and never
 * exits because of one client: where the real server would, that session closes and a note says so. When
 * recording, each session's transcript is written when its connection has ended.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeError, formatLocated } from '../../../src/core/errors';
import { RddlsimHost, type HostedInstance } from '../../../src/core/protocols/rddlsim/host';
import {
  RddlsimHostEndpoint,
  type RddlsimSessionEnd,
} from '../../../src/core/protocols/rddlsim/host-endpoint';
import { serialiseTranscript } from '../../../src/core/transcript/json-format';
import { rddlsimProtocol } from '../../../src/core/protocols/rddlsim/protocol';
import { CliError, ExitCode } from '../../command-line/exit-codes';
import { DEFAULT_TCP_SERVER_LIMITS, type TcpServerLimits } from '../../net/tcp-server';
import { listenPlay, type PlayServer } from '../../play/transports';
import { formatReward } from '../../report/round-report';
import type { RddlLibrary } from './rddl-library';

/** Options of a server. */
export interface RddlsimServerOptions {
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
  /** Limits of the TCP server beyond the defaults (the frame cap is never below `maxMessageBytes`). */
  limits?: Partial<TcpServerLimits>;
  /** Folder for one transcript per session; none when absent. */
  recordDir?: string;
  log(line: string): void;
  /** Called when a session's connection has ended (after its transcript was written). */
  onSessionEnd?(end: RddlsimSessionEnd): void;
  now?: () => number;
}

/** A listening rddlsim server. */
export class RddlsimServer {
  readonly #options: RddlsimServerOptions;
  readonly #endpoint: RddlsimHostEndpoint;
  readonly #pendingWrites = new Set<Promise<void>>();
  /** Instances whose load warnings were logged (once each). */
  readonly #warned = new Set<string>();
  readonly #stamp: string;
  #tcp: PlayServer | undefined;
  #ended = 0;

  private constructor(options: RddlsimServerOptions) {
    this.#options = options;
    const now = options.now ?? Date.now;
    this.#stamp = fileStamp(new Date(now()));
    const host = new RddlsimHost({
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
    this.#endpoint = new RddlsimHostEndpoint(host, {
      ...(options.recordDir
        ? {
            record: {
              now,
              meta: ({ sessionId, seed, rounds, client }) => ({
                source: 'protoplay serve',
                sessionId,
                seed,
                rounds,
                client,
                semantics: options.semantics,
              }),
            },
          }
        : {}),
      log: options.log,
      onSessionEnd: (end) => this.#sessionEnded(end),
    });
  }

  /** Starts listening; rejects with a `CliError` saying why (the address is in use...) when it cannot. */
  static async start(options: RddlsimServerOptions): Promise<RddlsimServer> {
    const server = new RddlsimServer(options);
    if (options.recordDir) {
      await mkdir(options.recordDir, { recursive: true }).catch((error: unknown) => {
        throw new CliError(ExitCode.failure, `cannot create '${options.recordDir}': ${describeError(error)}`);
      });
    }
    const limits = options.limits ?? {};
    server.#tcp = await listenPlay(rddlsimProtocol, server.#endpoint, {
      host: options.host,
      port: options.port,
      limits: {
        ...limits,
        // The host cuts a message at maxMessageBytes as rddlsim does; the transport must let it see that.
        maxFrameBytes: Math.max(
          limits.maxFrameBytes ?? DEFAULT_TCP_SERVER_LIMITS.maxFrameBytes,
          2 * options.maxMessageBytes,
        ),
      },
      log: options.log,
    });
    return server;
  }

  /** The bound address and port. */
  get address(): { host: string; port: number } {
    return { host: this.#options.host, port: this.#tcp!.port };
  }

  /** Sessions whose connections are still open. */
  get activeSessions(): number {
    return this.#endpoint.activeSessions;
  }

  /** Sessions that have ended (completed or not) and whose transcripts are written. */
  get endedSessions(): number {
    return this.#ended;
  }

  /** Stops listening, closes every open session and waits until their transcripts are written. */
  async close(reason = 'server stopped'): Promise<void> {
    this.#endpoint.shutdown(reason);
    await this.#tcp?.close(reason);
    await Promise.all(this.#pendingWrites);
  }

  #resolve(name: string): HostedInstance | undefined {
    const { library, log } = this.#options;
    if (!library.has(name)) return undefined;
    try {
      const loaded = library.load(name, { rddlsimSemantics: this.#options.semantics === 'rddlsim' });
      if (!this.#warned.has(name)) {
        this.#warned.add(name);
        for (const warning of loaded.warnings)
          log(`${name}: warning: ${formatLocated(warning.message, warning.location)}`);
      }
      return loaded;
    } catch (error) {
      log(`cannot load ${name}: ${describeError(error)}`);
      return undefined;
    }
  }

  #sessionEnded(end: RddlsimSessionEnd): void {
    const { log, onSessionEnd } = this.#options;
    const prefix = `session ${end.sessionId}`;
    if (end.completed) {
      log(`${prefix}: finished ${end.rounds} rounds, total reward ${formatReward(end.totalReward ?? NaN)}`);
    } else if (!end.explained) {
      log(`${prefix}: closed before the session ended`);
    }
    const written = this.#save(end).finally(() => {
      this.#pendingWrites.delete(written);
      this.#ended++;
      onSessionEnd?.(end);
    });
    this.#pendingWrites.add(written);
  }

  async #save(end: RddlsimSessionEnd): Promise<void> {
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
