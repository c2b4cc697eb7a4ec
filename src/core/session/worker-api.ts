/**
 * The contract between the page and the session worker, for every protocol. The worker runs the whole
 * session (host, environment, and the policy in a nested policy worker) or shows an opened transcript;
 * the page only sends commands and receives batched updates, at most one per animation frame, as a JSON
 * string (one string crosses the boundary far faster than thousands of small cloned objects).
 */
import type { ReplayAnswer, ReplaySetup } from '../protocols/replay';
import type { TranscriptExport } from './transcript-exports';
import type { BridgeAddress } from '../bridge/bridge-link';
import type { ImportSummary, SessionConfig, SessionListener } from '../protocols/session-contract';
import type { BridgeConnectionStatus, BridgeRoute } from './bridge-route';

/** Receives the bridge connection's statuses, each as JSON (a `BridgeConnectionStatus`). */
export interface BridgeStatusListener {
  status(json: string): void;
}

/**
 * Hears how each store of a live session's transcript went (while it runs, every few seconds, and when it
 * is quiet): `problem` is why it was not stored (the storage quota, too large), or null when it was.
 */
export interface KeepingListener {
  kept(problem: string | null): void;
}

/** What the session worker exposes. */
export interface SessionWorkerApi {
  /** Starts a session (dropping whatever was shown). Resolves when it has started, not when it ends. */
  start(config: SessionConfig, listener: SessionListener): Promise<void>;
  /**
   * Opens the files of a recording (or a stored transcript) for the views, validated with its protocol's
   * machines: the session `options.session` (from 1; the first by default) of those they hold. Rejects with
   * a located one-line reason when they hold no session, or none of that number.
   */
  open(
    files: FileToOpen[],
    origin: 'imported' | 'restored',
    listener: SessionListener,
    progress?: OpeningProgressListener,
    options?: OpenOptions,
  ): Promise<ImportSummary>;
  pause(): void;
  resume(): void;
  /** Runs until the next decision of the policy, then pauses. */
  step(): void;
  stop(): void;
  setDelay(ms: number): void;
  /** Answers a pending decision: send the refused actions as they are, or stop the session. */
  decide(choice: 'send' | 'stop'): void;
  /**
   * Starts a session through the bridge (dropping whatever was shown): against a target, or answering a
   * listen port. A failure to start is reported to the listener like any session's.
   */
  startBridged(config: SessionConfig, route: BridgeRoute, listener: SessionListener): Promise<void>;
  /** Connects to `protoplay bridge` (replacing any earlier connection); resolves with the status reached. */
  bridgeConnect(address: BridgeAddress, listener: BridgeStatusListener): Promise<BridgeConnectionStatus>;
  /** Leaves the bridge: sessions through it end. */
  bridgeDisconnect(): void;
  /** Starts a policy worker for this protocol ahead of its first session. */
  prewarm(protocol: string): void;
  /**
   * Loads what opening a file of this protocol (the one on show) needs, its runner and round-end reading,
   * ahead of the file: the page calls it when the user starts to pick or drop one. Loads nothing when a
   * file is opened (or a session started) within a quarter of a second. Resolves once loaded; what fails
   * to load is left to the open, which says so.
   */
  prepareOpen(protocol: string): Promise<void>;
  /** A question of the protocol's views about what is on show (see the protocol's playground). */
  ask(question: string, args: unknown[]): unknown;
  /**
   * "Continue in the playground": what is on show played again against its protocol's emulated host,
   * and where the two differ (`answerReplay`).
   */
  replay(setup: ReplaySetup, listener?: ReplayProgressListener): Promise<ReplayAnswer>;
  /** Stops the replay under way at its next pause (its answer then says it was cancelled). */
  cancelReplay(): void;
  /**
   * What is on show as a Protoplay JSON file, or undefined when nothing is. A Blob, made in the worker:
   * handing the page the text of a big transcript would cost it a long task to take in.
   */
  exportJson(): JsonFile | undefined;
  /**
   * `exportJson` for keeping what is on show for the next reload: the file when its UTF-8 size is at most
   * `maxBytes`, else only that size. A transcript too large to keep is measured and never made a file (the
   * Blob of a 100 MB transcript costs the worker a second or more).
   */
  exportJsonToKeep(maxBytes: number): JsonFile | { bytes: number } | undefined;
  /**
   * What is on show as other files: its rewards as CSV, or the raw bytes one direction sent (a file per
   * connection); empty when there is nothing of that kind. Blobs made in the worker, as for the JSON.
   */
  exportFiles(format: TranscriptExport): { fileName: string; file: JsonFile }[];
  /**
   * Resolves once the session's transcript has been stored (or nothing is waiting to be), with why the
   * last store failed (the storage quota, too large), or undefined when it did not.
   */
  whenKept(): Promise<string | undefined>;
  /** Tells `listener` the outcome of every store of a session's transcript from now on (one listener). */
  watchKeeping(listener: KeepingListener): void;
  /**
   * How often the sessions started from now on store their transcript while they run, in ms (0: only
   * when quiet). Only the benchmark changes it.
   */
  setKeepWhileRunning(ms: number, whole?: boolean): void;
  /** Answers at once: the page's check that the worker is still alive. */
  ping(): true;
}

/**
 * A file handed to `open`: its bytes, or a Blob (a File the page was given) the worker reads itself, in
 * chunks when it is big (core is type-checked without the DOM's types, so only the Blob's shape here).
 */
export interface FileToOpen {
  name: string;
  content: Uint8Array | ReadableFile;
}

/** How `open` opens files. */
export interface OpenOptions {
  /** Which of the sessions the files hold to show, from 1 (default 1). */
  session?: number;
}

/** The part of a Blob the worker reads. */
export interface ReadableFile {
  readonly size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/** Hears how many of the recording's messages a replay has played again, of how many. */
export interface ReplayProgressListener {
  progress(done: number, total: number): void;
}

/** Hears how far the worker has read a big file, and when it has read and validated all of it. */
export interface OpeningProgressListener {
  progress(bytes: number, total: number): void;
}

/** A Blob holding a JSON file (core is type-checked without the DOM's types, so only its shape here). */
export interface JsonFile {
  readonly size: number;
  readonly type: string;
}
