/** The course server's environments Protoplay plays: the contract, Python's semantics, and each game. */
export * from './api';
export { createNim, NIM_CLASS, type NimState } from './nim';
export {
  createWumpusCave,
  DEFAULT_CAVE,
  WUMPUS_CAVE_CLASS,
  type CaveOutcome,
  type CaveState,
} from './wumpus-cave';
export { pythonEquals, pythonInt, pythonRepr, pythonTruthy } from './python';
