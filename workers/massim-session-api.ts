/**
 * The MASSim part of the contract between the page and the session worker. A MASSim session keeps its
 * transcript in the worker (a contest match is tens of megabytes of wire text): the page gets the reading
 * of it as news, once per animation frame, and asks for the big things (a message, the world at a step,
 * an agent's point of view, the whole transcript) one at a time.
 */
import type { MassimQuickSetup } from '../src/core/envs/massim/api';
import type { PolicySource } from '../src/core/policy/types';
import type { TranscriptMessage } from '../src/core/transcript/model';
import type { MassimAgentView, MassimNews, MassimWorldView } from '../src/core/protocols/massim/reading';
import type { SessionListener } from './session-api';

/** The server configuration of a MASSim session. */
export type MassimMatchSetup =
  /** The playground's scenario in the given shape (teams A and B). */
  | { kind: 'quick'; setup: MassimQuickSetup }
  /** The contest's sample match: 2 x 20 agents on 70 x 70, then 2 x 40 on 100 x 100, 750 steps each. */
  | { kind: 'contest' }
  /** A real server configuration file, with the files it includes (by path relative to it). */
  | { kind: 'file'; name: string; text: string; includes: Record<string, string> };

/** What a MASSim session needs besides the common session settings (`SessionConfig`). */
export interface MassimSessionOptions {
  match: MassimMatchSetup;
  /**
   * The policy of every team after the first (the first plays `SessionConfig.policy`). Teams of a
   * configuration file beyond two all play this one.
   */
  otherTeams: PolicySource;
  /** Reproduce the real server's lossy races (sim-start after a reconnection, bye at the end). */
  faithfulRaces: boolean;
}

/** What a MASSim session reports with each update. */
export interface MassimSessionNews {
  /** True on the first news of a session or an opened transcript: forget what was shown before. */
  reset?: { origin: 'live' | 'imported' | 'restored'; name?: string };
  news: MassimNews;
  /** The team whose policy failed, with the update's `fault`. */
  faultTeam?: string;
}

/** A transcript to show: files of a recording, or a Protoplay JSON transcript. */
export interface MassimTranscriptInput {
  origin: 'imported' | 'restored';
  /** One Protoplay JSON file, or the `*.timeline.jsonl` (and `.bin`) files of a MASSim recording. */
  files: { name: string; content: string | Uint8Array | Blob }[];
}

/** The questions the MASSim views ask the session worker about the session on show. */
export interface MassimWorkerApi {
  /**
   * Shows a recorded or stored transcript (stopping any running session); news arrive through the
   * listener as for a session. Rejects with a one-line reason when it cannot be read.
   */
  open(input: MassimTranscriptInput, listener: SessionListener): Promise<void>;
  /** One message, exactly as recorded. */
  message(index: number): TranscriptMessage | undefined;
  /** The world after a frame's step, when the transcript holds it. */
  world(frame: number): MassimWorldView | undefined;
  /** What an agent perceived at a frame, what it sent, and what came of it. */
  agentView(frame: number, agent: string): MassimAgentView;
  /** The whole transcript as Protoplay JSON, built piece by piece. */
  exportJson(): Blob | undefined;
}
