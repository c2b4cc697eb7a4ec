/**
 * The episodes of a playground session: the GAMA side (the simulation) linked in memory to the API side,
 * one connection per episode, every frame, note, policy log and episode result recorded in a transcript
 * and every cycle's world kept for the world view. How a cycle is let through and how the policy is asked
 * are handed in, so the same loop runs in the session worker (each answer a call into the policy worker,
 * paced by the learner's controls) and inside the policy worker beside the policy (each answer an
 * in-process call, cycles let through in chunks): both record the same transcript.
 */
import { ScavengerWorld, type ScavengerScenario, type ScavengerWorldSnapshot } from '../../../envs/scavenger';
import type { CallOutcome, CallSite, PolicyFault } from '../../../policy/types';
import type { TranscriptRecorder } from '../../../transcript/recorder';
import type { SansIoEndpoint, WirePeer, WireSink } from '../../contract';
import { GamaApi, type GamaDecision } from '../api';
import { channelOf } from '../codec';
import { linkInMemory } from '../in-memory-link';
import { GamaSimulation, type GamaEpisodeResult, type GamaNote } from '../simulation';
import { describeEpisode, GAMA_EPISODE_NOTE, type GamaEpisodeNoteData } from './episode-results';
import type { GamaEpisodeView, GamaSessionOptions } from './options';

/** Why an answer was refused: the session was stopped (never reported as a policy error). */
export class SessionStopped extends Error {
  constructor() {
    super('stopped by the learner');
  }
}

/** What keeps the worlds for the world view (`GamaWorldHistory`, or a log of these calls). */
export interface GamaWorldKeeper {
  begin(episode: number, start: ScavengerWorldSnapshot): void;
  tag(episode: number, cycle: number, shooter: string): void;
  cycleEnded(episode: number, world: ScavengerWorldSnapshot): void;
}

/** How the loop is paced and how it asks the policy. */
export interface GamaLoopHooks {
  /**
   * Before the first answer of each cycle (and of the terminal round), once the cycle before is complete;
   * resolves false when the session was stopped meanwhile.
   */
  cycleStart(site: CallSite, first: boolean): Promise<boolean>;
  /** Asks the policy for one scavenger's action; undefined when the session was stopped meanwhile. */
  ask(decision: GamaDecision, site: CallSite): Promise<CallOutcome | undefined>;
  /** The policy failed, answering `scavenger`: the session ends as failed. */
  onFault(fault: PolicyFault, scavenger: string): void;
  /** An episode's connection is closed. */
  onEpisodeClosed?(episode: number): void;
}

/** What a loop plays. */
export interface GamaLoopSetup {
  scenario: ScavengerScenario;
  seed: number;
  episodes: number;
  options: GamaSessionOptions;
  recorder: TranscriptRecorder;
  /** Where the worlds go; none in batch mode. */
  worlds: GamaWorldKeeper | undefined;
  hooks: GamaLoopHooks;
}

/** The episodes of one session. */
export class GamaEpisodeLoop {
  readonly results: GamaEpisodeView[] = [];
  readonly #setup: GamaLoopSetup;
  /** The episode being played (from 1) and its cycle being played (from 1). */
  #episode = 0;
  #cycle = 1;
  /** The next answer starts a cycle. */
  #cycleStarts = true;
  #firstPass = true;
  /** Ends the episode under way from GAMA's side (the learner stopped). */
  #abortEpisode: ((reason: string) => void) | undefined;
  #over = false;
  #failed = false;

  constructor(setup: GamaLoopSetup) {
    this.#setup = setup;
  }

  /** Where the session is: the episode and the cycle being played. */
  get position(): CallSite {
    return { round: this.#episode, turn: this.#cycle };
  }

  get over(): boolean {
    return this.#over;
  }

  get failed(): boolean {
    return this.#failed;
  }

  /** Ends the session: the episode under way is closed from GAMA's side, no other is played. */
  stop(reason = 'stopped by the learner'): void {
    if (this.#over) return;
    this.#over = true;
    this.#abortEpisode?.(reason);
  }

  /** Plays the episodes; resolves when they are over or the session was stopped. */
  async run(): Promise<void> {
    const { scenario, options, recorder, worlds } = this.#setup;
    const simulation = new GamaSimulation({
      scenario,
      seed: this.#setup.seed,
      maxCycles: options.cycles,
      observation: { kind: options.observation },
      faithfulQuirks: options.faithfulQuirks,
      sendTerminal: options.sendTerminal,
      onNote: (note) => this.#note(note),
      // Snapshots are large: taken only for the world view.
      ...(worlds ? { onCycle: (world) => worlds.cycleEnded(this.#episode, world) } : {}),
      onCycleEnd: (cycle) => {
        this.#cycle = cycle + 1;
        this.#cycleStarts = true;
      },
      onEpisodeEnd: (result) => this.#episodeEnded(result),
    });
    const api = new GamaApi({
      decide: (decision) => this.#answer(decision),
      onNote: (note) => this.#note(note),
    });
    for (let episode = 1; episode <= this.#setup.episodes && !this.#over; episode++) {
      this.#episode = episode;
      this.#cycle = 1;
      this.#cycleStarts = true;
      worlds?.begin(
        episode,
        new ScavengerWorld(scenario, { faithfulQuirks: options.faithfulQuirks }).snapshot(),
      );
      const conn = `episode ${episode}`;
      recorder.addConnection(conn, conn);
      recorder.event(conn, 'c2s', 'open');
      await linkInMemory(this.#abortable(simulation), api, {
        id: conn,
        onFrame: (dir, text) => {
          if (options.batch) return;
          recorder.text(conn, dir, text, 'frame', channelOf(text, dir) || undefined);
        },
        onClose: (by, reason) => recorder.event(conn, by === 'client' ? 'c2s' : 's2c', 'close', reason),
      });
      this.#abortEpisode = undefined;
      this.#setup.hooks.onEpisodeClosed?.(episode);
    }
  }

  /** The simulation, with a way for a stop to end the episode under way from GAMA's side. */
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

  /** One answer of the API side: the pacing first at each cycle's start, then the policy. */
  async #answer(decision: GamaDecision): Promise<string> {
    const { hooks, recorder } = this.#setup;
    if (this.#cycleStarts) {
      this.#cycleStarts = false;
      const first = this.#firstPass;
      this.#firstPass = false;
      if (!(await hooks.cycleStart(this.position, first))) throw new SessionStopped();
    }
    if (this.#over) throw new SessionStopped();
    const site = this.position;
    const outcome = await hooks.ask(decision, site);
    if (!outcome || this.#over) throw new SessionStopped();
    for (const line of outcome.logs)
      recorder.annotate('policy-log', { ...line, channel: decision.id, ...site });
    if (!outcome.ok) {
      this.#fail(outcome.fault, decision.id);
      throw new Error(outcome.fault.message);
    }
    const action = outcome.value as string;
    if (action === 'tag' && !decision.terminal)
      this.#setup.worlds?.tag(this.#episode, this.#cycle, decision.id);
    return action;
  }

  #note(note: GamaNote): void {
    // After a stop, the API side's "no answer" is the stop itself, not something the learner did.
    if (this.#over && !this.#failed) return;
    // Batch mode keeps results, not stories: only broken rules are worth a line there.
    if (this.#setup.options.batch && note.kind === 'note') return;
    this.#setup.recorder.annotate(note.kind, {
      text: note.text,
      ...(note.channel ? { channel: note.channel } : {}),
    });
  }

  #episodeEnded(result: GamaEpisodeResult): void {
    const episode = this.#episode;
    this.results.push({ episode, result, fromWire: false });
    const data: GamaEpisodeNoteData = {
      code: GAMA_EPISODE_NOTE,
      text: describeEpisode(episode, result),
      episode,
      result,
    };
    this.#setup.recorder.annotate('note', data);
  }

  #fail(fault: PolicyFault, scavenger: string): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#over = true;
    this.#setup.recorder.annotate('error', { source: 'policy', channel: scavenger, ...fault });
    this.#setup.hooks.onFault(fault, scavenger);
  }
}
