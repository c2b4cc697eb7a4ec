/**
 * `protoplay run gama` with a policy file, played inside the policy's worker thread beside the policy (see
 * `chunked-play.ts`): `playGamaEpisodes`, exactly as the command plays a sample in-process, with each
 * decision an in-process call checked against the budget, recorded into a transcript of its own whose
 * news each chunk hands back.
 */
import { formatLocated } from '../../errors';
import type { CallOutcome, PolicyFault } from '../../policy/types';
import type { Annotation, ConnectionInfo, TranscriptMessage } from '../../transcript/model';
import { TranscriptRecorder } from '../../transcript/recorder';
import type { GamaDecision } from './api';
import { ChunkPacer, withinBudget, type GamaChunkEnd, type GamaChunkLimit } from './chunked-play';
import { playGamaEpisodes, type GamaEpisodesOptions } from './episodes';
import type { GamaEpisodeResult } from './simulation';

/** What the command asks the policy thread to play (`GAMA_RUN_START`). */
export interface GamaRunPlan {
  simulation: GamaEpisodesOptions['simulation'];
  episodes: number;
  /** Record the frames and notes (the command writes a transcript or a frame log). */
  record: boolean;
  recordWorld: boolean;
  /** Time the policy may take per call, in ms. */
  budgetMs: number;
  /** After a fault: stop (the API side closes the connection) or answer `idle` and go on. */
  onPolicyError: 'stop' | 'idle';
  /** The policy's file name, for located fault messages. */
  fileName: string;
}

/** What a chunk recorded. */
export interface GamaRunNews {
  end: GamaChunkEnd;
  startedAt: number;
  connections: ConnectionInfo[];
  messages: TranscriptMessage[];
  annotations: Annotation[];
  /** Episodes that ended in the chunk, with their numbers (from 1). */
  results: { episode: number; result: GamaEpisodeResult }[];
  /** The first fault, as one located line (set once, in the chunk where it happened). */
  fault?: string;
}

/** A fault as one line: `file:line:column: message` when located, else `file: message`. */
export function describeGamaPolicyFault(fault: PolicyFault, fileName: string): string {
  if (fault.location) return formatLocated(fault.message, { source: fileName, ...fault.location });
  return `${fileName}: ${fault.message}`;
}

/** The command's episodes in the policy thread. */
export class GamaChunkedRun {
  readonly #recorder = new TranscriptRecorder({ protocol: 'gama' });
  readonly #pacer = new ChunkPacer();
  readonly #plan: GamaRunPlan;
  readonly #ask: (decision: GamaDecision) => Promise<CallOutcome>;
  readonly #hook: string;
  #results: GamaRunNews['results'] = [];
  #connectionsSent = 0;
  #messagesSent = 0;
  #fault: string | undefined;
  #faultSent = false;
  #calls = 0;

  constructor(plan: GamaRunPlan, ask: (decision: GamaDecision) => Promise<CallOutcome>, hook: string) {
    this.#plan = plan;
    this.#ask = ask;
    this.#hook = hook;
  }

  async continue(limit: GamaChunkLimit): Promise<GamaRunNews> {
    const end = await this.#pacer.play(limit, () => this.#run());
    return this.#news(end);
  }

  async abort(): Promise<GamaRunNews> {
    const end = await this.#pacer.stop();
    return this.#news(end);
  }

  async #run(): Promise<void> {
    const plan = this.#plan;
    const pacer = this.#pacer;
    await playGamaEpisodes({
      simulation: plan.simulation,
      episodes: plan.episodes,
      ...(plan.record ? { recorder: this.#recorder } : {}),
      recordWorld: plan.recordWorld,
      signal: {
        get aborted() {
          return pacer.interrupted;
        },
      },
      decide: (decision) => this.#decide(decision),
      onEpisodeEnd: (result, episode) => this.#results.push({ episode, result }),
    });
  }

  /** As the command's in-process policy decides: the first fault remembered, then idle or a refusal. */
  async #decide(decision: GamaDecision): Promise<string> {
    if (!(await this.#pacer.beforeCall())) throw new Error('the run was stopped');
    const site = { round: 1, turn: ++this.#calls };
    const outcome = withinBudget(await this.#ask(decision), this.#plan.budgetMs, this.#hook, site);
    if (outcome.ok) return outcome.value as string;
    const message = `${describeGamaPolicyFault(outcome.fault, this.#plan.fileName)} (answering ${decision.id})`;
    this.#fault ??= message;
    if (this.#plan.onPolicyError === 'idle') return 'idle';
    throw new Error(message);
  }

  #news(end: GamaChunkEnd): GamaRunNews {
    const transcript = this.#recorder.transcript;
    const messages = transcript.messages.slice(this.#messagesSent);
    // The recorder numbers messages by the array's length: keep the length, drop the texts.
    transcript.messages.fill(SENT, this.#messagesSent);
    this.#messagesSent = transcript.messages.length;
    const news: GamaRunNews = {
      end,
      startedAt: transcript.startedAt,
      connections: transcript.connections.slice(this.#connectionsSent),
      messages,
      annotations: transcript.annotations.splice(0),
      results: this.#results,
      ...(this.#fault && !this.#faultSent ? { fault: this.#fault } : {}),
    };
    if (this.#fault) this.#faultSent = true;
    this.#connectionsSent = transcript.connections.length;
    this.#results = [];
    return news;
  }
}

/** What stands in the thread's transcript for a message already sent. */
const SENT = { index: -1, t: 0, conn: '', dir: 'c2s', kind: 'data' } as TranscriptMessage;
