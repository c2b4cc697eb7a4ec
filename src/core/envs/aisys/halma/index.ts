/** The Halma-like hex-board game: boards, moves, and the environment with its built-in opponents. */
export {
  createHalmaBoard,
  DIRECTIONS,
  hexDistance,
  MAX_BOARD_SIZE,
  type Cell,
  type Corner,
  type HalmaBoard,
  type HalmaShape,
  type Player,
} from './board';
export { cellText, legalMoves, movesFrom, readMove, type MovePath } from './moves';
export {
  createHalma,
  HALMA_CLASS,
  readHalmaConfig,
  type HalmaConfig,
  type HalmaMoveRecord,
  type HalmaOpponent,
  type HalmaState,
} from './game';
export { cellCentre, moveCursor, readHalmaPosition, type CursorKey, type HalmaPosition } from './view';
