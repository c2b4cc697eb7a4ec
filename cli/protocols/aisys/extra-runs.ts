/**
 * How `run aisys` and `connect aisys` report the runs past `--runs N`. The client stops after the answer in
 * which N runs have finished, as the course client does, and with parallel runs that answer can finish
 * several: those are reported as extra runs of the same answer, not as if more had been asked for.
 */
import type { ReportedRound } from '../../report/round-report';

/** The words of a finished run's line: undefined up to the limit, why it is there past it. */
export function pastLimitWords(run: number, limit: number | undefined): ReportedRound['pastTotal'] {
  return limit !== undefined && run > limit
    ? `extra run: finished in the answer that reached --runs ${limit}`
    : undefined;
}

/** The summary's row for the extra runs; none when there are none. */
export function extraRunsRows(finished: number, limit: number | undefined): [string, string][] {
  if (limit === undefined || finished <= limit) return [];
  return [
    [
      'extra runs',
      `${finished - limit} of the ${finished} (they finished in the answer that reached --runs ${limit})`,
    ],
  ];
}
