import { describe, expect, it } from 'vitest';
import type { MassimSimConfig } from '../../../../src/core/envs/massim/api';
import { ClearEvents } from '../../../../src/core/envs/massim/clearing';
import { EnergyRules } from '../../../../src/core/envs/massim/energy';
import { World } from '../../../../src/core/envs/massim/world';
import { Rng } from '../../../../src/core/random';
import { sceneConfig } from './scene';

/** A world with one clear event scheduled at step 0 (radius 1, perimeter 1, firing at step 3). */
function oneEvent(create: [number, number] = [0, 0]) {
  const config: MassimSimConfig = sceneConfig({
    events: { chance: 100, radius: [1, 1], warning: 3, create, perimeter: 1 },
  });
  const world = new World(20, 20, 10);
  const energy = new EnergyRules(config, world);
  const events = new ClearEvents(config.events, world, energy, new Rng(3));
  events.prepare(0);
  // No more events after the first one.
  (config.events as { chance: number }).chance = 0;
  const [area] = events.pending(0);
  return { config, world, energy, events, center: world.torus.cellAt(area!.x, area!.y) };
}

function markerMap(world: World): Map<number, string[]> {
  return new Map(world.markerCells().map((cell) => [cell, [...(world.markersAt(cell) ?? [])]]));
}

describe('clear events', () => {
  it('mark their area with clear, then ci in the last two steps, and a cp ring around', () => {
    const { world, events, center } = oneEvent();
    const torus = world.torus;
    const inside = new Set(torus.diamondCells(center, 1));
    const ring = torus.diamondCells(center, 2).filter((cell) => !inside.has(cell));
    const markers = markerMap(world);
    expect(markers.size).toBe(inside.size + ring.length);
    for (const cell of inside) expect(markers.get(cell)).toEqual(['clear']);
    for (const cell of ring) expect(markers.get(cell)).toEqual(['cp']);
    world.clearMarkers();
    events.prepare(1);
    for (const cell of inside) expect(world.markersAt(cell)).toEqual(['ci']);
    expect(events.pending(1)).toEqual([expect.objectContaining({ radius: 1, stepsLeft: 2 })]);
  });

  it('fire at the announced step: entities drained to 0 and deactivated, everything in the area removed', () => {
    const { world, events, center, config } = oneEvent();
    const torus = world.torus;
    const neighbour = torus.neighbour(center, 'e');
    const entity = world.addEntity(center, 'victim', 'A', config.roles[0]!, 100);
    const block = world.addBlock(neighbour, 'b0')!;
    world.attach(entity, block);
    const outside = world.addObstacle(torus.offset(center, 3, 0))!;
    world.clearMarkers();
    events.prepare(1);
    world.clearMarkers();
    events.prepare(2);
    world.clearMarkers();
    expect(events.prepare(3)).toHaveLength(1);
    expect(entity.energy).toBe(0);
    // One step more than an action-caused deactivation: the countdown already ran for this step.
    expect(entity.deactivatedSteps).toBe(config.deactivatedDuration + 1);
    expect(world.kindAt(neighbour, 'block')).toBeNull();
    expect(entity.links).toEqual([]);
    expect(world.kindAt(outside.cell, 'obstacle')).toBe(outside);
    expect(world.markerCells()).toEqual([]);
    expect(events.pending(3)).toEqual([]);
  });

  it('scatter as many new obstacles as they removed plus the configured extra, near the centre', () => {
    const { world, events, center } = oneEvent([2, 2]);
    const torus = world.torus;
    for (const cell of torus.diamondCells(center, 1)) world.addObstacle(cell);
    for (const step of [1, 2, 3]) {
      world.clearMarkers();
      events.prepare(step);
    }
    const obstacles = [...world.occupiedCells()].filter(([, thing]) => thing.kind === 'obstacle');
    // 5 removed + 2 created, placed within radius + perimeter = 2 on both axes (a few tries may miss).
    expect(obstacles.length).toBeGreaterThan(0);
    expect(obstacles.length).toBeLessThanOrEqual(7);
    for (const [cell] of obstacles) {
      const [dx, dy] = torus.relative(cell, center);
      expect(Math.max(Math.abs(dx), Math.abs(dy))).toBeLessThanOrEqual(2);
    }
  });
});
