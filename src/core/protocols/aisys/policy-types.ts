/**
 * The declarations the policy editor gives an aisys policy: what a run, the context and the hooks are,
 * and the percept, action and outcome of the environment played.
 */
import { findAisysEnvironment } from './environments';

/** What every environment shares. */
const COMMON = `/** A run as your policy sees it: one game, played until it has an outcome. */
interface Run {
  /** The run id: a global integer as a string ("26"). */
  readonly id: string;
  /** Which action of the run this is, from 0. */
  readonly actNo: number;
  /** The run's page on the server. */
  readonly url: string;
  /** Anything you keep for this run; forgotten when it ends. */
  memory: Record<string, unknown>;
}

/** What every call gets besides its arguments. */
interface PolicyContext {
  /** Anything you keep for the whole session. */
  memory: Record<string, unknown>;
  /** A number in [0, 1), seeded with the session's seed. */
  random(): number;
  /** Prints to the console panel. */
  log(...values: unknown[]): void;
  /** The environment played ("nim"). */
  readonly env: string;
}

// A policy exports act(percept: Percept, run: Run, context: PolicyContext): Action, called for every action
// request, and may export onRunEnd(outcome: Outcome, run: Run, context: PolicyContext), called when a run ends.
`;

const NIM = `/** Nim: the number of objects left on the heap. */
type Percept = number;
/** How many objects to take: 1, 2 or 3 (the server reads it as Python's int() does: "2" and 2.5 count as 2). */
type Action = number | string;
/** 1 if you took the last object, 0 if the opponent did (or you abandoned the run). */
type Outcome = 0 | 1;
`;

const ANY = `/** What the environment shows of a run. */
type Percept = unknown;
/** What you send back. */
type Action = unknown;
/** How a run ended. */
type Outcome = unknown;
`;

/** The declarations for an environment (a ready-made one's id). */
export function aisysPolicyTypes(environment: string): string {
  const preset = findAisysEnvironment(environment);
  const specific = preset?.envClass === 'nim' ? NIM : ANY;
  return `${specific}\n${COMMON}`;
}
