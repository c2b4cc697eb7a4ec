import { describe, expect, it } from 'vitest';
import { storeActivity } from '../../src/state/store-activity.svelte';

describe('the page’s storage activity', () => {
  it('counts a debounced write from when it is asked for until it has finished', async () => {
    let finish!: () => void;
    let started = false;
    const cancel = storeActivity.later(() => {
      started = true;
      return new Promise<void>((resolve) => (finish = resolve));
    }, 5);
    expect(storeActivity.pending).toBe(1);
    await expect.poll(() => started).toBe(true);
    // Cancelling a write under way does not forget it: it is still pending until it ends.
    cancel();
    expect(storeActivity.pending).toBe(1);
    finish();
    await expect.poll(() => storeActivity.pending).toBe(0);
  });

  it('forgets a write cancelled before it started, and counts a failed one as done', async () => {
    let ran = false;
    const cancel = storeActivity.later(async () => {
      ran = true;
    }, 10_000);
    expect(storeActivity.pending).toBe(1);
    cancel();
    expect(storeActivity.pending).toBe(0);
    expect(ran).toBe(false);
    await storeActivity.track(Promise.reject(new Error('quota')));
    expect(storeActivity.pending).toBe(0);
    storeActivity.later(() => Promise.reject(new Error('quota')), 1);
    await expect.poll(() => storeActivity.pending).toBe(0);
  });

  it('remembers why a write failed (the storage quota) until one succeeds', async () => {
    storeActivity.later(
      () => Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')),
      1,
    );
    await expect
      .poll(() => storeActivity.problem)
      .toMatch(/storage for this site is full \(storage quota exceeded\)/);
    expect(storeActivity.pending).toBe(0);
    storeActivity.later(() => Promise.reject(new Error('disk gone')), 1);
    await expect.poll(() => storeActivity.problem).toBe('the browser could not store it (disk gone)');
    storeActivity.later(async () => undefined, 1);
    await expect.poll(() => storeActivity.problem).toBeUndefined();
  });
});
