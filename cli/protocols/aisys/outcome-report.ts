/**
 * What `run aisys` and `connect aisys` add to the common report: the 95% confidence interval of the mean
 * outcome kept within the outcomes seen (a mean cannot leave their range, and Nim's outcomes are 0 and 1),
 * and, for `connect`, the rating the server shows for the agent. The course server's `/act` answers carry
 * no rating: its public `GET <url>results/<env>` does (`{agent: {rating, fully-evaluated, total-runs}}`,
 * `rating` being the agent's best rating, which moves only once it is fully evaluated). The real server
 * caches that page for 10 s, so it can lag the runs just played by that much.
 */
import type { HttpMessage } from '../../../src/core/protocols/contract';
import { runHttpClient } from '../../net/http-client';
import { formatReward, RoundReporter, type ReportedRound } from '../../report/round-report';
import type { RewardSummary } from '../../report/statistics';

/** A round reporter whose confidence interval stays within the lowest and highest outcome counted. */
export class AisysRoundReporter extends RoundReporter {
  #lowest = Infinity;
  #highest = -Infinity;

  override round(round: ReportedRound): void {
    if (round.counted) {
      this.#lowest = Math.min(this.#lowest, round.reward);
      this.#highest = Math.max(this.#highest, round.reward);
    }
    super.round(round);
  }

  override summary(): RewardSummary {
    const summary = super.summary();
    if (summary.confidence95 === null) return summary;
    const clip = (x: number) => Math.min(Math.max(x, this.#lowest), this.#highest);
    return { ...summary, confidence95: [clip(summary.confidence95[0]), clip(summary.confidence95[1])] };
  }
}

/** The agent's line of the server's results. */
export interface ServerRating {
  /** The best rating (the initial rating until the agent is fully evaluated). */
  rating: number;
  fullyEvaluated: boolean;
  /** Finished runs the server counts for the agent (every session's). */
  totalRuns: number;
}

/** What the server's results say of the agent: its rating, none yet (no finished run), or why not known. */
export type ServerRatingReading =
  { kind: 'rating'; rating: ServerRating } | { kind: 'none' } | { kind: 'unknown'; problem: string };

/** Where to ask and how long to wait. */
export interface ServerRatingRequest {
  url: string;
  env: string;
  agent: string;
  /** 0 = wait forever. */
  timeoutMs: number;
  signal: AbortSignal;
}

/** Asks the server's public results for the agent's rating (one GET, not recorded in the transcript). */
export async function fetchServerRating(request: ServerRatingRequest): Promise<ServerRatingReading> {
  const path = `${basePath(request.url)}results/${encodeURIComponent(request.env)}`;
  let answer: HttpMessage | undefined;
  const end = await runHttpClient({
    baseUrl: request.url,
    endpoint: {
      connect(sink) {
        sink.send({ meta: { method: 'GET', path, headers: {} }, body: '' });
        return {
          receive(response) {
            answer = response;
            sink.close('answered');
          },
          end: () => undefined,
        };
      },
    },
    connection: 'results',
    timeoutMs: request.timeoutMs,
    signal: request.signal,
  });
  if (!answer) return { kind: 'unknown', problem: `GET ${path}: ${end.reason}` };
  return readServerRating(answer, request.agent, path);
}

/** The agent's rating in a `/results/<env>` answer. */
export function readServerRating(answer: HttpMessage, agent: string, path: string): ServerRatingReading {
  const status = answer.meta.status ?? 0;
  if (status !== 200) return { kind: 'unknown', problem: `GET ${path} answered ${status}` };
  let results: unknown;
  try {
    results = JSON.parse(answer.body);
  } catch {
    return { kind: 'unknown', problem: `GET ${path} answered no JSON` };
  }
  if (results === null || typeof results !== 'object' || Array.isArray(results))
    return { kind: 'unknown', problem: `GET ${path} answered no results object` };
  if (!Object.hasOwn(results, agent)) return { kind: 'none' };
  const line = (results as Record<string, unknown>)[agent] as Record<string, unknown> | null;
  const rating = line?.rating;
  const fullyEvaluated = line?.['fully-evaluated'];
  const totalRuns = line?.['total-runs'];
  if (typeof rating !== 'number' || typeof fullyEvaluated !== 'boolean' || typeof totalRuns !== 'number')
    return { kind: 'unknown', problem: `GET ${path} answered an agent line without rating` };
  return { kind: 'rating', rating: { rating, fullyEvaluated, totalRuns } };
}

/**
 * The summary's row for the server's rating; `played` is the runs this session finished (a server that
 * counts fewer showed results cached from before them).
 */
export function serverRatingRow(reading: ServerRatingReading, played: number): [string, string] {
  switch (reading.kind) {
    case 'rating': {
      const { rating, fullyEvaluated, totalRuns } = reading.rating;
      const stale = totalRuns < played ? '; older than this session: the server caches it for 10 s' : '';
      const runs = `${totalRuns} run${totalRuns === 1 ? '' : 's'} on the server${stale}`;
      const what = fullyEvaluated
        ? 'best rating, fully evaluated'
        : 'the initial rating: not fully evaluated yet';
      return ['server rating', `${formatReward(rating)} (${what}; ${runs})`];
    }
    case 'none':
      return ['server rating', '- (the server lists no finished run of the agent yet)'];
    case 'unknown':
      return ['server rating', `- (${reading.problem})`];
  }
}

/** The server's rating for the JSON document: the agent's line, or null with why. */
export function serverRatingJson(reading: ServerRatingReading): Record<string, unknown> {
  if (reading.kind === 'rating') return { serverRating: reading.rating };
  return {
    serverRating: null,
    ...(reading.kind === 'unknown' ? { serverRatingProblem: reading.problem } : {}),
  };
}

/** The path of a base URL (`http://host:5000/prefix` -> `/prefix/`), ending with a slash. */
function basePath(url: string): string {
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(\/[^?#]*)?/i.exec(url)?.[1] || '/';
  return path.endsWith('/') ? path : `${path}/`;
}
