import { describe, expect, it } from 'vitest';
import { msUntilLaunch, parseMassimLaunch } from '../../../../src/core/protocols/massim/launch';

describe('parseMassimLaunch', () => {
  it('reads the three forms of the real configuration', () => {
    expect(parseMassimLaunch('key')).toEqual({ kind: 'key' });
    expect(parseMassimLaunch('5s')).toEqual({ kind: 'delay', ms: 5000 });
    expect(parseMassimLaunch('09:05')).toEqual({ kind: 'time-of-day', hours: 9, minutes: 5 });
    expect(() => parseMassimLaunch('soon')).toThrow(/Unknown launch "soon"/);
    expect(() => parseMassimLaunch('25:00')).toThrow(/Unknown launch/);
  });

  it('waits until the time of day, or not at all once it has passed', () => {
    const now = new Date(2026, 10, 21, 14, 0, 30);
    expect(msUntilLaunch({ kind: 'time-of-day', hours: 14, minutes: 2 }, now)).toBe(90_000);
    expect(msUntilLaunch({ kind: 'time-of-day', hours: 13, minutes: 59 }, now)).toBe(0);
    expect(msUntilLaunch({ kind: 'delay', ms: 2000 }, now)).toBe(2000);
  });
});
