import { describe, expect, it } from 'vitest';
import type { MassimServerConfig, MassimWorldSnapshot } from '../../../../src/core/envs/massim/api';
import { createSimulation, quickMassimConfig } from '../../../../src/core/envs/massim/index';
import { Rng } from '../../../../src/core/random';
import { createTeamDecide } from '../../../../src/core/protocols/massim/client';
import type { MassimWorldAnnotation } from '../../../../src/core/protocols/massim/host';
import type { MassimAct } from '../../../../src/core/protocols/massim/policy-api';
import { MassimMatchRunner } from '../../../../src/core/protocols/massim/runner';
import { MassimWorldPacker } from '../../../../src/core/protocols/massim/world-packer';
import { TranscriptStore } from '../../../../src/core/transcript/store/store';

/** Frequent clear events (obstacles change), norms and tasks, on a small map. */
function eventfulConfig(): MassimServerConfig {
  const config = quickMassimConfig({ agentsPerTeam: 4, steps: 60, width: 24, height: 24 });
  const sim = config.match[0]!;
  return {
    ...config,
    server: { ...config.server, waitBetweenSimulations: 0 },
    match: [
      {
        ...sim,
        events: { chance: 40, radius: [2, 3], warning: 2, create: [-2, 3], perimeter: 1 },
        regulation: { ...sim.regulation, chance: 50 },
      },
    ],
  };
}

const directions = ['n', 'e', 's', 'w'] as const;
const wander: MassimAct = (percept, agent) =>
  agent.step % 5 === 4
    ? { type: 'clear', p: [1, 0] }
    : { type: 'move', p: [directions[(agent.step + agent.name.length + percept.energy) % 4]!] };

describe('MassimWorldPacker', () => {
  it('gives back every world snapshot of a session as it was recorded, sharing unchanged obstacle lists', async () => {
    const recorded: MassimWorldSnapshot[] = [];
    const runner = new MassimMatchRunner({
      config: eventfulConfig(),
      teams: { A: createTeamDecide(wander), B: createTeamDecide(wander) },
      seed: 5,
      onHostEvent: (event) => {
        if (event.kind === 'step' && event.world) recorded.push(event.world);
      },
    });
    await runner.run();
    const store = runner.host.store;
    const snapshots = store
      .annotationsOfType('world')
      .map((i) => store.annotation(i).data as MassimWorldAnnotation)
      .filter((data) => data.kind === 'snapshot')
      .map((data) => data.world);
    expect(snapshots).toHaveLength(60);
    expect(snapshots).toEqual(recorded);
    expect(snapshots.map((world) => JSON.stringify(world))).toEqual(
      recorded.map((world) => JSON.stringify(world)),
    );
    // The clear events changed the obstacles: so both changes and shared lists were packed.
    const changes = recorded.filter(
      (world, i) => i > 0 && world.obstacles !== recorded[i - 1]!.obstacles,
    ).length;
    expect(changes).toBeGreaterThan(0);
    expect(changes).toBeLessThan(59);
    expect(store.size().packedBytes).toBeGreaterThan(0);
    // Packed alone, the snapshots take a fraction of their JSON text (phrases counted at 2 bytes a character),
    // even on this small map where markers, events and scores change nearly every step.
    const alone = new TranscriptStore({ protocol: 'massim', packers: [new MassimWorldPacker()] });
    alone.appendText('a', 's2c', 0, 'x');
    for (const world of recorded) alone.annotate('world', { kind: 'snapshot', simulation: 0, world });
    expect(alone.size().packedBytes).toBeLessThan(JSON.stringify(recorded).length / 2);
  });

  it('gives back obstacle lists kept as changes between keyframes, whatever changed', () => {
    const base = createSimulation(eventfulConfig().match[0]!, { seed: 2 }).snapshot();
    const store = new TranscriptStore({ protocol: 'massim', packers: [new MassimWorldPacker()] });
    store.appendText('a', 's2c', 0, 'x');
    const rng = new Rng(4);
    let obstacles = [...base.obstacles];
    const lists: number[][] = [];
    for (let step = 0; step < 60; step++) {
      if (step % 3 !== 0) {
        const cells = new Set(obstacles);
        for (let k = rng.nextInt(6); k > 0; k--) cells.delete(obstacles[rng.nextInt(obstacles.length)]!);
        for (let k = rng.nextInt(6); k > 0; k--) cells.add(rng.nextInt(24 * 24));
        obstacles = [...cells].sort((a, b) => a - b);
        // Now and then a list out of order (kept whole).
        if (step % 17 === 5) obstacles = [...obstacles].reverse();
      }
      lists.push(obstacles);
      store.annotate('world', { kind: 'snapshot', simulation: 0, world: { ...base, step, obstacles } });
    }
    const obstaclesOf = (i: number) =>
      (store.annotation(i).data as { world: MassimWorldSnapshot }).world.obstacles;
    const unpacked = lists.map((_, i) => obstaclesOf(i));
    expect(unpacked).toEqual(lists);
    // Backwards too, so lists are rebuilt from their keyframes rather than from the one read just before.
    for (let i = lists.length - 1; i >= 0; i -= 5) expect(obstaclesOf(i)).toEqual(lists[i]);
  });

  it('leaves to the store what it cannot pack exactly', () => {
    const packer = new MassimWorldPacker();
    const store = new TranscriptStore({ protocol: 'massim', packers: [packer] });
    store.appendText('a', 's2c', 0, 'x');
    const unpackable = [
      { kind: 'snapshot', simulation: 0, world: { step: 0.5, obstacles: [] } },
      { kind: 'snapshot', simulation: 0, world: { step: 1, obstacles: [], entities: [{ x: 'far' }] } },
      { kind: 'static', simulation: 0, world: { width: 3 } },
    ];
    for (const data of unpackable) store.annotate('world', data);
    // Kept as given: the very same objects come back.
    unpackable.forEach((data, i) => expect(store.annotation(i).data).toBe(data));
  });
});
