/**
 * A playground session's episodes played inside the policy worker, beside the policy (see
 * `chunked-play.ts`): the same `GamaEpisodeLoop` as in the session worker, recording into a transcript of
 * its own whose news (messages, annotations, worlds, results) each chunk hands back. The session worker
 * appends them to its transcript as they are, so the transcript is the one the step-by-step path records.
 */
import { findScavengerScenario, type ScavengerWorldSnapshot } from '../../../envs/scavenger';
import type { CallOutcome, CallSite, PolicyFault } from '../../../policy/types';
import type { Annotation, ConnectionInfo, TranscriptMessage } from '../../../transcript/model';
import { TranscriptRecorder } from '../../../transcript/recorder';
import type { GamaDecision } from '../api';
import { ChunkPacer, withinBudget, type GamaChunkEnd, type GamaChunkLimit } from '../chunked-play';
import { GamaEpisodeLoop, type GamaWorldKeeper } from './episode-loop';
import type { GamaEpisodeView, GamaSessionOptions } from './options';

/** What the session worker asks the policy worker to play (`GAMA_PLAY_START`). */
export interface GamaPlayPlan {
  environment: string;
  seed: number;
  episodes: number;
  options: GamaSessionOptions;
  /** Time the policy may take per call, in ms. */
  budgetMs: number;
}

/** One call the loop made to keep a world, to be made again on the session worker's `GamaWorldHistory`. */
export type GamaWorldOp =
  | { op: 'begin'; episode: number; world: ScavengerWorldSnapshot }
  | { op: 'tag'; episode: number; cycle: number; shooter: string }
  | { op: 'cycle'; episode: number; world: ScavengerWorldSnapshot };

/** What a chunk recorded, for the session worker. */
export interface GamaPlayNews {
  end: GamaChunkEnd;
  /** When the worker's transcript started (its messages' times count from it), ms since the epoch. */
  startedAt: number;
  connections: ConnectionInfo[];
  messages: TranscriptMessage[];
  annotations: Annotation[];
  worlds: GamaWorldOp[];
  results: GamaEpisodeView[];
  /** The episode and cycle being played. */
  position: CallSite;
  /** The policy failed, answering `owner`. */
  fault?: { fault: PolicyFault; owner: string };
}

/** Replays the world calls of a chunk on a keeper. */
export function replayWorldOps(ops: readonly GamaWorldOp[], keeper: GamaWorldKeeper): void {
  for (const op of ops) {
    if (op.op === 'begin') keeper.begin(op.episode, op.world);
    else if (op.op === 'tag') keeper.tag(op.episode, op.cycle, op.shooter);
    else keeper.cycleEnded(op.episode, op.world);
  }
}

/** The episodes of one fast session, in the policy worker. */
export class GamaFastSession {
  readonly #recorder = new TranscriptRecorder({ protocol: 'gama' });
  readonly #pacer = new ChunkPacer();
  readonly #loop: GamaEpisodeLoop;
  #worlds: GamaWorldOp[] = [];
  #connectionsSent = 0;
  #messagesSent = 0;
  #resultsSent = 0;
  #fault: { fault: PolicyFault; owner: string } | undefined;

  constructor(plan: GamaPlayPlan, ask: (decision: GamaDecision) => Promise<CallOutcome>, hook: string) {
    const scenario = findScavengerScenario(plan.environment);
    if (!scenario) throw new Error(`there is no GAMA scenario '${plan.environment}'`);
    const worlds: GamaWorldKeeper | undefined = plan.options.batch
      ? undefined
      : {
          begin: (episode, world) => this.#worlds.push({ op: 'begin', episode, world }),
          tag: (episode, cycle, shooter) => this.#worlds.push({ op: 'tag', episode, cycle, shooter }),
          cycleEnded: (episode, world) => this.#worlds.push({ op: 'cycle', episode, world }),
        };
    const pacer = this.#pacer;
    this.#loop = new GamaEpisodeLoop({
      scenario,
      seed: plan.seed,
      episodes: plan.episodes,
      options: plan.options,
      recorder: this.#recorder,
      worlds,
      hooks: {
        cycleStart: () => pacer.cycleStart(),
        ask: async (decision, site) => {
          if (!(await pacer.beforeCall())) return undefined;
          return withinBudget(await ask(decision), plan.budgetMs, hook, site);
        },
        onFault: (fault, owner) => (this.#fault = { fault, owner }),
      },
    });
  }

  /** Plays a chunk; resolves to what it recorded. */
  async continue(limit: GamaChunkLimit): Promise<GamaPlayNews> {
    const end = await this.#pacer.play(limit, () => this.#loop.run());
    return this.#news(end);
  }

  /** Ends the session: the episode under way is closed from GAMA's side. */
  async abort(): Promise<GamaPlayNews> {
    this.#loop.stop();
    const end = await this.#pacer.stop();
    return this.#news(end);
  }

  /** What was recorded since the last news; the worker keeps no copy of the messages sent. */
  #news(end: GamaChunkEnd): GamaPlayNews {
    const transcript = this.#recorder.transcript;
    const messages = transcript.messages.slice(this.#messagesSent);
    // The recorder numbers messages by the array's length: keep the length, drop the texts.
    transcript.messages.fill(SENT, this.#messagesSent);
    this.#messagesSent = transcript.messages.length;
    const news: GamaPlayNews = {
      end,
      startedAt: transcript.startedAt,
      connections: transcript.connections.slice(this.#connectionsSent),
      messages,
      annotations: transcript.annotations.splice(0),
      worlds: this.#worlds,
      results: this.#loop.results.slice(this.#resultsSent),
      position: this.#loop.position,
      ...(this.#fault ? { fault: this.#fault } : {}),
    };
    this.#connectionsSent = transcript.connections.length;
    this.#resultsSent = this.#loop.results.length;
    this.#worlds = [];
    this.#fault = undefined;
    return news;
  }
}

/** What stands in the worker's transcript for a message already sent. */
const SENT = { index: -1, t: 0, conn: '', dir: 'c2s', kind: 'data' } as TranscriptMessage;
