/**
 * How the page takes in what a session worker sends: in order, a little per task. A big import sends a
 * slice of a thousand messages every frame; taking each in as it arrives (or all that waited at once)
 * would make tasks long enough to be felt, the more so on a machine whose cores the worker shares. The
 * intake keeps what arrives, and after a frame takes items in until `budgetMs` is used; the rest waits
 * for the next frame, so the page paints and answers input in between.
 *
 * Taking in and showing are apart: while a backlog is worked off a frame at a time, what was taken is
 * handed to the views (`show`) at most every `refreshMs`, and once the last waiting item is taken. A
 * refresh of every view at every frame would cost the page more than the taking in (and slowed every
 * browser test that runs a session at full speed); ten a second is as much as an eye follows.
 */

/** The clock and the ways to run work later: the page's own, or a test's. */
export interface IntakeTimers {
  now(): number;
  /** Runs `work` before the next paint; returns what cancels it. */
  frame(work: () => void): () => void;
  /** Runs `work` in a task of its own after `ms`; returns what cancels it. */
  timer(work: () => void, ms: number): () => void;
}

/** The page's timers: animation frames, timeouts and `performance.now`. */
export const pageTimers: IntakeTimers = {
  now: () => performance.now(),
  frame(work) {
    const id = requestAnimationFrame(() => work());
    return () => cancelAnimationFrame(id);
  },
  timer(work, ms) {
    const id = setTimeout(work, ms);
    return () => clearTimeout(id);
  },
};

/** What an intake does with its items, and how often. */
export interface IntakeOptions<T> {
  /** Takes one item in. Items come in the order they were pushed, each once. */
  take(item: T): void;
  /**
   * Wraps the items taken in one task (e.g. so the views see them as one change); calls `takeSome`
   * exactly once.
   */
  around?(takeSome: () => void): void;
  /**
   * Hands what the takes since the last `show` took in to the views, in the task of the last of them: at
   * most every `refreshMs` while items wait, and always once none waits (nothing taken stays unshown).
   */
  show?(): void;
  /**
   * The shortest time between two shows while items wait, and between a take and the next one once
   * the intake had caught up, in ms (views refresh no more often).
   */
  refreshMs: number;
  /** How long one task takes items in before leaving the rest to the next frame, in ms. */
  budgetMs: number;
  timers?: IntakeTimers;
}

/** Items waiting to be taken in, taken a budget's worth per frame. */
export class UpdateIntake<T> {
  readonly #options: IntakeOptions<T>;
  readonly #timers: IntakeTimers;
  #items: T[] = [];
  /** Position in `#items` of the next item to take. */
  #next = 0;
  /** Cancels the take scheduled, or undefined when none is. */
  #cancel: (() => void) | undefined;
  #lastTake = -Infinity;
  #lastShow = -Infinity;
  /** True when something was taken and not shown yet. */
  #unshown = false;
  /** Cancels the show scheduled in a task of its own, or undefined when none is. */
  #cancelShow: (() => void) | undefined;

  constructor(options: IntakeOptions<T>) {
    this.#options = options;
    this.#timers = options.timers ?? pageTimers;
  }

  /** How many items wait. */
  get waiting(): number {
    return this.#items.length - this.#next;
  }

  /** Keeps an item; it is taken in at a coming frame, after those pushed before it. */
  push(item: T): void {
    this.#items.push(item);
    if (this.#cancel) return;
    const wait = Math.max(0, this.#lastTake + this.#options.refreshMs - this.#timers.now());
    this.#cancel = this.#timers.timer(() => this.#atFrame(), wait);
  }

  /** Takes every waiting item in now, in order (nothing received is left out, whatever the budget). */
  flush(): void {
    this.#unschedule();
    try {
      if (this.waiting) this.#take(Infinity);
    } finally {
      this.#show();
    }
  }

  /** Forgets the waiting items (what they belong to is no longer shown). */
  drop(): void {
    this.#unschedule();
    this.#items = [];
    this.#next = 0;
    this.#unshown = false;
    this.#cancelShow?.();
    this.#cancelShow = undefined;
  }

  /**
   * Takes items in just after the next frame is drawn, in a task of its own: the script (parsing, the
   * views' update) and the drawing it leads to (style, layout, paint, at the frame after) are two tasks,
   * not one. Without frames (a hidden tab) a timer does it, more slowly. Each is cancelled once one ran.
   */
  #atFrame(): void {
    let cancelAfterFrame: (() => void) | undefined;
    const cancelFrame = this.#timers.frame(() => {
      cancelAfterFrame = this.#timers.timer(() => this.#run(), 0);
    });
    const cancelTimer = this.#timers.timer(() => this.#run(), this.#options.refreshMs);
    this.#cancel = () => {
      cancelFrame();
      cancelAfterFrame?.();
      cancelTimer();
    };
  }

  #run(): void {
    this.#unschedule();
    const started = this.#timers.now();
    try {
      this.#take(this.#options.budgetMs);
    } finally {
      try {
        if (!this.waiting || this.#timers.now() - this.#lastShow >= this.#options.refreshMs) {
          // Taking in ran over its budget (an update alone can): the views' refresh gets a task of its
          // own, so the two do not add up to one long task.
          if (this.#timers.now() - started > this.#options.budgetMs) this.#showSoon();
          else this.#show();
        }
      } finally {
        // An item that failed is not taken again; those after it still are.
        if (this.waiting && !this.#cancel) this.#atFrame();
      }
    }
  }

  #showSoon(): void {
    this.#cancelShow ??= this.#timers.timer(() => this.#show(), 0);
  }

  #show(): void {
    this.#cancelShow?.();
    this.#cancelShow = undefined;
    if (!this.#unshown) return;
    this.#unshown = false;
    this.#lastShow = this.#timers.now();
    this.#options.show?.();
  }

  #unschedule(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }

  /** Takes items in until `budgetMs` is used (at least one), in one `around`. */
  #take(budgetMs: number): void {
    const started = this.#timers.now();
    this.#lastTake = started;
    this.#unshown = true;
    const takeSome = () => {
      do {
        const item = this.#items[this.#next]!;
        this.#next++;
        this.#options.take(item);
      } while (this.#next < this.#items.length && this.#timers.now() - started < budgetMs);
    };
    try {
      if (this.#options.around) this.#options.around(takeSome);
      else takeSome();
    } finally {
      // Taken items are let go (a long import must not keep every slice's text).
      if (this.#next === this.#items.length) {
        this.#items = [];
        this.#next = 0;
      } else if (this.#next > 1024) {
        this.#items = this.#items.slice(this.#next);
        this.#next = 0;
      }
    }
  }
}
