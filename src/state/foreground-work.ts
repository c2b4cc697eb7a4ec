/**
 * Work the learner is waiting for (a file being imported), and work that can wait for it. An import is
 * read, checked and shown by the session worker while the page builds the imported protocol's workbench;
 * on a 2-core machine the workbench's code editor (Monaco's first drawing on the main thread, and its
 * TypeScript worker checking the new policy) took CPU the import needed. The editor asks
 * `whenNone` before it loads.
 */
export class ForegroundWork {
  #under = 0;
  #waiting: (() => void)[] = [];

  /** Counts `work` as under way until it settles (fulfilled or rejected); returns it. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#under++;
    const done = () => {
      if (--this.#under > 0) return;
      const waiting = this.#waiting;
      this.#waiting = [];
      for (const resolve of waiting) resolve();
    };
    work.then(done, done);
    return work;
  }

  /** How many pieces of work are under way. */
  get under(): number {
    return this.#under;
  }

  /** Resolves once no work is under way (at once when none is). */
  whenNone(): Promise<void> {
    if (this.#under === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}

/**
 * Resolves when the browser is idle, or after `timeoutMs` at the latest (at once, in a task of its own,
 * where there is no idle callback).
 */
export function whenIdle(timeoutMs: number): Promise<void> {
  return new Promise((resolve) =>
    typeof requestIdleCallback === 'function'
      ? requestIdleCallback(() => resolve(), { timeout: timeoutMs })
      : setTimeout(resolve, 0),
  );
}

/** The page's foreground work (one per page). */
export const foregroundWork = new ForegroundWork();
