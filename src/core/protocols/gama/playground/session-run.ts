/**
 * A GAMA session as the playground's session worker runs it: the GAMA side (the simulation) linked in
 * memory to the API side, whose every answer is the learner's `act` in a supervised policy worker. Cycles
 * are paced by a TurnGate (run, pause, step one cycle, stop, delay between cycles); episodes are the
 * session's rounds, one connection each. Everything recorded goes to the page in per-frame batches with
 * its reading; the world of every cycle stays here for the world view.
 */
import { findScavengerScenario, ScavengerWorld, type ScavengerScenario } from '../../../envs/scavenger';
import { PolicySupervisor } from '../../../policy/supervisor';
import { TurnGate } from '../../../policy/turn-gate';
import type { CallOutcome, PolicyFault } from '../../../policy/types';
import { TranscriptKeeper } from '../../../session/transcript-keeper';
import { UpdateBatcher } from '../../../session/update-batcher';
import { serialiseTranscript } from '../../../transcript/json-format';
import { TranscriptRecorder } from '../../../transcript/recorder';
import type { SansIoEndpoint, WirePeer, WireSink } from '../../contract';
import type {
  PlaygroundServices,
  PlaygroundSession,
  SessionConfig,
  SessionStatus,
} from '../../session-contract';
import { GamaApi, type GamaDecision } from '../api';
import { channelOf } from '../codec';
import { linkInMemory } from '../in-memory-link';
import { GAMA_ACT } from '../policy-runtime';
import { GamaTranscriptReader } from '../reader';
import { GamaSimulation, type GamaEpisodeResult, type GamaNote } from '../simulation';
import { describeEpisode, GAMA_EPISODE_NOTE, type GamaEpisodeNoteData } from './episode-results';
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

/** Why an answer was refused: the session was stopped (never reported as a policy error). */
class SessionStopped extends Error {
  constructor() {
    super('stopped by the learner');
  }
}

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
class GamaSessionRun implements PlaygroundSession {
  readonly gate: TurnGate;
  readonly #config: SessionConfig;
  readonly #options: GamaSessionOptions;
  readonly #scenario: ScavengerScenario;
  readonly #recorder: TranscriptRecorder;
  readonly #supervisor: PolicySupervisor;
  readonly #batcher: UpdateBatcher;
  readonly #keeper: TranscriptKeeper;
  readonly #history: GamaWorldHistory | undefined;
  readonly #results: GamaEpisodeView[] = [];
  readonly #stopped: Promise<undefined>;
  #signalStop: () => void = () => undefined;
  /** The episode being played (from 1) and its cycle being played (from 1). */
  #episode = 0;
  #cycle = 1;
  /** The next answer starts a cycle: it waits at the gate first. */
  #cycleStarts = true;
  #firstPass = true;
  #lastYield = 0;
  /** Ends the episode under way from GAMA's side (the learner stopped). */
  #abortEpisode: ((reason: string) => void) | undefined;
  #over = false;
  #failed = false;

  constructor(config: SessionConfig, services: PlaygroundServices) {
    this.#config = config;
    this.#scenario = scenarioOf(config.environment);
    this.#options = sanitizeGamaOptions(config.options);
    const options = this.#options;
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
      budgetMs: config.budgetMs,
    });
    const transcript = this.#recorder.transcript;
    this.#keeper = new TranscriptKeeper({
      write: () =>
        transcript.messages.length > MAX_KEPT_GAMA_MESSAGES ? undefined : [serialiseTranscript(transcript)],
      keep: (json) => services.keepTranscript(json),
    });
    this.#batcher = new UpdateBatcher({
      listener: services.listener,
      nextFrame: services.nextFrame,
      content: { kind: 'transcript', transcript, reader: new GamaTranscriptReader() },
      reset: { protocol: transcript.protocol, origin: 'live' },
      onStatus: (status) => this.#keeper.status(status),
    });
    this.gate = new TurnGate({
      delayMs: config.delayMs,
      startPaused: config.startPaused,
      onStateChange: (state) =>
        this.#batcher.note({
          status: state === 'open' ? 'running' : state === 'paused' ? 'paused' : 'stopped',
        }),
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
    void this.#drive();
  }

  pause(): void {
    this.gate.pause();
  }

  resume(): void {
    this.gate.resume();
  }

  step(): void {
    this.gate.step();
  }

  setDelay(ms: number): void {
    this.gate.setDelay(ms);
  }

  decide(): void {
    // GAMA answers are never held for the learner: what GAMA makes of them is the lesson.
  }

  stop(): void {
    if (this.#over) return;
    this.#end();
    this.#batcher.note({ status: 'stopped' });
  }

  abandon(): void {
    this.#end();
    this.#batcher.abandon();
    this.#keeper.cancel();
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
    this.#abortEpisode?.('stopped by the learner');
    this.#supervisor.dispose();
  }

  async #drive(): Promise<void> {
    const options = this.#options;
    const recorder = this.#recorder;
    const simulation = new GamaSimulation({
      scenario: this.#scenario,
      seed: this.#config.seed,
      maxCycles: options.cycles,
      observation: { kind: options.observation },
      faithfulQuirks: options.faithfulQuirks,
      sendTerminal: options.sendTerminal,
      onNote: (note) => this.#note(note),
      onCycle: (world) => {
        this.#history?.cycleEnded(this.#episode, world);
        this.#cycle = world.cycle + 1;
        this.#cycleStarts = true;
      },
      onEpisodeEnd: (result) => this.#episodeEnded(result),
    });
    const api = new GamaApi({
      decide: (decision) => this.#answer(decision),
      onNote: (note) => this.#note(note),
    });
    for (let episode = 1; episode <= this.#config.rounds && !this.#over; episode++) {
      this.#episode = episode;
      this.#cycle = 1;
      this.#cycleStarts = true;
      const start = new ScavengerWorld(this.#scenario, { faithfulQuirks: options.faithfulQuirks });
      this.#history?.begin(episode, start.snapshot());
      const conn = `episode ${episode}`;
      recorder.transcript.connections.push({ id: conn, label: conn });
      recorder.event(conn, 'c2s', 'open');
      await linkInMemory(this.#abortable(simulation), api, {
        id: conn,
        onFrame: (dir, text) => {
          if (options.batch) return;
          const message = recorder.text(conn, dir, text, 'frame');
          const channel = channelOf(text, dir);
          if (channel) message.channel = channel;
        },
        onClose: (by, reason) => recorder.event(conn, by === 'client' ? 'c2s' : 's2c', 'close', reason),
      });
      this.#abortEpisode = undefined;
      this.#batcher.schedule();
    }
    const status: SessionStatus = this.#failed ? 'failed' : this.#over ? 'stopped' : 'finished';
    this.#over = true;
    this.gate.stop();
    this.#supervisor.dispose();
    this.#batcher.note({ status });
    this.#batcher.close();
  }

  /** The simulation, with a way for the learner's stop to end the episode under way from GAMA's side. */
  #abortable(simulation: GamaSimulation): SansIoEndpoint<string, string> {
    return {
      connect: (sink: WireSink<string>, connection?: { id: string }): WirePeer<string> => {
        const peer = simulation.connect(sink, connection);
        this.#abortEpisode = (reason) => {
          peer.end(reason);
          sink.close(reason);
        };
        return peer;
      },
    };
  }

  /** One answer of the API side: the gate first at each cycle's start, then the policy within its budget. */
  async #answer(decision: GamaDecision): Promise<string> {
    if (this.#cycleStarts) {
      this.#cycleStarts = false;
      // The cycle before is complete: send it to the page now, since a paused gate may hold for long.
      this.#batcher.schedule();
      if (!(await this.gate.pass(this.#firstPass))) throw new SessionStopped();
      this.#firstPass = false;
      this.#batcher.note({ position: { round: this.#episode, turn: this.#cycle } });
      await this.#yieldNow();
    }
    if (this.#over) throw new SessionStopped();
    const site = { round: this.#episode, turn: this.#cycle };
    const outcome: CallOutcome | undefined = await Promise.race([
      this.#supervisor.call(GAMA_ACT, [decision], {}, site),
      this.#stopped,
    ]);
    if (!outcome || this.#over) throw new SessionStopped();
    for (const line of outcome.logs)
      this.#recorder.annotate('policy-log', { ...line, channel: decision.id, ...site });
    if (!outcome.ok) {
      this.#fail(outcome.fault, decision.id);
      throw new Error(outcome.fault.message);
    }
    const action = outcome.value as string;
    if (action === 'tag' && !decision.terminal) this.#history?.tag(this.#episode, this.#cycle, decision.id);
    return action;
  }

  /** Lets the worker read its messages now and then, so a stop or a pause is seen at once. */
  async #yieldNow(): Promise<void> {
    const now = performance.now();
    if (now - this.#lastYield < YIELD_EVERY_MS) return;
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    this.#lastYield = performance.now();
    this.#batcher.schedule();
  }

  #note(note: GamaNote): void {
    // After a stop, the API side's "no answer" is the stop itself, not something the learner did.
    if (this.#over && !this.#failed) return;
    // Batch mode keeps results, not stories: only broken rules are worth a line there.
    if (this.#options.batch && note.kind === 'note') return;
    this.#recorder.annotate(note.kind, {
      text: note.text,
      ...(note.channel ? { channel: note.channel } : {}),
    });
  }

  #episodeEnded(result: GamaEpisodeResult): void {
    const episode = this.#episode;
    this.#results.push({ episode, result, fromWire: false });
    const data: GamaEpisodeNoteData = {
      code: GAMA_EPISODE_NOTE,
      text: describeEpisode(episode, result),
      episode,
      result,
    };
    this.#recorder.annotate('note', data);
  }

  #fail(fault: PolicyFault, scavenger: string): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#recorder.annotate('error', { source: 'policy', channel: scavenger, ...fault });
    this.#batcher.note({ fault, faultOwner: scavenger });
    this.#over = true;
    this.gate.stop();
  }
}
