/**
 * Real MASSim agents playing the page's emulated server through `protoplay bridge --listen massim=12300`:
 * every connection the bridge accepts is one connection of the same `MassimHost` the command line's
 * `serve massim` runs, on the wall clock (the agents' timeouts are real). Agents connect in parallel, as
 * to the real server; the match starts once every agent of the first simulation has logged in (the real
 * server's `connected` launch). The page plays no team itself in this mode. Everything is recorded in the
 * host's store and shown in the MASSim views like an emulated match; the run ends with the tournament,
 * or when the learner stops it (every connection is then closed).
 */
import { massimAccountNames } from '../../../envs/massim';
import type { BridgeAccess } from '../../../session/bridge-route';
import { BridgeListener, wireBytes } from '../../../session/bridge-listener';
import { UnpacedRun } from '../../../session/gated-run';
import { liveUpdates } from '../../../session/live-updates';
import type { TranscriptKeeper } from '../../../session/transcript-keeper';
import { storeSource } from '../../../session/transcript-journal';
import type { UpdateBatcher } from '../../../session/update-batcher';
import { TranscriptStore } from '../../../transcript/store';
import type { PlaygroundServices, PlaygroundSession, SessionConfig } from '../../session-contract';
import { MassimHost, type MassimHostEvent } from '../host';
import { MassimHostEndpoint } from '../host-endpoint';
import { MassimTranscriptReader } from '../reader';
import { MassimWorldPacker } from '../world-packer';
import type { MassimSessionOptions } from './options';
import { serverConfig } from './server-config';
import { answerMassimQuestion, massimTranscriptJson, type MassimShown } from './shown-store';

/** Most messages kept across reloads (as for an emulated match). */
const MAX_KEPT_MESSAGES = 40_000;

/** Starts answering the bridge's listen port; resolves once the port is served (or failed to be). */
export function startBridgedMassimHostRun(
  config: SessionConfig,
  listen: string,
  services: PlaygroundServices,
  bridge: BridgeAccess,
): Promise<PlaygroundSession> {
  const run = new BridgedMassimRun(config, listen, services, bridge);
  run.start();
  return Promise.resolve(run);
}

/** One inbound match: the agents' deadlines run on the wall clock, as on the real server (never paused). */
class BridgedMassimRun extends UnpacedRun implements PlaygroundSession {
  readonly #listener: BridgeListener;
  readonly #host: MassimHost;
  readonly #endpoint: MassimHostEndpoint;
  readonly #shown: MassimShown;
  readonly #batcher: UpdateBatcher;
  readonly #keeper: TranscriptKeeper;
  readonly #address: string;
  /** The agents that must be logged in before the match starts. */
  readonly #expected: string[];
  #started = false;
  #over = false;

  constructor(config: SessionConfig, listen: string, services: PlaygroundServices, bridge: BridgeAccess) {
    super();
    this.#listener = new BridgeListener(bridge, listen);
    this.#address = this.#listener.address;
    const options = config.options as MassimSessionOptions | undefined;
    if (!options?.match) throw new Error('a MASSim session needs its match settings');
    const server = serverConfig(options.match);
    const size = server.match[0]!.agentsPerTeam;
    this.#expected = server.teams.flatMap((team) => massimAccountNames(server, team).slice(0, size));
    const store = new TranscriptStore({
      protocol: 'massim',
      packers: [new MassimWorldPacker()],
      startedAt: Date.now(),
      meta: {
        origin: 'bridge',
        source: 'bridge',
        listen,
        address: this.#address,
        seed: config.seed,
        faithfulRaces: options.faithfulRaces,
      },
    });
    this.#host = new MassimHost({
      config: server,
      seed: config.seed,
      faithfulRaces: options.faithfulRaces,
      store,
      onEvent: (event) => this.#hostEvent(event),
    });
    this.#endpoint = new MassimHostEndpoint(this.#host, {
      log: () => undefined,
      onAgentsChanged: () => this.#agentsChanged(),
    });
    // The agents are real programs: the reader judges what they send too.
    this.#shown = { store, reader: new MassimTranscriptReader(store, { judgeAgents: true }) };
    const reader = this.#shown.reader;
    ({ batcher: this.#batcher, keeper: this.#keeper } = liveUpdates(services, {
      content: { kind: 'views', news: () => reader.read() },
      protocol: config.protocol,
      write: () => (store.length > MAX_KEPT_MESSAGES ? undefined : massimTranscriptJson(this.#shown)),
      source: storeSource(store, MAX_KEPT_MESSAGES),
    }));
  }

  start(): void {
    this.#batcher.note({ status: 'running' });
    const failure = this.#listener.serve(this.#endpoint, {
      decode: wireBytes,
      onActivity: () => this.#batcher.schedule(),
    });
    if (failure) {
      this.#shown.store.annotate('error', { source: 'session', message: failure });
      this.#end('failed', { error: failure });
      return;
    }
    this.#shown.store.annotate('note', {
      code: 'protoplay.bridge.listening',
      message: `answering MASSim agents on ${this.#address}; the match starts once ${this.#expected.join(', ')} have logged in`,
    });
    this.#batcher.schedule();
  }

  decide(): void {}

  ask(question: string, args: readonly unknown[]): unknown {
    return answerMassimQuestion(this.#shown, question, args);
  }

  exportJson(): string[] {
    return massimTranscriptJson(this.#shown);
  }

  stop(): void {
    if (this.#over) return;
    this.#shown.store.annotate('note', {
      code: 'protoplay.bridge.stopped',
      message: 'stopped by the learner; every connection was closed',
    });
    this.#end('stopped');
  }

  abandon(): void {
    this.#end('stopped');
    this.#batcher.abandon();
    this.#keeper.dispose();
  }

  #agentsChanged(): void {
    if (this.#started || this.#over) return;
    const loggedIn = this.#endpoint.loggedIn;
    if (!this.#expected.every((agent) => loggedIn.has(agent))) return;
    this.#started = true;
    this.#host.start();
    this.#batcher.schedule();
  }

  #hostEvent(event: MassimHostEvent): void {
    if (event.kind === 'finished') {
      // The last frames (bye) leave first; the agents then close their connections.
      queueMicrotask(() => this.#end('finished'));
      return;
    }
    if (event.kind === 'step')
      this.#batcher.note({ position: { round: event.simulation + 1, turn: event.step } });
    this.#batcher.schedule();
  }

  #end(status: 'finished' | 'stopped' | 'failed', extra: Parameters<UpdateBatcher['note']>[0] = {}): void {
    if (this.#over) return;
    this.#over = true;
    this.#listener.stopServing();
    if (status !== 'finished') {
      if (this.#host.status.phase !== 'finished') this.#host.shutdown();
      this.#listener.close();
    }
    this.#batcher.note({ ...extra, status });
    this.#batcher.close();
  }
}
