import { describe, expect, it } from 'vitest';
import { DrawStages } from '../../src/ui/draw-stages.svelte';

/** Waits for the tasks queued so far (and the ones they queue at once) to run. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the first drawing of a transcript split over tasks', () => {
  it('draws stage 0 with the first content and each later stage one task after the one before', async () => {
    const stages = new DrawStages(3);
    const first = { index: 0 };
    // Empty: every view shows the empty transcript, there is nothing to hold back.
    expect([0, 1, 2].map((s) => stages.shows(s, undefined))).toEqual([true, true, true]);
    stages.follow(undefined);
    // Content arrives: only the first stage is drawn in the task it arrived in.
    expect([0, 1, 2].map((s) => stages.shows(s, first))).toEqual([true, false, false]);
    stages.follow(first);
    expect([0, 1, 2].map((s) => stages.shows(s, first))).toEqual([true, false, false]);
    await nextTask();
    expect([0, 1, 2].map((s) => stages.shows(s, first))).toEqual([true, true, false]);
    await nextTask();
    expect([0, 1, 2].map((s) => stages.shows(s, first))).toEqual([true, true, true]);
    // Refreshes of the same transcript reach every stage at once.
    stages.follow(first);
    expect(stages.shows(2, first)).toBe(true);

    // Another transcript starts over.
    const other = { index: 0 };
    expect([0, 1, 2].map((s) => stages.shows(s, other))).toEqual([true, false, false]);
    stages.follow(other);
    await nextTask();
    await nextTask();
    expect([0, 1, 2].map((s) => stages.shows(s, other))).toEqual([true, true, true]);
    expect(stages.shows(1, first)).toBe(false);
  });

  it('stops when the views go away and goes on when followed again', async () => {
    const stages = new DrawStages(2);
    const first = { index: 0 };
    stages.follow(first);
    stages.stop();
    await nextTask();
    await nextTask();
    expect(stages.shows(1, first)).toBe(false);
    stages.follow(first);
    await nextTask();
    expect(stages.shows(1, first)).toBe(true);
  });

  it('forgets a transcript replaced before its stages were drawn', async () => {
    const stages = new DrawStages(2);
    const first = { index: 0 };
    const second = { index: 0 };
    stages.follow(first);
    stages.follow(second);
    await nextTask();
    expect(stages.shows(1, first)).toBe(false);
    expect(stages.shows(1, second)).toBe(true);
  });
});
