import { describe, expect, it } from 'vitest';
import { Torus } from '../../../../src/core/envs/massim/torus';

describe('Torus', () => {
  const torus = new Torus(10, 8);

  it('wraps coordinates and neighbours', () => {
    expect(torus.cellAt(-1, -1)).toBe(torus.cellAt(9, 7));
    expect(torus.neighbour(torus.cellAt(0, 0), 'n')).toBe(torus.cellAt(0, 7));
    expect(torus.neighbour(torus.cellAt(9, 3), 'e')).toBe(torus.cellAt(0, 3));
  });

  it('measures Manhattan distance the short way round', () => {
    expect(torus.distance(torus.cellAt(0, 0), torus.cellAt(9, 7))).toBe(2);
    expect(torus.distance(torus.cellAt(1, 1), torus.cellAt(4, 5))).toBe(3 + 4);
  });

  it('gives relative positions within half the grid, +half or -half depending on the raw difference', () => {
    expect(torus.relative(torus.cellAt(9, 0), torus.cellAt(0, 0))).toEqual([-1, 0]);
    expect(torus.relative(torus.cellAt(5, 0), torus.cellAt(0, 0))).toEqual([5, 0]);
    expect(torus.relative(torus.cellAt(0, 0), torus.cellAt(5, 0))).toEqual([-5, 0]);
  });

  it('lists diamonds of 2r² + 2r + 1 offsets without negative zeros', () => {
    for (const radius of [0, 1, 5, 7]) {
      const offsets = torus.diamond(radius);
      expect(offsets.length).toBe(2 * radius * radius + 2 * radius + 1);
      expect(offsets.every(({ dx, dy }) => Math.abs(dx) + Math.abs(dy) <= radius)).toBe(true);
      expect(offsets.some(({ dx, dy }) => Object.is(dx, -0) || Object.is(dy, -0))).toBe(false);
    }
  });

  it('rotates around a centre', () => {
    const center = torus.cellAt(5, 5);
    expect(torus.rotated(torus.cellAt(5, 4), center, true)).toBe(torus.cellAt(6, 5));
    expect(torus.rotated(torus.cellAt(5, 4), center, false)).toBe(torus.cellAt(4, 5));
    expect(torus.rotated(torus.cellAt(6, 3), center, true)).toBe(torus.cellAt(7, 6));
  });
});
