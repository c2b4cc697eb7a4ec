/**
 * A GAMA session as the playground's session worker runs it: the GAMA side (the simulation) linked in
 * memory to the API side, whose every answer is the learner's `act` in a supervised policy worker. Cycles
 * are paced by a TurnGate (run, pause, step one cycle, stop, delay between cycles); episodes are the
 * session's rounds, one connection each. Everything recorded goes to the page in per-frame batches with
 * its reading; the world of every cycle stays here for the world view.
 *
 * Two paths record the same transcript. Step by step (a session started paused, or with a delay between
 * cycles): the episode loop runs here and every answer is a round trip to the policy worker. Fast (batch
 * mode, or a run as fast as possible): the same loop runs inside the policy worker beside the policy, and
 * this side asks it for a chunk of cycles at a time (`chunked-play.ts`), passing the gate before each
 * cycle once the learner pauses, steps or slows the run down.
 */
import { findScavengerScenario, type ScavengerScenario } from '../../../envs/scavenger';
import { withDeadline } from '../../../policy/deadline';
import { budgetExceededMessage, PolicySupervisor } from '../../../policy/supervisor';
import type { TurnGate } from '../../../policy/turn-gate';
import { GatedRun, pacingGate } from '../../../session/gated-run';
import { liveUpdates } from '../../../session/live-updates';
import type { CallOutcome, CallSite, PolicyFault } from '../../../policy/types';
import type { TranscriptKeeper } from '../../../session/transcript-keeper';
import type { UpdateBatcher } from '../../../session/update-batcher';
import { serialiseTranscript } from '../../../transcript/json-format';
import { TranscriptRecorder } from '../../../transcript/recorder';
import type {
  PlaygroundServices,
  PlaygroundSession,
  SessionConfig,
  SessionStatus,
} from '../../session-contract';
import {
  GAMA_CHUNK_MS,
  GAMA_CHUNK_SLACK_MS,
  GAMA_FREE_CYCLES,
  GAMA_PLAY_ABORT,
  GAMA_PLAY_CONTINUE,
  GAMA_PLAY_START,
  type GamaChunkEnd,
} from '../chunked-play';
import { GAMA_ACT } from '../policy-runtime';
import { GamaTranscriptReader } from '../reader';
import { GamaEpisodeLoop } from './episode-loop';
import { replayWorldOps, type GamaPlayNews, type GamaPlayPlan } from './fast-session';
import { sanitizeGamaOptions, type GamaEpisodeView, type GamaSessionOptions } from './options';
import { answerGamaQuestion } from './questions';
import { GamaWorldHistory } from './world-history';

/**
 * Sessions with more messages than this are not written out for keeping across reloads: writing them
 * would keep the worker from answering the views for seconds. A 1000-cycle episode of 12 scavengers has
 * about 26,000 messages.
 */
export const MAX_KEPT_GAMA_MESSAGES = 60_000;

/** How long the session may run before letting the worker read its messages (a stop, a pause), in ms. */
const YIELD_EVERY_MS = 10;

/** How long a stop waits for the chunk under way in the policy worker before killing it, in ms. */
const STOP_GRACE_MS = 500;

/** Starts a GAMA session; resolves once it is under way (or has failed to load the policy). */
export async function startGamaSession(
  config: SessionConfig,
  services: PlaygroundServices,
): Promise<PlaygroundSession> {
  const run = new GamaSessionRun(config, services);
  await run.start();
  return run;
}

/** The scenario of a session, by name or letter; a clear error for an unknown one. */
function scenarioOf(environment: string): ScavengerScenario {
  const scenario = findScavengerScenario(environment);
  if (!scenario)
    throw new Error(
      `there is no GAMA scenario '${environment}' (give a letter from A to F or a scenario name)`,
    );
  return scenario;
}

/** One GAMA session from start to end. */
class GamaSessionRun extends GatedRun implements PlaygroundSession {
  protected readonly gate: TurnGate;
  /** Played inside the policy worker, a chunk at a time (batch mode, or as fast as possible). */
  readonly fast: boolean;
  readonly #config: SessionConfig;
  readonly #options: GamaSessionOptions;
  readonly #scenario: ScavengerScenario;
  readonly #recorder: TranscriptRecorder;
  readonly #supervisor: PolicySupervisor;
  readonly #batcher: UpdateBatcher;
  readonly #keeper: TranscriptKeeper;
  readonly #history: GamaWorldHistory | undefined;
  /** The episodes' results (the step-by-step loop's own list, or the fast path's news). */
  #results: GamaEpisodeView[] = [];
  readonly #stopped: Promise<undefined>;
  #signalStop: () => void = () => undefined;
  #delayMs: number;
  #lastYield = 0;
  #loop: GamaEpisodeLoop | undefined;
  #over = false;
  #failed = false;

  constructor(config: SessionConfig, services: PlaygroundServices) {
    super();
    this.#config = config;
    this.#scenario = scenarioOf(config.environment);
    this.#options = sanitizeGamaOptions(config.options);
    this.#delayMs = config.delayMs;
    const options = this.#options;
    // Started with Step, a session plays step by step whatever its settings.
    this.fast = !config.startPaused && (options.batch || config.delayMs === 0);
    this.#stopped = new Promise((resolve) => (this.#signalStop = () => resolve(undefined)));
    this.#recorder = new TranscriptRecorder({
      protocol: 'gama',
      meta: {
        source: 'emulated',
        scenario: this.#scenario.name,
        seed: config.seed,
        episodes: config.rounds,
        cycles: options.cycles,
        observation: options.observation,
        sendTerminal: options.sendTerminal,
        faithfulQuirks: options.faithfulQuirks,
        batch: options.batch,
        budgetMs: config.budgetMs,
      },
    });
    this.#history = options.batch
      ? undefined
      : new GamaWorldHistory(this.#scenario.width, this.#scenario.height, options.faithfulQuirks);
    this.#supervisor = new PolicySupervisor({
      spawn: () => services.spawnPolicy(),
      // A chunk lasts at most its own time and one call: its deadline is one call's.
      budgetMs: this.fast ? config.budgetMs + GAMA_CHUNK_SLACK_MS : config.budgetMs,
    });
    const transcript = this.#recorder.transcript;
    ({ batcher: this.#batcher, keeper: this.#keeper } = liveUpdates(services, {
      content: { kind: 'transcript', transcript, reader: new GamaTranscriptReader() },
      protocol: transcript.protocol,
      maxKeptMessages: MAX_KEPT_GAMA_MESSAGES,
    }));
    this.gate = pacingGate(config, (status) => {
      // A fast session says it stopped once the policy worker has closed its episode (`#finish`).
      if (status === 'stopped' && this.fast) return;
      this.#batcher.note({ status });
    });
  }

  /** Loads the policy, then lets the episodes run in the background. */
  async start(): Promise<void> {
    this.#batcher.note({ status: this.#config.startPaused ? 'paused' : 'running' });
    const loaded = await this.#supervisor.load(this.#config.policy);
    for (const line of loaded.logs) this.#recorder.annotate('policy-log', { ...line, round: 0, turn: 0 });
    if (!loaded.ok) {
      this.#recorder.annotate('error', { source: 'policy', ...loaded.fault });
      this.#over = this.#failed = true;
      this.#supervisor.dispose();
      this.gate.stop();
      this.#batcher.note({ fault: loaded.fault, status: 'failed' });
      this.#batcher.close();
      return;
    }
    void (this.fast ? this.#driveFast() : this.#drive()).then(() => this.#finish());
  }

  override setDelay(ms: number): void {
    this.#delayMs = ms;
    super.setDelay(ms);
  }

  decide(): void {
    // GAMA answers are never held for the learner: what GAMA makes of them is the lesson.
  }

  stop(): void {
    if (this.#over) return;
    this.#end();
    if (!this.fast) this.#batcher.note({ status: 'stopped' });
  }

  abandon(): void {
    this.#end();
    this.#batcher.abandon();
    this.#keeper.dispose();
  }

  ask(question: string, args: readonly unknown[]): unknown {
    return answerGamaQuestion({ history: this.#history, episodes: () => this.#results }, question, args);
  }

  exportJson(): string[] {
    return [serialiseTranscript(this.#recorder.transcript)];
  }

  /** Stops everything at once: the gate, the policy call under way, the episode under way. */
  #end(): void {
    if (this.#over) return;
    this.#over = true;
    this.gate.stop();
    this.#signalStop();
    this.#loop?.stop();
    // The fast path asks the policy worker to close its episode first (it keeps the world).
    if (!this.fast) this.#supervisor.dispose();
  }

  #finish(): void {
    const status: SessionStatus = this.#failed ? 'failed' : this.#over ? 'stopped' : 'finished';
    this.#over = true;
    this.gate.stop();
    this.#supervisor.dispose();
    this.#batcher.note({ status });
    this.#batcher.close();
  }

  /** Step by step: the loop here, every answer a call into the policy worker. */
  async #drive(): Promise<void> {
    const loop = new GamaEpisodeLoop({
      scenario: this.#scenario,
      seed: this.#config.seed,
      episodes: this.#config.rounds,
      options: this.#options,
      recorder: this.#recorder,
      worlds: this.#history,
      hooks: {
        cycleStart: async (site, first) => {
          // The cycle before is complete: send it to the page now, since a paused gate may hold for long.
          this.#batcher.schedule();
          if (!(await this.gate.pass(first))) return false;
          this.#batcher.note({ position: site });
          await this.#yieldNow();
          return true;
        },
        ask: (decision, site) =>
          Promise.race([this.#supervisor.call(GAMA_ACT, [decision], {}, site), this.#stopped]),
        onFault: (fault, owner) => this.#fail(fault, owner),
        onEpisodeClosed: () => this.#batcher.schedule(),
      },
    });
    this.#loop = loop;
    this.#results = loop.results;
    await loop.run();
  }

  /** Fast: the loop in the policy worker, asked for a chunk of cycles at a time. */
  async #driveFast(): Promise<void> {
    const plan: GamaPlayPlan = {
      environment: this.#scenario.name,
      seed: this.#config.seed,
      episodes: this.#config.rounds,
      options: this.#options,
      budgetMs: this.#config.budgetMs,
    };
    let position: CallSite = { round: 1, turn: 1 };
    const call = (hook: string, args: unknown[]): Promise<CallOutcome | undefined> =>
      Promise.race([this.#supervisor.call(hook, args, {}, position), this.#stopped]);
    const started = await call(GAMA_PLAY_START, [plan]);
    if (started && !started.ok) return this.#chunkFailed(started.fault, position);
    // The first chunk opens the connection and ends before the first answer, which passes the gate.
    let end: GamaChunkEnd = 'call';
    let first = true;
    let inFlight: Promise<CallOutcome> | undefined;
    while (started && !this.#over && end !== 'done') {
      if (end === 'cycle') {
        this.#batcher.schedule();
        if (!(await this.gate.pass(first))) break;
        first = false;
      }
      const free = !first && this.gate.state === 'open' && this.#delayMs === 0;
      const limit = { cycles: free ? GAMA_FREE_CYCLES : end === 'cycle' ? 1 : 0, ms: GAMA_CHUNK_MS };
      inFlight = this.#supervisor.call(GAMA_PLAY_CONTINUE, [limit], {}, position);
      const outcome = await Promise.race([inFlight, this.#stopped]);
      if (!outcome) break;
      inFlight = undefined;
      if (!outcome.ok) return this.#chunkFailed(outcome.fault, position);
      const news = outcome.value as GamaPlayNews;
      this.#takeNews(news);
      position = news.position;
      end = news.end;
      if (news.fault) return;
    }
    if (end !== 'done' && this.#over && !this.#failed) await this.#stopFast(inFlight);
  }

  /**
   * The learner stopped a fast session: the policy worker closes the episode under way as the step-by-step
   * path would, once its chunk is done; a policy still thinking after a grace period is killed, and the
   * close is recorded here.
   */
  async #stopFast(inFlight: Promise<CallOutcome> | undefined): Promise<void> {
    if (inFlight) {
      const chunk = await withDeadline(inFlight, STOP_GRACE_MS).catch(() => ({ settled: false as const }));
      if (chunk.settled && chunk.value.ok) this.#takeNews(chunk.value.value as GamaPlayNews);
      if (!chunk.settled || !chunk.value.ok) return this.#closeHere('stopped by the learner', 'c2s');
    }
    const aborted = await withDeadline(
      this.#supervisor.call(GAMA_PLAY_ABORT, [], {}, { round: 0, turn: 0 }),
      STOP_GRACE_MS,
    ).catch(() => ({ settled: false as const }));
    if (aborted.settled && aborted.value.ok) this.#takeNews(aborted.value.value as GamaPlayNews);
    else this.#closeHere('stopped by the learner', 'c2s');
  }

  /** Appends a chunk's news to the transcript, the worlds and the results. */
  #takeNews(news: GamaPlayNews): void {
    // Through the recorder, so that what it records itself later (a close after a failed chunk, the
    // fault's annotation) is numbered after these messages rather than over them.
    this.#recorder.adopt(news, news.startedAt - this.#recorder.transcript.startedAt);
    if (this.#history) replayWorldOps(news.worlds, this.#history);
    this.#results.push(...news.results);
    if (news.fault) this.#fail(news.fault.fault, news.fault.owner);
    else if (!this.#over) this.#batcher.note({ position: news.position });
    this.#batcher.schedule();
  }

  /**
   * A chunk did not come back: the policy overran its budget (the worker was killed with the episode in
   * it) or the worker crashed. What the chunk recorded is lost; the connection is closed here.
   */
  #chunkFailed(fault: PolicyFault, site: CallSite): void {
    const reported: PolicyFault =
      fault.kind === 'timeout'
        ? {
            ...fault,
            hook: GAMA_ACT,
            message: `${budgetExceededMessage(this.#config.budgetMs, GAMA_ACT, 'act', site)} or soon after`,
          }
        : fault;
    this.#recorder.annotate('error', { source: 'policy', ...reported });
    this.#closeHere('the policy failed', 's2c');
    this.#failed = true;
    this.#over = true;
    this.#batcher.note({ fault: reported });
    this.gate.stop();
  }

  /** Records the close of the episode under way when the policy worker could not. */
  #closeHere(reason: string, dir: 'c2s' | 's2c'): void {
    const transcript = this.#recorder.transcript;
    const conn = transcript.connections.at(-1)?.id;
    if (!conn || transcript.messages.some((m) => m.conn === conn && m.kind === 'close')) return;
    this.#recorder.event(conn, dir, 'close', reason);
    this.#batcher.schedule();
  }

  /** Lets the worker read its messages now and then, so a stop or a pause is seen at once. */
  async #yieldNow(): Promise<void> {
    const now = performance.now();
    if (now - this.#lastYield < YIELD_EVERY_MS) return;
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    this.#lastYield = performance.now();
    this.#batcher.schedule();
  }

  #fail(fault: PolicyFault, scavenger: string): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#batcher.note({ fault, faultOwner: scavenger });
    this.#over = true;
    this.gate.stop();
  }
}
