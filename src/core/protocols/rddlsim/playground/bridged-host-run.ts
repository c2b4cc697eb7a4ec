/**
 * Real rddlsim clients playing the page's emulated server through `protoplay bridge`: the bridge hands
 * over each connection accepted on its listen port, and the same `RddlsimHost` that serves the command
 * line's `serve rddlsim` answers it, with the instance, rounds and seed picked in the page. Connections are
 * served one after another in arrival order (a client that comes while another plays waits, its messages
 * held); each is a connection of the one transcript, recorded and shown like any session. The run
 * controls pace what the clients send (`gatedEndpoint`): Pause holds the server's next answer, Step lets one
 * message through, the delay spaces them. The run listens until the learner stops it.
 */
import type { TurnGate } from '../../../policy/turn-gate';
import type { BridgeAccess } from '../../../session/bridge-route';
import { BridgeListener, wireBytes } from '../../../session/bridge-listener';
import { gatedEndpoint } from '../../../session/gated-endpoint';
import { GatedRun, pacingGate } from '../../../session/gated-run';
import { liveUpdates } from '../../../session/live-updates';
import { queuedEndpoint } from '../../../session/queued-endpoint';
import type { TranscriptKeeper } from '../../../session/transcript-keeper';
import type { UpdateBatcher } from '../../../session/update-batcher';
import { serialiseTranscript } from '../../../transcript/json-format';
import { TranscriptRecorder } from '../../../transcript/recorder';
import type { PlaygroundServices, PlaygroundSession, SessionConfig } from '../../session-contract';
import { RddlsimHost } from '../host';
import { RddlsimHostEndpoint } from '../host-endpoint';
import { createRddlsimReader } from '../reader';
import { loadExampleEnvironment, loadSessionEnvironment, type RddlSessionSource } from './environments';

/** Starts answering the bridge's listen port; resolves once the page serves it (or failed to). */
export function startBridgedHostRun(
  config: SessionConfig,
  listen: string,
  services: PlaygroundServices,
  bridge: BridgeAccess,
): Promise<PlaygroundSession> {
  const run = new BridgedHostRun(config, listen, services, bridge);
  run.start();
  return Promise.resolve(run);
}

class BridgedHostRun extends GatedRun implements PlaygroundSession {
  readonly #listener: BridgeListener;
  readonly #recorder: TranscriptRecorder;
  readonly #endpoint: RddlsimHostEndpoint;
  protected readonly gate: TurnGate;
  readonly #batcher: UpdateBatcher;
  readonly #keeper: TranscriptKeeper;
  readonly #instance: string;
  readonly #address: string;
  #over = false;

  constructor(config: SessionConfig, listen: string, services: PlaygroundServices, bridge: BridgeAccess) {
    super();
    this.#listener = new BridgeListener(bridge, listen);
    const rddl = config.options as RddlSessionSource | undefined;
    const { model, task } = rddl ? loadSessionEnvironment(rddl) : loadExampleEnvironment(config.environment);
    this.#instance = model.info.instance;
    this.#address = this.#listener.address;
    this.#recorder = new TranscriptRecorder({
      protocol: 'rddlsim',
      meta: {
        source: 'bridge',
        listen,
        address: this.#address,
        instance: model.info.instance,
        domain: model.info.domain,
        environment: config.environment,
        rounds: config.rounds,
        seed: config.seed,
        rddlsimQuirks: rddl?.rddlsimQuirks ?? false,
      },
    });
    const host = new RddlsimHost({
      resolveInstance: (name) => (name === model.info.instance ? { model, task } : undefined),
      rounds: config.rounds,
      seed: config.seed,
      rddlsimQuirks: rddl?.rddlsimQuirks ?? false,
      // The page shows one conversation at a time: a client's <no-header/> concerns its own session.
      noHeaderScope: 'connection',
    });
    this.#endpoint = new RddlsimHostEndpoint(host, {
      record: { meta: () => ({}), recorder: this.#recorder },
      log: () => undefined,
    });
    this.gate = pacingGate(config, (status) => {
      if (!this.#over) this.#batcher.note({ status });
    });
    ({ batcher: this.#batcher, keeper: this.#keeper } = liveUpdates(services, {
      content: { kind: 'transcript', transcript: this.#recorder.transcript, reader: createRddlsimReader() },
      protocol: 'rddlsim',
    }));
  }

  start(): void {
    this.#batcher.note({ status: this.gate.state === 'open' ? 'running' : 'paused' });
    const queue = queuedEndpoint(gatedEndpoint(this.#endpoint, this.gate), {
      onWaiting: (connection, ahead) =>
        this.#note(
          'protoplay.bridge.waiting',
          `a client from ${connection.remote ?? connection.id} waits: ${ahead} connection${ahead === 1 ? '' : 's'} before it`,
        ),
      onServed: (connection) =>
        this.#recorder.event(this.#lastConnection(), 'c2s', 'open', connection.remote),
      onEnded: () => {
        this.#batcher.schedule();
        // Store what was played so far: the run itself may listen for a long time.
        this.#keeper.status('finished');
      },
    });
    const failure = this.#listener.serve(queue, {
      decode: wireBytes,
      onActivity: () => this.#batcher.schedule(),
    });
    if (failure) {
      this.#recorder.annotate('error', { source: 'session', message: failure });
      this.#end('failed', { error: failure });
      return;
    }
    this.#note(
      'protoplay.bridge.listening',
      `answering clients on ${this.#address} for instance ${this.#instance} (${this.#endpoint.host.options.rounds} rounds per session); clients are served one at a time, in the order they connect`,
    );
  }

  decide(): void {}

  ask(): undefined {
    return undefined;
  }

  exportJson(): string[] {
    return [serialiseTranscript(this.#recorder.transcript)];
  }

  stop(): void {
    if (this.#over) return;
    this.#note('protoplay.bridge.stopped', 'stopped by the learner; open connections were closed');
    this.#end('stopped');
  }

  abandon(): void {
    this.#end('stopped');
    this.#batcher.abandon();
    this.#keeper.dispose();
  }

  /** The transcript id of the connection served last (the host numbers sessions from 1). */
  #lastConnection(): string {
    return `session-${this.#endpoint.endedSessions + this.#endpoint.activeSessions}`;
  }

  #note(code: string, message: string): void {
    this.#recorder.annotate('note', { code, message });
    this.#batcher.schedule();
  }

  #end(status: 'stopped' | 'failed', extra: Parameters<UpdateBatcher['note']>[0] = {}): void {
    if (this.#over) return;
    this.#over = true;
    this.gate.stop();
    this.#listener.stopServing();
    this.#endpoint.shutdown('the learner stopped the run');
    this.#listener.close();
    this.#batcher.note({ ...extra, status });
    this.#batcher.close();
  }
}
