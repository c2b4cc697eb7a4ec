/**
 * A real course client playing the page's emulated aisysprojserver through `protoplay bridge --listen
 * aisys=5000`: every HTTP request the bridge accepts is answered by the same `AisysHost` that `serve
 * aisys` runs, holding the environment picked in the page and one agent whose config (`{agent, env, pwd,
 * url}`) the console shows, for the client's config file. Every exchange is recorded with its agent
 * channel and read into the run book, so the runs table, rating and HTTP log show it like a session
 * played in the page. Requests are answered in the order they come, several clients at once. The run
 * listens until the learner stops it.
 */
import type { HttpMessage, SansIoEndpoint } from '../../contract';
import type { BridgeAccess } from '../../../session/bridge-route';
import { BridgeListener } from '../../../session/bridge-listener';
import { UnpacedRun } from '../../../session/gated-run';
import { liveUpdates } from '../../../session/live-updates';
import type { TranscriptKeeper } from '../../../session/transcript-keeper';
import type { UpdateBatcher } from '../../../session/update-batcher';
import { serialiseTranscript } from '../../../transcript/json-format';
import { TranscriptRecorder } from '../../../transcript/recorder';
import type { PlaygroundServices, PlaygroundSession, SessionConfig } from '../../session-contract';
import { aisysChannel } from '../codec';
import { findAisysEnvironment } from '../environments';
import { AisysHost } from '../host';
import { createAisysReader } from '../reader';
import { AisysResponseIndex, answerAisysQuestion } from './questions';
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

/** One inbound run: the clients decide when they send and the server answers at once (nothing to pace). */
class BridgedAisysHostRun extends UnpacedRun implements PlaygroundSession {
  readonly #listener: BridgeListener;
  readonly #recorder: TranscriptRecorder;
  readonly #host: AisysHost;
  readonly #book = new AisysRunBook();
  /** Where each exchange's response is, for the HTTP log's detail. */
  readonly #responses = new AisysResponseIndex();
  readonly #batcher: UpdateBatcher;
  readonly #keeper: TranscriptKeeper;
  readonly #address: string;
  readonly #agentConfig: { agent: string; env: string; pwd: string; url: string };
  #over = false;

  constructor(config: SessionConfig, listen: string, services: PlaygroundServices, bridge: BridgeAccess) {
    super();
    this.#listener = new BridgeListener(bridge, listen);
    this.#address = this.#listener.address;
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
    ({ batcher: this.#batcher, keeper: this.#keeper } = liveUpdates(services, {
      content: { kind: 'transcript', transcript: this.#recorder.transcript, reader: createAisysReader() },
      protocol: 'aisys',
    }));
  }

  start(): void {
    this.#batcher.note({ status: 'running' });
    const failure = this.#listener.serve(this.#recording(), {
      decode: (data) => data as HttpMessage,
      onActivity: () => this.#batcher.schedule(),
    });
    if (failure) {
      this.#recorder.annotate('error', { source: 'session', message: failure });
      this.#end('failed', { error: failure });
      return;
    }
    this.#recorder.annotate('note', {
      code: 'protoplay.bridge.listening',
      message: `answering course clients on ${this.#address}; their agent config: ${JSON.stringify(this.#agentConfig)}`,
    });
    this.#batcher.schedule();
  }

  decide(): void {}

  ask(question: string, args: readonly unknown[]): unknown {
    return answerAisysQuestion(this.#book, this.#recorder.transcript, question, args, this.#responses);
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
  #recording(): SansIoEndpoint<HttpMessage, HttpMessage> {
    const recorder = this.#recorder;
    return {
      connect: (sink, connection) => {
        const conn = connection.remote ?? connection.id;
        recorder.addConnection(conn, `client ${conn}`);
        const waiting: { exchange: number; channel: string | undefined }[] = [];
        const peer = this.#host.connect({
          send: (response) => {
            const asked = waiting.shift();
            if (asked) {
              const recorded = recorder.httpResponse(conn, asked.exchange, response, asked.channel);
              this.#book.add([recorded]);
            }
            sink.send(response);
          },
          close: (reason) => sink.close(reason),
        });
        return {
          receive: (request) => {
            const channel = aisysChannel(request);
            const recorded = recorder.httpRequest(conn, request, channel);
            waiting.push({ exchange: recorded.http?.exchange ?? recorded.index, channel });
            this.#book.add([recorded]);
            peer.receive(request);
          },
          end: (reason) => peer.end(reason),
        };
      },
    };
  }

  #end(status: 'stopped' | 'failed', extra: Parameters<UpdateBatcher['note']>[0] = {}): void {
    if (this.#over) return;
    this.#over = true;
    this.#listener.close();
    this.#batcher.note({ ...extra, status });
    this.#batcher.close();
  }
}
