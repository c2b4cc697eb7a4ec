/**
 * The evaluation side of the protocol contract: how a protocol plays one episode (an rddlsim session of a
 * few rounds, a MASSim match, an aisys run, a GAMA episode) for one seed with a policy, and returns its
 * rewards, without I/O of its own. The same player runs in a Node worker thread (`protoplay evaluate`) and
 * in a Web Worker (the page's Evaluate and Compare), next to the policy it plays: the whole thread is the
 * policy's sandbox, and its owner stops it when a call overruns its budget (see `src/core/evaluation`).
 */
import type { SourceLocation } from '../errors';
import type { CallOutcome, CallSite, LoadOutcome, PolicySource } from '../policy/types';
import type { Direction, Transcript } from '../transcript/model';
import type { PolicyRuntimeApi } from './session-contract';

/** The policy as an episode sees it: loaded fresh for each episode, then called. */
export interface EpisodePolicy {
  /**
   * Loads the policy's module afresh (its memory empty, `context.random()` seeded with the episode's seed),
   * with facts about the environment merged into every call's context.
   */
  load(context: Record<string, unknown>): Promise<LoadOutcome>;
  /** Calls a hook; a fault comes back as an outcome, never thrown. */
  call(hook: string, args: readonly unknown[], site: CallSite): Promise<CallOutcome>;
}

/** One episode to play. */
export interface EpisodeRequest {
  /** The protocol's own settings (the environment, as its command or page made them): plain data. */
  settings: unknown;
  seed: number;
  /** Units to play in the episode (rounds of an rddlsim session); protocols with one per episode ignore it. */
  rounds: number;
  /** Keep every decision's actions, to find where two policies diverge. */
  trace: boolean;
  /**
   * Record the episode's wire messages as transcripts (for the side-by-side view of one seed). Only ever
   * asked for a single seed: an evaluation of many seeds keeps none, so its memory does not grow.
   */
  record?: boolean;
}

/** One decision of a traced episode. */
export interface TraceStep {
  round: number;
  turn: number;
  /** The actions, as canonical JSON (keys sorted), so equal decisions compare equal. */
  actions: string;
}

/** What an episode gave. */
export interface EpisodeOutcome {
  /** One reward per unit played (each round's discounted reward, a match's score...). */
  rewards: number[];
  /** Decisions taken in each unit. */
  turns: number[];
  /**
   * Units the environment ended before their end (an rddlsim round the server ends at once when an action
   * breaks a precondition): the unit's index in `rewards`, and the environment's reason in one sentence.
   * Such a unit's reward counts as it is; this says why it is what it is.
   */
  endedEarly?: { unit: number; reason: string }[];
  /** Every decision, when asked for. */
  trace?: TraceStep[];
  /**
   * The episode's transcripts, when asked for (`record`): one per unit when each unit is a session of its
   * own (MASSim's matches), otherwise one for the whole episode. Kept even when the episode failed.
   */
  transcripts?: Transcript[];
  /** The policy failed (threw, returned something unusable): the episode ended there. */
  fault?: { message: string; round: number; turn: number; location?: SourceLocation };
  /** The environment could not be played (bad settings...): one sentence. */
  error?: string;
}

/** Plays episodes; made once per thread, then called for each seed. */
export interface EpisodePlayer {
  /** Checks and loads the settings once (throws an Error with a located message for bad ones). */
  prepare(settings: unknown): void;
  play(request: EpisodeRequest, policy: EpisodePolicy): Promise<EpisodeOutcome>;
  /** The runtime this protocol's policies run in (default: the plain policy runtime). */
  policyRuntime?(): PolicyRuntimeApi;
}

/** A protocol's evaluation: the unit it reports on, and its player, loaded on first use. */
export interface ProtocolEvaluation {
  /** What one reward is: `round`, `match`, `run`, `episode`. */
  unit: string;
  /** Units a seed always plays (MASSim: two matches, one on each side); absent: the user chooses. */
  unitsPerSeed?: number;
  /**
   * The direction the policy's decisions travel on the wire: `c2s` (default) when the policy plays the
   * client, `s2c` when it answers as the server (GAMA: the simulation connects to the policy's side).
   * Where two transcripts of a seed first differ in these messages is where the two policies part.
   */
  policyDirection?: Direction;
  load(): Promise<EpisodePlayer>;
}

/** The policy source an evaluation loads (its seed is set per episode). */
export type EvaluatedPolicySource = Omit<PolicySource, 'seed' | 'context'>;
