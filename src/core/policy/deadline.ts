/** Result of waiting for a promise with a deadline. */
export type DeadlineOutcome<T> = { settled: true; value: T } | { settled: false };

/**
 * Waits for `promise` at most `ms` milliseconds. Needed around every call into a worker that may be
 * terminated: a terminated worker never answers, and its pending calls never settle nor reject.
 * A rejection of `promise` is passed on.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<DeadlineOutcome<T>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve({ settled: false }), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve({ settled: true, value });
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
