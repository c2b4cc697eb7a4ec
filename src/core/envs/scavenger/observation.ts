/**
 * What a scavenger sees: an egocentric window of the grid, rotated so that the scavenger faces up, with the
 * scavenger in the bottom row's centre when nothing behind it is shown. Row 0 is the farthest ahead and
 * columns run left to right as the scavenger sees them. Two encodings:
 * - `legend` (the written protocol's): 0 empty, 1 resource, 2 another scavenger, 3 wall, 4 the scavenger
 *   itself; cells outside the map read 3 (wall). Default window 21 x 11 (20 ahead, 5 to each side).
 * - `rgb` (the original model's last version): three planes (red, green, blue) of 0-255 values; empty
 *   black, resource (60, 255, 0), other scavenger red, wall and outside grey (128, 128, 128), self blue.
 *   Default window 21 x 21 (20 ahead, 10 to each side).
 */
import { FACING_DX, FACING_DY } from './actions';
import { Cell, type ScavengerWorld } from './world';

/** The observation's encoding. */
export type ObservationKind = 'legend' | 'rgb';

/** The window and encoding of observations. */
export interface ObservationOptions {
  kind?: ObservationKind;
  /** Rows ahead of the scavenger (default 20). */
  ahead?: number;
  /** Columns to each side (default 5 for `legend`, 10 for `rgb`). */
  sides?: number;
  /** Rows behind the scavenger (default 0). */
  behind?: number;
}

/** The value the legend gives the observing scavenger itself. */
export const SELF = 4;

/** RGB of each legend value (empty, resource, other, wall, self). */
export const OBSERVATION_COLOURS: readonly (readonly [number, number, number])[] = [
  [0, 0, 0],
  [60, 255, 0],
  [255, 0, 0],
  [128, 128, 128],
  [0, 0, 255],
];

/** An observation: rows of legend values, or three such planes of colour values. */
export type ScavengerObservation = number[][] | number[][][];

/** Resolved window of an observation. */
export interface ObservationWindow {
  kind: ObservationKind;
  ahead: number;
  sides: number;
  behind: number;
}

/** The options with their defaults filled in, checked (whole numbers, not negative). */
export function observationWindow(options: ObservationOptions = {}): ObservationWindow {
  const kind = options.kind ?? 'legend';
  const window = {
    kind,
    ahead: options.ahead ?? 20,
    sides: options.sides ?? (kind === 'rgb' ? 10 : 5),
    behind: options.behind ?? 0,
  };
  for (const key of ['ahead', 'sides', 'behind'] as const) {
    if (!Number.isInteger(window[key]) || window[key] < 0 || window[key] > 200)
      throw new RangeError(`observation ${key} must be a whole number from 0 to 200, got ${window[key]}`);
  }
  return window;
}

/** The legend view of one scavenger, rows farthest ahead first. */
export function observeLegend(world: ScavengerWorld, index: number, window: ObservationWindow): number[][] {
  const scavenger = world.scavengers[index]!;
  const { width, height, cells } = world;
  const forwardX = FACING_DX[scavenger.facing]!;
  const forwardY = FACING_DY[scavenger.facing]!;
  // The scavenger's right is its forward direction turned a quarter clockwise.
  const rightX = -forwardY;
  const rightY = forwardX;
  const rows: number[][] = [];
  for (let distance = window.ahead; distance >= -window.behind; distance--) {
    const row: number[] = new Array(2 * window.sides + 1);
    const baseX = scavenger.x + distance * forwardX;
    const baseY = scavenger.y + distance * forwardY;
    for (let lateral = -window.sides; lateral <= window.sides; lateral++) {
      const x = baseX + lateral * rightX;
      const y = baseY + lateral * rightY;
      row[lateral + window.sides] =
        x < 0 || y < 0 || x >= width || y >= height ? Cell.wall : cells[y * width + x]!;
    }
    rows.push(row);
  }
  rows[window.ahead]![window.sides] = SELF;
  return rows;
}

/** The view in the chosen encoding. */
export function observe(
  world: ScavengerWorld,
  index: number,
  window: ObservationWindow,
): ScavengerObservation {
  const legend = observeLegend(world, index, window);
  if (window.kind === 'legend') return legend;
  return [0, 1, 2].map((channel) =>
    legend.map((row) => row.map((value) => OBSERVATION_COLOURS[value]![channel]!)),
  );
}
