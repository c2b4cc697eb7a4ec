/**
 * A real course client playing the page's emulated aisysprojserver through `protoplay bridge --listen
 * aisys=5000`: every HTTP request the bridge accepts is answered by the same `AisysHost` that `serve
 * aisys` runs, holding the environment picked in the page and one agent whose config (`{agent, env, pwd,
 * url}`) the console shows, for the client's config file. Every exchange is recorded with its agent
 * channel and read into the run book, so the runs table, rating and HTTP log show it like a session
 * played in the page. Requests are answered in the order they come, several clients at once. The run
 * listens until the learner stops it.
 */
import type { HttpMessage, SansIoEndpoint, WireData, WireSink } from '../../contract';
import { describeError } from '../../../errors';
import type { BridgeAccess } from '../../../session/bridge-route';
import { TranscriptKeeper } from '../../../session/transcript-keeper';
import { UpdateBatcher } from '../../../session/update-batcher';
import { serialiseTranscript } from '../../../transcript/json-format';
import { TranscriptRecorder } from '../../../transcript/recorder';
import type { PlaygroundServices, PlaygroundSession, SessionConfig } from '../../session-contract';
import { aisysChannel } from '../codec';
import { findAisysEnvironment } from '../environments';
import { AisysHost } from '../host';
import { createAisysReader } from '../reader';
import { answerAisysQuestion } from './questions';
import { AisysRunBook } from './run-book';

/** The agent the emulated server holds for the real client. */
export const BRIDGED_AISYS_AGENT = 'agent';

/** Starts answering the bridge's listen port; resolves once the port is served (or failed to be). */
export function startBridgedAisysHostRun(
  config: SessionConfig,
  listen: string,
  services: PlaygroundServices,
  bridge: BridgeAccess,
): Promise<PlaygroundSession> {
  const run = new BridgedAisysHostRun(config, listen, services, bridge);
  run.start();
  return Promise.resolve(run);
}

class BridgedAisysHostRun implements PlaygroundSession {
  readonly #listen: string;
  readonly #bridge: BridgeAccess;
  readonly #recorder: TranscriptRecorder;
  readonly #host: AisysHost;
  readonly #book = new AisysRunBook();
  readonly #batcher: UpdateBatcher;
  readonly #keeper: TranscriptKeeper;
  readonly #address: string;
  readonly #agentConfig: { agent: string; env: string; pwd: string; url: string };
  readonly #open = new Set<WireSink<WireData>>();
  #stopServing: (() => void) | undefined;
  #over = false;

  constructor(config: SessionConfig, listen: string, services: PlaygroundServices, bridge: BridgeAccess) {
    this.#listen = listen;
    this.#bridge = bridge;
    this.#address = bridge.describe({ mode: 'inbound', listen }) ?? listen;
    const environment = findAisysEnvironment(config.environment);
    if (!environment) throw new Error(`there is no aisys environment '${config.environment}'`);
    this.#host = new AisysHost({ seed: config.seed });
    this.#host.addEnvironment(environment.id, environment.envClass, environment.config, environment.label);
    const pwd = this.#host.addAgent(environment.id, BRIDGED_AISYS_AGENT);
    const url = this.#address.endsWith('/') ? this.#address : `${this.#address}/`;
    this.#agentConfig = { agent: BRIDGED_AISYS_AGENT, env: environment.id, pwd, url };
    this.#recorder = new TranscriptRecorder({
      protocol: 'aisys',
      meta: {
        source: 'bridge',
        listen,
        address: this.#address,
        environment: environment.id,
        agent: BRIDGED_AISYS_AGENT,
        seed: config.seed,
      },
    });
    const transcript = this.#recorder.transcript;
    this.#keeper = new TranscriptKeeper({
      write: () => [serialiseTranscript(transcript)],
      keep: (json, how) => services.keepTranscript(json, how),
    });
    this.#batcher = new UpdateBatcher({
      listener: services.listener,
      nextFrame: services.nextFrame,
      content: { kind: 'transcript', transcript, reader: createAisysReader() },
      reset: { protocol: 'aisys', origin: 'live' },
      onStatus: (status) => this.#keeper.status(status),
    });
  }

  start(): void {
    this.#batcher.note({ status: 'running' });
    try {
      this.#stopServing = this.#bridge.serve(this.#listen, this.#recording());
    } catch (error) {
      const message = `cannot answer the bridge's listen port '${this.#listen}': ${describeError(error)}`;
      this.#recorder.annotate('error', { source: 'session', message });
      this.#end('failed', { error: message });
      return;
    }
    this.#recorder.annotate('note', {
      code: 'protoplay.bridge.listening',
      message: `answering course clients on ${this.#address}; their agent config: ${JSON.stringify(this.#agentConfig)}`,
    });
    this.#batcher.schedule();
  }

  pause(): void {
    // The clients decide when they send; the emulated server answers at once.
  }

  resume(): void {}

  step(): void {}

  setDelay(): void {}

  decide(): void {}

  ask(question: string, args: readonly unknown[]): unknown {
    return answerAisysQuestion(this.#book, this.#recorder.transcript, question, args);
  }

  exportJson(): string[] {
    return [serialiseTranscript(this.#recorder.transcript)];
  }

  stop(): void {
    if (this.#over) return;
    this.#recorder.annotate('note', {
      code: 'protoplay.bridge.stopped',
      message: 'stopped by the learner; open connections were closed',
    });
    this.#end('stopped');
  }

  abandon(): void {
    this.#end('stopped');
    this.#batcher.abandon();
    this.#keeper.dispose();
  }

  /** The host, recording every exchange of every connection with its agent channel. */
  #recording(): SansIoEndpoint<WireData, WireData> {
    const recorder = this.#recorder;
    return {
      connect: (sink, connection) => {
        this.#open.add(sink);
        const conn = connection.remote ?? connection.id;
        if (!recorder.transcript.connections.some((known) => known.id === conn))
          recorder.transcript.connections.push({ id: conn, label: `client ${conn}` });
        const waiting: { exchange: number; channel: string | undefined }[] = [];
        const peer = this.#host.connect({
          send: (response) => {
            const asked = waiting.shift();
            if (asked) {
              const recorded = recorder.httpResponse(conn, asked.exchange, response, asked.channel);
              this.#book.add([recorded]);
            }
            sink.send(response);
            this.#batcher.schedule();
          },
          close: (reason) => {
            this.#open.delete(sink);
            sink.close(reason);
          },
        });
        return {
          receive: (data) => {
            const request = data as HttpMessage;
            const channel = aisysChannel(request);
            const recorded = recorder.httpRequest(conn, request, channel);
            waiting.push({ exchange: recorded.http?.exchange ?? recorded.index, channel });
            this.#book.add([recorded]);
            peer.receive(request);
            this.#batcher.schedule();
          },
          end: (reason) => {
            this.#open.delete(sink);
            peer.end(reason);
          },
        };
      },
    };
  }

  #end(status: 'stopped' | 'failed', extra: Parameters<UpdateBatcher['note']>[0] = {}): void {
    if (this.#over) return;
    this.#over = true;
    this.#stopServing?.();
    for (const sink of [...this.#open]) sink.close('the page stopped answering');
    this.#open.clear();
    this.#batcher.note({ ...extra, status });
    this.#batcher.close();
  }
}
