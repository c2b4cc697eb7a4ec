/** Result of waiting for a promise with a deadline. */
export type DeadlineOutcome<T> = { settled: true; value: T } | { settled: false };

/** Starts a timer that calls `expire` after `ms` milliseconds; returns what cancels it. */
export interface DeadlineTimer {
  start(ms: number, expire: () => void): () => void;
}

/** Deadlines on the wall clock. */
export const wallClockTimer: DeadlineTimer = {
  start(ms, expire) {
    const timer = setTimeout(expire, ms);
    return () => clearTimeout(timer);
  },
};

/**
 * Waits for `promise` at most `ms` milliseconds (as `timer` counts them). Needed around every call into a
 * worker that may be terminated: a terminated worker never answers, and its pending calls never settle nor
 * reject. A rejection of `promise` is passed on.
 */
export function withDeadline<T>(
  promise: Promise<T>,
  ms: number,
  timer: DeadlineTimer = wallClockTimer,
): Promise<DeadlineOutcome<T>> {
  return new Promise((resolve, reject) => {
    const cancel = timer.start(ms, () => resolve({ settled: false }));
    promise.then(
      (value) => {
        cancel();
        resolve({ settled: true, value });
      },
      (error: unknown) => {
        cancel();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
