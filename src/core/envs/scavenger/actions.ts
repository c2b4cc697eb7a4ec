/**
 * The eight scavenger actions, in the order the original API server numbered them (index 0 to 7), and the
 * four facings. Moves are relative to where the scavenger faces; `move_back` steps back without turning.
 */

/** Every action name, in the original's index order. */
export const SCAVENGER_ACTIONS = [
  'idle',
  'tag',
  'move_ahead',
  'move_right',
  'move_left',
  'move_back',
  'face_right',
  'face_left',
] as const;

/** One of the eight actions. */
export type ScavengerAction = (typeof SCAVENGER_ACTIONS)[number];

/** Whether a text names one of the eight actions (case matters, as in the original). */
export function isScavengerAction(text: string): text is ScavengerAction {
  return (SCAVENGER_ACTIONS as readonly string[]).includes(text);
}

/** Where a scavenger faces: 0 north (up), 1 east, 2 south, 3 west. Everyone starts facing north. */
export type Facing = 0 | 1 | 2 | 3;

/** Column step of each facing. */
export const FACING_DX: readonly number[] = [0, 1, 0, -1];
/** Row step of each facing (rows grow downwards). */
export const FACING_DY: readonly number[] = [-1, 0, 1, 0];

/** How many quarter turns clockwise from the facing each move goes (ahead, right, back, left). */
export const MOVE_TURNS: Readonly<Partial<Record<ScavengerAction, number>>> = {
  move_ahead: 0,
  move_right: 1,
  move_back: 2,
  move_left: 3,
};
