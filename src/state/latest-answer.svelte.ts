/**
 * The answer to the latest of a stream of questions to the worker (the world at the step on show, an
 * agent's point of view...), without flooding it: one question is in flight at a time; while it is, only
 * the newest next question is kept, and asked as soon as the answer arrives. Every answer is shown when it
 * comes, so a view following a fast match keeps moving instead of waiting for the questions to stop.
 */
export class LatestAnswer<T> {
  /** The last answer received. */
  value = $state.raw<T | undefined>();
  #inFlight = false;
  #next: { key: string; ask: () => Promise<T> } | undefined;
  #lastKey: string | undefined;

  /** Asks unless the same question (by key) was the last one asked. */
  ask(key: string, ask: () => Promise<T>): void {
    if (key === this.#lastKey && !this.#next) return;
    this.#next = { key, ask };
    if (!this.#inFlight) this.#askNext();
  }

  /** Forgets the answer (nothing to ask about any more). */
  clear(): void {
    this.#next = undefined;
    this.#lastKey = undefined;
    this.value = undefined;
  }

  #askNext(): void {
    const next = this.#next;
    if (!next) return;
    this.#next = undefined;
    this.#lastKey = next.key;
    this.#inFlight = true;
    next.ask().then(
      (value) => {
        this.#inFlight = false;
        // An answer to a question asked before `clear` is dropped.
        if (this.#lastKey === next.key) this.value = value;
        this.#askNext();
      },
      () => {
        this.#inFlight = false;
        this.#askNext();
      },
    );
  }
}
