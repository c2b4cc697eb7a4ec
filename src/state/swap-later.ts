import { pageTimers, type IntakeTimers } from './update-intake';

/**
 * Which one of several big parts of the page is built (a protocol's workbench), when the one wanted
 * changes: the part on show is taken down at once, and the part wanted is built in a task of its own,
 * next. Taking one workbench down (its editor, charts and panes) and building another were one task of
 * 30 ms of CPU and more, lengthened to over 50 ms whenever the session worker holds a core (an import
 * of another protocol's file swaps them while the worker reads it).
 */
export class SwapLater<T> {
  readonly #show: (built: T | undefined) => void;
  readonly #timers: Pick<IntakeTimers, 'timer'>;
  #built: T | undefined;
  /** Cancels the build scheduled, or undefined when none is. */
  #cancel: (() => void) | undefined;

  /**
   * `initial` is built from the start; `show` hears every change of what is built (undefined: nothing,
   * between the one taken down and the next).
   */
  constructor(
    initial: T,
    show: (built: T | undefined) => void,
    timers: Pick<IntakeTimers, 'timer'> = pageTimers,
  ) {
    this.#built = initial;
    this.#show = show;
    this.#timers = timers;
  }

  /** What is built now, or undefined between two. */
  get built(): T | undefined {
    return this.#built;
  }

  /** Builds `wanted` instead of what is built: what is built goes now, `wanted` comes in a later task. */
  want(wanted: T): void {
    this.#cancel?.();
    this.#cancel = undefined;
    if (wanted === this.#built) return;
    if (this.#built !== undefined) {
      this.#built = undefined;
      this.#show(undefined);
    }
    this.#cancel = this.#timers.timer(() => {
      this.#cancel = undefined;
      this.#built = wanted;
      this.#show(wanted);
    }, 0);
  }
}
