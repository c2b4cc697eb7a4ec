import * as Comlink from 'comlink';
import type { PolicyFault } from '../core/policy/types';
import type { Protocol } from '../core/protocols/contract';
import { findProtocol } from '../core/protocols/registry';
import type {
  ImportSummary,
  PendingDecision,
  SessionConfig,
  SessionStatus,
  SessionUpdate,
  TranscriptOrigin,
} from '../core/protocols/session-contract';
import type { BridgeAddress } from '../core/bridge/bridge-link';
import type { BridgeConnectionStatus, BridgeRoute } from '../core/session/bridge-route';
import type { FileToOpen, SessionWorkerApi } from '../core/session/worker-api';
import type { ReplayAnswer, ReplaySetup } from '../core/protocols/replay';
import type { TranscriptExport } from '../core/session/transcript-exports';
import { TranscriptState } from './transcript.svelte';
import { UpdateIntake } from './update-intake';

/** How often the page checks that the session worker still answers, in ms. */
const WORKER_CHECK_MS = 5000;
/**
 * How long the session worker may take to answer that check before the page takes it for dead, in ms:
 * it answers between two frames of a session, so only a crash (or a worker busy for this long with one
 * piece of work, which the page then says is back as soon as it answers) comes near.
 */
export const WORKER_DEADLINE_MS = 30_000;

/**
 * The shortest time between two refreshes of the views while a session reports (10 per second), also
 * while a backlog of its updates is taken in a frame at a time.
 */
const VIEW_REFRESH_MS = 100;

/**
 * The longest stretch of taking updates in (parsing them and adding them to what the views read) in one
 * task: the views' own refresh, style and layout follow in the same task, which should stay well under
 * 50 ms even on a machine whose cores the session worker shares.
 */
const APPLY_BUDGET_MS = 4;

/** An update as the worker sent it: JSON text, parsed when it is taken in. */
interface ReceivedUpdate {
  json: string;
  deferredJson: string | undefined;
  generation: number;
}

/** A session's status as the page sees it: `idle` before any run, or when showing a loaded transcript. */
export type SessionPhase = 'idle' | SessionStatus;

/**
 * What a protocol's views keep of the news its runner sends (`SessionUpdate.views`) when the transcript
 * stays in the worker; made fresh for every session or opened transcript by the protocol's page adapter.
 */
export interface ProtocolViewState {
  apply(news: unknown): void;
}

/** Makes the view state of a protocol, for protocols whose runner keeps the transcript in the worker. */
export type ViewStateFactory = (protocol: string) => ProtocolViewState | undefined;

/** A file handed to `open`. */
export interface OpenedFile {
  name: string;
  content: Blob | Uint8Array;
}

/**
 * The session on screen, for every protocol: drives the session worker (run, pause, step, stop,
 * decisions, opening recordings) and keeps what it reports. The transcript comes to the page (kept in
 * `transcript`), or stays in the worker and only the protocol's news come (kept in `views`, made by the
 * protocol's adapter); the views then ask the worker for the big things (`ask`). The worker is created on
 * the first use and reused; a stuck policy never blocks it, because the policy runs in a worker of its
 * own.
 */
export class Session {
  phase = $state<SessionPhase>('idle');
  position = $state<{ round: number; turn: number } | undefined>();
  /** The last policy failure (syntax error, throw, budget overrun), located when possible. */
  fault = $state<PolicyFault | undefined>();
  /** Whose policy failed, when a session has several (`team B`). */
  faultOwner = $state<string | undefined>();
  decision = $state<PendingDecision | undefined>();
  /** A failure of the session itself, in one sentence. */
  error = $state<string | undefined>();
  /** The protocol of what is on show, or undefined when nothing is. */
  protocol = $state<string | undefined>();
  origin = $state<TranscriptOrigin>('live');
  /** The name of an opened file, for the status line. */
  sourceName = $state<string | undefined>();
  /** True when the transcript on show stays in the worker (the views read `views` and ask for the rest). */
  keptInWorker = $state(false);
  /** The protocol's view state for a transcript kept in the worker. */
  views = $state.raw<ProtocolViewState | undefined>();
  /** Bumped whenever what is shown is replaced (a new session, an opened transcript). */
  resets = $state(0);
  /** Bumped by every run asked for (a refused run, e.g. broken RDDL, never reaches `run`). */
  runs = $state(0);
  /**
   * Why the last store of a live session's transcript failed (while it runs too), or undefined once one
   * succeeds: the session goes on, and what it recorded is kept in the worker for the export.
   */
  keepProblem = $state<string | undefined>();
  /**
   * Why the session worker stopped (it crashed, ran out of memory, or stopped answering), or undefined
   * while it works. What it stored stays stored; the next run starts a new worker.
   */
  workerStopped = $state<string | undefined>();
  /** What the last import found: counts, broken rules, unreadable parts. */
  imported = $state.raw<ImportSummary | undefined>();
  /**
   * The files of the import on show, to open again with another of their sessions shown; undefined when
   * nothing imported is shown (a restored transcript is one session).
   */
  importedFiles = $state.raw<readonly OpenedFile[] | undefined>();
  readonly transcript = new TranscriptState();

  /** Where runs go instead of the emulated server, when the Connect panel says so (undefined: emulated). */
  bridgeRoute: () => BridgeRoute | undefined = () => undefined;

  readonly #createWorker: () => Worker;
  readonly #createViews: ViewStateFactory;
  #api: Comlink.Remote<SessionWorkerApi> | undefined;
  /** Updates received and not yet taken in, taken a few per frame as one change for the views. */
  readonly #intake = new UpdateIntake<ReceivedUpdate>({
    take: (received) => {
      // Updates of a run or import left behind (another began) are dropped unread.
      if (received.generation !== this.#generation) return;
      this.#apply(JSON.parse(received.json) as SessionUpdate, received.deferredJson);
    },
    // What is taken in reaches the views at the intake's `show`, at most every VIEW_REFRESH_MS.
    around: (takeSome) => this.transcript.batch(takeSome, true),
    show: () => this.#show(),
    refreshMs: VIEW_REFRESH_MS,
    budgetMs: APPLY_BUDGET_MS,
  });
  /**
   * What updates taken in changed besides the transcript (views' news, status, position...), in order,
   * waiting for the intake's next `show`.
   */
  #unshown: (() => void)[] = [];
  /** Bumped by every run or open: updates from an older one are dropped. */
  #generation = 0;
  /** Calls waiting on the worker that give up if it stops (see `#orStopped`). */
  #deathWaiters: ((reason: string) => void)[] = [];

  constructor(createWorker: () => Worker, createViews: ViewStateFactory = () => undefined) {
    this.#createWorker = createWorker;
    this.#createViews = createViews;
  }

  /** True while a session is under way (running, paused or waiting for a decision). */
  get active(): boolean {
    return this.phase === 'running' || this.phase === 'paused' || this.phase === 'awaiting-decision';
  }

  /** How many messages are on show. */
  get messageCount(): number {
    return this.keptInWorker
      ? ((this.views as { rowCount?: number } | undefined)?.rowCount ?? 0)
      : this.transcript.messages.length;
  }

  /** Starts the session worker (and a policy worker of the protocol) ahead of the first run. */
  prewarm(protocol: string): void {
    void this.#worker().prewarm(protocol);
  }

  /**
   * Loads what opening a file of the protocol on show needs in the worker (its runner's modules, the RDDL
   * parser) while the user picks or drags the file, instead of once it is handed over.
   */
  prepareOpen(protocol: string): void {
    void this.#worker().prepareOpen(protocol);
  }

  /** Starts a new session; what is on screen is replaced as soon as the worker reports. */
  async run(config: SessionConfig): Promise<void> {
    this.#forget();
    this.runs++;
    this.imported = this.importedFiles = undefined;
    const route = this.bridgeRoute();
    // Answering real clients on a listen port, "Running" is the worker's word, said in the turn the port is
    // served: an agent started as soon as the page says so must find it answered, not the policy still
    // loading (a client that dialled then was told "the page serves nothing").
    this.phase = route?.mode === 'inbound' ? 'idle' : config.startPaused ? 'paused' : 'running';
    if (route) await this.#worker().startBridged(config, route, this.#listener());
    else await this.#worker().start(config, this.#listener());
  }

  /** Connects the session worker to `protoplay bridge`; `onStatus` receives every status change. */
  connectBridge(
    address: BridgeAddress,
    onStatus: (status: BridgeConnectionStatus) => void,
  ): Promise<BridgeConnectionStatus> {
    const listener = Comlink.proxy({
      status: (json: string) => onStatus(JSON.parse(json) as BridgeConnectionStatus),
    });
    return this.#worker().bridgeConnect(address, listener);
  }

  /** Leaves the bridge. */
  disconnectBridge(): void {
    void this.#api?.bridgeDisconnect();
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

  /**
   * Opens the files of a recording (or a stored transcript) in every view, stopping any running session:
   * the worker reads, validates and shows it (a big file from its first chunk on, while the rest is read:
   * `onProgress` hears how far). Shows the session `choice.session` (from 1; the first by default) of
   * those the files hold. Resolves with what it found; rejects with a one-line, located reason when the
   * files hold no session, or none of that number. The files of an import are kept (`importedFiles`), so
   * that another of their sessions can be shown.
   */
  async open(
    files: readonly OpenedFile[],
    origin: 'imported' | 'restored',
    onProgress?: (bytes: number, total: number) => void,
    choice: { session?: number } = {},
  ): Promise<ImportSummary> {
    // Bytes are handed over to the worker (no longer readable here): an import keeps a copy to open again.
    const kept =
      origin === 'imported'
        ? files.map(({ name, content }) => ({
            name,
            content: content instanceof Uint8Array ? new Blob([content as Uint8Array<ArrayBuffer>]) : content,
          }))
        : undefined;
    // Files go as they are: the worker reads them (a File crosses without its bytes being copied).
    const inputs: FileToOpen[] = files.map(({ name, content }) => ({ name, content }));
    const listener = this.#listener();
    const buffers = files.flatMap(({ content }) =>
      content instanceof Uint8Array ? [content.buffer as ArrayBuffer] : [],
    );
    const progress = onProgress && Comlink.proxy({ progress: onProgress });
    const summary = await this.#worker().open(
      Comlink.transfer(inputs, buffers),
      origin,
      listener,
      progress,
      choice.session === undefined ? {} : { session: choice.session },
    );
    this.imported = origin === 'imported' ? summary : undefined;
    this.importedFiles = kept;
    return summary;
  }

  /** Shows nothing (another protocol was picked); what the worker holds is left alone. */
  clear(): void {
    ++this.#generation;
    this.#forget();
    this.protocol = undefined;
    this.imported = this.importedFiles = undefined;
    this.keptInWorker = false;
    this.views = undefined;
    this.phase = 'idle';
    this.transcript.clear();
    this.resets++;
  }

  /** Asks the worker a question of the protocol's views about what is on show. */
  async ask<T>(question: string, ...args: unknown[]): Promise<T | undefined> {
    return (await this.#worker().ask(question, args)) as T | undefined;
  }

  /**
   * Plays what is on show again against its protocol's emulated host (see `answerReplay`), telling
   * `onProgress` how many of the recording's messages were played again; a worker found stopped answers
   * with the reason.
   */
  async replay(
    setup: ReplaySetup = {},
    onProgress?: (done: number, total: number) => void,
  ): Promise<ReplayAnswer> {
    const listener = onProgress && Comlink.proxy({ progress: onProgress });
    const answer: Promise<ReplayAnswer> = this.#worker().replay(setup, listener);
    return await this.#orStopped(answer, (reason): ReplayAnswer => ({
      error: `the session worker stopped (${reason})`,
    }));
  }

  /** Stops the replay under way (its answer then says it was cancelled). */
  cancelReplay(): void {
    void this.#api?.cancelReplay();
  }

  /**
   * Resolves once the worker has stored the session's transcript (or has nothing waiting to store), with
   * why it could not be stored, or undefined.
   */
  async whenKept(): Promise<string | undefined> {
    if (!this.#api) return undefined;
    return await this.#orStopped(this.#api.whenKept(), (reason) => `the session worker stopped (${reason})`);
  }

  /** `call`'s answer, or `instead`'s once the worker is found stopped (it will never answer). */
  #orStopped<T>(call: Promise<T>, instead: (reason: string) => T): Promise<T> {
    if (this.workerStopped !== undefined) return Promise.resolve().then(() => instead(this.workerStopped!));
    return new Promise<T>((resolve, reject) => {
      const stopped = (reason: string) => {
        try {
          resolve(instead(reason));
        } catch (error) {
          reject(error as Error);
        }
      };
      this.#deathWaiters.push(stopped);
      call.then(resolve, reject).finally(() => {
        this.#deathWaiters = this.#deathWaiters.filter((waiter) => waiter !== stopped);
      });
    });
  }

  /** What is on show as other files (rewards CSV, raw bytes of one direction), named without a stem. */
  async exportFiles(format: TranscriptExport): Promise<{ fileName: string; file: Blob }[]> {
    const exported = this.#worker().exportFiles(format) as Promise<{ fileName: string; file: Blob }[]>;
    return await this.#orStopped(exported, (reason) => {
      throw new Error(`the session worker stopped (${reason})`);
    });
  }

  /** How often sessions started from now on store their transcript while running (the benchmark's). */
  async setKeepWhileRunning(ms: number, whole = false): Promise<void> {
    await this.#worker().setKeepWhileRunning(ms, whole);
  }

  /** What is on show as a Protoplay JSON file, or undefined when nothing is. */
  async exportJson(): Promise<Blob | undefined> {
    return await this.#exported(this.#worker().exportJson() as Promise<Blob | undefined>);
  }

  /**
   * What is on show as a Protoplay JSON file when it is at most `maxBytes` (UTF-8), else its size only (see
   * the worker's `exportJsonToKeep`); undefined when nothing is on show.
   */
  async exportJsonToKeep(maxBytes: number): Promise<Blob | { bytes: number } | undefined> {
    return await this.#exported(
      this.#worker().exportJsonToKeep(maxBytes) as Promise<Blob | { bytes: number } | undefined>,
    );
  }

  /** An export from the worker, or an error saying where the transcript is when the worker stopped. */
  #exported<T>(exported: Promise<T>): Promise<T> {
    return this.#orStopped(exported, (reason) => {
      throw new Error(`the session worker stopped (${reason}); what was stored for a reload opens after one`);
    });
  }

  #worker(): Comlink.Remote<SessionWorkerApi> {
    if (!this.#api) {
      const worker = this.#createWorker();
      const api = Comlink.wrap<SessionWorkerApi>(worker);
      this.#api = api;
      this.workerStopped = undefined;
      void api.watchKeeping(
        Comlink.proxy({ kept: (problem: string | null) => (this.keepProblem = problem ?? undefined) }),
      );
      this.#watch(worker, api);
    }
    return this.#api;
  }

  /**
   * Watches the session worker: an error it did not catch is noted, and a worker that does not answer
   * the periodic check within `WORKER_DEADLINE_MS` (it crashed, ran out of memory, was stopped) is said
   * to have stopped. An answer that comes after all takes that back.
   */
  #watch(worker: Worker, api: Comlink.Remote<SessionWorkerApi>): void {
    let lastError: string | undefined;
    let askedAt: number | undefined;
    worker.addEventListener('error', (event) => {
      lastError = event.message || 'it failed';
    });
    const check = () => {
      if (this.#api !== api) return clearInterval(timer);
      if (askedAt === undefined) {
        const asked = (askedAt = performance.now());
        void api.ping().then(() => {
          if (askedAt !== asked) return;
          askedAt = undefined;
          if (this.workerStopped !== undefined) this.#workerBack();
        });
      } else if (performance.now() - askedAt > WORKER_DEADLINE_MS && this.workerStopped === undefined) {
        this.#workerDied(
          lastError ??
            `it did not answer for ${Math.round(WORKER_DEADLINE_MS / 1000)} s (it crashed or ran out of memory)`,
        );
      }
    };
    const timer = setInterval(check, WORKER_CHECK_MS);
    check();
  }

  #workerDied(reason: string): void {
    // Nothing more will come: what the worker sent is shown (and in the page's copy for an export).
    this.#intake.flush();
    this.workerStopped = reason;
    const waiting = this.#deathWaiters;
    this.#deathWaiters = [];
    for (const resolve of waiting) resolve(reason);
    this.error = `The session worker stopped: ${reason}. What was stored for a reload is kept (every few seconds while a session runs); reload the page to continue.`;
    if (this.active) this.phase = 'failed';
  }

  #workerBack(): void {
    this.workerStopped = undefined;
    if (this.error?.startsWith('The session worker stopped')) this.error = undefined;
  }

  #forget(): void {
    this.fault = undefined;
    this.faultOwner = undefined;
    this.error = undefined;
    this.decision = undefined;
    this.position = undefined;
    this.#intake.drop();
    this.#unshown = [];
  }

  #listener() {
    const generation = ++this.#generation;
    return Comlink.proxy({
      update: (json: string, deferredJson?: string) => {
        if (generation === this.#generation) this.#intake.push({ json, deferredJson, generation });
      },
    });
  }

  /**
   * Takes an update in: the transcript's part at once (published with the intake's `show`), the rest
   * kept in order for `#show`. A reset shows what came before it first (it replaces the views).
   */
  #apply(update: SessionUpdate, deferredJson?: string): void {
    if (update.reset) {
      this.#showChanges();
      this.#reset(update.reset);
    }
    const protocol: Protocol | undefined =
      this.protocol === undefined ? undefined : findProtocol(this.protocol);
    if (update.header && protocol) {
      this.transcript.reset(
        { ...update.header, messages: [], annotations: [] },
        () => protocol.createReader(),
        this.origin,
      );
    }
    if (update.deferred && deferredJson !== undefined && update.read)
      this.transcript.appendDeferred(
        deferredJson,
        update.deferred.messages,
        update.read,
        update.deferred.places,
      );
    else if (update.messages.length || update.annotations.length)
      this.transcript.append(update.messages, update.annotations, update.read);
    const { views, status, position, fault, faultOwner, decision, error } = update;
    if (
      views === undefined &&
      !status &&
      !position &&
      !fault &&
      !faultOwner &&
      decision === undefined &&
      !error
    )
      return;
    this.#unshown.push(() => {
      if (views !== undefined) this.views?.apply(views);
      if (status) this.phase = status;
      if (position) this.position = position;
      if (fault) this.fault = fault;
      if (faultOwner) this.faultOwner = faultOwner;
      if (decision !== undefined) this.decision = decision ?? undefined;
      if (error) this.error = error;
    });
  }

  /** Hands the views what the updates taken since the last show changed. */
  #show(): void {
    this.#showChanges();
    this.transcript.publishHeld();
  }

  #showChanges(): void {
    const changes = this.#unshown;
    this.#unshown = [];
    for (const change of changes) change();
  }

  #reset(reset: NonNullable<SessionUpdate['reset']>): void {
    this.protocol = reset.protocol;
    this.origin = reset.origin;
    this.sourceName = reset.name;
    this.keptInWorker = reset.keepsTranscript;
    this.views = reset.keepsTranscript ? this.#createViews(reset.protocol) : undefined;
    if (reset.keepsTranscript) this.transcript.clear(reset.origin);
    if (reset.origin !== 'live') {
      this.phase = 'idle';
      this.fault = this.faultOwner = this.error = this.decision = this.position = undefined;
    }
    this.resets++;
  }
}
