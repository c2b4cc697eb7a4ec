/**
 * What `run gama` and `connect gama` print: one line per episode (its rewards and social metrics) and a
 * summary, or with `--json` one JSON document at the end and nothing else on stdout.
 */
import type { GamaEpisodeResult } from '../../../src/core/protocols/gama';
import type { CliIo } from '../../command-line/io';
import { formatReward } from '../../report/round-report';
import { summariseRewards } from '../../report/statistics';

/** The total reward of an episode, all scavengers together. */
export function episodeReward(result: GamaEpisodeResult): number {
  return result.scavengers.reduce((sum, s) => sum + s.reward, 0);
}

/** Prints episodes as they end and the summary at the end. */
export class EpisodeReporter {
  readonly episodes: GamaEpisodeResult[] = [];

  constructor(
    readonly io: CliIo,
    readonly json: boolean,
  ) {}

  episode(result: GamaEpisodeResult): void {
    this.episodes.push(result);
    if (this.json) return;
    const { utilitarian, equality, sustainability, peace } = result.metrics;
    const cut = result.completed ? '' : `  (ended early: ${result.reason ?? 'closed'})`;
    this.io.stdout.write(
      `episode ${String(this.episodes.length).padStart(3)}  cycles ${String(result.cycles).padStart(4)}  reward ${formatReward(episodeReward(result)).padStart(8)}  ` +
        `left ${String(result.resourcesLeft).padStart(3)}  U ${utilitarian.toFixed(3)}  E ${equality.toFixed(3)}  ` +
        `S ${sustainability === null ? '-' : sustainability.toFixed(1)}  P ${peace.toFixed(2)}${cut}\n`,
    );
  }

  finish(extra: Record<string, unknown>): void {
    const rewards = summariseRewards(this.episodes.map(episodeReward));
    if (this.json) {
      this.io.stdout.write(
        `${JSON.stringify({ ...extra, episodes: this.episodes, summary: rewards }, null, 2)}\n`,
      );
      return;
    }
    if (this.episodes.length === 0) {
      this.io.stdout.write('no episode was played\n');
      return;
    }
    const mean = (pick: (r: GamaEpisodeResult) => number | null) => {
      const values = this.episodes.map(pick).filter((v): v is number => v !== null);
      return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
    };
    const rows: [string, string][] = [
      ['episodes', String(rewards.rounds)],
      ['mean reward', formatReward(rewards.mean)],
      ['utilitarian', (mean((r) => r.metrics.utilitarian) ?? 0).toFixed(3)],
      ['equality', (mean((r) => r.metrics.equality) ?? 0).toFixed(3)],
      ['sustainability', mean((r) => r.metrics.sustainability)?.toFixed(1) ?? '-'],
      ['peace', (mean((r) => r.metrics.peace) ?? 0).toFixed(2)],
    ];
    this.io.stdout.write(`${rows.map(([name, value]) => `${name.padEnd(16)}${value}`).join('\n')}\n`);
  }
}
