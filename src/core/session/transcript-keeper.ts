/**
 * Keeps a live session's transcript across reloads from the session worker, where it is recorded: stored
 * whenever the session pauses or ends. Storing writes out the whole transcript (tens of thousands of
 * messages for a long session), which the page would feel as a stall; in the worker it costs the page
 * nothing. How it is stored is the host's business (`PlaygroundServices.keepTranscript`).
 */
import type { SessionStatus } from '../protocols/session-contract';

/** Statuses in which the transcript stops growing for a while. */
const QUIET: ReadonlySet<SessionStatus> = new Set([
  'paused',
  'awaiting-decision',
  'finished',
  'stopped',
  'failed',
]);

/** Options of a keeper. */
export interface TranscriptKeeperOptions {
  /** The transcript as Protoplay JSON pieces, or undefined when it is too big to keep. */
  write: () => string[] | undefined;
  keep: (json: readonly string[]) => Promise<void>;
}

/** Stores one session's transcript when it is quiet. */
export class TranscriptKeeper {
  readonly #options: TranscriptKeeperOptions;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: TranscriptKeeperOptions) {
    this.#options = options;
  }

  /** Notes the session's status: quiet for a moment (a step pauses at once) stores, running waits. */
  status(status: SessionStatus): void {
    this.cancel();
    if (!QUIET.has(status)) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const json = this.#options.write();
      if (json) void this.#options.keep(json).catch(() => undefined);
    }, 200);
  }

  /** Drops a pending store: a newer session's transcript replaces this one. */
  cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
