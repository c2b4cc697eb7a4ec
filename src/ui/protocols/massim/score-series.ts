/**
 * Every team's score per step for MASSim's score chart, kept up to date as a match or a recording grows
 * instead of recomputed from its first step at each refresh. News about a match replaces frames (the
 * newest step's scores arrive with the next percept) or adds them at the end, always as new frame
 * objects in a new array: what was computed for the frames still the same objects is kept, the rest is
 * computed again.
 */
import type { MassimFrame } from '../../../core/protocols/massim/reading';

/** The scores of the chart. */
export interface ScoreSeries {
  /** Each team's score per frame, a missing figure carrying the last known one (0 at a simulation's start). */
  series: readonly { team: string; scores: readonly number[] }[];
  /** The highest score of any team at any frame, undefined when there is none. */
  max: number | undefined;
  /** Frames that start a simulation other than the first. */
  boundaries: readonly number[];
}

/** Whether a score is a new highest (a score that is not a number is not, as with d3's `max`). */
function higher(score: number, highest: number | undefined): boolean {
  return !Number.isNaN(score) && (highest === undefined || score > highest);
}

/** The scores computed from the first frame (what the incremental reckoning must equal). */
export function scoreSeries(frames: readonly MassimFrame[], teams: readonly string[]): ScoreSeries {
  const series = teams.map((team) => {
    let last = 0;
    let simulation = 0;
    return {
      team,
      scores: frames.map((frame) => {
        if (frame.simulation !== simulation) {
          simulation = frame.simulation;
          last = 0;
        }
        last = frame.scores[team] ?? last;
        return last;
      }),
    };
  });
  let max: number | undefined;
  for (const { scores } of series) for (const score of scores) if (higher(score, max)) max = score;
  const boundaries = frames.flatMap((f, i) =>
    i > 0 && f.simulation !== frames[i - 1]!.simulation ? [i] : [],
  );
  return { series, max, boundaries };
}

/** The score series of a growing list of frames, each update computing only the frames new or replaced. */
export class IncrementalScores {
  #frames: readonly MassimFrame[] = [];
  #teams: readonly string[] = [];
  /** Per team, the score at each frame. */
  #scores: number[][] = [];
  /** The highest score up to each frame (undefined: none yet). */
  #highest: (number | undefined)[] = [];
  #boundaries: number[] = [];
  /** Where the last update started computing (for tests: how much was kept). */
  computedFrom = 0;

  update(frames: readonly MassimFrame[], teams: readonly string[]): ScoreSeries {
    const sameTeams = teams.length === this.#teams.length && teams.every((t, i) => t === this.#teams[i]);
    // The first frame not the same object as before: everything from there on is computed again.
    let from = 0;
    if (sameTeams) {
      const before = this.#frames;
      const common = Math.min(before.length, frames.length);
      while (from < common && frames[from] === before[from]) from++;
    } else {
      this.#scores = teams.map(() => []);
    }
    this.#frames = frames;
    this.#teams = teams;
    this.computedFrom = from;
    for (const scores of this.#scores) scores.length = from;
    this.#highest.length = from;
    while (this.#boundaries.length && this.#boundaries[this.#boundaries.length - 1]! >= from)
      this.#boundaries.pop();

    for (let i = from; i < frames.length; i++) {
      const frame = frames[i]!;
      // A new simulation starts from 0; so does the first frame.
      const continues = i > 0 && frames[i - 1]!.simulation === frame.simulation;
      if (i > 0 && !continues) this.#boundaries.push(i);
      let highest = i > 0 ? this.#highest[i - 1] : undefined;
      teams.forEach((team, t) => {
        const scores = this.#scores[t]!;
        const score = frame.scores[team] ?? (continues ? scores[i - 1]! : 0);
        scores.push(score);
        if (higher(score, highest)) highest = score;
      });
      this.#highest.push(highest);
    }
    return {
      series: teams.map((team, t) => ({ team, scores: this.#scores[t]! })),
      max: frames.length ? this.#highest[frames.length - 1] : undefined,
      // A new array each time: the chart compares by reference.
      boundaries: this.#boundaries.slice(),
    };
  }
}
