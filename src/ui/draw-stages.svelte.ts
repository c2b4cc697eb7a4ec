/**
 * The first drawing of a transcript's views, split over several tasks. When a transcript arrives, every
 * view is built at once: the log's rows, the message detail, the state panel, the charts. Together that
 * is one task long enough to be felt (over 50 ms of CPU on a fast machine), whatever the transcript's
 * size. A workbench names its views' stages instead: stage 0 (the log) is drawn with the first content,
 * each later stage one task after the one before (a `setTimeout`, so the browser may paint and handle
 * input in between), and until then is fed what it shows for an empty transcript. Once all stages are
 * drawn, refreshes reach every view together, as before; a new transcript (another first row) starts over.
 */
export class DrawStages {
  /** The transcript whose stages are being drawn (its first row), as the views read it. */
  #key = $state.raw<unknown>(undefined);
  /** The last stage drawn for `#key`. */
  #drawn = $state(0);
  /** The same key, not reactive: for `follow`, which runs in an effect and must not depend on itself. */
  #following: unknown = undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #last: number;

  /** `stages`: how many stages there are (at least 1; stage 0 is always drawn). */
  constructor(stages: number) {
    this.#last = Math.max(0, stages - 1);
  }

  /**
   * Whether the views of `stage` are drawn with the content of the transcript identified by `key` (its
   * first row; undefined while it is empty). Pure: views call it in `$derived`.
   */
  shows(stage: number, key: unknown): boolean {
    if (stage <= 0 || key === undefined) return true;
    return this.#key === key && this.#drawn >= stage;
  }

  /**
   * Follows the transcript on show (call it from an `$effect` with the same key as `shows`): a new key
   * draws its later stages one task apart.
   */
  follow(key: unknown): void {
    if (key === this.#following) {
      // Stopped before all were drawn (an effect torn down and run again): the rest follow.
      if (key !== undefined && this.#timer === undefined) this.#next(key);
      return;
    }
    this.#following = key;
    this.stop();
    this.#key = key;
    this.#drawn = 0;
    if (key !== undefined) this.#next(key);
  }

  /** Stops drawing the stages left (the workbench goes away). */
  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #next(key: unknown): void {
    if (this.#drawn >= this.#last) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (key !== this.#following) return;
      this.#drawn++;
      this.#next(key);
    }, 0);
  }
}
