/**
 * The data that crosses the boundary between whoever runs a session (a session worker, the command line)
 * and the policy runtime (a policy worker, or in-process). Everything here is plain, structured-cloneable
 * data: no classes, no functions, so it survives `postMessage` unchanged.
 */
import type { SourceLocation } from '../errors';

/** The languages a policy may be written in. */
export type PolicyLanguage = 'ts' | 'js';

/**
 * How a policy talks to the session:
 * - `policy`: the protocol adapter decodes messages; the policy exports `act(observation, context)`;
 * - `wire`: the policy receives every raw server message and returns the raw replies itself, for learners
 *   who are writing a protocol client.
 */
export type PolicyLevel = 'policy' | 'wire';

/** User code to load into a policy runtime. */
export interface PolicySource {
  code: string;
  language: PolicyLanguage;
  /** Name shown in error locations, e.g. `policy.ts`. */
  fileName: string;
  level: PolicyLevel;
  /** Seed of `context.random()`, so a randomised policy replays exactly with the session's seed. */
  seed: number;
  /**
   * Facts that stay the same for the whole session (the instance being played...), merged into the
   * context of every call: sent once with the code instead of with every call.
   */
  context?: Record<string, unknown>;
  /**
   * How the protocol calls the level's entry, for the error a missing export gets (e.g.
   * `act(percept, agent, team)` for a MASSim team); the level's own signature when absent.
   */
  entrySignature?: string;
}

/**
 * Why a policy could not do what was asked, in words a learner can act on, located in their source when
 * possible. `kind` says at which stage it happened:
 * - `compile`: a syntax error (always located);
 * - `load`: the module's top-level code threw, or a required export is missing;
 * - `call`: a hook threw (located at the throwing line of the user's code when the stack shows it);
 * - `result`: a hook returned something that cannot leave the worker (a function, a cycle...);
 * - `timeout`: the budget ran out and the runtime was terminated and restarted;
 * - `crash`: the runtime itself stopped answering for another reason (worker error).
 */
export interface PolicyFault {
  kind: 'compile' | 'load' | 'call' | 'result' | 'timeout' | 'crash';
  message: string;
  location?: SourceLocation;
  /** The hook that failed (`act`, `onRoundStart`...), when it was a call. */
  hook?: string;
}

/** One line a policy printed with `console.*`. */
export interface PolicyLogLine {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  text: string;
}

/** Result of loading a policy: the hooks it exports, and anything its top-level code printed. */
export type LoadOutcome =
  | { ok: true; hooks: string[]; logs: PolicyLogLine[] }
  | { ok: false; fault: PolicyFault; logs: PolicyLogLine[] };

/** Result of calling one hook. `ms` is the time the hook took inside the runtime. */
export type CallOutcome =
  | { ok: true; value: unknown; logs: PolicyLogLine[]; ms: number }
  | { ok: false; fault: PolicyFault; logs: PolicyLogLine[]; ms: number };

/** Where in the session a call happens; used for budget messages such as "on round 2, turn 7". */
export interface CallSite {
  round: number;
  turn: number;
}

/** A ready-made policy, one click away in the editor. */
export interface SamplePolicy {
  id: string;
  label: string;
  /** What it does, in a few words, shown as the button's description. */
  description: string;
  language: PolicyLanguage;
  level: PolicyLevel;
  code: string;
  /** Environments the sample is written for; absent when it works on all of them. */
  environments?: readonly string[];
}
