/**
 * Colours of the MASSim views: one per team (the same in the world, the charts and the lists) and one per
 * block type, chosen apart from each other and readable on light and dark panels.
 */

const TEAM_COLOURS = ['#3f7fd6', '#e8772e', '#2f9e6f', '#c2417a', '#8a63d2', '#b8912b', '#3aa3b3', '#7a7f8a'];
const BLOCK_COLOURS = [
  '#e0b000',
  '#a46bf0',
  '#25b5a5',
  '#f06090',
  '#6c9cff',
  '#9ccc3c',
  '#ff8a3d',
  '#b0b4bb',
];

/** The colour of a team, by its position among the session's teams. */
export function teamColour(teams: readonly string[], team: string): string {
  const position = teams.indexOf(team);
  return TEAM_COLOURS[(position < 0 ? teams.length : position) % TEAM_COLOURS.length]!;
}

/** The colour of a block type (`b0`, `b1`...), by its number. */
export function blockColour(type: string): string {
  const number = Number(type.replace(/^\D+/, ''));
  return BLOCK_COLOURS[(Number.isFinite(number) ? number : 0) % BLOCK_COLOURS.length]!;
}
