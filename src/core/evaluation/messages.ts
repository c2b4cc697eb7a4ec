/**
 * What an evaluation thread and its owner say to each other. Plain data only: the same messages cross a
 * Node worker thread's port and a Web Worker's.
 */
import type { EpisodeOutcome, EvaluatedPolicySource } from '../protocols/evaluation-contract';

/** Slots of the shared call clock (a Float64Array over a SharedArrayBuffer). */
export const CLOCK_STARTED = 0;
export const CLOCK_ROUND = 1;
export const CLOCK_TURN = 2;
export const CLOCK_SLOTS = 3;

/** From the owner to the thread. */
export type ToEvaluationThread =
  | {
      kind: 'init';
      protocol: string;
      policy: EvaluatedPolicySource;
      settings: unknown;
      /**
       * Where the thread writes when a policy call starts (`Date.now()`, 0 when none runs), so the owner
       * can see an overrun without a message per call. Absent where memory cannot be shared (a page that is
       * not cross-origin isolated): the thread then posts `call` messages.
       */
      clock?: SharedArrayBuffer;
    }
  | { kind: 'play'; id: number; seed: number; rounds: number; trace: boolean; record?: boolean };

/** From the thread to its owner. */
export type FromEvaluationThread =
  | { kind: 'ready' }
  | { kind: 'init-failed'; error: string }
  /** A policy call started (`at`: `Date.now()`) or ended (no `at`), when there is no shared clock. */
  | { kind: 'call'; at?: number; round: number; turn: number }
  | { kind: 'done'; id: number; outcome: EpisodeOutcome; ms: number };
