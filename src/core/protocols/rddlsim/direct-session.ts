/**
 * The session `EmulatedSession` plays, played without its messages: the simulator is driven directly with
 * the policy's actions, as the emulated server would drive it after reading them, and the policy gets the
 * observation the client adapter would make of the server's `<turn>`. Nothing is written, parsed or
 * recorded, so a session costs little more than its simulation and its memory does not grow with its
 * length. Rounds, rewards, observations, the simulator's random numbers, time left and hook calls are
 * those of the message path (the tests play every IPPC instance both ways and compare).
 *
 * Only for sessions nobody reads the wire of; `directSessionFallback` says which ones need the messages.
 */
import type {
  FluentCapture,
  GroundFluent,
  RddlModel,
  RddlSimulator,
  SimulationNotice,
  StepOutcome,
} from '../../envs/rddl/api';
import { formatLocated } from '../../errors';
import type { CallOutcome, CallSite } from '../../policy/types';
import { encodeActions } from './action-encoding';
import { directObservation } from './observation';
import type { Observation } from './policy-api';
import { readWireActions, type ActionsReading } from './server-reading';
import {
  EmulatedSession,
  type EmulatedSessionOptions,
  type EmulatedSessionStatus,
  type EndedRound,
  type SessionStepReport,
} from './session';
import type { PolicyHook, RoundSummary } from './session-policy';

/** The real server's session time limit when none is enforced (and its default). */
const DEFAULT_TIME_LIMIT_SECONDS = 1080;

/**
 * Why a session must go through its messages, or undefined when it can be played directly: something
 * reads the wire (a transcript, world snapshots), or the session asks for what only the message path
 * does (monitor mode and its execute-policy, no-header framing, actions sent although the domain check
 * refused them, which the server may read in its own odd ways).
 */
export function directSessionFallback(options: EmulatedSessionOptions): string | undefined {
  if (options.keepTranscript !== false || options.transcriptSink) return 'the transcript is kept';
  if (options.recordWorld !== false) return 'world snapshots are recorded';
  if (options.monitorExecution) return 'the server is in monitor mode';
  if (options.executePolicy !== undefined) return 'round-requests carry execute-policy';
  if (options.noHeader) return 'the client asks for no-header mode';
  if (options.sendInvalidActions) return 'invalid actions are sent to the server';
  return undefined;
}

/** One session played directly on the simulator. Same interface as `EmulatedSession`, no transcript. */
export class DirectSession {
  readonly #options: EmulatedSessionOptions;
  readonly #model: RddlModel;
  readonly #rounds: number;
  readonly #clock: () => number;
  readonly #startTime: number;
  readonly #timeAllowedMs: number;
  readonly #enforceTime: boolean;
  #simulator: RddlSimulator | undefined;
  #status: EmulatedSessionStatus = 'ready';
  #pending: Observation | undefined;
  #hookCalls: { name: PolicyHook; args: unknown[]; site: CallSite }[] = [];
  #roundsEndedThisStep: EndedRound[] = [];
  /** Round results, kept only while a policy hook may be handed them at the end of the session. */
  #roundList: RoundSummary[] = [];
  #roundsCounted = 0;
  #totalReward: number | undefined;
  #lastNote: string | undefined;
  /** The server's `run()` variables: round counter, steps in the round, rewards, discount. */
  #round = 0;
  #step = 0;
  #immediateReward = 0;
  #roundReward = 0;
  #discountFactor = 1;
  #sessionReward = 0;
  #outOfTime = false;
  /** The round-num the client last read in a round-init. */
  #currentRound = 0;
  readonly #noticed = new Set<string>();

  constructor(options: EmulatedSessionOptions) {
    const reason = directSessionFallback(options);
    if (reason) throw new Error(`this session needs its messages: ${reason}`);
    this.#options = options;
    this.#model = options.model;
    this.#rounds = options.rounds ?? 5;
    const now = options.serverClock ?? options.now ?? Date.now;
    this.#clock = () => Math.floor(now());
    this.#startTime = this.#clock();
    const limit = options.timeLimitSeconds ?? DEFAULT_TIME_LIMIT_SECONDS;
    this.#enforceTime = limit > 0;
    this.#timeAllowedMs = (limit > 0 ? limit : DEFAULT_TIME_LIMIT_SECONDS) * 1000;
  }

  get status(): EmulatedSessionStatus {
    return this.#status;
  }

  /** Round results so far (empty unless the policy has hooks: a long session keeps none). */
  get rounds(): readonly RoundSummary[] {
    return this.#roundList;
  }

  /** session-end's total reward, once the session ended normally. */
  get totalReward(): number | undefined {
    return this.#totalReward;
  }

  /** What the server (or the stop) said last about the session, e.g. why it closed early. */
  get lastNote(): string | undefined {
    return this.#lastNote;
  }

  /** As `EmulatedSession.step`: opens the session, or lets the policy act and plays to the next turn. */
  async step(): Promise<SessionStepReport> {
    this.#roundsEndedThisStep = [];
    if (this.#status === 'ready') {
      this.#status = 'waiting';
      this.#open();
    } else if (this.#status === 'waiting' && this.#pending) {
      await this.#decide(this.#pending);
    }
    if (this.#hookCalls.length > 0) await this.#callHooks();
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

  /** Ends the session from the client side, as `EmulatedSession.stop` does. */
  stop(): void {
    if (this.#status === 'finished' || this.#status === 'stopped') return;
    this.#status = 'stopped';
    this.#pending = undefined;
    // The server, still listening, fails on its next read: it terminates the trial and says so last (the
    // reason of the stop goes into a transcript's note, and a direct session has none).
    this.#lastNote =
      'the client closed the connection; the real server fails on its next read, terminates the trial and closes';
  }

  /** session-request, session-init (the task needs no reading here), the first round-request. */
  #open(): void {
    const options = this.#options;
    if (options.task === null)
      this.#lastNote =
        'the task files cannot be read (unreadable domain file): the real server sends the text null and goes on';
    this.#simulator = this.#model.createSimulator({
      seed: options.seed ?? 0,
      rddlsimQuirks: options.rddlsimQuirks ?? false,
      generator: options.generator ?? 'protoplay',
    });
    this.#startRound();
  }

  /** The server's answer to a round-request: round-init and the first turn. */
  #startRound(): void {
    this.#simulator!.reset();
    this.#step = 0;
    this.#immediateReward = 0;
    this.#roundReward = 0;
    this.#discountFactor = 1;
    const roundNum = this.#round + 1;
    this.#timeLeft(); // round-init's time-left: the server reads its clock here
    this.#currentRound = roundNum;
    if (this.#options.policy.hook)
      this.#hookCalls.push({ name: 'onRoundStart', args: [roundNum], site: { round: roundNum, turn: 0 } });
    this.#sendTurn();
  }

  #sendTurn(): void {
    const simulator = this.#simulator!;
    const partial = simulator.info.partiallyObserved;
    const observed = !partial || this.#step > 0;
    const header = {
      round: this.#currentRound,
      turn: this.#step + 1,
      reward: this.#immediateReward,
      timeLeft: this.#timeLeft(),
      observed,
    };
    const captured = !observed
      ? NO_FLUENTS
      : partial
        ? (simulator.captureObservations?.() ?? fixed(simulator.observations()))
        : (simulator.captureStateFluents?.() ?? fixed(simulator.stateFluents()));
    this.#pending = directObservation(header, captured, this.#options.policy.inProcess === true);
  }

  async #decide(observation: Observation): Promise<void> {
    this.#pending = undefined;
    const site = { round: observation.round, turn: observation.turn };
    let outcome: CallOutcome;
    try {
      outcome = await this.#options.policy.act(observation, site);
    } catch (error) {
      outcome = { ok: false, fault: { kind: 'crash', message: String(error), hook: 'act' }, logs: [], ms: 0 };
    }
    if (this.#status !== 'waiting') return; // stopped while the policy was thinking
    let returned: unknown = null;
    if (outcome.ok) returned = outcome.value;
    else if (this.#options.onPolicyFault === 'stop') {
      this.stop();
      return;
    }
    this.#onActions(returned);
  }

  /** What the client sends for the policy's answer, and what the server does with it. */
  #onActions(returned: unknown): void {
    const model = this.#model;
    // The client drops what fails the domain check; the rest reads on the server as sent.
    const reading = isNoop(returned)
      ? NOOP_READING
      : readWireActions(encodeActions(returned, { info: model.info }).actions, model);
    switch (reading.kind) {
      case 'terminate':
        return this.#terminate(reading.reason);
      case 'exit':
        this.#lastNote = `${reading.reason}: the real server process exits here (System.exit(1)), ending every session it serves`;
        return this.#closed();
      case 'not-applicable':
        this.#lastNote = `${reading.reason}: the real server treats the action as not applicable and ends the round`;
        return this.#endRound(this.#lastNote);
    }
    if (reading.ignored.length > 0) {
      const list = reading.ignored
        .map((entry) => `${entry.name}(${entry.args.join(', ')}): ${entry.reason}`)
        .join('; ');
      this.#lastNote = `ignored but counted against max-nondef-actions, as the real server does: ${list}`;
    }
    let outcome: StepOutcome;
    try {
      outcome = this.#simulator!.step(reading.actions, { nondefaultCount: reading.nondefaultCount });
    } catch (error) {
      outcome = { kind: 'error', message: error instanceof Error ? error.message : String(error) };
    }
    if (outcome.kind === 'illegal') {
      this.#lastNote = `${outcome.illegal.detail}: the real server ends the round at once (this step is not simulated)`;
      return this.#endRound(this.#lastNote);
    }
    if (outcome.kind === 'ok' && outcome.notices) this.#noteSimulation(outcome.notices);
    if (outcome.kind === 'error')
      return this.#terminate(`simulation failed: ${outcome.message} ("FATAL SERVER EXCEPTION")`);
    const { info } = model;
    this.#immediateReward = outcome.reward;
    this.#roundReward += this.#discountFactor * outcome.reward;
    this.#discountFactor *= info.discount;
    this.#step++;
    this.#outOfTime = this.#enforceTime && this.#clock() - this.#startTime > this.#timeAllowedMs;
    const done = this.#outOfTime || outcome.terminated || (!info.terminateWhen && this.#step >= info.horizon);
    if (!done) return this.#sendTurn();
    if (this.#outOfTime) {
      this.#lastNote = 'the session time limit has passed: the real server ends the round and the session';
      return this.#endRound(this.#lastNote);
    }
    this.#endRound();
  }

  /** As the server notes what the simulator let pass: once per expression. */
  #noteSimulation(notices: readonly SimulationNotice[]): void {
    for (const notice of notices) {
      const where = `${notice.kind} ${formatLocated('', notice.location)}`;
      if (this.#noticed.has(where)) continue;
      this.#noticed.add(where);
      this.#lastNote = `the domain produced a negative probability: ${formatLocated(notice.message, notice.location)} (noted once per expression)`;
    }
  }

  /** round-end, then the next round or session-end; `endedBy` when the server ends the round early. */
  #endRound(endedBy?: string): void {
    this.#sessionReward += this.#roundReward;
    this.#timeLeft(); // round-end's time-left
    const summary: RoundSummary = {
      round: this.#currentRound,
      reward: this.#roundReward,
      turns: this.#step,
      counted: this.#currentRound === this.#roundsCounted + 1,
    };
    if (summary.counted) this.#roundsCounted++;
    if (this.#options.policy.hook) this.#roundList.push(summary);
    this.#roundsEndedThisStep.push(endedBy === undefined ? summary : { ...summary, endedBy });
    if (this.#options.policy.hook)
      this.#hookCalls.push({
        name: 'onRoundEnd',
        args: [summary],
        site: { round: summary.round, turn: summary.turns },
      });
    this.#round++;
    if (this.#round < this.#rounds && !this.#outOfTime) return this.#startRound();
    this.#timeLeft(); // session-end's time-left
    this.#totalReward = this.#sessionReward;
    if (this.#options.policy.hook)
      this.#hookCalls.push({
        name: 'onSessionEnd',
        args: [{ totalReward: this.#sessionReward, rounds: this.#roundList }],
        site: { round: this.#currentRound, turn: 0 },
      });
    this.#closed();
  }

  /** The real server's "TERMINATING TRIAL": the connection closes without a message. */
  #terminate(reason: string): void {
    this.#lastNote = `${reason}: the real server terminates the trial and closes the connection`;
    this.#closed();
  }

  #closed(): void {
    this.#pending = undefined;
    if (this.#status === 'waiting') this.#status = 'finished';
  }

  #timeLeft(): number {
    return this.#timeAllowedMs - (this.#clock() - this.#startTime);
  }

  async #callHooks(): Promise<void> {
    const calls = this.#hookCalls;
    this.#hookCalls = [];
    const { hook } = this.#options.policy;
    for (const call of calls) await hook!(call.name, call.args, call.site);
  }
}

/** What the server reads in an empty `<actions>` message. */
const NOOP_READING: ActionsReading = { kind: 'actions', actions: [], nondefaultCount: 0, ignored: [] };

function isNoop(returned: unknown): boolean {
  return returned === null || returned === undefined || (Array.isArray(returned) && returned.length === 0);
}

const NO_FLUENTS: FluentCapture = { list: () => [] };

/** A capture of fluents listed already (a simulator that cannot capture them). */
function fixed(fluents: GroundFluent[]): FluentCapture {
  return { list: () => fluents };
}

/** A session being played, with its messages or without. */
export type PlayedSession = EmulatedSession | DirectSession;

/**
 * The session for these options: played directly when nobody reads its messages (see
 * `directSessionFallback`) unless `wire` asks for the messages anyway; through them otherwise.
 */
export function openSession(options: EmulatedSessionOptions, { wire = false } = {}): PlayedSession {
  return wire || directSessionFallback(options) ? new EmulatedSession(options) : new DirectSession(options);
}
