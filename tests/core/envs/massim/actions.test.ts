import { describe, expect, it } from 'vitest';
import { scene, sceneConfig } from './scene';

// Scenes: 20 x 20 empty grid; agentA1 and agentB1 are parked at (0,19) and (2,19) unless moved.

describe('move', () => {
  it('moves one cell north and wraps around the torus', () => {
    const s = scene('move 0 0 agentA1');
    expect(s.act({ agentA1: ['move', 'n'] }).agentA1!.lastActionResult).toBe('success');
    expect(s.at('agentA1')).toEqual([0, 19]);
  });

  it('steps west from x = 0 onto the last column', () => {
    const s = scene('move 0 5 agentA1');
    s.act({ agentA1: ['move', 'w'] });
    expect(s.at('agentA1')).toEqual([19, 5]);
  });

  it('fails with failed_parameter for no or an unknown direction, without moving', () => {
    const s = scene('move 5 5 agentA1');
    expect(s.act({ agentA1: ['move'] }).agentA1!.lastActionResult).toBe('failed_parameter');
    expect(s.act({ agentA1: ['move', 'n', 'x'] }).agentA1!.lastActionResult).toBe('failed_parameter');
    expect(s.at('agentA1')).toEqual([5, 5]);
  });

  it('fails with failed_path when the first cell is blocked', () => {
    const s = scene('move 5 5 agentA1\nterrain 5 4 obstacle');
    expect(s.act({ agentA1: ['move', 'n'] }).agentA1!.lastActionResult).toBe('failed_path');
    expect(s.at('agentA1')).toEqual([5, 5]);
  });

  it('stops at the role speed with partial_success', () => {
    const s = scene('move 5 5 agentA1');
    expect(s.act({ agentA1: ['move', 'n', 'n'] }).agentA1!.lastActionResult).toBe('partial_success');
    expect(s.at('agentA1')).toEqual([5, 4]);
  });

  it('stops at the first blocked cell with partial_success', () => {
    const s = scene('move 5 5 agentA1\nterrain 5 5 role\nterrain 7 5 obstacle');
    s.act({ agentA1: ['adopt', 'worker'] });
    expect(s.act({ agentA1: ['move', 'e', 'e'] }).agentA1!.lastActionResult).toBe('partial_success');
    expect(s.at('agentA1')).toEqual([6, 5]);
  });

  it('uses the speed for the number of attached things, and speed 0 still moves one cell', () => {
    const s = scene('move 5 5 agentA1\nterrain 5 5 role\nadd 5 6 block b0\nattach 5 5 5 6');
    expect(s.act({ agentA1: ['adopt', 'explorer'] }).agentA1!.lastActionResult).toBe('success');
    // explorer speed [3, 0]: one attached thing gives speed 0, yet one cell is moved.
    expect(s.act({ agentA1: ['move', 'e', 'e'] }).agentA1!.lastActionResult).toBe('partial_success');
    expect(s.at('agentA1')).toEqual([6, 5]);
    expect(s.cell(6, 6)).toEqual(['b0']);
    expect(s.act({ agentA1: ['move', 'e'] }).agentA1!.lastActionResult).toBe('success');
  });

  it('moves up to the unloaded speed of a worker', () => {
    const s = scene('move 5 5 agentA1\nterrain 5 5 role');
    s.act({ agentA1: ['adopt', 'worker'] });
    expect(s.act({ agentA1: ['move', 'e', 'e', 'e'] }).agentA1!.lastActionResult).toBe('partial_success');
    expect(s.at('agentA1')).toEqual([7, 5]);
  });

  it('takes the attached cluster along and fails when any part is blocked', () => {
    const s = scene('move 5 5 agentA1\nadd 5 6 block b1\nattach 5 5 5 6\nterrain 6 6 obstacle');
    expect(s.act({ agentA1: ['move', 'e'] }).agentA1!.lastActionResult).toBe('failed_path');
    expect(s.act({ agentA1: ['move', 'n'] }).agentA1!.lastActionResult).toBe('success');
    expect(s.cell(5, 5)).toEqual(['b1']);
    expect(s.at('agentA1')).toEqual([5, 4]);
  });

  it('lets only one of two agents into the same cell, in an order that depends on the shuffle', () => {
    const winners = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const s = scene('move 4 5 agentA1\nmove 6 5 agentB1', { seed });
      const next = s.act({ agentA1: ['move', 'e'], agentB1: ['move', 'w'] });
      const results = [next.agentA1!.lastActionResult, next.agentB1!.lastActionResult].sort();
      expect(results).toEqual(['failed_path', 'success']);
      winners.add(next.agentA1!.lastActionResult === 'success' ? 'A' : 'B');
    }
    expect(winners).toEqual(new Set(['A', 'B']));
  });
});

describe('attach and detach', () => {
  it('attaches a block, which then shows in attached', () => {
    const s = scene('move 5 5 agentA1\nadd 6 5 block b2');
    const percept = s.act({ agentA1: ['attach', 'e'] }).agentA1!;
    expect(percept.lastActionResult).toBe('success');
    expect(percept.attached).toEqual([[1, 0]]);
  });

  it('reports failed_parameter, failed_target for nothing or an opponent, failed_blocked for an opponent’s block', () => {
    const s = scene('move 6 5 agentA1\nmove 7 5 agentB1\nadd 5 5 block b0\nadd 7 6 block b0\nattach 7 5 7 6');
    expect(s.act({ agentA1: ['attach', 'x'] }).agentA1!.lastActionResult).toBe('failed_parameter');
    expect(s.act({ agentA1: ['attach', 'n'] }).agentA1!.lastActionResult).toBe('failed_target');
    expect(s.act({ agentA1: ['attach', 'e'] }).agentA1!.lastActionResult).toBe('failed_target');
    expect(s.act({ agentA1: ['attach', 'w'] }).agentA1!.lastActionResult).toBe('success');
    expect(s.act({ agentA1: ['detach', 'w'] }).agentA1!.lastActionResult).toBe('success');
    expect(s.act({ agentA1: ['move', 's'] }).agentA1!.lastActionResult).toBe('success');
    // Now at (6,6), west of the block (7,6) that agentB1 carries.
    expect(s.act({ agentA1: ['attach', 'e'] }).agentA1!.lastActionResult).toBe('failed_blocked');
  });

  it('attaches obstacles and teammates too', () => {
    const s = scene('move 5 5 agentA1\nmove 6 5 agentA2\nterrain 5 6 obstacle', {
      config: { agentsPerTeam: 2 },
    });
    expect(s.act({ agentA1: ['attach', 's'] }).agentA1!.lastActionResult).toBe('success');
    expect(s.act({ agentA1: ['attach', 'e'] }).agentA1!.lastActionResult).toBe('success');
    expect(s.percept('agentA2').attached).toEqual(
      expect.arrayContaining([
        [-1, 0],
        [-1, 1],
      ]),
    );
  });

  it('fails when the joined cluster would exceed attachLimit', () => {
    const s = scene('move 5 5 agentA1\nadd 6 5 block b0\nadd 4 5 block b0', { config: { attachLimit: 2 } });
    expect(s.act({ agentA1: ['attach', 'e'] }).agentA1!.lastActionResult).toBe('success');
    expect(s.act({ agentA1: ['attach', 'w'] }).agentA1!.lastActionResult).toBe('failed');
  });

  it('detaches only direct attachments', () => {
    const s = scene('move 5 5 agentA1\nadd 6 5 block b0\nadd 7 5 block b0\nattach 5 5 6 5\nattach 6 5 7 5');
    expect(s.act({ agentA1: ['detach', 'x'] }).agentA1!.lastActionResult).toBe('failed_parameter');
    expect(s.act({ agentA1: ['detach', 'n'] }).agentA1!.lastActionResult).toBe('failed_target');
    s.act({ agentA1: ['move', 'w'] });
    // The whole chain came along: now the agent is at (4,5) and (5,5) holds the first block.
    expect(s.cell(6, 5)).toEqual(['b0']);
    expect(s.act({ agentA1: ['rotate', 'cw'] }).agentA1!.lastActionResult).toBe('success');
    expect(s.act({ agentA1: ['detach', 's'] }).agentA1!.lastActionResult).toBe('success');
    expect(s.act({ agentA1: ['detach', 's'] }).agentA1!.lastActionResult).toBe('failed');
  });
});

describe('rotate', () => {
  it('turns attached things clockwise and counter-clockwise around the agent', () => {
    const s = scene('move 5 5 agentA1\nadd 5 4 block b0\nattach 5 5 5 4');
    expect(s.act({ agentA1: ['rotate', 'cw'] }).agentA1!.lastActionResult).toBe('success');
    expect(s.cell(6, 5)).toEqual(['b0']);
    expect(s.act({ agentA1: ['rotate', 'ccw'] }).agentA1!.lastActionResult).toBe('success');
    s.act({ agentA1: ['rotate', 'ccw'] });
    expect(s.cell(4, 5)).toEqual(['b0']);
  });

  it('fails with failed_parameter, on a blocked final cell, and with another agent in the cluster', () => {
    const s = scene('move 5 5 agentA1\nadd 5 4 block b0\nattach 5 5 5 4\nterrain 6 5 obstacle');
    expect(s.act({ agentA1: ['rotate', 'left'] }).agentA1!.lastActionResult).toBe('failed_parameter');
    expect(s.act({ agentA1: ['rotate', 'cw'] }).agentA1!.lastActionResult).toBe('failed');
    const team = scene('move 5 5 agentA1\nmove 5 4 agentA2\nattach 5 5 5 4', {
      config: { agentsPerTeam: 2 },
    });
    expect(team.act({ agentA1: ['rotate', 'cw'] }).agentA1!.lastActionResult).toBe('failed');
  });

  it('checks only the final cells, not the ones swept through', () => {
    const s = scene('move 5 5 agentA1\nadd 5 4 block b0\nattach 5 5 5 4\nterrain 6 4 obstacle');
    expect(s.act({ agentA1: ['rotate', 'cw'] }).agentA1!.lastActionResult).toBe('success');
  });
});

describe('connect and disconnect', () => {
  const twoBuilders =
    'move 5 5 agentA1\nmove 8 5 agentA2\nadd 6 5 block b0\nadd 7 5 block b1\nattach 5 5 6 5\nattach 8 5 7 5';

  it('joins the blocks of two agents that name each other, with the same result for both', () => {
    const s = scene(twoBuilders, { config: { agentsPerTeam: 2 } });
    const next = s.act({
      agentA1: ['connect', 'agentA2', '1', '0'],
      agentA2: ['connect', 'agentA1', '-1', '0'],
    });
    expect(next.agentA1!.lastActionResult).toBe('success');
    expect(next.agentA2!.lastActionResult).toBe('success');
    // Joined: A1 can no longer rotate (another agent in the cluster) and moving drags everything.
    expect(s.act({ agentA1: ['rotate', 'cw'] }).agentA1!.lastActionResult).toBe('failed');
    expect(s.act({ agentA1: ['move', 'n'] }).agentA1!.lastActionResult).toBe('success');
    expect(s.at('agentA2')).toEqual([8, 4]);
  });

  it('fails with failed_partner when the partner does something else, and failed_parameter for bad input', () => {
    const s = scene(twoBuilders, { config: { agentsPerTeam: 2 } });
    const next = s.act({ agentA1: ['connect', 'agentA2', '1', '0'], agentA2: ['skip'] });
    expect(next.agentA1!.lastActionResult).toBe('failed_partner');
    expect(s.act({ agentA1: ['connect', 'nobody', '1', '0'] }).agentA1!.lastActionResult).toBe(
      'failed_parameter',
    );
    expect(s.act({ agentA1: ['connect', 'agentA2', 'one', '0'] }).agentA1!.lastActionResult).toBe(
      'failed_parameter',
    );
  });

  it('gives failed_partner to me and failed_parameter to a partner with bad coordinates', () => {
    const s = scene(twoBuilders, { config: { agentsPerTeam: 2 } });
    const next = s.act({
      agentA1: ['connect', 'agentA2', '1', '0'],
      agentA2: ['connect', 'agentA1', 'x', '0'],
    });
    expect(next.agentA1!.lastActionResult).toBe('failed_partner');
    expect(next.agentA2!.lastActionResult).toBe('failed_parameter');
  });

  it('fails with failed_target when a named cell is not a block of the right cluster', () => {
    const s = scene(twoBuilders, { config: { agentsPerTeam: 2 } });
    const next = s.act({
      agentA1: ['connect', 'agentA2', '0', '1'],
      agentA2: ['connect', 'agentA1', '-1', '0'],
    });
    expect(next.agentA1!.lastActionResult).toBe('failed_target');
    expect(next.agentA2!.lastActionResult).toBe('failed_target');
  });

  it('does not check teams (the real server does not either)', () => {
    const s = scene(twoBuilders.replaceAll('agentA2', 'agentB1'));
    const next = s.act({
      agentA1: ['connect', 'agentB1', '1', '0'],
      agentB1: ['connect', 'agentA1', '-1', '0'],
    });
    expect(next.agentA1!.lastActionResult).toBe('success');
  });

  it('disconnects two directly attached things of the own cluster', () => {
    const s = scene('move 5 5 agentA1\nadd 6 5 block b0\nadd 7 5 block b0\nattach 5 5 6 5\nattach 6 5 7 5');
    expect(s.act({ agentA1: ['disconnect', '1', '0', '2'] }).agentA1!.lastActionResult).toBe(
      'failed_parameter',
    );
    expect(s.act({ agentA1: ['disconnect', '1', '0', '1', '1'] }).agentA1!.lastActionResult).toBe(
      'failed_target',
    );
    expect(s.act({ agentA1: ['disconnect', '0', '0', '2', '0'] }).agentA1!.lastActionResult).toBe(
      'failed_target',
    );
    expect(s.act({ agentA1: ['disconnect', '1', '0', '2', '0'] }).agentA1!.lastActionResult).toBe('success');
    s.act({ agentA1: ['move', 'n'] });
    expect(s.cell(7, 5)).toEqual(['b0']);
    expect(s.cell(6, 4)).toEqual(['b0']);
  });
});

describe('request', () => {
  it('makes a block appear next to a dispenser, unless the cell is taken', () => {
    const s = scene('move 5 5 agentA1\nadd 5 4 dispenser b1\nadd 6 5 dispenser b2\nterrain 6 5 obstacle');
    expect(s.act({ agentA1: ['request', 'up'] }).agentA1!.lastActionResult).toBe('failed_parameter');
    expect(s.act({ agentA1: ['request', 'w'] }).agentA1!.lastActionResult).toBe('failed_target');
    expect(s.act({ agentA1: ['request', 'e'] }).agentA1!.lastActionResult).toBe('failed_blocked');
    const next = s.act({ agentA1: ['request', 'n'] }).agentA1!;
    expect(next.lastActionResult).toBe('success');
    expect(next.things).toContainEqual({ x: 0, y: -1, details: 'b1', type: 'block' });
    expect(next.attached).toEqual([]);
    expect(s.act({ agentA1: ['request', 'n'] }).agentA1!.lastActionResult).toBe('failed_blocked');
  });
});

describe('submit', () => {
  const ready =
    'move 5 5 agentA1\nterrain 5 5 goal\ncreate task t1 50 0,1,b0\nadd 5 6 block b0\nattach 5 5 5 6';

  it('completes a task: blocks vanish, the team scores the reward, the task is used up', () => {
    const s = scene(ready);
    const next = s.act({ agentA1: ['submit', 't1'] });
    expect(next.agentA1!.lastActionResult).toBe('success');
    expect(next.agentA1!.score).toBe(10);
    expect(next.agentB1!.score).toBe(0);
    expect(s.cell(5, 6)).toEqual([]);
    expect(next.agentA1!.tasks).toEqual([]);
    expect(s.sim.snapshot().events).toContainEqual(
      expect.objectContaining({ type: 'task completed', task: 't1' }),
    );
    expect(s.act({ agentA1: ['submit', 't1'] }).agentA1!.lastActionResult).toBe('failed_target');
  });

  it('fails outside goal zones, with a wrong or unattached block, and for unknown tasks', () => {
    expect(
      scene(ready.replace('terrain 5 5 goal', '')).act({ agentA1: ['submit', 't1'] }).agentA1!
        .lastActionResult,
    ).toBe('failed');
    expect(
      scene(ready.replace('block b0', 'block b1')).act({ agentA1: ['submit', 't1'] }).agentA1!
        .lastActionResult,
    ).toBe('failed');
    expect(
      scene(ready.replace('attach 5 5 5 6', '')).act({ agentA1: ['submit', 't1'] }).agentA1!.lastActionResult,
    ).toBe('failed');
    expect(scene(ready).act({ agentA1: ['submit', 'task9'] }).agentA1!.lastActionResult).toBe(
      'failed_target',
    );
    expect(scene(ready).act({ agentA1: ['submit'] }).agentA1!.lastActionResult).toBe('failed_target');
  });

  it('refuses tasks past their deadline (setup tasks end at duration - 1)', () => {
    const s = scene(ready.replace('t1 50', 't1 2'));
    s.act({});
    s.act({});
    expect(s.act({ agentA1: ['submit', 't1'] }).agentA1!.lastActionResult).toBe('failed_target');
  });

  it('moves the goal zone under the agent; of overlapping ones the first in Java hash order of centres', () => {
    // Centres (6,5) and (5,6) both cover (5,5); a Java HashMap lists (6,5) first (hashes 1152 and 1122).
    const s = scene(
      'move 5 5 agentA1\nterrain 6 5 goal\nterrain 5 6 goal\ncreate task t1 50 1,0,b0\nadd 6 5 block b0\nattach 5 5 6 5',
      { config: { grid: { ...sceneConfig().grid, goals: { number: 0, size: [1, 1], moveProbability: 1 } } } },
    );
    expect(s.act({ agentA1: ['submit', 't1'] }).agentA1!.lastActionResult).toBe('success');
    const centres = s.sim.snapshot().goalZones.map((zone) => `${zone.x},${zone.y}`);
    expect(centres).toContain('5,6');
    expect(centres).not.toContain('6,5');
    expect(centres.length).toBe(2);
  });

  it('accepts extra attached blocks and leaves them attached', () => {
    const s = scene(`${ready}\nadd 6 5 block b2\nattach 5 5 6 5`);
    const next = s.act({ agentA1: ['submit', 't1'] }).agentA1!;
    expect(next.lastActionResult).toBe('success');
    expect(next.attached).toEqual([[1, 0]]);
  });
});

describe('clear', () => {
  it('removes an obstacle for the energy cost', () => {
    const s = scene('move 5 5 agentA1\nterrain 5 6 obstacle');
    const next = s.act({ agentA1: ['clear', '0', '1'] }).agentA1!;
    expect(next.lastActionResult).toBe('success');
    // 100 - 2 for the clear, + 1 recharge before the next percept.
    expect(next.energy).toBe(99);
    expect(s.cell(5, 6)).toEqual([]);
  });

  it('checks parameters, range, energy; an empty target still costs energy', () => {
    const s = scene('move 5 5 agentA1');
    expect(s.act({ agentA1: ['clear', '0'] }).agentA1!.lastActionResult).toBe('failed_parameter');
    expect(s.act({ agentA1: ['clear', '1', '1'] }).agentA1!.lastActionResult).toBe('failed_location');
    const empty = s.act({ agentA1: ['clear', '0', '1'] }).agentA1!;
    expect(empty.lastActionResult).toBe('failed_target');
    expect(empty.energy).toBe(99);
    const poor = scene('move 5 5 agentA1\nterrain 5 6 obstacle', { config: { maxEnergy: 1 } });
    expect(poor.act({ agentA1: ['clear', '0', '1'] }).agentA1!.lastActionResult).toBe('failed_resources');
  });

  it('spares blocks attached to an entity', () => {
    const s = scene('move 5 5 agentA1\nmove 7 6 agentB1\nadd 6 6 block b0\nattach 7 6 6 6');
    expect(s.act({ agentA1: ['clear', '1', '1'] }).agentA1!.lastActionResult).toBe('failed_location');
    expect(s.act({ agentA1: ['move', 's'] }).agentA1!.lastActionResult).toBe('success');
    expect(s.act({ agentA1: ['clear', '1', '0'] }).agentA1!.lastActionResult).toBe('failed_target');
    expect(s.cell(6, 6)).toEqual(['b0']);
  });

  it('fails with failed_random according to the role’s clear chance', () => {
    const roles = [
      { name: 'default', vision: 5, actions: ['clear'], speed: [1], clear: { chance: 0, maxDistance: 1 } },
    ];
    const s = scene('move 5 5 agentA1\nterrain 5 6 obstacle', { config: { roles } });
    expect(s.act({ agentA1: ['clear', '0', '1'] }).agentA1!.lastActionResult).toBe('failed_random');
  });

  it('damages entities on the target from a distance when maxDistance > 1, with a hit event for the victim', () => {
    const s = scene('move 5 5 agentA1\nmove 8 5 agentB1\nterrain 5 5 role');
    s.act({ agentA1: ['adopt', 'digger'] });
    const next = s.act({ agentA1: ['clear', '3', '0'] });
    expect(next.agentA1!.lastActionResult).toBe('success');
    // clearDamage[3] = 4, then 1 recharge: 100 - 4 + 1.
    expect(next.agentB1!.energy).toBe(97);
    expect(next.agentB1!.events).toEqual([{ damage: 4, origin: [-3, 0], type: 'hit' }]);
    expect(next.agentA1!.events).toEqual([]);
    expect(s.act({}).agentB1!.events).toEqual([]);
  });

  it('hits the agent itself at distance 0 with clearDamage[0]', () => {
    const s = scene('move 5 5 agentA1\nterrain 5 5 role');
    s.act({ agentA1: ['adopt', 'digger'] });
    const next = s.act({ agentA1: ['clear', '0', '0'] }).agentA1!;
    expect(next.events).toEqual([{ damage: 32, origin: [0, 0], type: 'hit' }]);
    expect(next.energy).toBe(100 - 2 - 32 + 1);
  });
});

describe('survey', () => {
  it('reports the distance to the nearest dispenser and zone centre', () => {
    const s = scene(
      'move 5 5 agentA1\nadd 9 5 dispenser b0\nadd 5 2 dispenser b1\nterrain 12 5 goal\nterrain 5 5 role',
    );
    expect(s.act({ agentA1: ['survey', 'dispenser'] }).agentA1!.events).toEqual([
      { distance: 3, type: 'surveyed', target: 'dispenser' },
    ]);
    expect(s.act({ agentA1: ['survey', 'goal'] }).agentA1!.events).toEqual([
      { distance: 7, type: 'surveyed', target: 'goal' },
    ]);
    expect(s.act({ agentA1: ['survey', 'role'] }).agentA1!.events).toEqual([
      { distance: 0, type: 'surveyed', target: 'role' },
    ]);
  });

  it('fails with failed_target without targets and failed_parameter for other words or counts', () => {
    const s = scene('move 5 5 agentA1');
    expect(s.act({ agentA1: ['survey', 'dispenser'] }).agentA1!.lastActionResult).toBe('failed_target');
    expect(s.act({ agentA1: ['survey', 'goal'] }).agentA1!.lastActionResult).toBe('failed_target');
    expect(s.act({ agentA1: ['survey', 'tree'] }).agentA1!.lastActionResult).toBe('failed_parameter');
    expect(s.act({ agentA1: ['survey'] }).agentA1!.lastActionResult).toBe('failed_parameter');
    expect(s.act({ agentA1: ['survey', '1', '2', '3'] }).agentA1!.lastActionResult).toBe('failed_parameter');
    expect(s.act({ agentA1: ['survey', 'a', '2'] }).agentA1!.lastActionResult).toBe('failed_parameter');
  });

  it('surveys an agent in vision by position', () => {
    const s = scene('move 5 5 agentA1\nmove 7 6 agentB1');
    const next = s.act({ agentA1: ['survey', '2', '1'] }).agentA1!;
    expect(next.lastActionResult).toBe('success');
    expect(next.events).toEqual([
      { role: 'default', name: 'agentB1', type: 'surveyed', target: 'agent', energy: 100 },
    ]);
    expect(s.act({ agentA1: ['survey', '1', '1'] }).agentA1!.lastActionResult).toBe('failed_target');
    expect(s.act({ agentA1: ['survey', '6', '0'] }).agentA1!.lastActionResult).toBe('failed_location');
  });
});

describe('adopt', () => {
  it('changes role in a role zone, also under the alias adapt', () => {
    const s = scene('move 5 5 agentA1\nterrain 5 5 role');
    const next = s.act({ agentA1: ['adapt', 'explorer'] }).agentA1!;
    expect([next.lastAction, next.lastActionResult, next.role]).toEqual(['adapt', 'success', 'explorer']);
    expect(s.act({ agentA1: ['adopt', 'worker'] }).agentA1!.role).toBe('worker');
  });

  it('fails with failed_parameter for a missing or unknown role, failed_location outside role zones', () => {
    const s = scene('move 5 5 agentA1\nterrain 5 5 role');
    expect(s.act({ agentA1: ['adopt'] }).agentA1!.lastActionResult).toBe('failed_parameter');
    expect(s.act({ agentA1: ['adopt', 'wizard'] }).agentA1!.lastActionResult).toBe('failed_parameter');
    s.act({ agentA1: ['move', 'e'] });
    s.act({ agentA1: ['move', 'e'] });
    expect(s.act({ agentA1: ['adopt', 'worker'] }).agentA1!.lastActionResult).toBe('failed_location');
  });
});

describe('failure precedence', () => {
  it('echoes a missing answer as no_action with success', () => {
    const next = scene('move 5 5 agentA1').act({}).agentA1!;
    expect([next.lastAction, next.lastActionParams, next.lastActionResult]).toEqual([
      'no_action',
      [],
      'success',
    ]);
  });

  it('fails actions the role does not allow, and unknown types, with failed_role', () => {
    const s = scene('move 5 5 agentA1\nterrain 5 5 role\nadd 6 5 block b0');
    expect(s.act({ agentA1: ['fly', 'high'] }).agentA1!).toMatchObject({
      lastAction: 'fly',
      lastActionParams: ['high'],
      lastActionResult: 'failed_role',
    });
    s.act({ agentA1: ['adopt', 'limited'] });
    expect(s.act({ agentA1: ['attach', 'e'] }).agentA1!.lastActionResult).toBe('failed_role');
    expect(s.act({ agentA1: ['no_action'] }).agentA1!.lastActionResult).toBe('success');
  });

  it('fails everything with failed_random at randomFail 100, after failed_role', () => {
    const s = scene('move 5 5 agentA1', { config: { randomFail: 100 } });
    expect(s.act({ agentA1: ['skip'] }).agentA1!.lastActionResult).toBe('failed_random');
    expect(s.act({}).agentA1!.lastActionResult).toBe('failed_random');
    expect(s.act({ agentA1: ['fly'] }).agentA1!.lastActionResult).toBe('failed_role');
  });

  it('fails everything of a deactivated agent with failed_status first', () => {
    const s = scene('move 5 5 agentA1\nterrain 5 5 role');
    s.act({ agentA1: ['adopt', 'digger'] });
    let percept = s.percept('agentA1');
    while (!percept.deactivated) percept = s.act({ agentA1: ['clear', '0', '0'] }).agentA1!;
    expect(s.act({ agentA1: ['fly'] }).agentA1!.lastActionResult).toBe('failed_status');
    expect(s.act({}).agentA1!.lastActionResult).toBe('failed_status');
  });
});
