import { describe, expect, it } from 'vitest';
import { TranscriptKeeper, whenKeepersQuiet } from '../../../src/core/session/transcript-keeper';

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
  });
});
