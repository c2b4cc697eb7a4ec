/**
 * What a MASSim session in the playground needs besides the common session settings (`SessionConfig`),
 * and the questions its views ask the session worker: the page's MASSim adapter and the runner share
 * these.
 */
import type { MassimQuickSetup, MassimSemantics } from '../../../envs/massim/api';
import type { PolicySource } from '../../../policy/types';

/** The server configuration of a MASSim session. */
export type MassimMatchSetup =
  /** The playground's scenario in the given shape (teams A and B). */
  | { kind: 'quick'; setup: MassimQuickSetup }
  /** The contest's sample match: 2 x 20 agents on 70 x 70, then 2 x 40 on 100 x 100, 750 steps each. */
  | { kind: 'contest' }
  /** A real server configuration file, with the files it includes (by path relative to it). */
  | { kind: 'file'; name: string; text: string; includes: Record<string, string> };

/** `SessionConfig.options` of a MASSim session. */
export interface MassimSessionOptions {
  match: MassimMatchSetup;
  /**
   * The policy of every team after the first (the first plays `SessionConfig.policy`). Teams of a
   * configuration file beyond two all play this one.
   */
  otherTeams: PolicySource;
  /** Reproduce the real server's lossy races (sim-start after a reconnection, bye at the end). */
  faithfulRaces: boolean;
  /**
   * Whose random numbers the simulations draw (default `protoplay`); `massim` gives the real server's world
   * for a configuration and seed.
   */
  semantics?: MassimSemantics;
}

/**
 * The questions the MASSim views ask about the transcript on show (`PlaygroundSession.ask`), with their
 * arguments: `message(index)` (one message as recorded), `world(frame)` (the world after a frame's step,
 * when the transcript holds it), `agentView(frame, agent)` (what an agent perceived, sent, and what came
 * of it).
 */
export const MASSIM_QUESTIONS = ['message', 'world', 'agentView'] as const;

/** One of the MASSim views' questions. */
export type MassimQuestion = (typeof MASSIM_QUESTIONS)[number];
