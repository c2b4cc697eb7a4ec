/**
 * Time for the MASSim host and runner, injected so the same code runs against the wall clock (command line,
 * live play) or a virtual clock (tests, replays, as-fast-as-possible runs where only deadlines move time).
 */

/** An opaque handle of a scheduled timer. */
export type TimerHandle = { readonly timer: unknown };

/** A clock in epoch milliseconds and one-shot timers on it. */
export interface MassimScheduler {
  /** Milliseconds since the Unix epoch (the wire's `time` and `deadline` fields use it). */
  now(): number;
  /** Calls `callback` once, `delayMs` from now. */
  setTimer(delayMs: number, callback: () => void): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

/** The wall clock and the platform's timers. */
export function realTimeScheduler(): MassimScheduler {
  return {
    now: () => Date.now(),
    setTimer: (delayMs, callback) => ({ timer: setTimeout(callback, Math.max(0, delayMs)) }),
    // The handle's type differs between platforms (a number in browsers, an object in Node).
    clearTimer: (handle) => clearTimeout(handle.timer as Parameters<typeof clearTimeout>[0]),
  };
}

interface VirtualTimer {
  at: number;
  order: number;
  callback: () => void;
}

/**
 * A clock that only moves when told to. Timers fire in time order (then in the order they were set) as the
 * clock passes them, so a session replays identically whatever the machine's speed.
 */
export class VirtualScheduler implements MassimScheduler {
  #now: number;
  #timers = new Set<VirtualTimer>();
  #order = 0;

  /** Starts the clock at `startMs` (epoch milliseconds). */
  constructor(startMs = 0) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimer(delayMs: number, callback: () => void): TimerHandle {
    const timer = { at: this.#now + Math.max(0, delayMs), order: this.#order++, callback };
    this.#timers.add(timer);
    return { timer };
  }

  clearTimer(handle: TimerHandle): void {
    this.#timers.delete(handle.timer as VirtualTimer);
  }

  /** The time of the earliest pending timer, if any. */
  nextTimerAt(): number | undefined {
    return this.#earliest()?.at;
  }

  /** Moves the clock forward by `ms`, firing every timer due on the way. */
  advance(ms: number): void {
    this.advanceTo(this.#now + ms);
  }

  /** Moves the clock to `timeMs` (never backwards), firing every timer due on the way. */
  advanceTo(timeMs: number): void {
    for (let timer = this.#earliest(); timer && timer.at <= timeMs; timer = this.#earliest()) {
      this.#timers.delete(timer);
      this.#now = Math.max(this.#now, timer.at);
      timer.callback();
    }
    this.#now = Math.max(this.#now, timeMs);
  }

  /** Jumps to the earliest pending timer and fires it (and any due at the same time). False if none. */
  fireNext(): boolean {
    const next = this.#earliest();
    if (!next) return false;
    this.advanceTo(next.at);
    return true;
  }

  #earliest(): VirtualTimer | undefined {
    let earliest: VirtualTimer | undefined;
    for (const timer of this.#timers) {
      if (!earliest || timer.at < earliest.at || (timer.at === earliest.at && timer.order < earliest.order))
        earliest = timer;
    }
    return earliest;
  }
}
