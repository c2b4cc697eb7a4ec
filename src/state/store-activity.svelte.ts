/**
 * Whether the page has writes to storage waiting (debounced) or under way: the workspace, a protocol's own
 * state, the last transcript. The shell shows it as `data-stored` on the page, so a test (or anything
 * about to reload) can wait until what the learner did is stored instead of guessing how long that takes.
 * A debounced write that fails (the storage quota) is remembered as `problem` until one succeeds, so the
 * shell can tell the learner that their work is not kept.
 */
import { describeStorageFailure } from '../storage/storage-failure';

class StoreActivity {
  /** Writes waiting or under way. */
  pending = $state(0);
  /** Why the last debounced write failed, until one succeeds (`the browser's storage ... is full`). */
  problem = $state<string | undefined>();
  /**
   * The count itself, outside the reactive state. A cancelled write is counted off in an effect's
   * cleanup, and a cleanup reads state as it was before the changes of the current update (Svelte shows
   * teardowns the old values): counting from `pending` there would lose a write counted earlier in the
   * same update, and the page would never again say that everything is stored.
   */
  #count = 0;

  /** Counts one more or one less (only written: the effect that asks does not depend on the count). */
  #add(delta: number): void {
    this.#count += delta;
    this.pending = this.#count;
  }

  /**
   * Runs `write` after `delayMs`, counted as pending from now until it has finished. The returned
   * cleanup cancels it when it has not started (a newer change replaces it), as an effect's cleanup.
   */
  later(write: () => Promise<unknown>, delayMs: number): () => void {
    this.#add(1);
    let started = false;
    const timer = setTimeout(() => {
      started = true;
      void Promise.resolve()
        .then(write)
        .then(
          () => (this.problem = undefined),
          (error: unknown) => (this.problem = describeStorageFailure(error)),
        )
        .finally(() => this.#add(-1));
    }, delayMs);
    return () => {
      if (started) return;
      clearTimeout(timer);
      this.#add(-1);
    };
  }

  /** Counts `work` as pending until it settles (failed or not). */
  track(work: Promise<unknown>): Promise<void> {
    this.#add(1);
    return work.then(
      () => this.#add(-1),
      () => this.#add(-1),
    );
  }
}

/** The page's storage activity (one per page). */
export const storeActivity = new StoreActivity();
