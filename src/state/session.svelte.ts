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
import type { Protocol } from '../core/protocols/contract';
import { TranscriptState, type TranscriptOrigin } from './transcript.svelte';

/** The shortest time between two refreshes of the views while a session reports (10 per second). */
const VIEW_REFRESH_MS = 100;

/** A refresh of the views waiting for its time (a timer) and then its frame. */
interface ScheduledRefresh {
  timer?: ReturnType<typeof setTimeout>;
  frame?: number;
}

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
  /** True when the session worker stores this session's transcript itself (the page then need not). */
  workerKeepsTranscript = $state(false);
  readonly transcript = new TranscriptState();

  readonly #createWorker: () => Worker;
  #api: Comlink.Remote<SessionWorkerApi> | undefined;
  #adapter: Protocol | undefined;
  /** Updates received since the views last updated (with their deferred text); applied together. */
  #pending: { update: SessionUpdate; deferredJson: string | undefined }[] = [];
  #scheduled: ScheduledRefresh | undefined;
  #lastShown = 0;

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
  async run(config: SessionConfig, adapter: Protocol): Promise<void> {
    this.#adapter = adapter;
    this.fault = undefined;
    this.error = undefined;
    this.decision = undefined;
    this.position = undefined;
    this.phase = config.startPaused ? 'paused' : 'running';
    this.workerKeepsTranscript = false;
    this.#dropPending(true);
    const listener = {
      update: (json: string, deferredJson?: string) =>
        this.#receive(JSON.parse(json) as SessionUpdate, deferredJson),
    };
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
  show(transcript: Transcript, adapter: Protocol, origin: TranscriptOrigin): void {
    if (this.active) this.stop();
    this.#dropPending(true);
    this.workerKeepsTranscript = false;
    this.#adapter = adapter;
    this.phase = 'idle';
    this.fault = undefined;
    this.decision = undefined;
    this.error = undefined;
    this.position = undefined;
    this.transcript.reset(transcript, () => adapter.createReader(), origin);
  }

  #worker(): Comlink.Remote<SessionWorkerApi> {
    this.#api ??= Comlink.wrap<SessionWorkerApi>(this.#createWorker());
    return this.#api;
  }

  /**
   * Keeps an update for the views' next refresh: at a frame, at most every `VIEW_REFRESH_MS`. A fast
   * session sends a batch every frame; applying them a few at a time, as one change, keeps the page's
   * work per second small, and a page that falls behind catches up in one step instead of one per batch.
   */
  #receive(update: SessionUpdate, deferredJson: string | undefined): void {
    this.#pending.push({ update, deferredJson });
    if (this.#scheduled) return;
    const scheduled: ScheduledRefresh = {};
    this.#scheduled = scheduled;
    const wait = Math.max(0, this.#lastShown + VIEW_REFRESH_MS - performance.now());
    scheduled.timer = setTimeout(() => {
      scheduled.frame = requestAnimationFrame(() => this.#showPending());
      // Without frames (a hidden tab), the views still follow, more slowly.
      scheduled.timer = setTimeout(() => this.#showPending(), VIEW_REFRESH_MS);
    }, wait);
  }

  #showPending(): void {
    this.#dropPending();
    this.#lastShown = performance.now();
    const updates = this.#pending;
    this.#pending = [];
    this.transcript.batch(() =>
      updates.forEach((pending) => this.#apply(pending.update, pending.deferredJson)),
    );
  }

  /** Forgets the scheduled refresh (and, when `updates` is true, the updates waiting for it). */
  #dropPending(updates = false): void {
    const scheduled = this.#scheduled;
    this.#scheduled = undefined;
    if (scheduled?.timer !== undefined) clearTimeout(scheduled.timer);
    if (scheduled?.frame !== undefined) cancelAnimationFrame(scheduled.frame);
    if (updates) this.#pending = [];
  }

  #apply(update: SessionUpdate, deferredJson?: string): void {
    const adapter = this.#adapter;
    if (update.header && adapter) {
      this.transcript.reset(
        { ...update.header, messages: [], annotations: [] },
        () => adapter.createReader(),
        'live',
      );
    }
    if (update.deferred && deferredJson !== undefined && update.read)
      this.transcript.appendDeferred(deferredJson, update.deferred.messages, update.read);
    else if (update.messages.length || update.annotations.length)
      this.transcript.append(update.messages, update.annotations, update.read);
    if (update.status) this.phase = update.status;
    if (update.position) this.position = update.position;
    if (update.fault) this.fault = update.fault;
    if (update.decision !== undefined) this.decision = update.decision ?? undefined;
    if (update.error) this.error = update.error;
    if (update.keepsTranscript) this.workerKeepsTranscript = true;
  }
}
