/**
 * The GAMA side of the protocol, sans-IO: a simulation of the scavenger world that, over one connection to
 * the API server, sends the scenario, one connect per scavenger, then each cycle, for every scavenger not in
 * time-out and in turn, a request with its observation and reward, and waits for the reply addressed to it
 * before the next scavenger asks. One connection plays one episode; the simulation closes it at the end.
 *
 * Like GAMA's shared socket, it ignores replies addressed to another scavenger, and treats an unknown action
 * as doing nothing; both leave a note. At the episode's end it sends each scavenger a last request with
 * `"terminal": true` (the original never did: `sendTerminal: false` plays it that way).
 */
import {
  ScavengerWorld,
  observe,
  observationWindow,
  socialMetrics,
  type ObservationOptions,
  type ScavengerScenario,
  type ScavengerWorldSnapshot,
  type SocialMetrics,
} from '../../envs/scavenger';
import type { SansIoEndpoint, WirePeer, WireSink } from '../contract';
import { clip, encodeConnect, encodeRequest, encodeScenario, readReply } from './codec';

/** A note about the session for the transcript: what GAMA would log, a broken rule. */
export interface GamaNote {
  kind: 'note' | 'violation';
  /** The scavenger it is about, when one. */
  channel?: string;
  text: string;
}

/** How one scavenger did in an episode. */
export interface GamaScavengerResult {
  id: string;
  reward: number;
  collected: number;
  timeOutCycles: number;
  tagged: number;
}

/** How an episode went. */
export interface GamaEpisodeResult {
  scenario: string;
  /** The episode ran to its end (not cut short by a closed connection). */
  completed: boolean;
  cycles: number;
  resourcesLeft: number;
  scavengers: GamaScavengerResult[];
  metrics: SocialMetrics;
  /** Why it ended early, when it did. */
  reason?: string;
}

/** Options of the GAMA side. */
export interface GamaSimulationOptions {
  scenario: ScavengerScenario;
  /** Seed of the world; connection k (from 0) plays seed + k, so episodes differ but repeat. */
  seed?: number;
  /** Cycles per episode (default 1000). */
  maxCycles?: number;
  observation?: ObservationOptions;
  faithfulQuirks?: boolean;
  /** Send a last request with `"terminal": true` to each scavenger at the episode's end (default true). */
  sendTerminal?: boolean;
  /** Notes as they happen (the transport hangs them off the last message). */
  onNote?(note: GamaNote): void;
  /** The world after each cycle (only when given: snapshots are large). */
  onCycle?(snapshot: ScavengerWorldSnapshot): void;
  /** A cycle ended (its number, from 1), without the world. */
  onCycleEnd?(cycle: number): void;
  onEpisodeEnd?(result: GamaEpisodeResult): void;
}

/** The GAMA simulation as a sans-IO client endpoint: one episode per connection. */
export class GamaSimulation implements SansIoEndpoint<string, string> {
  readonly #options: GamaSimulationOptions;
  #episodes = 0;

  constructor(options: GamaSimulationOptions) {
    this.#options = options;
  }

  connect(sink: WireSink<string>, _connection?: { id: string }): WirePeer<string> {
    const options = this.#options;
    const episode = new Episode(sink, options, (options.seed ?? 0) + this.#episodes++);
    episode.start();
    return {
      receive: (text) => episode.receive(text),
      end: (reason) => episode.abort(reason ?? 'the API server closed the connection'),
    };
  }
}

/** One episode on one connection. */
class Episode {
  readonly #world: ScavengerWorld;
  readonly #window;
  readonly #rewards: number[];
  /** The scavenger whose reply is awaited, or -1. */
  #waiting = -1;
  /** Next scavenger to ask in this cycle. */
  #turn = 0;
  /** In the terminal round: every scavenger gets one last request. */
  #terminal = false;
  #over = false;

  constructor(
    readonly sink: WireSink<string>,
    readonly options: GamaSimulationOptions,
    seed: number,
  ) {
    this.#world = new ScavengerWorld(options.scenario, {
      seed,
      ...(options.maxCycles !== undefined ? { maxCycles: options.maxCycles } : {}),
      ...(options.faithfulQuirks !== undefined ? { faithfulQuirks: options.faithfulQuirks } : {}),
    });
    this.#window = observationWindow(options.observation);
    this.#rewards = this.#world.scavengers.map(() => 0);
  }

  start(): void {
    this.sink.send(encodeScenario(this.options.scenario.name));
    for (const scavenger of this.#world.scavengers) this.sink.send(encodeConnect(scavenger.id));
    this.#askNext();
  }

  receive(text: string): void {
    if (this.#over) return;
    const reading = readReply(text);
    const waitingFor = this.#world.scavengers[this.#waiting];
    if (!reading.ok) {
      this.#note('violation', `unreadable reply: ${reading.problem}; GAMA keeps waiting`, waitingFor?.id);
      return;
    }
    const { id, action, extraFields } = reading.reply;
    if (!waitingFor) {
      this.#note('violation', `a reply for ${clip(id)} when no scavenger is waiting; GAMA ignores it`);
      return;
    }
    if (id !== waitingFor.id) {
      const hint = id.startsWith('"') ? ' (send the bare text, without JSON quotes)' : '';
      this.#note(
        'violation',
        `a reply addressed to '${clip(id)}' while ${waitingFor.id} waits; every scavenger reads it and ignores it${hint}`,
        waitingFor.id,
      );
      return;
    }
    if (extraFields > 0)
      this.#note('note', `GAMA ignores what follows the second ';' of '${clip(text)}'`, waitingFor.id);
    this.#waiting = -1;
    if (!this.#terminal) {
      const outcome = this.#world.act(waitingFor.index, action);
      if (outcome.action === 'unknown')
        this.#note('note', `unrecognized action '${clip(action)}': GAMA does nothing`, waitingFor.id);
      if (outcome.hit?.length)
        this.#note(
          'note',
          `${waitingFor.id} tagged ${outcome.hit.join(', ')}: out for 25 cycles`,
          waitingFor.id,
        );
    }
    this.#askNext();
  }

  abort(reason: string): void {
    if (this.#over) return;
    this.#finish(false, reason);
  }

  /** Sends the next request, ending cycles (and the episode) on the way as needed. */
  #askNext(): void {
    const world = this.#world;
    const count = world.scavengers.length;
    for (;;) {
      while (this.#turn < count && !this.#terminal && !world.isActive(this.#turn)) this.#turn++;
      if (this.#turn < count) {
        const index = this.#turn++;
        this.#request(index);
        return;
      }
      if (this.#terminal) {
        this.#finish(true);
        return;
      }
      world.endCycle();
      this.options.onCycle?.(world.snapshot());
      this.options.onCycleEnd?.(world.cycle);
      this.#turn = 0;
      if (world.ended) {
        if (this.options.sendTerminal === false) {
          this.#finish(true);
          return;
        }
        this.#terminal = true;
      }
    }
  }

  #request(index: number): void {
    const world = this.#world;
    const scavenger = world.scavengers[index]!;
    const reward = world.takeReward(index);
    this.#rewards[index]! += reward;
    this.#waiting = index;
    this.sink.send(encodeRequest(scavenger.id, observe(world, index, this.#window), reward, this.#terminal));
  }

  #finish(completed: boolean, reason?: string): void {
    this.#over = true;
    const world = this.#world;
    // Rewards earned after a scavenger's last request still count for the episode.
    world.scavengers.forEach((s) => (this.#rewards[s.index]! += world.takeReward(s.index)));
    const scavengers = world.scavengers.map((s) => ({
      id: s.id,
      reward: this.#rewards[s.index]!,
      collected: s.collectionCycles.length,
      timeOutCycles: s.timeOutCycles,
      tagged: s.tagged,
    }));
    const result: GamaEpisodeResult = {
      scenario: this.options.scenario.name,
      completed,
      cycles: world.cycle,
      resourcesLeft: world.resourcesLeft,
      scavengers,
      metrics: socialMetrics(
        world.scavengers.map((s) => ({
          reward: this.#rewards[s.index]!,
          collectionCycles: s.collectionCycles,
          timeOutCycles: s.timeOutCycles,
        })),
        world.cycle,
      ),
      ...(reason ? { reason } : {}),
    };
    this.options.onEpisodeEnd?.(result);
    if (completed) this.sink.close('episode over');
  }

  #note(kind: GamaNote['kind'], text: string, channel?: string): void {
    this.options.onNote?.({ kind, text, ...(channel ? { channel } : {}) });
  }
}
