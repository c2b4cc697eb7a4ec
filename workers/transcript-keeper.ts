/**
 * Keeps a live session's transcript across reloads from the session worker, where it is recorded: stored
 * whenever the session pauses or ends. Storing copies the whole transcript (tens of thousands of messages
 * for a long session), which the page would feel as a stall; here it costs the page nothing.
 */
import type { Transcript } from '../src/core/transcript/model';
import { storeTranscript } from '../src/state/persistence';
import type { SessionStatus } from './session-api';

/** Statuses in which the transcript stops growing for a while. */
const QUIET: ReadonlySet<SessionStatus> = new Set([
  'paused',
  'awaiting-decision',
  'finished',
  'stopped',
  'failed',
]);

/** Stores one session's transcript when it is quiet. */
export class TranscriptKeeper {
  readonly #transcript: Transcript;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(transcript: Transcript) {
    this.#transcript = transcript;
  }

  /** Notes the session's status: quiet for a moment (a step pauses at once) stores, running waits. */
  status(status: SessionStatus): void {
    this.cancel();
    if (!QUIET.has(status)) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void storeTranscript(this.#transcript).catch(() => undefined);
    }, 200);
  }

  /** Drops a pending store: a newer session's transcript replaces this one. */
  cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
