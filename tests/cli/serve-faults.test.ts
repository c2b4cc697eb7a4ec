/**
 * Fault injection against `protoplay serve` of every protocol, each server a child process on loopback
 * (bench/faults/harness.ts): peers that close in the middle of a message, send one byte at a time, send
 * 100 MiB without ending a message (HTTP: a 100 MiB body and an endless chunked one; WebSocket: a 100 MiB
 * frame), never read, stay silent, send invalid UTF-8, while a well-behaved `connect` plays alongside.
 * The server must close or answer each as documented, with its one log line, keep the well-behaved
 * session whole in its transcript, still answer afterwards, and not grow with what the peers send.
 */
import { describe, expect, it } from 'vitest';
import { SERVE_TARGETS } from '../../bench/faults/harness';
import { runFaults } from '../../bench/faults/run-faults';

const MiB_KB = 1024;

describe.each(SERVE_TARGETS.map((target) => [target.protocol, target] as const))(
  'serve %s under fault injection',
  (_protocol, target) => {
    it('closes or answers every misbehaving peer with one log line, and the other session completes', async () => {
      const run = await runFaults(target);
      const summary = run.outcomes.map((outcome) => ({
        fault: outcome.name,
        closedByServer: outcome.end.closedByServer,
        answered: outcome.end.received > 0,
        logLines: outcome.matching,
      }));
      const expected = run.outcomes.map((outcome) => ({
        fault: outcome.name,
        closedByServer: outcome.expect === 'closed' ? true : outcome.end.closedByServer,
        answered: outcome.expect === 'answered' ? true : outcome.end.received > 0,
        logLines: outcome.expectedLog ? 1 : 0,
      }));
      expect(summary, run.output).toEqual(expected);

      // The well-behaved session played to its end, and the server recorded every message of it.
      for (const result of run.good.results) expect(result.code, result.stderr).toBe(0);
      expect(run.goodComplete.length).toBeGreaterThan(0);
      expect(run.goodComplete.every(Boolean)).toBe(true);
      // A new peer is still answered after all that, and the server stopped cleanly.
      expect(run.answersAfter).toBe(true);
      expect(run.serveCode).toBe(0);

      // What a peer sends without end is not kept: the 100 MiB peers cost the server far less than 100 MB.
      for (const outcome of run.outcomes.filter((o) => o.name.includes('100 MiB')))
        expect(outcome.rssKb - outcome.rssBeforeKb, outcome.name).toBeLessThan(32 * MiB_KB);
      expect(run.sampledPeakKb - run.baselineKb).toBeLessThan(128 * MiB_KB);
    });
  },
);
