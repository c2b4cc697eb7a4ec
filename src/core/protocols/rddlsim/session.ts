/**
 * An emulated rddlsim session: the host and the client adapter joined by an in-memory pipe, every wire
 * message recorded with the TranscriptRecorder, plus annotations (true world state per turn, rewards, the
 * host's notes, rule violations, policy logs and faults). It advances one decision at a time, so a UI can
 * pause and step while a command line runs it flat out; whatever happens, everything recorded stays.
 */
import type { RddlModel } from '../../envs/rddl/api';
import type { CallOutcome, CallSite } from '../../policy/types';
import { TranscriptRecorder, type TranscriptSink } from '../../transcript/recorder';
import type { Transcript } from '../../transcript/model';
import type { Violation } from '../machine';
import { RddlsimClient, type ClientEvent } from './client';
import { RddlsimHost, type HostConnection, type HostEffect } from './host';
import type { Observation } from './policy-api';
import type { PolicyHook, RoundSummary, SessionPolicy } from './session-policy';

/** The connection id of an emulated session in its transcript. */
export const EMULATED_CONNECTION = 'session-1';

/**
 * The rules a connection's close breaks when it closes mid-session. When the close has a reason on record
 * (a stop, a policy failure, the server's noted answer to bad actions), reporting them would blame the
 * playground's own client for what the learner did.
 */
export const EXPLAINED_CLOSE_RULES: ReadonlySet<string> = new Set([
  'rddlsim.connection.client-closed',
  'rddlsim.connection.closed-early',
]);

/** Options of an emulated session. */
export interface EmulatedSessionOptions {
  model: RddlModel;
  /** session-init's task text (see `rddlsimTaskText`); null makes the host send `null` as the real one can. */
  task: string | null;
  policy: SessionPolicy;
  /** Rounds (default 5). */
  rounds?: number;
  /** Simulator seed (default 0); the session is the host's first, so it simulates with exactly this seed. */
  seed?: number;
  /** Session time limit in seconds (default 1080); 0 reports 1080 but never enforces it. */
  timeLimitSeconds?: number;
  /** Host in monitor mode, with `executePolicy` sent in every round-request. */
  monitorExecution?: boolean;
  executePolicy?: string;
  /** The client asks for `<no-header/>` mode. */
  noHeader?: boolean;
  clientName?: string;
  /** Reproduce rddlsim's evaluation quirks in the simulator. */
  rddlsimQuirks?: boolean;
  /** The simulator's random numbers: Protoplay's (default) or rddlsim's own, to replay real sessions. */
  generator?: 'protoplay' | 'rddlsim';
  /** Send actions with domain problems anyway (default false: drop and report them). */
  sendInvalidActions?: boolean;
  /** After a policy fault (timeout, throw): send a noop and go on (default), or stop the session. */
  onPolicyFault?: 'noop' | 'stop';
  /** Record the true world state at every turn (default true). */
  recordWorld?: boolean;
  /** Clock for message timestamps (default `Date.now`). */
  now?: () => number;
  /** Clock of the host's time-left accounting (default: `now`); fix it to make transcripts repeatable. */
  serverClock?: () => number;
  /** Extra transcript metadata. */
  meta?: Transcript['meta'];
  /**
   * Keep the transcript in memory (default true). Without it (and without a sink) nothing recorded
   * stays, so a session of any length runs in the same memory; `transcript` then holds no messages.
   */
  keepTranscript?: boolean;
  /** Receives every message and annotation as it is recorded (e.g. a file written as the session runs). */
  transcriptSink?: TranscriptSink;
}

/** Where a session stands. */
export type EmulatedSessionStatus = 'ready' | 'waiting' | 'finished' | 'stopped';

/** What one `step` did. */
export interface SessionStepReport {
  status: EmulatedSessionStatus;
  /** The turn now waiting for the policy (status `waiting`). */
  observation?: Observation;
  /** Rounds that ended during this step. */
  roundsEnded: EndedRound[];
}

/** A round that ended, and why the server ended it before its horizon (or terminal state), if it did. */
export interface EndedRound extends RoundSummary {
  /** The server's reason: an action not applicable, a broken precondition or constraint, the time limit. */
  endedBy?: string;
}

/** One emulated session. */
export class EmulatedSession {
  readonly recorder: TranscriptRecorder;
  readonly #options: EmulatedSessionOptions;
  readonly #connection: HostConnection;
  readonly #client: RddlsimClient;
  #status: EmulatedSessionStatus = 'ready';
  #pending: Observation | undefined;
  /** Round results, kept with the transcript or for a policy hook that is handed them at the end. */
  #rounds: RoundSummary[] = [];
  #roundsCounted = 0;
  #lastNote: string | undefined;
  #totalReward: number | undefined;
  /** Transcript indices of messages each side has sent and the other not yet received, in order. */
  #toHost: { index: number; bytes?: Uint8Array; close?: true }[] = [];
  #toClient: { index: number; bytes?: Uint8Array; close?: true }[] = [];
  /** Transcript index of the records the host and the client counted lately, to place their violations. */
  #hostRecords = new RecentRecords();
  #clientRecords = new RecentRecords();
  /** Hooks to call once the pipe is quiet. */
  #hookCalls: { name: PolicyHook; args: unknown[]; site: CallSite; index: number }[] = [];
  #roundsEndedThisStep: EndedRound[] = [];
  /** Why the host is ending the current round early (its 'ends-round' note), until the round-end is read. */
  #roundEndNote: string | undefined;
  #currentRound = 0;
  /** Whether the current round counts (monitor mode's practice rounds do not). */
  #roundCounts = true;
  #clientClosedRecorded = false;
  /**
   * Set once the connection closes for a reason already on record: the learner stopped, the policy failed,
   * or the host noted that the real server closes in answer to what the client sent. The close is then what
   * happened, reported as such, not a broken rule of the protocol.
   */
  #closeExplained = false;
  /** Transcript index of the server message the client is reading, and of the turn waiting for the policy. */
  #clientReading = 0;
  #pendingIndex = 0;
  #lastSentIndex = 0;

  constructor(options: EmulatedSessionOptions) {
    this.#options = options;
    const { model } = options;
    const instance = model.info.instance;
    const now = options.now ?? Date.now;
    this.recorder = new TranscriptRecorder({
      protocol: 'rddlsim',
      now,
      ...(options.transcriptSink ? { sink: options.transcriptSink } : {}),
      keep: options.keepTranscript ?? true,
      meta: {
        source: 'emulated',
        instance,
        domain: model.info.domain,
        seed: options.seed ?? 0,
        rounds: options.rounds ?? 5,
        ...options.meta,
      },
    });
    const host = new RddlsimHost({
      resolveInstance: (name) => (name === instance ? { model, task: options.task } : undefined),
      rounds: options.rounds ?? 5,
      seed: options.seed ?? 0,
      timeLimitSeconds: options.timeLimitSeconds ?? 1080,
      monitorExecution: options.monitorExecution ?? false,
      rddlsimQuirks: options.rddlsimQuirks ?? false,
      generator: options.generator ?? 'protoplay',
      now: options.serverClock ?? now,
    });
    this.#connection = host.accept();
    this.#client = new RddlsimClient({
      problemName: instance,
      clientName: options.clientName ?? 'protoplay',
      noHeader: options.noHeader ?? false,
      info: model.info,
      sendInvalidActions: options.sendInvalidActions ?? false,
      ...(options.executePolicy !== undefined ? { executePolicy: options.executePolicy } : {}),
    });
    this.recorder.addConnection(EMULATED_CONNECTION, 'session 1');
  }

  /** The transcript so far (append-only; safe to read at any time). */
  get transcript(): Transcript {
    return this.recorder.transcript;
  }

  get status(): EmulatedSessionStatus {
    return this.#status;
  }

  /** Round results so far (a session that keeps no transcript keeps them only for the policy's hooks). */
  get rounds(): readonly RoundSummary[] {
    return this.#rounds;
  }

  /** What the server (or the stop) said last about the session, e.g. why it closed early. */
  get lastNote(): string | undefined {
    return this.#lastNote;
  }

  /** session-end's total reward, once the session ended normally. */
  get totalReward(): number | undefined {
    return this.#totalReward;
  }

  /**
   * Advances to the next decision: the first call opens the session and stops at turn 1; each later call
   * lets the policy act on the waiting turn and runs until the next turn or the end.
   */
  async step(): Promise<SessionStepReport> {
    this.#roundsEndedThisStep = [];
    if (this.#status === 'ready') {
      this.#status = 'waiting';
      this.#deliverClientEvents(this.#client.start());
      await this.#settle();
    } else if (this.#status === 'waiting' && this.#pending) {
      await this.#decide(this.#pending);
      await this.#settle();
    }
    if (this.#status === 'waiting' && !this.#pending) {
      // Cannot happen with this host (it always answers or closes), but a stuck pipe must not loop forever.
      this.recorder.annotate('error', {
        source: 'session',
        message: 'the server neither answered nor closed',
      });
      this.stop('the server stopped answering');
    }
    return {
      status: this.#status,
      ...(this.#pending ? { observation: this.#pending } : {}),
      roundsEnded: this.#roundsEndedThisStep,
    };
  }

  /** Steps until the session ends (or `shouldPause` says to stop for now). */
  async run(shouldPause: () => boolean = () => false): Promise<EmulatedSessionStatus> {
    while ((this.#status === 'ready' || this.#status === 'waiting') && !shouldPause()) await this.step();
    return this.#status;
  }

  /** Ends the session from the client side: it closes the connection; the host reacts as the real server does. */
  stop(reason = 'stopped by the user'): void {
    if (this.#status === 'finished' || this.#status === 'stopped') return;
    this.#status = 'stopped';
    this.#pending = undefined;
    this.#closeExplained = true;
    this.#lastNote = reason;
    this.recorder.annotate('note', { code: 'rddlsim.session.stopped', message: reason });
    this.#clientCloses();
    this.#pump();
  }

  async #decide(observation: Observation): Promise<void> {
    this.#pending = undefined;
    const turnIndex = this.#pendingIndex;
    const site = { round: observation.round, turn: observation.turn };
    let outcome: CallOutcome;
    try {
      outcome = await this.#options.policy.act(observation, site);
    } catch (error) {
      outcome = { ok: false, fault: { kind: 'crash', message: String(error), hook: 'act' }, logs: [], ms: 0 };
    }
    if (this.#status !== 'waiting') return; // stopped while the policy was thinking
    this.#recordLogs(outcome, site, turnIndex);
    let returned: unknown = null;
    if (outcome.ok) returned = outcome.value;
    else {
      this.recorder.annotate('error', { source: 'policy', ...outcome.fault, ...site }, turnIndex);
      if (this.#options.onPolicyFault === 'stop') {
        this.stop(`the policy failed on round ${site.round}, turn ${site.turn}: ${outcome.fault.message}`);
        return;
      }
    }
    const { events, problems } = this.#client.act(returned);
    this.#deliverClientEvents(events);
    if (problems.length > 0) {
      const text = problems.map((problem) => problem.message).join('; ');
      this.recorder.annotate(
        'error',
        {
          source: 'actions',
          message: `${this.#options.sendInvalidActions ? 'sent anyway' : 'not sent'}: ${text}`,
          problems,
          ...site,
        },
        this.#lastSentIndex,
      );
    }
  }

  /** Runs the pipe until it is quiet, then calls the hooks that came due. */
  async #settle(): Promise<void> {
    this.#pump();
    const calls = this.#hookCalls;
    this.#hookCalls = [];
    const { hook } = this.#options.policy;
    if (!hook) return;
    for (const call of calls) {
      const outcome = await hook(call.name, call.args, call.site);
      this.#recordLogs(outcome, call.site, call.index);
      if (!outcome.ok)
        this.recorder.annotate('error', { source: 'policy', ...outcome.fault, ...call.site }, call.index);
    }
  }

  /** Delivers queued bytes until neither side has anything to read; the server reads first, as on a wire. */
  #pump(): void {
    while (this.#toHost.length > 0 || this.#toClient.length > 0) {
      const toHost = this.#toHost.shift();
      if (toHost) {
        if (toHost.close) this.#hostRecords.push(toHost.index);
        const effects = toHost.close
          ? this.#connection.clientClosed()
          : this.#connection.receive(toHost.bytes!);
        this.#handleHostEffects(effects, toHost.index);
        continue;
      }
      const toClient = this.#toClient.shift()!;
      this.#clientReading = toClient.index;
      const events = toClient.close ? this.#client.serverClosed() : this.#client.receive(toClient.bytes!);
      this.#clientRecords.push(toClient.index);
      this.#deliverClientEvents(events);
    }
  }

  #handleHostEffects(effects: HostEffect[], receivedIndex: number): void {
    for (const effect of effects) {
      switch (effect.kind) {
        case 'received':
          this.#hostRecords.push(receivedIndex);
          break;
        case 'send': {
          const record = this.recorder.text(
            EMULATED_CONNECTION,
            's2c',
            effect.text,
            effect.framing === 'none' ? 'none' : undefined,
          );
          this.#hostRecords.push(record.index);
          this.#toClient.push({ index: record.index, bytes: effect.bytes });
          if (effect.message.type === 'turn' && this.#options.recordWorld !== false) {
            const snapshot = this.#connection.snapshot();
            if (snapshot) {
              this.recorder.annotate(
                'world',
                {
                  round: snapshot.round,
                  turn: effect.message.turnNum,
                  state: snapshot.stateFluents,
                  observations: snapshot.observations,
                  internal: snapshot.internalFluents,
                },
                record.index,
              );
            }
          }
          break;
        }
        case 'close': {
          const record = this.recorder.event(EMULATED_CONNECTION, 's2c', 'close');
          this.#hostRecords.push(record.index);
          this.#toClient.push({ index: record.index, close: true });
          break;
        }
        case 'note':
          if (effect.note.realServer === 'closes-connection') this.#closeExplained = true;
          if (effect.note.realServer === 'ends-round') this.#roundEndNote = effect.note.message;
          this.#lastNote = effect.note.message;
          this.recorder.annotate('note', effect.note);
          break;
        case 'violation':
          this.#annotateViolation(effect.violation, this.#hostRecords, 'server');
          break;
        case 'step': {
          const { step } = effect;
          if (step.outcome.kind === 'ok')
            this.recorder.annotate(
              'reward',
              { kind: 'step', round: step.round, turn: step.step, reward: step.outcome.reward },
              receivedIndex,
            );
          break;
        }
      }
    }
  }

  #deliverClientEvents(events: ClientEvent[]): void {
    for (const event of events) {
      switch (event.kind) {
        case 'send': {
          const record = this.recorder.text(EMULATED_CONNECTION, 'c2s', event.text);
          this.#clientRecords.push(record.index);
          this.#lastSentIndex = record.index;
          this.#toHost.push({ index: record.index, bytes: event.bytes });
          break;
        }
        case 'round-init':
          this.#currentRound = event.init.roundNum;
          this.#roundCounts = event.init.roundNum === this.#roundsCounted + 1;
          this.#hookCalls.push({
            name: 'onRoundStart',
            args: [event.init.roundNum],
            site: { round: event.init.roundNum, turn: 0 },
            index: this.#clientReading,
          });
          break;
        case 'turn':
          this.#pending = event.observation;
          this.#pendingIndex = this.#clientReading;
          break;
        case 'round-end': {
          const summary: RoundSummary = {
            round: this.#currentRound,
            reward: event.end.roundReward,
            turns: event.end.turnsUsed,
            counted: this.#roundCounts,
          };
          if (summary.counted) this.#roundsCounted++;
          if (this.#options.keepTranscript !== false || this.#options.policy.hook) this.#rounds.push(summary);
          this.#roundsEndedThisStep.push(
            this.#roundEndNote === undefined ? summary : { ...summary, endedBy: this.#roundEndNote },
          );
          this.#roundEndNote = undefined;
          this.#pending = undefined;
          this.recorder.annotate(
            'reward',
            {
              kind: 'round',
              round: summary.round,
              reward: summary.reward,
              turns: summary.turns,
              counted: summary.counted,
            },
            this.#clientReading,
          );
          this.#hookCalls.push({
            name: 'onRoundEnd',
            args: [summary],
            site: { round: summary.round, turn: summary.turns },
            index: this.#clientReading,
          });
          break;
        }
        case 'session-end':
          this.#totalReward = event.end.totalReward;
          this.recorder.annotate(
            'reward',
            {
              kind: 'total',
              reward: event.end.totalReward,
              rounds: event.end.roundsUsed,
            },
            this.#clientReading,
          );
          this.#hookCalls.push({
            name: 'onSessionEnd',
            args: [{ totalReward: event.end.totalReward, rounds: this.#rounds }],
            site: { round: this.#currentRound, turn: 0 },
            index: this.#clientReading,
          });
          break;
        case 'violation':
          this.#annotateViolation(event.violation, this.#clientRecords, 'client');
          break;
        case 'closed':
          this.#pending = undefined;
          if (this.#status === 'waiting') this.#status = 'finished';
          this.#clientCloses();
          break;
        case 'received':
        case 'session-init':
          break;
      }
    }
  }

  /** The client side closes; the host hears of it unless it closed first. */
  #clientCloses(): void {
    if (this.#clientClosedRecorded) return;
    this.#clientClosedRecorded = true;
    const record = this.recorder.event(EMULATED_CONNECTION, 'c2s', 'close');
    this.#clientRecords.push(record.index);
    if (!this.#connection.closed) this.#toHost.push({ index: record.index, close: true });
  }

  #annotateViolation(violation: Violation, records: RecentRecords, role: 'server' | 'client'): void {
    if (this.#closeExplained && EXPLAINED_CLOSE_RULES.has(violation.rule)) return;
    const index = records.at(violation.index) ?? this.recorder.messageCount - 1;
    const placed = {
      ...violation,
      index,
      message: violation.message.replace(/^message \d+/, `message ${index}`),
    };
    this.recorder.annotate('violation', { role, ...placed }, index);
  }

  #recordLogs(outcome: CallOutcome, site: CallSite, index: number): void {
    for (const line of outcome.logs) this.recorder.annotate('policy-log', { ...line, ...site }, index);
  }
}

/**
 * Where a side's last records are in the transcript. A machine judges a record as it comes, so its
 * verdicts name one of the last few; keeping only those keeps a long session's memory flat.
 */
class RecentRecords {
  static readonly #kept = 64;
  readonly #indices = new Array<number>(RecentRecords.#kept);
  #count = 0;

  push(index: number): void {
    this.#indices[this.#count++ % RecentRecords.#kept] = index;
  }

  /** The transcript index of the side's record `k` (counted from 0), if it is one of the last kept. */
  at(k: number): number | undefined {
    if (k >= this.#count || k < this.#count - RecentRecords.#kept || k < 0) return undefined;
    return this.#indices[k % RecentRecords.#kept];
  }
}
