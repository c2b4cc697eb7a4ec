import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MassimRoleConfig } from '../../../../src/core/envs/massim/api';
import type { Attachable } from '../../../../src/core/envs/massim/things';
import { World } from '../../../../src/core/envs/massim/world';

const ROLE: MassimRoleConfig = {
  name: 'r',
  vision: 5,
  actions: [],
  speed: [1],
  clear: { chance: 1, maxDistance: 1 },
};
const DIRECTIONS = ['n', 's', 'e', 'w'] as const;

/** One random operation on a small world, from a few random numbers. */
const operation = fc.tuple(fc.nat(8), fc.nat(63), fc.nat(63), fc.nat(3));

describe('World bookkeeping', () => {
  it('keeps its obstacle, block and link indexes equal to what the grid holds', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 120 }), (operations) => {
        const world = new World(8, 8, 5);
        const entity = world.addEntity(0, 'agent', 'A', ROLE, 100);
        const things = (): Attachable[] => [...world.occupiedCells()].map(([, thing]) => thing);
        for (const [kind, a, b, direction] of operations) {
          const all = things();
          const first = all[a % all.length]!;
          const second = all[b % all.length]!;
          switch (kind) {
            case 0:
              world.addObstacle(a);
              break;
            case 1:
              world.addBlock(a, 'b0');
              break;
            case 2:
            case 3:
              world.attach(first, second);
              break;
            case 4:
              world.detachNeighbours(first, second);
              break;
            case 5:
              world.moveCluster(first, DIRECTIONS[direction]!);
              break;
            case 6:
              world.rotateCluster(entity, direction % 2 === 0);
              break;
            case 7:
              if (first !== entity) world.destroy(first);
              break;
            default:
              world.detachAll(first);
          }
          const now = things();
          expect(world.obstacleCells()).toEqual(
            [...world.occupiedCells()].filter(([, t]) => t.kind === 'obstacle').map(([cell]) => cell),
          );
          expect(new Set(world.blocks())).toEqual(new Set(now.filter((t) => t.kind === 'block')));
          expect(new Set(world.linkedThings())).toEqual(new Set(now.filter((t) => t.links.length > 0)));
          for (const thing of now) for (const other of thing.links) expect(other.links).toContain(thing);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('moves a cluster only when every target cell is free of things outside it', () => {
    const world = new World(8, 8, 5);
    const entity = world.addEntity(world.torus.cellAt(2, 2), 'agent', 'A', ROLE, 100);
    const block = world.addBlock(world.torus.cellAt(3, 2), 'b0')!;
    world.attach(entity, block);
    world.addObstacle(world.torus.cellAt(4, 3));
    expect(world.moveCluster(entity, 'e')).toBe(true);
    expect([entity.cell, block.cell]).toEqual([world.torus.cellAt(3, 2), world.torus.cellAt(4, 2)]);
    expect(world.moveCluster(entity, 's')).toBe(false);
    expect(entity.cell).toBe(world.torus.cellAt(3, 2));
  });
});
