import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/random';

describe('Rng', () => {
  it('repeats the same sequence for the same seed and differs for another', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const c = new Rng(43);
    const seqA = Array.from({ length: 8 }, () => a.nextUint32());
    expect(Array.from({ length: 8 }, () => b.nextUint32())).toEqual(seqA);
    expect(Array.from({ length: 8 }, () => c.nextUint32())).not.toEqual(seqA);
  });

  it('gives floats in [0, 1) with mean near 1/2', () => {
    const rng = new Rng(7);
    let sum = 0;
    const n = 100_000;
    for (let i = 0; i < n; i++) {
      const x = rng.nextFloat();
      expect(x >= 0 && x < 1).toBe(true);
      sum += x;
    }
    expect(Math.abs(sum / n - 0.5)).toBeLessThan(0.01);
  });

  it('draws integers below n without bias', () => {
    const rng = new Rng(1);
    const counts = [0, 0, 0];
    for (let i = 0; i < 30_000; i++) counts[rng.nextInt(3)]!++;
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });

  it('resumes exactly from a saved state', () => {
    const rng = new Rng('seed');
    rng.nextFloat();
    const saved = rng.getState();
    const next = rng.nextUint32();
    rng.setState(saved);
    expect(rng.nextUint32()).toBe(next);
  });
});
