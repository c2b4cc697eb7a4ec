import { describe, expect, it } from 'vitest';
import { ForegroundWork } from '../../src/state/foreground-work';

/** A promise with its settling functions. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** Lets every settled promise's reactions run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ForegroundWork', () => {
  it('lets waiting work go at once when nothing is under way', async () => {
    const work = new ForegroundWork();
    let went = false;
    void work.whenNone().then(() => (went = true));
    await settle();
    expect(went).toBe(true);
  });

  it('holds waiting work until every piece of work under way has settled, fulfilled or rejected', async () => {
    const work = new ForegroundWork();
    const first = deferred<string>();
    const second = deferred<string>();
    const tracked = work.track(first.promise);
    const failing = work.track(second.promise).catch((error: unknown) => String(error));
    expect(work.under).toBe(2);
    let went = 0;
    void work.whenNone().then(() => went++);
    void work.whenNone().then(() => went++);
    first.resolve('read');
    expect(await tracked).toBe('read');
    await settle();
    expect(went).toBe(0);
    second.reject(new Error('unreadable'));
    expect(await failing).toBe('Error: unreadable');
    await settle();
    expect(went).toBe(2);
    expect(work.under).toBe(0);
  });

  it('holds again for work begun after the last wait', async () => {
    const work = new ForegroundWork();
    const first = deferred();
    void work.track(first.promise);
    first.resolve();
    await settle();
    const later = deferred();
    void work.track(later.promise);
    let went = false;
    void work.whenNone().then(() => (went = true));
    await settle();
    expect(went).toBe(false);
    later.resolve();
    await settle();
    expect(went).toBe(true);
  });
});
