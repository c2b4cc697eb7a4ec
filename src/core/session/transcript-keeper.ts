/**
 * Keeps a live session's transcript across reloads from the session worker, where it is recorded: stored
 * whenever the session pauses or ends, and every few seconds while it runs (a reload, or a tab the
 * browser kills, then loses at most those seconds; what was stored is marked unfinished). With a
 * journal source and a host that appends (`PlaygroundServices.keepTranscriptPart`), each store adds only
 * what was recorded since the one before (`transcript-journal.ts`); otherwise it writes out the whole
 * transcript. Either runs in the worker, costing the page nothing. Stores of one keeper run one after the
 * other. How it is stored is the host's business.
 */
import type { SessionStatus } from '../protocols/session-contract';
import {
  nextPart,
  type JournalMark,
  type JournalOutcome,
  type JournalPart,
  type JournalSource,
} from './transcript-journal';

/** Statuses in which the transcript stops growing for a while. */
const QUIET: ReadonlySet<SessionStatus> = new Set([
  'paused',
  'awaiting-decision',
  'finished',
  'stopped',
  'failed',
]);

/** Statuses after which the session records nothing more. */
const ENDED: ReadonlySet<SessionStatus> = new Set(['finished', 'stopped', 'failed']);

/** How often a running session's transcript is stored, in ms, unless the keeper is told otherwise. */
export const KEEP_WHILE_RUNNING_MS = 5000;

let keepWhileRunningMs = KEEP_WHILE_RUNNING_MS;
let keepWhole = false;

/**
 * Changes how often keepers made from now on store a running session (0: only when it is quiet), and
 * whether they write the whole transcript each time even when they could append (`whole`). The product
 * keeps the defaults; the storage benchmark measures what the stores while running cost, either way.
 */
export function setKeepWhileRunningMs(ms: number, whole = false): void {
  keepWhileRunningMs = ms;
  keepWhole = whole;
}

/** Keepers with a store pending or under way (one worker: one at a time, a replaced one finishing). */
const busy = new Set<TranscriptKeeper>();
let quietWaiters: (() => void)[] = [];

function settled(keeper: TranscriptKeeper): void {
  busy.delete(keeper);
  if (busy.size > 0) return;
  const waiters = quietWaiters;
  quietWaiters = [];
  for (const resolve of waiters) resolve();
}

/** Resolves once no keeper has a store pending or under way (at once when none has). */
export function whenKeepersQuiet(): Promise<void> {
  if (busy.size === 0) return Promise.resolve();
  return new Promise((resolve) => quietWaiters.push(resolve));
}

/** Options of a keeper. */
export interface TranscriptKeeperOptions {
  /** The transcript as Protoplay JSON pieces, or undefined when it is too big to keep. */
  write: () => string[] | undefined;
  /** Stores the pieces; `unfinished` when the session had not ended. */
  keep: (json: readonly string[], how: { unfinished: boolean }) => Promise<void>;
  /** How often to store while the session runs, in ms (0: only when it is quiet). */
  everyMs?: number;
  /** The live transcript, for stores that append (with `keepPart`; `write` is then not used). */
  source?: JournalSource;
  /** Appends a part to the stored transcript (see `JournalPart`). */
  keepPart?: (part: JournalPart) => Promise<JournalOutcome>;
}

let sessions = 0;

/** Stores one session's transcript when it is quiet. */
export class TranscriptKeeper {
  readonly #options: TranscriptKeeperOptions;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #ticker: ReturnType<typeof setInterval> | undefined;
  /** A store while running is under way: the next tick skips rather than queue another. */
  #ticking = false;
  /** The stores asked for, one after the other. */
  #chain: Promise<void> = Promise.resolve();
  /** What the parts stored so far hold (undefined: the next part starts afresh). */
  #mark: JournalMark | undefined;
  /** The session is gone: stores still queued are dropped (a newer session's transcript is stored). */
  #disposed = false;
  readonly #session = `${Date.now().toString(36)}-${(++sessions).toString(36)}-${Math.random().toString(36).slice(2)}`;

  constructor(options: TranscriptKeeperOptions) {
    this.#options = keepWhole ? { ...options, source: undefined, keepPart: undefined } : options;
  }

  /**
   * Notes the session's status: quiet for a moment (a step pauses at once) stores; running stores every
   * few seconds.
   */
  status(status: SessionStatus): void {
    if (!QUIET.has(status)) {
      this.cancel();
      return this.#tickWhileRunning();
    }
    // A newer quiet status (more messages) puts the store off; those waiting on it go on waiting.
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#stopTicking();
    busy.add(this);
    const unfinished = !ENDED.has(status);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#store(unfinished).finally(() => settled(this));
    }, 200);
  }

  /** Stores what the session recorded so far, as unfinished, after any store under way. */
  keepNow(): Promise<void> {
    return this.#store(true);
  }

  /** Drops a pending store: a newer session's transcript replaces this one. */
  cancel(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      settled(this);
    }
    this.#timer = undefined;
  }

  /** Drops pending stores and stops storing while running: the session is gone. */
  dispose(): void {
    this.#disposed = true;
    this.cancel();
    this.#stopTicking();
  }

  #tickWhileRunning(): void {
    const everyMs = this.#options.everyMs ?? keepWhileRunningMs;
    if (everyMs <= 0 || this.#ticker !== undefined) return;
    this.#ticker = setInterval(() => {
      if (this.#ticking) return;
      this.#ticking = true;
      void this.#store(true).finally(() => (this.#ticking = false));
    }, everyMs);
  }

  /** Queues a store after those under way; resolves once it is done (failures are the host's to report). */
  #store(unfinished: boolean): Promise<void> {
    const stored = this.#chain.then(() => this.#storeNow(unfinished)).catch(() => undefined);
    this.#chain = stored;
    return stored;
  }

  async #storeNow(unfinished: boolean): Promise<void> {
    const { source, keepPart } = this.#options;
    if (source && keepPart) {
      if (this.#disposed || !source.keepable()) return;
      const { part, mark } = nextPart(source, this.#session, this.#mark, unfinished);
      let outcome: JournalOutcome = 'not-kept';
      try {
        outcome = await keepPart(part);
      } finally {
        // Not kept (or another transcript took its place): the next store starts afresh.
        this.#mark = outcome === 'kept' ? mark : undefined;
      }
      return;
    }
    const json = this.#options.write();
    if (json) await this.#options.keep(json, { unfinished });
  }

  #stopTicking(): void {
    if (this.#ticker !== undefined) clearInterval(this.#ticker);
    this.#ticker = undefined;
  }
}
