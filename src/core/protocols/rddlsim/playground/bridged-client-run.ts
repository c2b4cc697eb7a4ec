/**
 * The learner's policy playing a real rddlsim server through `protoplay bridge`: the core's sans-IO
 * `RddlsimClient` drives the bridge channel, the policy (in its policy worker, as in an emulated run)
 * decides, and everything is recorded and sent to the page like any session. The client machine judges
 * what the server sends; a broken rule is shown and the session goes on. A server that closes early or a
 * bridge that dies ends the session as failed, with the transcript up to that point.
 */
import type { WireData, WirePeer, WireSink } from '../../contract';
import { describeError } from '../../../errors';
import type { CallOutcome, CallSite } from '../../../policy/types';
import { PolicySupervisor } from '../../../policy/supervisor';
import type { TurnGate } from '../../../policy/turn-gate';
import { GatedRun, pacingGate } from '../../../session/gated-run';
import { liveUpdates } from '../../../session/live-updates';
import type { BridgeAccess } from '../../../session/bridge-route';
import type { TranscriptKeeper } from '../../../session/transcript-keeper';
import type { UpdateBatcher } from '../../../session/update-batcher';
import { serialiseTranscript } from '../../../transcript/json-format';
import { TranscriptRecorder } from '../../../transcript/recorder';
import type { PlaygroundServices, PlaygroundSession, SessionConfig } from '../../session-contract';
import { instanceSummary } from '../action-encoding';
import { RddlsimClient, type ClientEvent } from '../client';
import { EarlyRoundEnds } from '../early-round-end';
import type { Observation } from '../policy-api';
import { createRddlsimReader } from '../reader';
import { loadExampleEnvironment, loadSessionEnvironment, type RddlSessionSource } from './environments';

/** The connection id of the session in its transcript. */
export const BRIDGED_CONNECTION = 'session-1';

/** What the run waits to handle, in arrival order. */
type Step = 'start' | Uint8Array | { closed: string };

const encoder = new TextEncoder();

/** Starts a session against the bridge's target; resolves once the channel is open (or failed). */
export async function startBridgedClientRun(
  config: SessionConfig,
  target: string,
  services: PlaygroundServices,
  bridge: BridgeAccess,
  { silenceMs = bridge.silenceMs }: { silenceMs?: number } = {},
): Promise<PlaygroundSession> {
  const run = new BridgedClientRun(config, target, services, bridge, silenceMs);
  await run.start();
  return run;
}

class BridgedClientRun extends GatedRun implements PlaygroundSession {
  readonly #config: SessionConfig;
  readonly #target: string;
  readonly #bridge: BridgeAccess;
  readonly #recorder: TranscriptRecorder;
  readonly #client: RddlsimClient;
  readonly #supervisor: PolicySupervisor;
  protected readonly gate: TurnGate;
  readonly #batcher: UpdateBatcher;
  readonly #keeper: TranscriptKeeper;
  readonly #summary;
  /** Explains the rounds the server ends before their horizon (its round-end says only the turns used). */
  readonly #early: EarlyRoundEnds;
  #sink: WireSink<WireData> | undefined;
  readonly #steps: Step[] = [];
  /** True while the steps are being handled. */
  #draining = false;
  /** Transcript index of each record the client counted (its violations count its own records). */
  readonly #clientRecords: number[] = [];
  #lastReceivedIndex = 0;
  #round = 0;
  #lastTurn = 0;
  #countedRounds = 0;
  /** The rounds the server's session-init offers. */
  #roundsOffered = Infinity;
  #firstDecision = true;
  #sessionEnded = false;
  /** Set once the session is over from the page's side: nothing more is sent or decided. */
  #over = false;
  readonly #silenceMs: number;
  /** Runs out when the server owes an answer and says nothing. */
  #silence: ReturnType<typeof setTimeout> | undefined;

  constructor(
    config: SessionConfig,
    target: string,
    services: PlaygroundServices,
    bridge: BridgeAccess,
    silenceMs: number,
  ) {
    super();
    this.#config = config;
    this.#silenceMs = silenceMs;
    this.#target = target;
    this.#bridge = bridge;
    const rddl = config.options as RddlSessionSource | undefined;
    const { model } = rddl ? loadSessionEnvironment(rddl) : loadExampleEnvironment(config.environment);
    this.#summary = instanceSummary(model.info);
    this.#early = new EarlyRoundEnds(model);
    const address = bridge.describe({ mode: 'outbound', target }) ?? target;
    this.#recorder = new TranscriptRecorder({
      protocol: 'rddlsim',
      meta: {
        source: 'bridge',
        target,
        server: address,
        instance: model.info.instance,
        domain: model.info.domain,
        environment: config.environment,
        budgetMs: config.budgetMs,
      },
    });
    this.#recorder.addConnection(BRIDGED_CONNECTION, `${target} (${address})`);
    this.#client = new RddlsimClient({
      problemName: model.info.instance,
      clientName: 'protoplay',
      info: model.info,
      // The domain check's problems are recorded; the server judges what it gets, as with a real client.
      sendInvalidActions: true,
    });
    this.#supervisor = new PolicySupervisor({
      spawn: () => services.spawnPolicy(),
      budgetMs: config.budgetMs,
    });
    this.gate = pacingGate(config, (status) => {
      if (!this.#over) this.#batcher.note({ status });
    });
    const transcript = this.#recorder.transcript;
    ({ batcher: this.#batcher, keeper: this.#keeper } = liveUpdates(services, {
      content: { kind: 'transcript', transcript, reader: createRddlsimReader() },
      protocol: 'rddlsim',
    }));
  }

  /** Loads the policy, then opens the channel; the session runs in the background from there. */
  async start(): Promise<void> {
    this.#batcher.note({ status: this.#config.startPaused ? 'paused' : 'running' });
    const loaded = await this.#supervisor.load({
      ...this.#config.policy,
      context: { instance: this.#summary },
    });
    for (const line of loaded.logs) this.#recorder.annotate('policy-log', { ...line, round: 0, turn: 0 });
    if (!loaded.ok) {
      this.#recorder.annotate('error', { source: 'policy', ...loaded.fault });
      this.#end('failed', undefined, { fault: loaded.fault });
      return;
    }
    try {
      await this.#bridge.connect(this.#target, {
        connect: (sink) => this.#attach(sink),
      });
    } catch (error) {
      this.#fail(`cannot open the bridge's target '${this.#target}': ${describeError(error)}`);
    }
  }

  decide(): void {
    // Actions failing the domain check are sent and reported; nothing waits for a decision.
  }

  ask(): undefined {
    return undefined;
  }

  exportJson(): string[] {
    return [serialiseTranscript(this.#recorder.transcript)];
  }

  stop(): void {
    if (this.#over) return;
    this.#recorder.annotate('note', {
      code: 'protoplay.bridge.stopped',
      message: 'stopped by the learner; the connection to the server was closed',
    });
    this.#end('stopped', 'stopped by the learner');
  }

  abandon(): void {
    this.#end('stopped', 'a newer session replaced this one');
    this.#batcher.abandon();
    this.#keeper.dispose();
  }

  #attach(sink: WireSink<WireData>): WirePeer<WireData> {
    this.#sink = sink;
    this.#recorder.event(BRIDGED_CONNECTION, 'c2s', 'open');
    this.#enqueue('start');
    return {
      receive: (data) => {
        this.#awaitServer();
        this.#enqueue(typeof data === 'string' ? encoder.encode(data) : (data as Uint8Array));
      },
      end: (reason) => this.#enqueue({ closed: reason ?? 'the server closed the connection' }),
    };
  }

  /** Handles each step after the ones before it, so the client never sees a message out of turn. */
  #enqueue(step: Step): void {
    this.#steps.push(step);
    if (this.#draining) return;
    this.#draining = true;
    void this.#drain();
  }

  async #drain(): Promise<void> {
    for (let step = this.#steps.shift(); step; step = this.#steps.shift()) {
      try {
        if (step === 'start') await this.#handle(this.#client.start());
        else if (step instanceof Uint8Array) await this.#handle(this.#client.receive(step));
        else await this.#serverClosed(step.closed);
      } catch (error) {
        this.#fail(`internal error: ${describeError(error)}`);
      }
      this.#batcher.schedule();
    }
    this.#draining = false;
  }

  async #serverClosed(reason: string): Promise<void> {
    if (this.#sink === undefined) return;
    const events = this.#client.serverClosed();
    const split = events.findLastIndex((event) => event.kind === 'received') + 1;
    await this.#handle(events.slice(0, split));
    this.#clientRecords.push(this.#recorder.event(BRIDGED_CONNECTION, 's2c', 'close', reason).index);
    await this.#handle(events.slice(split));
    if (this.#over) return;
    if (this.#sessionEnded) this.#end('finished');
    else this.#fail(this.#closedEarly(reason));
  }

  async #handle(events: ClientEvent[]): Promise<void> {
    for (const event of events) {
      if (this.#over && event.kind !== 'received' && event.kind !== 'violation') continue;
      switch (event.kind) {
        case 'send':
          this.#clientRecords.push(this.#recorder.text(BRIDGED_CONNECTION, 'c2s', event.text).index);
          if (event.message.type === 'actions') this.#early.sent(event.message.actions);
          this.#send(event.bytes);
          break;
        case 'received': {
          const framing = event.framing === 'none' ? 'none' : undefined;
          const record =
            event.text !== undefined
              ? this.#recorder.text(BRIDGED_CONNECTION, 's2c', event.text, framing)
              : this.#recorder.bytes(BRIDGED_CONNECTION, 's2c', event.bytes, framing);
          this.#clientRecords.push(record.index);
          this.#lastReceivedIndex = record.index;
          break;
        }
        case 'session-init':
          if (event.init.type === 'session-init') this.#roundsOffered = event.init.numRounds;
          break;
        case 'round-init':
          this.#round = event.init.roundNum;
          await this.#hook('onRoundStart', [event.init.roundNum], { round: this.#round, turn: 0 });
          break;
        case 'turn':
          this.#early.observed(event.observation);
          await this.#decide(event.observation);
          break;
        case 'round-end':
          await this.#roundEnded(event.end);
          break;
        case 'session-end':
          this.#sessionEnded = true;
          await this.#hook('onSessionEnd', [{ totalReward: event.end.totalReward }], {
            round: this.#round,
            turn: 0,
          });
          // Nothing more is expected: leave, as rddlsim's own client does.
          this.#end('finished', 'the session ended');
          break;
        case 'violation': {
          const { violation } = event;
          if (this.#over || violation.got === 'the connection closed') break;
          const index = this.#clientRecords[violation.index] ?? this.#recorder.transcript.messages.length - 1;
          const message = violation.message.replace(/^message \d+/, `message ${index}`);
          this.#recorder.annotate('violation', { role: 'client', ...violation, index, message }, index);
          break;
        }
        case 'closed':
          break;
      }
    }
  }

  async #decide(observation: Observation): Promise<void> {
    // The server waits for the action now: its silence is not a fault.
    clearTimeout(this.#silence);
    this.#lastTurn = observation.turn;
    this.#batcher.note({ position: { round: observation.round, turn: observation.turn } });
    this.#batcher.schedule();
    const first = this.#firstDecision;
    this.#firstDecision = false;
    if (!(await this.gate.pass(first)) || this.#over) return;
    const site: CallSite = { round: observation.round, turn: observation.turn };
    const index = this.#lastReceivedIndex;
    const outcome = await this.#supervisor.call('act', [observation], {}, site);
    if (this.#over) return;
    for (const line of outcome.logs) this.#recorder.annotate('policy-log', { ...line, ...site }, index);
    if (!outcome.ok) {
      this.#recorder.annotate('error', { source: 'policy', ...outcome.fault, ...site }, index);
      this.#end('failed', 'the policy failed', { fault: outcome.fault });
      return;
    }
    const { events, problems } = this.#client.act(outcome.value);
    await this.#handle(events);
    if (problems.length > 0)
      this.#recorder.annotate('error', {
        source: 'actions',
        message: `sent anyway: ${problems.map((problem) => problem.message).join('; ')}`,
        problems,
        ...site,
      });
  }

  async #roundEnded(end: { roundReward: number; turnsUsed: number; timeLeft: number }): Promise<void> {
    this.#countedRounds++;
    const endedBy = this.#early.explain(end);
    if (endedBy !== undefined)
      this.#recorder.annotate(
        'note',
        { code: 'rddlsim.client.round-ended-early', message: endedBy },
        this.#lastReceivedIndex,
      );
    const summary = { round: this.#round, reward: end.roundReward, turns: end.turnsUsed };
    await this.#hook('onRoundEnd', [summary], { round: this.#round, turn: end.turnsUsed });
    const asked = this.#config.rounds;
    // Leave early only when the server offers more rounds than the settings ask for.
    if (this.#countedRounds >= asked && this.#roundsOffered > asked && !this.#over) {
      this.#recorder.annotate('note', {
        code: 'protoplay.bridge.rounds',
        message: `stopped after ${asked} rounds as the session settings ask; the server offers ${this.#roundsOffered}`,
      });
      this.#end('finished', `played the ${asked} rounds asked`);
    }
  }

  async #hook(name: string, args: unknown[], site: CallSite): Promise<void> {
    if (this.#over) return;
    const index = this.#lastReceivedIndex;
    const outcome: CallOutcome = await this.#supervisor.call(name, args, {}, site);
    for (const line of outcome.logs) this.#recorder.annotate('policy-log', { ...line, ...site }, index);
    if (!outcome.ok) this.#recorder.annotate('error', { source: 'policy', ...outcome.fault, ...site }, index);
  }

  /** (Re)starts the wait for the server, which owes an answer (to what was sent, or the rest of a message). */
  #awaitServer(): void {
    clearTimeout(this.#silence);
    if (this.#over || this.#silenceMs <= 0) return;
    this.#silence = setTimeout(() => {
      if (this.gate.state === 'paused') return this.#awaitServer();
      const where = this.#round
        ? ` in round ${this.#round}${this.#lastTurn ? `, after turn ${this.#lastTurn}` : ''}`
        : '';
      this.#fail(`the server sent nothing for ${this.#silenceMs / 1000} s${where}: it does not answer`);
    }, this.#silenceMs);
  }

  #send(bytes: Uint8Array): void {
    this.#awaitServer();
    try {
      this.#sink?.send(bytes);
    } catch (error) {
      // A channel that refuses to send is one the server (or the bridge) closed: say where, as for a close.
      this.#fail(this.#closedEarly(`could not send: ${describeError(error)}`));
    }
  }

  #closedEarly(reason: string): string {
    const where = this.#round
      ? ` in round ${this.#round}${this.#lastTurn ? `, after turn ${this.#lastTurn}` : ''}`
      : '';
    return `the connection to the server ended before the session did${where}: ${reason}`;
  }

  #fail(message: string): void {
    if (this.#over) return;
    this.#recorder.annotate('error', { source: 'session', message });
    this.#end('failed', message, { error: message });
  }

  /** Ends the session once: closes the channel (saying why), stops the policy, reports the status. */
  #end(
    status: 'finished' | 'stopped' | 'failed',
    reason?: string,
    extra: Parameters<UpdateBatcher['note']>[0] = {},
  ): void {
    if (this.#over) return;
    this.#over = true;
    clearTimeout(this.#silence);
    this.gate.stop();
    if (this.#sink) {
      this.#recorder.event(BRIDGED_CONNECTION, 'c2s', 'close');
      this.#sink.close(reason);
    }
    this.#supervisor.dispose();
    this.#batcher.note({ ...extra, status });
    this.#batcher.close();
  }
}
