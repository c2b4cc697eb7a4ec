import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, Settings, sanitizeSettings } from '../../src/state/settings.svelte';

describe('settings', () => {
  it('default to 5 rounds, animated, and a 1000 ms policy budget', () => {
    expect(new Settings().toData()).toEqual({
      rounds: 5,
      seed: 1,
      speed: 'animated',
      delayMs: 120,
      budgetMs: 1000,
    });
  });

  it('sanitise untrusted data field by field', () => {
    expect(sanitizeSettings({ rounds: '7', seed: -5, speed: 'warp', delayMs: 1e9, budgetMs: 'x' })).toEqual({
      ...DEFAULT_SETTINGS,
      rounds: 7,
      seed: 0,
      delayMs: 5000,
    });
  });

  it('run as fast as possible with no delay, whatever the animation delay', () => {
    const settings = new Settings();
    settings.apply({ delayMs: 300 });
    expect(settings.effectiveDelayMs).toBe(300);
    settings.apply({ speed: 'fast' });
    expect(settings.effectiveDelayMs).toBe(0);
  });
});
