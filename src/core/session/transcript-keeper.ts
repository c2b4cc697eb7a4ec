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
    busy.add(this);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const json = this.#options.write();
      if (!json) return settled(this);
      void this.#options
        .keep(json)
        .catch(() => undefined)
        .finally(() => settled(this));
    }, 200);
  }

  /** Drops a pending store: a newer session's transcript replaces this one. */
  cancel(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      settled(this);
    }
    this.#timer = undefined;
  }
}
