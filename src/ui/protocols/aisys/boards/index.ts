/**
 * The board of each aisys environment: what a percept looks like drawn (Nim's objects, the cave's map).
 * A board is keyed by environment id, or by the environment's class for an environment made under another
 * name; an environment with no board gets the percept as JSON. Adding a board is a component in this
 * folder and one line in `BOARDS`.
 */
import type { Component } from 'svelte';
import type { JsonValue } from '../../../../core/envs/aisys/api';
import { findAisysEnvironment } from '../../../../core/protocols/aisys/environments';
import HalmaBoardView from './HalmaBoardView.svelte';
import JsonBoard from './JsonBoard.svelte';
import NimBoard from './NimBoard.svelte';
import WumpusCaveBoard from './WumpusCaveBoard.svelte';

/** What every board is given. */
export interface BoardProps {
  /** The environment's id (`nim`), as the transcript names it. */
  env: string;
  /** The percept of the action request shown. */
  percept: JsonValue;
  /** The action sent for it, when one was. */
  action?: JsonValue;
}

/** Boards by environment id (or class id). */
const BOARDS: Readonly<Record<string, Component<BoardProps>>> = {
  // Nim's class covers every Nim environment (the strong opponent too).
  nim: NimBoard,
  'wumpus-cave': WumpusCaveBoard,
  // Every Halma environment (two or three players, star or rhombus), by its class.
  halma: HalmaBoardView,
};

/** The board of an environment; the JSON view when it has none. */
export function boardFor(env: string): Component<BoardProps> {
  return BOARDS[env] ?? BOARDS[findAisysEnvironment(env)?.envClass ?? ''] ?? JsonBoard;
}
