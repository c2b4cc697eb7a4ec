import * as Comlink from 'comlink';
import type { PolicyFault } from '../core/policy/types';
import type { Transcript } from '../core/transcript/model';
import type {
  PendingDecision,
  SessionConfig,
  SessionStatus,
  SessionUpdate,
  SessionWorkerApi,
} from '../../workers/session-api';
import type { ProtocolAdapter } from './protocols/adapter';
import { TranscriptState, type TranscriptOrigin } from './transcript.svelte';

/** A session's status as the page sees it: `idle` before any run, or when showing a loaded transcript. */
export type SessionPhase = 'idle' | SessionStatus;

/**
 * The session on screen: drives the session worker (run, pause, step, stop, decisions) and keeps what it
 * reports. The worker is created on the first run and reused; a stuck policy never blocks it, because the
 * policy runs in a worker of its own.
 */
export class Session {
  phase = $state<SessionPhase>('idle');
  position = $state<{ round: number; turn: number } | undefined>();
  /** The last policy failure (syntax error, throw, budget overrun), located when possible. */
  fault = $state<PolicyFault | undefined>();
  decision = $state<PendingDecision | undefined>();
  /** A failure of the session itself, in one sentence. */
  error = $state<string | undefined>();
  readonly transcript = new TranscriptState();

  readonly #createWorker: () => Worker;
  #api: Comlink.Remote<SessionWorkerApi> | undefined;
  #adapter: ProtocolAdapter | undefined;

  constructor(createWorker: () => Worker) {
    this.#createWorker = createWorker;
  }

  /** True while a session is under way (running, paused or waiting for a decision). */
  get active(): boolean {
    return this.phase === 'running' || this.phase === 'paused' || this.phase === 'awaiting-decision';
  }

  /** Starts the session worker ahead of the first run, so pressing Run does not wait for it to boot. */
  prewarm(): void {
    this.#worker();
  }

  /** Starts a new session; the transcript on screen is replaced as soon as the worker reports. */
  async run(config: SessionConfig, adapter: ProtocolAdapter): Promise<void> {
    this.#adapter = adapter;
    this.fault = undefined;
    this.error = undefined;
    this.decision = undefined;
    this.position = undefined;
    this.phase = config.startPaused ? 'paused' : 'running';
    const listener = { update: (json: string) => this.#apply(JSON.parse(json) as SessionUpdate) };
    await this.#worker().start(config, Comlink.proxy(listener));
  }

  pause(): void {
    void this.#api?.pause();
  }

  resume(): void {
    void this.#api?.resume();
  }

  step(): void {
    void this.#api?.step();
  }

  stop(): void {
    void this.#api?.stop();
  }

  setDelay(ms: number): void {
    void this.#api?.setDelay(ms);
  }

  decide(choice: 'send' | 'stop'): void {
    void this.#api?.decide(choice);
  }

  /** Shows a stored or imported transcript in every view, stopping any running session first. */
  show(transcript: Transcript, adapter: ProtocolAdapter, origin: TranscriptOrigin): void {
    if (this.active) this.stop();
    this.#adapter = adapter;
    this.phase = 'idle';
    this.fault = undefined;
    this.decision = undefined;
    this.error = undefined;
    this.position = undefined;
    this.transcript.reset(transcript, adapter.createReader(), origin);
  }

  #worker(): Comlink.Remote<SessionWorkerApi> {
    this.#api ??= Comlink.wrap<SessionWorkerApi>(this.#createWorker());
    return this.#api;
  }

  #apply(update: SessionUpdate): void {
    if (update.header && this.#adapter) {
      this.transcript.reset(
        { ...update.header, messages: [], annotations: [] },
        this.#adapter.createReader(),
        'live',
      );
    }
    if (update.messages.length || update.annotations.length)
      this.transcript.append(update.messages, update.annotations);
    if (update.status) this.phase = update.status;
    if (update.position) this.position = update.position;
    if (update.fault) this.fault = update.fault;
    if (update.decision !== undefined) this.decision = update.decision ?? undefined;
    if (update.error) this.error = update.error;
  }
}
