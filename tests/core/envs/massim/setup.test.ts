import { describe, expect, it } from 'vitest';
import { ProtoplayError } from '../../../../src/core/errors';
import { scene } from './scene';

describe('setup scripts', () => {
  it('places blocks, dispensers, obstacles, zones and attachments', () => {
    const s = scene(
      '# a comment\n\nmove 5 5 agentA1\nadd 5 6 block b1\nadd 6 5 dispenser b2\nterrain 4 5 obstacle\nterrain 5 4 goal\nterrain 5 5 role\nattach 5 5 5 6',
    );
    const percept = s.percept('agentA1');
    expect(percept.things).toEqual(
      expect.arrayContaining([
        { x: 0, y: 1, details: 'b1', type: 'block' },
        { x: 1, y: 0, details: 'b2', type: 'dispenser' },
        { x: -1, y: 0, details: '', type: 'obstacle' },
      ]),
    );
    expect(percept.attached).toEqual([[0, 1]]);
    expect(percept.goalZones).toContainEqual([0, -1]);
    expect(percept.roleZones).toContainEqual([0, 0]);
  });

  it('creates tasks completable once, with the reward for their size', () => {
    const percept = scene('create task build 30 0,1,b0;1,1,b2').percept('agentA1');
    expect(percept.tasks).toEqual([
      {
        reward: 40,
        requirements: [
          { x: 0, y: 1, details: '', type: 'b0' },
          { x: 1, y: 1, details: '', type: 'b2' },
        ],
        name: 'build',
        deadline: 29,
      },
    ]);
  });

  it('does not move agents onto taken cells, and stops at stop', () => {
    const s = scene('move 5 5 agentA1\nterrain 6 6 obstacle\nmove 6 6 agentA1\nstop\nmove 7 7 agentA1');
    expect(s.at('agentA1')).toEqual([5, 5]);
  });

  it('reports unreadable lines with their line number', () => {
    let error: unknown;
    try {
      scene('move 5 5 agentA1\nadd 1 1 tree b0');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ProtoplayError);
    // Two parking lines per agent come first in the scene's script.
    expect((error as ProtoplayError).message).toContain('cannot add tree');
    expect((error as ProtoplayError).location?.line).toBe(6);
  });
});
