/**
 * 500 connections at once against `protoplay serve` of every protocol (a child process on loopback): each
 * has one short exchange and closes. Every one must be answered, and the server's memory must stay
 * bounded. `npm run bench -- faults` prints the times.
 */
import { describe, expect, it } from 'vitest';
import { SERVE_TARGETS } from '../../bench/faults/harness';
import { runLoad } from '../../bench/faults/load';

describe.each(SERVE_TARGETS.map((target) => [target.protocol, target] as const))(
  'serve %s under 500 connections at once',
  (_protocol, target) => {
    it('answers every one, in bounded memory', async () => {
      const load = await runLoad(target, 500);
      expect(load.failures).toBe(0);
      expect(load.sampledPeakKb - load.baselineKb).toBeLessThan(128 * 1024);
    });
  },
);
