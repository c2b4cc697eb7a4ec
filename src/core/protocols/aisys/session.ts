/**
 * An emulated aisys session in one thread: a client (the course client's behaviour, with a policy's
 * decisions) and an emulated server joined by an in-memory pipe that records every exchange, as the
 * playground's worker and `protoplay run aisys` play it. The transcript is what the same session over
 * HTTP would record (HTTP messages with their method, path, status and headers; the agent as channel).
 */
import type { JsonValue } from '../../envs/aisys/api';
import { TranscriptRecorder, type TranscriptSink } from '../../transcript/recorder';
import type { Transcript } from '../../transcript/model';
import type { HttpMessage } from '../contract';
import {
  AisysClient,
  type AisysClientEvent,
  type AisysClientOptions,
  type AisysClientOutcome,
} from './client';
import { findAisysEnvironment } from './environments';
import { AisysHost, type AisysHostOptions } from './host';
import type { AisysDecide } from './policy-api';

/** Options of a session. */
export interface AisysSessionOptions {
  /** A ready-made environment (`nim`), or one given by class and config. */
  env: string | { id: string; envClass: string; config: JsonValue };
  decide: AisysDecide;
  /** Stop once this many runs have finished (default 100). */
  runs?: number;
  /** Several action requests per response (default true). */
  parallelRuns?: boolean;
  /** Seed of the environment's randomness (default 0). */
  seed?: number;
  /** The agent's name (default `agent`). */
  agent?: string;
  /** More host options (the real server's bugs, a clock...). */
  host?: Omit<AisysHostOptions, 'seed' | 'now'>;
  /** More client options. */
  client?: Pick<AisysClientOptions, 'abandonOldRuns' | 'clientName'>;
  /** Clock in ms for the transcript and the host (default `Date.now`). */
  now?: () => number;
  /** Record the exchanges (default true). */
  record?: boolean;
  /**
   * Keep the transcript and the finished runs in memory (default true). Without, a session of any number
   * of runs holds none of them; `transcriptSink` still gets every record.
   */
  keepTranscript?: boolean;
  /** Receives every message and annotation as it is recorded (e.g. a file written as the session runs). */
  transcriptSink?: TranscriptSink;
  /** Transcript meta. */
  meta?: Transcript['meta'];
  onEvent?: (event: AisysClientEvent) => void;
}

/** The connection id the in-memory pipe records. */
export const AISYS_SESSION_CONNECTION = 'http';

/** One agent playing against an emulated server in memory. */
export class AisysSession {
  readonly host: AisysHost;
  readonly client: AisysClient;
  readonly recorder: TranscriptRecorder;
  readonly env: string;
  readonly agent: string;
  /** Outcomes of the finished runs, in the order they finished (empty without `keepTranscript`). */
  readonly finished: { run: string; outcome: JsonValue; actions: number }[] = [];
  readonly #record: boolean;

  constructor(options: AisysSessionOptions) {
    const now = options.now ?? Date.now;
    const env =
      typeof options.env === 'string'
        ? findAisysEnvironment(options.env)
        : { ...options.env, label: options.env.id };
    if (!env) throw new Error(`unknown environment '${String(options.env)}'`);
    this.env = env.id;
    this.agent = options.agent ?? 'agent';
    this.#record = options.record ?? true;
    this.host = new AisysHost({ ...options.host, seed: options.seed ?? 0, now });
    this.host.addEnvironment(env.id, env.envClass, env.config, env.label);
    const pwd = this.host.addAgent(env.id, this.agent);
    this.recorder = new TranscriptRecorder({
      protocol: 'aisys',
      now,
      keep: options.keepTranscript ?? true,
      ...(options.transcriptSink ? { sink: options.transcriptSink } : {}),
      meta: { origin: 'emulated', env: env.id, agent: this.agent, seed: options.seed ?? 0, ...options.meta },
    });
    this.client = new AisysClient({
      ...options.client,
      agent: this.agent,
      pwd,
      env: env.id,
      url: 'http://emulated/',
      decide: options.decide,
      runLimit: options.runs ?? 100,
      parallelRuns: options.parallelRuns ?? true,
      onEvent: (event) => {
        if (event.kind === 'run-finished' && options.keepTranscript !== false)
          this.finished.push({ run: event.run, outcome: event.outcome, actions: event.actions });
        if (event.kind === 'policy-logs')
          for (const line of event.logs) this.recorder.annotate('policy-log', line);
        options.onEvent?.(event);
      },
    });
  }

  /** The session's transcript so far. */
  get transcript(): Transcript {
    return this.recorder.transcript;
  }

  /** Plays until the client stops; resolves with how it ended. */
  run(): Promise<AisysClientOutcome> {
    const channel = `${this.env}/${this.agent}`;
    const peer = this.client.connect({
      send: (request: HttpMessage) => {
        const sent = this.#record
          ? this.recorder.httpRequest(AISYS_SESSION_CONNECTION, request, channel)
          : undefined;
        const response = this.host.handle(request);
        if (sent) this.recorder.httpResponse(AISYS_SESSION_CONNECTION, sent.index, response, channel);
        peer.receive(response);
      },
      close: () => undefined,
    });
    return this.client.ended;
  }

  /** Stops after the exchange under way. */
  stop(reason = 'stopped'): void {
    this.client.stop(reason);
  }
}
