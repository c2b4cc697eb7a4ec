/**
 * The shell's playback, shared by every protocol's views: following the newest frame until one is picked,
 * back to following at the newest, and a reset (new session or transcript) that forgets the step on show
 * but keeps the agent whose point of view the learner chose.
 */
import { describe, expect, it } from 'vitest';
import { Playback } from '../../src/state/playback.svelte';

describe('Playback', () => {
  it('follows the newest frame until one is shown, and again once the newest is', () => {
    const playback = new Playback();
    expect(playback.shownFrame(5)).toBe(4);
    expect(playback.shownFrame(0)).toBe(-1);
    playback.showFrame(2, 5);
    expect(playback.frame).toBe(2);
    expect(playback.shownFrame(9)).toBe(2);
    // Fewer frames than the one picked (a new match began): the newest there is.
    expect(playback.shownFrame(2)).toBe(1);
    playback.showFrame(-3, 5);
    expect(playback.shownFrame(5)).toBe(0);
    playback.showFrame(4, 5);
    expect(playback.frame).toBeUndefined();
    expect(playback.shownFrame(7)).toBe(6);
  });

  it('forgets the step, message and round on a reset, not the agent or hidden types', () => {
    const playback = new Playback();
    playback.showFrame(1, 5);
    playback.select(12);
    playback.selectedRound = 3;
    playback.agent = 'agentA1';
    playback.toggleType('percept');
    playback.reset();
    expect(playback.frame).toBeUndefined();
    expect(playback.selectedIndex).toBeUndefined();
    expect(playback.selectedRound).toBeUndefined();
    expect(playback.agent).toBe('agentA1');
    expect(playback.hiddenTypes).toEqual(['percept']);
  });
});
