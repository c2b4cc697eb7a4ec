/**
 * The page's emulated sessions for any protocol that gives `endpoints`: its host and its policy-driven
 * client played in memory in the session worker (`playInMemory`), every decision asked of a supervised
 * policy runtime and paced by a TurnGate, what is recorded read by the protocol's reader and sent to the
 * page in per-frame batches. A protocol plays in the page with this runner and nothing of its own.
 */
import { describeError } from '../errors';
import { PolicySupervisor } from '../policy/supervisor';
import type { TurnGate } from '../policy/turn-gate';
import { GatedRun, pacingGate } from './gated-run';
import { liveUpdates } from './live-updates';
import type { CallOutcome } from '../policy/types';
import type { DecisionRequest, Protocol, ProtocolEndpoints } from '../protocols/contract';
import type {
  PlaygroundRunner,
  PlaygroundServices,
  PlaygroundSession,
  SessionConfig,
} from '../protocols/session-contract';
import { serialiseTranscript } from '../transcript/json-format';
import { TranscriptRecorder } from '../transcript/recorder';
import { driveClient } from './client-driver';
import { playInMemory, type InMemoryPlay } from './in-memory-play';
import { showTranscript } from './shown-session';
import type { TranscriptKeeper } from './transcript-keeper';
import type { UpdateBatcher } from './update-batcher';

/** The runner of a protocol with `endpoints`: emulated sessions, and transcripts shown in the views. */
export function emulatedPlaygroundRunner(protocol: Protocol): PlaygroundRunner {
  const endpoints = protocol.endpoints;
  if (!endpoints) throw new Error(`${protocol.label} gives no endpoints to play`);
  return {
    async start(config, services) {
      const run = new EmulatedRun(protocol, endpoints, config, services);
      await run.start();
      return run;
    },
    show(shown, services) {
      const { transcript } = shown;
      return showTranscript(
        shown,
        services,
        { kind: 'transcript', transcript, reader: protocol.createReader() },
        { ask: () => undefined, exportJson: () => [serialiseTranscript(transcript)] },
      );
    },
  };
}

/** A fault outcome for a decision the session no longer wants (it was stopped). */
const STOPPED: CallOutcome = {
  ok: false,
  fault: { kind: 'call', message: 'the session was stopped' },
  logs: [],
  ms: 0,
};

/** One emulated session from start to end. */
class EmulatedRun extends GatedRun implements PlaygroundSession {
  readonly #protocol: Protocol;
  readonly #endpoints: ProtocolEndpoints;
  readonly #config: SessionConfig;
  readonly #recorder: TranscriptRecorder;
  readonly #supervisor: PolicySupervisor;
  protected readonly gate: TurnGate;
  readonly #batcher: UpdateBatcher;
  readonly #keeper: TranscriptKeeper;
  #play: InMemoryPlay | undefined;
  #firstDecision = true;
  #faulted = false;
  #stopped = false;

  constructor(
    protocol: Protocol,
    endpoints: ProtocolEndpoints,
    config: SessionConfig,
    services: PlaygroundServices,
  ) {
    super();
    this.#protocol = protocol;
    this.#endpoints = endpoints;
    this.#config = config;
    this.#recorder = new TranscriptRecorder({
      protocol: protocol.id,
      meta: {
        environment: config.environment,
        rounds: config.rounds,
        seed: config.seed,
        budgetMs: config.budgetMs,
      },
    });
    this.#supervisor = new PolicySupervisor({
      spawn: () => services.spawnPolicy(),
      budgetMs: config.budgetMs,
    });
    this.gate = pacingGate(config, (status) => this.#batcher.note({ status }));
    const transcript = this.#recorder.transcript;
    ({ batcher: this.#batcher, keeper: this.#keeper } = liveUpdates(services, {
      content: { kind: 'transcript', transcript, reader: this.#protocol.createReader() },
      protocol: protocol.id,
    }));
  }

  /** Loads the policy, then lets the session run in the background. */
  async start(): Promise<void> {
    const config = this.#config;
    this.#batcher.note({ status: config.startPaused ? 'paused' : 'running' });
    const loaded = await this.#supervisor.load(config.policy);
    const recorder = this.#recorder;
    for (const line of loaded.logs) recorder.annotate('policy-log', { ...line, round: 0, turn: 0 });
    if (!loaded.ok) {
      recorder.annotate('error', { source: 'policy', ...loaded.fault });
      this.#supervisor.dispose();
      this.gate.stop();
      this.#batcher.note({ fault: loaded.fault, status: 'failed' });
      this.#batcher.close();
      return;
    }
    const setup = { environment: config.environment, rounds: config.rounds, seed: config.seed };
    let play: InMemoryPlay;
    try {
      play = playInMemory({
        protocol: this.#protocol,
        host: this.#endpoints.host(setup),
        client: driveClient(this.#endpoints.client(setup), (request) => this.#decide(request)),
        recorder,
      });
    } catch (error) {
      this.#supervisor.dispose();
      this.gate.stop();
      this.#batcher.note({ error: describeError(error), status: 'failed' });
      this.#batcher.close();
      return;
    }
    this.#play = play;
    this.#batcher.schedule();
    void play.done.then(() => {
      this.#supervisor.dispose();
      const status = this.#faulted ? 'failed' : this.#stopped ? 'stopped' : 'finished';
      this.#batcher.note({ status });
      this.#batcher.close();
    });
  }

  /** Waits for the gate, asks the policy, and reports a fault to the page at once. */
  async #decide(request: DecisionRequest): Promise<CallOutcome> {
    this.#batcher.note({ position: request.site });
    const first = this.#firstDecision;
    this.#firstDecision = false;
    if (!(await this.gate.pass(first)) || this.#stopped) return STOPPED;
    const outcome = await this.#supervisor.call(request.hook, request.args, {}, request.site);
    const index = this.#recorder.transcript.messages.length - 1;
    for (const line of outcome.logs)
      this.#recorder.annotate('policy-log', { ...line, ...request.site }, index);
    if (!outcome.ok && !this.#stopped) {
      this.#faulted = true;
      this.#recorder.annotate('error', { source: 'policy', ...outcome.fault }, index);
      this.#batcher.note({ fault: outcome.fault });
    }
    this.#batcher.schedule();
    return this.#stopped ? STOPPED : outcome;
  }

  decide(): void {}

  ask(): undefined {
    return undefined;
  }

  exportJson(): string[] {
    return [serialiseTranscript(this.#recorder.transcript)];
  }

  stop(): void {
    this.#end('stopped by the learner');
    this.#batcher.note({ status: 'stopped' });
  }

  abandon(): void {
    this.#end('a newer session took the page');
    this.#batcher.abandon();
    this.#keeper.dispose();
  }

  #end(reason: string): void {
    this.#stopped = true;
    this.gate.stop();
    this.#play?.stop(reason);
    this.#supervisor.dispose();
  }
}
