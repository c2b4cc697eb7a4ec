/**
 * Whether the page has writes to storage waiting (debounced) or under way: the workspace, a protocol's own
 * state, the last transcript. The shell shows it as `data-stored` on the page, so a test (or anything
 * about to reload) can wait until what the learner did is stored instead of guessing how long that takes.
 */
import { untrack } from 'svelte';

class StoreActivity {
  /** Writes waiting or under way. */
  pending = $state(0);

  /** Counts one more or one less, without making the effect that asks depend on the count. */
  #add(delta: number): void {
    untrack(() => (this.pending += delta));
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
        .catch(() => undefined)
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
