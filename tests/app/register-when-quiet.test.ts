import { describe, expect, it } from 'vitest';
import { registerWhenQuiet, type QuietClock } from '../../src/app/register-when-quiet';
import { ForegroundWork } from '../../src/state/foreground-work';

/** A clock whose delays and idle waits end only when the test says so. */
function manualClock() {
  const waits: { kind: 'delay' | 'idle'; ms: number; end: () => void }[] = [];
  const clock: QuietClock = {
    delay: (ms) => new Promise((end) => waits.push({ kind: 'delay', ms, end })),
    idle: (ms) => new Promise((end) => waits.push({ kind: 'idle', ms, end })),
  };
  /** Ends the oldest wait still open, after letting pending promise callbacks run. */
  const next = async (kind: 'delay' | 'idle') => {
    await settle();
    const wait = waits.shift();
    expect(wait?.kind).toBe(kind);
    wait!.end();
    await settle();
  };
  return { clock, waits, next };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Work that stays under way until `finish` is called. */
function startWork(work: ForegroundWork) {
  let finish!: () => void;
  void work.track(new Promise<void>((resolve) => (finish = resolve)));
  return () => {
    finish();
    return settle();
  };
}

describe('registerWhenQuiet', () => {
  it('registers after the quiet time and an idle moment when nothing is imported', async () => {
    const work = new ForegroundWork();
    const { clock, waits, next } = manualClock();
    let registered = 0;
    void registerWhenQuiet(work, () => registered++, 2000, clock);
    await settle();
    expect(waits.map((w) => [w.kind, w.ms])).toEqual([['delay', 2000]]);
    await next('delay');
    expect(registered).toBe(0);
    await next('idle');
    expect(registered).toBe(1);
    expect(waits).toHaveLength(0);
  });

  it('waits for an import under way, then for the quiet time after it', async () => {
    const work = new ForegroundWork();
    const finish = startWork(work);
    const { clock, waits, next } = manualClock();
    let registered = 0;
    void registerWhenQuiet(work, () => registered++, 2000, clock);
    await settle();
    // Nothing is timed while the import is read.
    expect(waits).toHaveLength(0);
    await finish();
    await next('delay');
    await next('idle');
    expect(registered).toBe(1);
  });

  it('starts the quiet time again when an import begins during it', async () => {
    const work = new ForegroundWork();
    const { clock, waits, next } = manualClock();
    let registered = 0;
    void registerWhenQuiet(work, () => registered++, 2000, clock);
    await settle();
    const finish = startWork(work);
    await next('delay');
    // The import is still being read: no idle wait, no registration, until it is done.
    expect(waits).toHaveLength(0);
    expect(registered).toBe(0);
    await finish();
    await next('delay');
    await next('idle');
    expect(registered).toBe(1);
  });

  it('does not register when an import begins while it waits for an idle moment', async () => {
    const work = new ForegroundWork();
    const { clock, next } = manualClock();
    let registered = 0;
    void registerWhenQuiet(work, () => registered++, 2000, clock);
    await next('delay');
    const finish = startWork(work);
    await next('idle');
    expect(registered).toBe(0);
    await finish();
    await next('delay');
    await next('idle');
    expect(registered).toBe(1);
  });
});
