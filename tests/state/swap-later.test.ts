import { describe, expect, it } from 'vitest';
import { SwapLater } from '../../src/state/swap-later';

/** Timers the test runs by hand, a task at a time, oldest first. */
class FakeTasks {
  #tasks: { work: () => void; live: boolean }[] = [];

  timer = (work: () => void): (() => void) => {
    const entry = { work, live: true };
    this.#tasks.push(entry);
    return () => (entry.live = false);
  };

  /** Runs the oldest task still wanted; false when none waits. */
  runTask(): boolean {
    while (this.#tasks.length) {
      const task = this.#tasks.shift()!;
      if (!task.live) continue;
      task.work();
      return true;
    }
    return false;
  }
}

describe('SwapLater', () => {
  it('takes down what is built at once and builds what is wanted in a later task', () => {
    const tasks = new FakeTasks();
    const shown: (string | undefined)[] = [];
    const swap = new SwapLater('rddlsim', (built) => shown.push(built), tasks);
    expect(swap.built).toBe('rddlsim');

    swap.want('massim');
    // Taken down in the task that asked, built in none yet.
    expect(shown).toEqual([undefined]);
    expect(swap.built).toBeUndefined();

    expect(tasks.runTask()).toBe(true);
    expect(shown).toEqual([undefined, 'massim']);
    expect(swap.built).toBe('massim');
    expect(tasks.runTask()).toBe(false);
  });

  it('asks for nothing when what is wanted is built', () => {
    const tasks = new FakeTasks();
    const shown: (string | undefined)[] = [];
    const swap = new SwapLater('gama', (built) => shown.push(built), tasks);
    swap.want('gama');
    expect(shown).toEqual([]);
    expect(tasks.runTask()).toBe(false);
  });

  it('builds only the last wanted when the wish changes before the build', () => {
    const tasks = new FakeTasks();
    const shown: (string | undefined)[] = [];
    const swap = new SwapLater('rddlsim', (built) => shown.push(built), tasks);
    swap.want('massim');
    swap.want('aisys');
    while (tasks.runTask());
    expect(shown).toEqual([undefined, 'aisys']);
    expect(swap.built).toBe('aisys');
  });

  it('builds again what was taken down when it is wanted back before the build', () => {
    const tasks = new FakeTasks();
    const shown: (string | undefined)[] = [];
    const swap = new SwapLater('rddlsim', (built) => shown.push(built), tasks);
    swap.want('massim');
    swap.want('rddlsim');
    while (tasks.runTask());
    expect(shown).toEqual([undefined, 'rddlsim']);
    expect(swap.built).toBe('rddlsim');
  });
});
