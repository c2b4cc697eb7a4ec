import { describe, expect, it } from 'vitest';
import type { SessionStatus } from '../../../src/core/protocols/session-contract';
import { UpdateBatcher } from '../../../src/core/session/update-batcher';

describe('batching a session’s updates', () => {
  it('tells the keeper the status after every batch, also when only the transcript grew', () => {
    const statuses: SessionStatus[] = [];
    const frames: (() => void)[] = [];
    const batcher = new UpdateBatcher({
      listener: { update: () => undefined },
      nextFrame: (callback) => frames.push(callback),
      content: { kind: 'views', news: () => ({}) },
      reset: { protocol: 'test', origin: 'live' },
      onStatus: (status) => statuses.push(status),
    });
    batcher.schedule();
    frames.shift()!();
    // Nothing known yet: nothing said.
    expect(statuses).toEqual([]);
    batcher.note({ status: 'paused' });
    frames.shift()!();
    // A step taken while paused: more to store, the status unchanged.
    batcher.schedule();
    frames.shift()!();
    batcher.note({ status: 'finished' });
    frames.shift()!();
    expect(statuses).toEqual(['paused', 'paused', 'finished']);
  });
});
