/** Things a test started, stopped after it in reverse order (servers, bridges, pages). */
import { afterEach } from 'vitest';

const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Stops `stop` after the current test. */
export function afterTest(stop: () => unknown): void {
  cleanups.push(stop);
}
