import { describe, expect, it } from 'vitest';
import { UpdateIntake, type IntakeTimers } from '../../src/state/update-intake';

/**
 * A fake clock with frames and timers the test runs by hand: `runFrame` runs the work waiting for a
 * frame, `runTimers` the timers due by the clock, `nextFrame` both.
 */
class FakeTimers implements IntakeTimers {
  time = 0;
  #frames: { work: () => void; live: boolean }[] = [];
  #timers: { work: () => void; at: number; live: boolean }[] = [];

  now = () => this.time;

  frame(work: () => void): () => void {
    const entry = { work, live: true };
    this.#frames.push(entry);
    return () => (entry.live = false);
  }

  timer(work: () => void, ms: number): () => void {
    const entry = { work, at: this.time + ms, live: true };
    this.#timers.push(entry);
    return () => (entry.live = false);
  }

  /** Runs the timers due now, oldest first; how many ran. */
  runTimers(): number {
    const due = this.#timers.filter((t) => t.live && t.at <= this.time);
    this.#timers = this.#timers.filter((t) => t.live && t.at > this.time);
    for (const timer of due) {
      if (!timer.live) continue;
      timer.live = false;
      timer.work();
    }
    return due.length;
  }

  /** Runs the work waiting for a frame; how much there was. */
  runFrame(): number {
    const waiting = this.#frames.filter((f) => f.live);
    this.#frames = [];
    for (const frame of waiting) {
      if (!frame.live) continue;
      frame.live = false;
      frame.work();
    }
    return waiting.length;
  }

  /** Draws a frame and runs the tasks due just after it; whether a frame was waited for. */
  nextFrame(): boolean {
    if (!this.runFrame()) return false;
    this.runTimers();
    return true;
  }

  /** True when some frame or timer is still to run. */
  get scheduled(): boolean {
    return this.#frames.some((f) => f.live) || this.#timers.some((t) => t.live);
  }
}

/**
 * An intake whose every take costs `costMs` on the fake clock, recording what it took, in which task, and
 * what each show handed to the views (the items taken since the show before, and when).
 */
function intakeWith(costMs: number, budgetMs = 8, refreshMs = 100) {
  const timers = new FakeTimers();
  const taken: number[] = [];
  const tasks: number[][] = [];
  const shows: { items: number[]; at: number }[] = [];
  let unshown: number[] = [];
  const intake = new UpdateIntake<number>({
    take: (item) => {
      taken.push(item);
      unshown.push(item);
      tasks[tasks.length - 1]!.push(item);
      timers.time += costMs;
    },
    around: (takeSome) => {
      tasks.push([]);
      takeSome();
    },
    show: () => {
      shows.push({ items: unshown, at: timers.time });
      unshown = [];
    },
    refreshMs,
    budgetMs,
    timers,
  });
  return { timers, taken, tasks, shows, intake };
}

describe('taking in what a session worker sends, a budget per frame', () => {
  it('takes items in at a frame, in the order they came, each once', () => {
    const { timers, taken, intake } = intakeWith(1);
    for (let i = 0; i < 5; i++) intake.push(i);
    // Nothing happens in the task that received them.
    expect(taken).toEqual([]);
    expect(timers.runTimers()).toBe(1);
    expect(taken).toEqual([]);
    // Not in the frame's own task (where style, layout and paint follow) but in the task just after it.
    expect(timers.runFrame()).toBe(1);
    expect(taken).toEqual([]);
    timers.runTimers();
    expect(taken).toEqual([0, 1, 2, 3, 4]);
    expect(intake.waiting).toBe(0);
    // The hidden-tab timer was cancelled with the frame: nothing runs twice.
    timers.time += 1000;
    expect(timers.runTimers()).toBe(0);
    expect(timers.scheduled).toBe(false);
  });

  it('stops a task once its budget is used and goes on at the next frame, keeping the order', () => {
    const { timers, taken, tasks, intake } = intakeWith(3, 8);
    for (let i = 0; i < 10; i++) intake.push(i);
    timers.runTimers();
    while (timers.nextFrame()) {
      // Each task stopped as soon as 8 ms were used: three takes of 3 ms (the third began at 6 ms).
      expect(tasks[tasks.length - 1]!.length).toBeLessThanOrEqual(3);
    }
    expect(tasks).toEqual([[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]);
    expect(taken).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('takes one item per task even when one item alone is over the budget', () => {
    const { timers, tasks, intake } = intakeWith(20, 8);
    for (let i = 0; i < 3; i++) intake.push(i);
    timers.runTimers();
    while (timers.nextFrame());
    expect(tasks).toEqual([[0], [1], [2]]);
  });

  it('keeps items that arrive while it is behind after the ones waiting, and refreshes at most every refreshMs', () => {
    const { timers, taken, tasks, intake } = intakeWith(1, 2, 100);
    intake.push(0);
    intake.push(1);
    intake.push(2);
    timers.runTimers();
    timers.nextFrame();
    expect(taken).toEqual([0, 1]);
    intake.push(3);
    timers.nextFrame();
    expect(taken).toEqual([0, 1, 2, 3]);
    // A new item after the intake caught up waits for the refresh interval.
    timers.time += 10;
    intake.push(4);
    expect(timers.runTimers()).toBe(0);
    expect(timers.nextFrame()).toBe(false);
    timers.time += 100;
    timers.runTimers();
    timers.nextFrame();
    expect(taken).toEqual([0, 1, 2, 3, 4]);
    expect(tasks).toEqual([[0, 1], [2, 3], [4]]);
  });

  it('works a backlog off a frame at a time but shows it at most every refreshMs, and shows the last items taken', () => {
    // Takes of 2 ms, a 4 ms budget: two items per task; frames 16 ms apart.
    const { timers, taken, tasks, shows, intake } = intakeWith(2, 4, 100);
    for (let i = 0; i < 40; i++) intake.push(i);
    timers.runTimers();
    while (timers.scheduled) {
      timers.time += 16;
      timers.nextFrame();
    }
    // Every frame took its budget's worth, in order, each item once.
    expect(taken).toEqual([...Array(40).keys()]);
    expect(tasks).toHaveLength(20);
    expect(tasks.every((task) => task.length === 2)).toBe(true);
    // The views were shown far fewer times than there were tasks, never twice within refreshMs while
    // items waited (the last show, once none waits, may come sooner) ...
    expect(shows.length).toBeLessThan(tasks.length / 3);
    for (let i = 1; i < shows.length - 1; i++)
      expect(shows[i]!.at - shows[i - 1]!.at).toBeGreaterThanOrEqual(100);
    // ... and together they hold every item taken, in order: the last ones too, once none waited.
    expect(shows.flatMap((show) => show.items)).toEqual(taken);
    expect(shows[shows.length - 1]!.items).toContain(39);
  });

  it('shows an item that arrives alone in the task that takes it', () => {
    const { timers, shows, intake } = intakeWith(1, 4, 100);
    intake.push(0);
    timers.runTimers();
    timers.nextFrame();
    expect(shows).toEqual([{ items: [0], at: 1 }]);
    timers.time += 150;
    intake.push(1);
    timers.runTimers();
    timers.nextFrame();
    expect(shows.map((show) => show.items)).toEqual([[0], [1]]);
  });

  it('shows what a flush took at once, and shows nothing of items dropped before they were taken', () => {
    const { timers, shows, intake } = intakeWith(2, 4, 100);
    for (let i = 0; i < 10; i++) intake.push(i);
    timers.runTimers();
    timers.nextFrame();
    // The first task shows its items (nothing was shown for refreshMs before it).
    expect(shows.map((show) => show.items)).toEqual([[0, 1]]);
    timers.time += 16;
    timers.nextFrame();
    // Within refreshMs of that show: taken, not shown yet.
    expect(shows).toHaveLength(1);
    intake.flush();
    expect(shows.map((show) => show.items)).toEqual([
      [0, 1],
      [2, 3, 4, 5, 6, 7, 8, 9],
    ]);
    intake.push(10);
    intake.drop();
    timers.time += 1000;
    timers.runTimers();
    timers.nextFrame();
    expect(shows).toHaveLength(2);
    expect(timers.scheduled).toBe(false);
  });

  it('refreshes the views in a task of its own after a take that ran over its budget', () => {
    const { timers, tasks, shows, intake } = intakeWith(20, 8, 100);
    intake.push(0);
    timers.runTimers();
    timers.runFrame();
    // The task just after the frame takes the item in (20 ms, over the 8 ms budget) and shows nothing ...
    expect(timers.runTimers()).toBe(1);
    expect(tasks).toEqual([[0]]);
    expect(shows).toEqual([]);
    // ... the next task shows it.
    expect(timers.runTimers()).toBe(1);
    expect(shows).toEqual([{ items: [0], at: 20 }]);
    expect(timers.scheduled).toBe(false);
    // A drop in between forgets that show; a flush shows at once.
    intake.push(1);
    timers.time += 100;
    timers.runTimers();
    timers.nextFrame();
    intake.drop();
    timers.runTimers();
    expect(shows).toHaveLength(1);
    intake.push(2);
    timers.time += 100;
    timers.runTimers();
    timers.nextFrame();
    intake.flush();
    expect(shows.map((show) => show.items)).toEqual([[0], [1, 2]]);
    expect(timers.scheduled).toBe(false);
  });

  it('without frames (a hidden tab), takes items in from a timer', () => {
    const { timers, taken, intake } = intakeWith(1, 2, 100);
    for (let i = 0; i < 4; i++) intake.push(i);
    timers.runTimers();
    timers.time += 100;
    timers.runTimers();
    expect(taken).toEqual([0, 1]);
    timers.time += 100;
    timers.runTimers();
    expect(taken).toEqual([0, 1, 2, 3]);
  });

  it('loses nothing when the page stops listening mid-import: flush takes every waiting item in, in order, at once', () => {
    const { timers, taken, tasks, intake } = intakeWith(3, 8);
    for (let i = 0; i < 10; i++) intake.push(i);
    timers.runTimers();
    timers.nextFrame();
    expect(taken).toEqual([0, 1, 2]);
    intake.flush();
    expect(taken).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(tasks).toEqual([
      [0, 1, 2],
      [3, 4, 5, 6, 7, 8, 9],
    ]);
    // Nothing is left to run, and nothing is taken twice.
    expect(timers.scheduled).toBe(false);
    timers.time += 1000;
    timers.runTimers();
    timers.nextFrame();
    expect(taken).toHaveLength(10);
  });

  it('forgets the waiting items of a session no longer shown, and takes the next one’s as before', () => {
    const { timers, taken, intake } = intakeWith(3, 8);
    for (let i = 0; i < 10; i++) intake.push(i);
    timers.runTimers();
    timers.nextFrame();
    intake.drop();
    expect(intake.waiting).toBe(0);
    expect(timers.scheduled).toBe(false);
    intake.push(100);
    timers.time += 100;
    timers.runTimers();
    timers.nextFrame();
    expect(taken).toEqual([0, 1, 2, 100]);
  });

  it('goes on with the items after one whose taking failed', () => {
    const timers = new FakeTimers();
    const taken: number[] = [];
    const intake = new UpdateIntake<number>({
      take: (item) => {
        if (item === 1) throw new Error('unreadable update');
        taken.push(item);
      },
      refreshMs: 100,
      budgetMs: 8,
      timers,
    });
    for (let i = 0; i < 4; i++) intake.push(i);
    timers.runTimers();
    expect(() => timers.nextFrame()).toThrow('unreadable update');
    timers.nextFrame();
    expect(taken).toEqual([0, 2, 3]);
  });
});
