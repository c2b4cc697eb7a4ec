/**
 * What `run` and `connect` print while sessions play and when they end: one line per round on stdout, a
 * live progress bar on stderr when it is a terminal (cli-progress draws it), and the summary; or, with
 * `--json`, one JSON document at the end and nothing else on stdout.
 */
import cliProgress from 'cli-progress';
import type { CliIo } from '../command-line/io';
import { RewardAccumulator, type RewardSummary } from './statistics';

/** One finished round. */
export interface ReportedRound {
  /** round-num as the server announced it. */
  round: number;
  reward: number;
  turns: number;
  /** False for practice rounds, which the summary leaves out. */
  counted: boolean;
  /** Why the server ended the round early (an action not applicable, the time limit), when it did. */
  endedBy?: string;
  /**
   * A round past the rounds expected (an aisys run that finished in the same answer as the last one asked
   * for): printed without the total, with why it is there.
   */
  pastTotal?: string;
}

/** Options of a reporter. */
export interface RoundReporterOptions {
  io: CliIo;
  /** Print nothing until the end, then one JSON document. */
  json: boolean;
  /** Rounds expected, when known (connect learns it from the server). */
  totalRounds?: number;
  /** Shown in front of the bar, e.g. the instance name. */
  label: string;
}

/**
 * Prints rounds as they end and the summary at the end. The statistics are folded as rounds end; the
 * rounds themselves are kept only for the JSON document, which lists them.
 */
export class RoundReporter {
  /** The rounds so far (with `json` only). */
  readonly rounds: ReportedRound[] = [];
  readonly #counted = new RewardAccumulator();
  readonly #options: RoundReporterOptions;
  #total: number;
  #bars: cliProgress.MultiBar | undefined;
  #bar: cliProgress.SingleBar | undefined;
  /** The early ends printed: a round ended the same way as the last one refers to it. */
  readonly #earlyEnds = new EarlyEndWords();

  constructor(options: RoundReporterOptions) {
    this.#options = options;
    this.#total = options.totalRounds ?? 0;
    const { stderr } = options.io;
    if (!options.json && stderr.isTTY) {
      this.#bars = new cliProgress.MultiBar(
        {
          stream: stderr as NodeJS.WritableStream,
          format: '{label} [{bar}] {value}/{total} rounds | turn {turn} | mean {mean} | {duration_formatted}',
          hideCursor: true,
          clearOnComplete: true,
          barsize: 24,
        },
        cliProgress.Presets.shades_classic,
      );
      this.#bar = this.#bars.create(this.#total, 0, { label: options.label, turn: '-', mean: '-' });
    }
  }

  /** The number of rounds became known. */
  setTotal(total: number): void {
    this.#total = total;
    this.#bar?.setTotal(total);
  }

  /** A turn is being played (updates the live bar only). */
  turn(turn: number): void {
    this.#bar?.update({ turn });
  }

  /** A round ended. */
  round(round: ReportedRound): void {
    if (round.counted) this.#counted.add(round.reward);
    this.#bar?.update(this.#counted.count, { mean: formatReward(this.#counted.mean) });
    if (this.#options.json) {
      this.rounds.push(round);
      return;
    }
    // `13/12` would read as a miscount, and `13/13` as if more rounds had been asked for.
    const of = this.#total && round.pastTotal === undefined ? `/${this.#total}` : '';
    const practice = round.counted ? '' : '  (practice round, not counted)';
    const past = round.pastTotal === undefined ? '' : `  (${round.pastTotal})`;
    this.#line(
      `round ${String(round.round).padStart(3)}${of}  reward ${formatReward(round.reward).padStart(12)}  turns ${round.turns}${practice}${past}${this.#endedEarly(round)}`,
    );
  }

  /** Why the round ended early (see `EarlyEndWords`), after two spaces. */
  #endedEarly({ endedBy, round }: ReportedRound): string {
    const words = this.#earlyEnds.words(round, endedBy);
    return words === undefined ? '' : `  ${words}`;
  }

  /** Stops the bar; call before printing anything else. */
  stop(): void {
    // Round lines logged since the last redraw are printed by a redraw; stopping alone would drop them.
    this.#bars?.update();
    this.#bars?.stop();
    this.#bars = undefined;
    this.#bar = undefined;
  }

  /** Statistics of the counted rounds. */
  summary(): RewardSummary {
    return this.#counted.summary();
  }

  /**
   * Prints the summary (text mode) or the JSON document with `extra` fields first; `rows` are more lines of
   * the text summary.
   */
  finish(
    extra: Record<string, unknown>,
    totalReward: number | undefined,
    rows: readonly [string, string][] = [],
  ): void {
    this.stop();
    const summary = this.summary();
    const { stdout } = this.#options.io;
    if (this.#options.json) {
      stdout.write(
        `${JSON.stringify({ ...extra, rounds: this.rounds, summary, totalReward: totalReward ?? null }, null, 2)}\n`,
      );
      return;
    }
    if (summary.rounds === 0) {
      stdout.write('no round was completed\n');
      return;
    }
    const lines: [string, string][] = [
      ['rounds', String(summary.rounds)],
      ['mean reward', formatReward(summary.mean)],
      ['std. deviation', summary.standardDeviation === null ? '-' : formatReward(summary.standardDeviation)],
      [
        '95% CI of mean',
        summary.confidence95 === null
          ? '-'
          : `[${formatReward(summary.confidence95[0])}, ${formatReward(summary.confidence95[1])}]`,
      ],
    ];
    if (totalReward !== undefined) lines.push(['total reward', formatReward(totalReward)]);
    lines.push(...rows);
    stdout.write(`${lines.map(([name, value]) => `${name.padEnd(16)}${value}`).join('\n')}\n`);
  }

  #line(text: string): void {
    const { stdout } = this.#options.io;
    // On one terminal the line goes above the bar, so the bar stays at the bottom.
    if (this.#bars && stdout.isTTY) this.#bars.log(`${text}\n`);
    else stdout.write(`${text}\n`);
  }
}

/** A reward for people: no float noise (`373.6000000000003` reads `373.6`), at least one decimal. */
/**
 * Why rounds ended early, as the round lines say it: in full the first time, then "as round N" while the
 * reason repeats (`connect`'s report and `inspect`'s).
 */
export class EarlyEndWords {
  #last: { reason: string; round: number } | undefined;

  /** The words for a round that ended early for `reason`; undefined when it did not. */
  words(round: number, reason: string | undefined): string | undefined {
    if (reason === undefined) return undefined;
    if (this.#last?.reason === reason) return `(ended early, as round ${this.#last.round})`;
    this.#last = { reason, round };
    return `(ended early: ${reason})`;
  }
}

export function formatReward(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const rounded = Number(value.toPrecision(10));
  return Number.isInteger(rounded) ? rounded.toFixed(1) : String(rounded);
}
