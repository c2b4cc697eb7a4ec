import { describe, expect, it } from 'vitest';
import {
  KEEP_WHILE_RUNNING_MS,
  setKeepWhileRunningMs,
  TranscriptKeeper,
  whenKeepersQuiet,
} from '../../../src/core/session/transcript-keeper';

describe('keeping a session’s transcript', () => {
  it('says when the store a quiet status asked for has finished', async () => {
    const kept: string[][] = [];
    let finishStore!: () => void;
    const keeper = new TranscriptKeeper({
      write: () => ['{}'],
      keep: (json) => {
        kept.push([...json]);
        return new Promise<void>((resolve) => (finishStore = resolve));
      },
    });
    await whenKeepersQuiet();
    keeper.status('finished');
    let quiet = false;
    void whenKeepersQuiet().then(() => (quiet = true));
    await expect.poll(() => kept.length).toBe(1);
    expect(quiet).toBe(false);
    finishStore();
    await expect.poll(() => quiet).toBe(true);
  });

  it('keeps those waiting until the last of several quiet statuses has been stored', async () => {
    let finishStore: (() => void) | undefined;
    const keeper = new TranscriptKeeper({
      write: () => ['{}'],
      keep: () => new Promise<void>((resolve) => (finishStore = resolve)),
    });
    keeper.status('paused');
    let quiet = false;
    void whenKeepersQuiet().then(() => (quiet = true));
    keeper.status('paused');
    keeper.status('finished');
    await expect.poll(() => finishStore).toBeDefined();
    expect(quiet).toBe(false);
    finishStore!();
    await expect.poll(() => quiet).toBe(true);
    keeper.dispose();
  });

  it('is quiet again when the pending store is cancelled, or there is nothing to keep', async () => {
    const keeper = new TranscriptKeeper({ write: () => undefined, keep: () => Promise.resolve() });
    keeper.status('paused');
    keeper.status('running');
    await whenKeepersQuiet();
    keeper.status('stopped');
    await whenKeepersQuiet();
    const cancelled = new TranscriptKeeper({ write: () => ['{}'], keep: () => Promise.resolve() });
    cancelled.status('finished');
    cancelled.cancel();
    await whenKeepersQuiet();
    keeper.dispose();
  });

  it('stores while the session runs, marked unfinished, until it ends or is dropped', async () => {
    const stores: { json: string; unfinished: boolean }[] = [];
    let written = 0;
    const keeper = new TranscriptKeeper({
      write: () => [`{"n":${++written}}`],
      keep: (json, how) => {
        stores.push({ json: json.join(''), unfinished: how.unfinished });
        return Promise.resolve();
      },
      everyMs: 20,
    });
    keeper.status('running');
    keeper.status('running');
    await expect.poll(() => stores.length).toBeGreaterThanOrEqual(2);
    expect(stores.every((s) => s.unfinished)).toBe(true);
    // Waiting on the learner is not an end: still unfinished.
    keeper.status('paused');
    await whenKeepersQuiet();
    expect(stores.at(-1)!.unfinished).toBe(true);
    keeper.status('running');
    keeper.status('finished');
    await whenKeepersQuiet();
    const ended = stores.length;
    expect(stores.at(-1)!.unfinished).toBe(false);
    // Ended: no more stores while running.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stores.length).toBe(ended);

    keeper.status('running');
    await expect.poll(() => stores.length).toBeGreaterThan(ended);
    keeper.dispose();
    const dropped = stores.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stores.length).toBe(dropped);
  });

  it('does not queue a store while the last one is still under way', async () => {
    let calls = 0;
    let finish!: () => void;
    const keeper = new TranscriptKeeper({
      write: () => ['{}'],
      keep: () => {
        calls++;
        return new Promise<void>((resolve) => (finish = resolve));
      },
      everyMs: 10,
    });
    keeper.status('running');
    await expect.poll(() => calls).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toBe(1);
    finish();
    await expect.poll(() => calls).toBe(2);
    keeper.dispose();
    finish();
  });

  it('takes the pace of stores while running from the page-wide setting when it is given none', async () => {
    const stores: boolean[] = [];
    const make = () =>
      new TranscriptKeeper({
        write: () => ['{}'],
        keep: (_, how) => {
          stores.push(how.unfinished);
          return Promise.resolve();
        },
      });
    try {
      setKeepWhileRunningMs(0);
      const quietOnly = make();
      quietOnly.status('running');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stores).toEqual([]);
      quietOnly.status('finished');
      await whenKeepersQuiet();
      expect(stores).toEqual([false]);
      quietOnly.dispose();

      setKeepWhileRunningMs(15);
      const often = make();
      often.status('running');
      await expect.poll(() => stores.length).toBeGreaterThanOrEqual(3);
      expect(stores.slice(1).every((unfinished) => unfinished)).toBe(true);
      often.dispose();
    } finally {
      setKeepWhileRunningMs(KEEP_WHILE_RUNNING_MS);
    }
  });
});
