import { describe, expect, it } from 'vitest';
import { scene } from './scene';

describe('energy and deactivation', () => {
  it('deactivates at 0 for deactivatedDuration steps, recharging meanwhile, then refreshes', () => {
    // deactivatedDuration 3, refreshEnergy 50, stepRecharge 1, digger self-hit: 2 (cost) + 32 (damage).
    const s = scene('move 5 5 agentA1\nterrain 5 5 role\nadd 5 6 block b0\nattach 5 5 5 6');
    s.act({ agentA1: ['adopt', 'digger'] });
    const energies: number[] = [];
    let percept = s.percept('agentA1');
    while (!percept.deactivated) {
      percept = s.act({ agentA1: ['clear', '0', '0'] }).agentA1!;
      energies.push(percept.energy);
    }
    // 100 → 66+1 → 33+1 → 0+1: the recharge happens while deactivated too.
    expect(energies).toEqual([67, 34, 1]);
    expect(percept.attached).toEqual([]);
    const timeline: [boolean, number, string][] = [];
    for (let i = 0; i < 4; i++) {
      const next = s.act({ agentA1: ['skip'] }).agentA1!;
      timeline.push([next.deactivated, next.energy, next.lastActionResult]);
    }
    expect(timeline).toEqual([
      [true, 2, 'failed_status'],
      [true, 3, 'failed_status'],
      [false, 50, 'failed_status'],
      [false, 51, 'success'],
    ]);
  });

  it('never recharges beyond maxEnergy', () => {
    const s = scene('move 5 5 agentA1');
    expect(s.act({}).agentA1!.energy).toBe(100);
  });
});
