/**
 * What a GAMA session in the playground needs besides the common session settings (`SessionConfig`: the
 * scenario is the environment, the episodes are the rounds), and the questions its views ask the session
 * worker. The page's GAMA adapter and the runner share these.
 */
import type { ObservationKind, ScavengerWorldSnapshot } from '../../../envs/scavenger';
import type { GamaEpisodeResult } from '../simulation';

/** `SessionConfig.options` of a GAMA session; anything missing takes its default. */
export interface GamaSessionOptions {
  /** Cycles per episode (default 1000). */
  cycles: number;
  observation: ObservationKind;
  /** The last request with `"terminal": true` at each episode's end (the original never sent it). */
  sendTerminal: boolean;
  /** The original model's quirks (ghost scavengers, far beams east and south, respawn on top). */
  faithfulQuirks: boolean;
  /**
   * Batch mode: play the episodes as fast as possible keeping only their results (no frames, no world),
   * so that many long episodes fit in memory; progress is reported cycle by cycle.
   */
  batch: boolean;
}

/** The defaults: the protocol's own (1000 cycles, legend observations, terminal sent, no quirks). */
export const DEFAULT_GAMA_SESSION_OPTIONS: Readonly<GamaSessionOptions> = {
  cycles: 1000,
  observation: 'legend',
  sendTerminal: true,
  faithfulQuirks: false,
  batch: false,
};

/** Most cycles an episode may be given in the page. */
export const MAX_GAMA_CYCLES = 100_000;

/** Reads options from untrusted data (storage, a link), keeping defaults for anything missing or wrong. */
export function sanitizeGamaOptions(data: unknown): GamaSessionOptions {
  const given = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  const flag = (key: 'sendTerminal' | 'faithfulQuirks' | 'batch') =>
    typeof given[key] === 'boolean' ? given[key] : DEFAULT_GAMA_SESSION_OPTIONS[key];
  const cycles = Number(given.cycles);
  return {
    cycles: Number.isFinite(cycles)
      ? Math.min(MAX_GAMA_CYCLES, Math.max(1, Math.round(cycles)))
      : DEFAULT_GAMA_SESSION_OPTIONS.cycles,
    observation: given.observation === 'rgb' ? 'rgb' : 'legend',
    sendTerminal: flag('sendTerminal'),
    faithfulQuirks: flag('faithfulQuirks'),
    batch: flag('batch'),
  };
}

/**
 * The questions the GAMA views ask about what is on show (`PlaygroundSession.ask`): `world(episode,
 * cycle)` (the world after that cycle, with the beams fired in it: `GamaWorldView`; for an opened
 * transcript whose world cannot be rebuilt, `GamaWorldUnavailable`: why, and what the wire tells; undefined
 * in batch mode), `episodes()` (every episode's result: `GamaEpisodeView[]`).
 */
export const GAMA_QUESTIONS = ['world', 'episodes'] as const;

/** One of the GAMA views' questions. */
export type GamaQuestion = (typeof GAMA_QUESTIONS)[number];

/** The cells a tag beam covered, as a rectangle clipped to the map (inclusive bounds). */
export interface GamaBeam {
  shooter: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The answer to `world`. */
export interface GamaWorldView {
  episode: number;
  width: number;
  height: number;
  world: ScavengerWorldSnapshot;
  /** Beams fired during the cycle. */
  beams: GamaBeam[];
  /** How an opened transcript's world was rebuilt (absent for a world played here). */
  source?: string;
}

/** The answer to `episodes`, one per episode. */
export interface GamaEpisodeView {
  episode: number;
  result: GamaEpisodeResult;
  /**
   * True when the result was read from the wire alone (an imported frame log): rewards are exact, the
   * cycle of each collection is the cycle of the request that reported it, time-outs are the cycles a
   * scavenger did not ask.
   */
  fromWire: boolean;
}
