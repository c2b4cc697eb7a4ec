/**
 * Colours of the GAMA views: one per scavenger (the same on the world, in the chart and the picker), and
 * the world's cells, readable on light and dark panels.
 */

const SCAVENGER_COLOURS = [
  '#3f7fd6',
  '#e8772e',
  '#2f9e6f',
  '#c2417a',
  '#8a63d2',
  '#b8912b',
  '#3aa3b3',
  '#d6453f',
  '#5d8a2f',
  '#7a5cff',
  '#c46f1b',
  '#1f8f8a',
];

/** The colour of a scavenger, by the number in its id (`Scav. 3`). */
export function scavengerColour(id: string): string {
  const number = Number(/(\d+)\s*$/.exec(id)?.[1] ?? 0);
  return SCAVENGER_COLOURS[(Math.max(1, number) - 1) % SCAVENGER_COLOURS.length]!;
}

/** Cells of the world view. */
export const WORLD_COLOURS = {
  wall: '#8a919c',
  resource: '#3cb043',
  beam: 'rgba(250, 200, 40, 0.35)',
} as const;
