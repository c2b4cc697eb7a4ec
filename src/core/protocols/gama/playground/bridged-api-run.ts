/**
 * The page as the API side a real GAMA model dials, through `protoplay bridge --listen gama=3001`: the
 * bridge hands over each WebSocket accepted on its listen port, the core's `GamaApi` reads the GAMA side's
 * frames, and every answer `Scav. n;<action>` is the learner's `act` in its policy worker, paced by the
 * run controls (pause holds the next answer, so GAMA waits; step answers one request). Connections are
 * episodes, served one after another in arrival order; each is recorded as a connection of the one
 * transcript, with the channel (scavenger) of every frame. The world is not on the wire: the views get
 * it by replaying the recorded answers, as for an opened transcript, which works when the GAMA side is
 * Protoplay's own (`protoplay connect gama`). The run listens until the learner stops it.
 */
import type { SansIoEndpoint } from '../../contract';
import { PolicySupervisor } from '../../../policy/supervisor';
import type { TurnGate } from '../../../policy/turn-gate';
import type { CallSite } from '../../../policy/types';
import type { BridgeAccess } from '../../../session/bridge-route';
import { BridgeListener, wireText } from '../../../session/bridge-listener';
import { GatedRun, pacingGate } from '../../../session/gated-run';
import { liveUpdates } from '../../../session/live-updates';
import { queuedEndpoint } from '../../../session/queued-endpoint';
import type { TranscriptKeeper } from '../../../session/transcript-keeper';
import type { UpdateBatcher } from '../../../session/update-batcher';
import { serialiseTranscript } from '../../../transcript/json-format';
import { TranscriptRecorder } from '../../../transcript/recorder';
import type { PlaygroundServices, PlaygroundSession, SessionConfig } from '../../session-contract';
import { GamaApi, type GamaDecision } from '../api';
import { channelOf } from '../codec';
import { GAMA_ACT } from '../policy-runtime';
import { GamaTranscriptReader } from '../reader';
import { GamaEpisodeResults } from './episode-results';
import { answerGamaQuestion } from './questions';
import { GamaReplayedWorlds } from './replayed-worlds';
import { MAX_KEPT_GAMA_MESSAGES } from './session-run';

/** Starts answering the bridge's listen port; resolves once the policy is loaded and the port served. */
export async function startBridgedApiRun(
  config: SessionConfig,
  listen: string,
  services: PlaygroundServices,
  bridge: BridgeAccess,
): Promise<PlaygroundSession> {
  const run = new BridgedApiRun(config, listen, services, bridge);
  await run.start();
  return run;
}

/** Where an episode (connection) is: its number and the requests answered so far. */
interface Episode {
  number: number;
  conn: string;
  requests: number;
}

class BridgedApiRun extends GatedRun implements PlaygroundSession {
  readonly #config: SessionConfig;
  readonly #listener: BridgeListener;
  readonly #recorder: TranscriptRecorder;
  readonly #supervisor: PolicySupervisor;
  protected readonly gate: TurnGate;
  readonly #batcher: UpdateBatcher;
  readonly #keeper: TranscriptKeeper;
  readonly #address: string;
  readonly #episodes = new Map<string, Episode>();
  /** What the views were last told, rebuilt when the transcript has grown. */
  #shown: { messages: number; worlds: GamaReplayedWorlds } | undefined;
  /** The episodes' results, brought up to date with the frames recorded since the last question. */
  readonly #results = new GamaEpisodeResults();
  #firstAnswer = true;
  #over = false;

  constructor(config: SessionConfig, listen: string, services: PlaygroundServices, bridge: BridgeAccess) {
    super();
    this.#config = config;
    this.#listener = new BridgeListener(bridge, listen);
    this.#address = this.#listener.address;
    this.#recorder = new TranscriptRecorder({
      protocol: 'gama',
      meta: { source: 'bridge', listen, address: this.#address, budgetMs: config.budgetMs },
    });
    this.#supervisor = new PolicySupervisor({
      spawn: () => services.spawnPolicy(),
      budgetMs: config.budgetMs,
    });
    this.gate = pacingGate(config, (status) => {
      if (!this.#over) this.#batcher.note({ status });
    });
    ({ batcher: this.#batcher, keeper: this.#keeper } = liveUpdates(services, {
      content: {
        kind: 'transcript',
        transcript: this.#recorder.transcript,
        reader: new GamaTranscriptReader(),
      },
      protocol: 'gama',
      maxKeptMessages: MAX_KEPT_GAMA_MESSAGES,
    }));
  }

  async start(): Promise<void> {
    const loaded = await this.#supervisor.load(this.#config.policy);
    for (const line of loaded.logs) this.#recorder.annotate('policy-log', { ...line, round: 0, turn: 0 });
    if (!loaded.ok) {
      this.#recorder.annotate('error', { source: 'policy', ...loaded.fault });
      this.#end('failed', { fault: loaded.fault });
      return;
    }
    const api = new GamaApi({
      decide: (decision) => this.#answer(decision),
      onNote: (note) =>
        this.#recorder.annotate(note.kind, {
          text: note.text,
          ...(note.channel ? { channel: note.channel } : {}),
        }),
    });
    const queue = queuedEndpoint(this.#recording(api), {
      onWaiting: (connection, ahead) =>
        this.#note(
          'protoplay.bridge.waiting',
          `GAMA from ${connection.remote ?? connection.id} waits: ${ahead} connection${ahead === 1 ? '' : 's'} before it`,
        ),
      onEnded: () => {
        this.#batcher.schedule();
        this.#keeper.status('finished');
      },
    });
    // Running is said once the port is served (in the same turn), never while the policy still loads: an
    // agent started as soon as the page says so must not find nobody answering.
    this.#batcher.note({ status: this.#config.startPaused ? 'paused' : 'running' });
    const failure = this.#listener.serve(queue, { decode: wireText });
    if (failure) {
      this.#recorder.annotate('error', { source: 'session', message: failure });
      this.#end('failed', { error: failure });
      return;
    }
    this.#note(
      'protoplay.bridge.listening',
      `answering GAMA on ${this.#address} with the policy in the editor; episodes are served one at a time, in the order they connect`,
    );
  }

  decide(): void {
    // Answers are never held for the learner: what GAMA makes of them is the lesson.
  }

  ask(question: string, args: readonly unknown[]): unknown {
    const transcript = this.#recorder.transcript;
    if (this.#shown?.messages !== transcript.messages.length)
      this.#shown = {
        messages: transcript.messages.length,
        worlds: new GamaReplayedWorlds(transcript),
      };
    const shown = this.#shown;
    return answerGamaQuestion(
      { history: shown.worlds, episodes: () => this.#results.read(transcript) },
      question,
      args,
    );
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

  /** The API endpoint, recording every frame of every connection with its channel. */
  #recording(api: GamaApi): SansIoEndpoint<string, string> {
    const recorder = this.#recorder;
    return {
      connect: (sink, connection) => {
        const number = this.#episodes.size + 1;
        const conn = `episode ${number}`;
        this.#episodes.set(connection.id, { number, conn, requests: 0 });
        recorder.addConnection(conn, `${conn} (${connection.remote ?? '?'})`);
        recorder.event(conn, 'c2s', 'open', connection.remote);
        const peer = api.connect(
          {
            send: (text) => {
              recorder.text(conn, 's2c', text, 'frame', channelOf(text, 's2c'));
              this.#batcher.schedule();
              sink.send(text);
            },
            close: (reason) => {
              recorder.event(conn, 's2c', 'close', reason);
              sink.close(reason);
            },
          },
          connection,
        );
        let ended = false;
        return {
          receive: (text) => {
            recorder.text(conn, 'c2s', text, 'frame', channelOf(text, 'c2s'));
            this.#batcher.schedule();
            peer.receive(text);
          },
          end: (reason) => {
            if (ended) return;
            ended = true;
            recorder.event(conn, 'c2s', 'close', reason);
            peer.end(reason);
          },
        };
      },
    };
  }

  /** One request's answer: through the gate, then the learner's `act`. A failure closes the episode. */
  async #answer(decision: GamaDecision): Promise<string> {
    const episode = this.#episodes.get(decision.connection);
    const site: CallSite = { round: episode?.number ?? 0, turn: episode ? ++episode.requests : 0 };
    const first = this.#firstAnswer;
    this.#firstAnswer = false;
    if (!(await this.gate.pass(first)) || this.#over) throw new Error('the run was stopped');
    this.#batcher.note({ position: site });
    const outcome = await this.#supervisor.call(GAMA_ACT, [decision], {}, site);
    for (const line of outcome.logs)
      this.#recorder.annotate('policy-log', { ...line, channel: decision.id, ...site });
    if (!outcome.ok) {
      this.#recorder.annotate('error', { source: 'policy', ...outcome.fault, ...site });
      this.#end('failed', { fault: outcome.fault, faultOwner: decision.id });
      throw new Error(outcome.fault.message);
    }
    return String(outcome.value);
  }

  #note(code: string, message: string): void {
    this.#recorder.annotate('note', { code, message });
    this.#batcher.schedule();
  }

  #end(status: 'stopped' | 'failed', extra: Parameters<UpdateBatcher['note']>[0] = {}): void {
    if (this.#over) return;
    this.#over = true;
    this.gate.stop();
    this.#listener.close();
    this.#supervisor.dispose();
    this.#batcher.note({ ...extra, status });
    this.#batcher.close();
  }
}
