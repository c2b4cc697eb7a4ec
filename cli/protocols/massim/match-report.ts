/**
 * What the MASSim commands print as a match plays: a line when a simulation starts, the progress of every
 * step (a live bar on a terminal, else one line per step when asked), the scores when a simulation ends;
 * with `--json`, nothing until one JSON document at the end.
 */
import cliProgress from 'cli-progress';
import type { MassimServerConfig } from '../../../src/core/envs/massim/api';
import type { MassimHostEvent } from '../../../src/core/protocols/massim/host';
import type { CliIo } from '../../command-line/io';

/** A simulation as the report names it. */
export interface ReportedSimulation {
  /** 1-based count over the whole session (matches included). */
  number: number;
  /** `A vs B`, or the team an agent side plays for. */
  teams: readonly string[];
  steps: number;
}

/** A finished simulation. */
export interface SimulationResult {
  simulation: number;
  teams: readonly string[];
  steps: number;
  /** Final score per team (for `connect`, only its own team). */
  scores: Record<string, number>;
  /** For `connect`: the team's rank from sim-end. */
  ranking?: number;
}

/** Options of a reporter. */
export interface MatchReporterOptions {
  io: CliIo;
  /** Print nothing but the final JSON document. */
  json: boolean;
  /** Off a terminal, print one line per step (serve, connect); else only simulation lines (run). */
  stepLines: boolean;
}

/** Prints a session's progress and keeps its results. */
export class MatchReporter {
  readonly results: SimulationResult[] = [];
  readonly #options: MatchReporterOptions;
  #current: ReportedSimulation | undefined;
  /** Simulations started, as the emulated host reported them. */
  #hostSimulations = 0;
  #bars: cliProgress.MultiBar | undefined;
  #bar: cliProgress.SingleBar | undefined;

  constructor(options: MatchReporterOptions) {
    this.#options = options;
    const { stderr } = options.io;
    if (!options.json && stderr.isTTY) {
      this.#bars = new cliProgress.MultiBar(
        {
          stream: stderr as NodeJS.WritableStream,
          format: 'simulation {simulation} [{bar}] step {value}/{total} | {scores} | {duration_formatted}',
          hideCursor: true,
          clearOnComplete: true,
          barsize: 24,
        },
        cliProgress.Presets.shades_classic,
      );
    }
  }

  /**
   * Reports a simulation starting, a step or a simulation ending from the emulated host of `config`'s
   * match; returns false for any other event, which is the caller's.
   */
  hostEvent(event: MassimHostEvent, config: MassimServerConfig): boolean {
    switch (event.kind) {
      case 'simulation-start':
        this.simulationStarted({
          number: ++this.#hostSimulations,
          teams: event.teams,
          steps: config.match[event.simulation]!.steps,
        });
        return true;
      case 'step':
        this.step(event.step, event.scores);
        return true;
      case 'simulation-end':
        this.simulationEnded(event.scores);
        return true;
      default:
        return false;
    }
  }

  /** A simulation started. */
  simulationStarted(simulation: ReportedSimulation): void {
    this.#current = simulation;
    this.line(`simulation ${simulation.number}: ${simulation.teams.join(' vs ')}, ${simulation.steps} steps`);
    this.#removeBar();
    this.#bar = this.#bars?.create(simulation.steps, 0, { simulation: simulation.number, scores: '' });
  }

  /** Step `step` (from 0) was played; `scores` are the scores after it. */
  step(step: number, scores: Record<string, number>): void {
    const current = this.#current;
    if (!current) return;
    const text = formatScores(scores);
    if (this.#bar) this.#bar.update(step + 1, { scores: text });
    else if (this.#options.stepLines && !this.#options.json)
      this.#options.io.stdout.write(
        `simulation ${current.number} step ${step + 1}/${current.steps}  ${text}\n`,
      );
  }

  /** The current simulation ended with these scores. */
  simulationEnded(scores: Record<string, number>, ranking?: number): void {
    const current = this.#current;
    if (!current) return;
    this.#removeBar();
    this.results.push({
      simulation: current.number,
      teams: current.teams,
      steps: current.steps,
      scores,
      ...(ranking !== undefined ? { ranking } : {}),
    });
    const rank = ranking !== undefined ? `  (rank ${ranking})` : '';
    this.line(`simulation ${current.number} ended: ${formatScores(scores)}${rank}`);
    this.#current = undefined;
  }

  /** A line of the log (not in JSON mode), above the bar. */
  line(text: string): void {
    if (this.#options.json) return;
    // On one terminal the line goes above the bar, so the bar stays at the bottom.
    if (this.#bars && this.#options.io.stdout.isTTY) this.#bars.log(`${text}\n`);
    else this.#options.io.stdout.write(`${text}\n`);
  }

  /** Stops the bar; call before printing the summary. */
  stop(): void {
    // Lines logged since the last redraw are printed by a redraw; stopping alone would drop them.
    this.#bars?.update();
    this.#bars?.stop();
    this.#bars = undefined;
    this.#bar = undefined;
  }

  /** The scores table of every finished simulation, for the end of a text report. */
  summary(): string {
    if (this.results.length === 0) return 'no simulation was completed\n';
    return `${this.results
      .map(
        (result) =>
          `simulation ${String(result.simulation).padEnd(3)} ${formatScores(result.scores)}${
            result.ranking !== undefined ? `  (rank ${result.ranking})` : ''
          }`,
      )
      .join('\n')}\n`;
  }

  #removeBar(): void {
    if (this.#bar) this.#bars?.remove(this.#bar);
    this.#bar = undefined;
  }
}

/** `A 40  B 10`. */
export function formatScores(scores: Record<string, number>): string {
  return Object.entries(scores)
    .map(([team, score]) => `${team} ${score}`)
    .join('  ');
}
