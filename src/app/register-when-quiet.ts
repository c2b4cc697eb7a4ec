import { whenIdle, type ForegroundWork } from '../state/foreground-work';

/** How long the page must go without foreground work before the service worker is registered, in ms. */
export const QUIET_BEFORE_REGISTERING_MS = 5000;

/** What `registerWhenQuiet` waits with (a fake clock in tests). */
export interface QuietClock {
  delay(ms: number): Promise<void>;
  /** Resolves when the browser is idle, or after `timeoutMs` at the latest. */
  idle(timeoutMs: number): Promise<void>;
}

const browserClock: QuietClock = {
  delay: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  idle: whenIdle,
};

/**
 * Calls `register` once the page has gone `quietMs` without foreground work (an import being read) and
 * is idle. Installing the build's service worker fetches and stores the whole build (about 15 MB) and
 * has the browser compile its scripts for the cache: several hundred ms of CPU on other threads, which
 * on a 2-core machine a file dropped in the first seconds of a first visit had to share. An import under
 * way, or one that starts during the quiet wait, puts the registration back until it is done.
 */
export async function registerWhenQuiet(
  work: Pick<ForegroundWork, 'under' | 'whenNone'>,
  register: () => void,
  quietMs = QUIET_BEFORE_REGISTERING_MS,
  clock: QuietClock = browserClock,
): Promise<void> {
  for (;;) {
    await work.whenNone();
    await clock.delay(quietMs);
    if (work.under > 0) continue;
    await clock.idle(1000);
    if (work.under === 0) break;
  }
  register();
}
