/**
 * An emulated rddlsim session as the playground's session worker runs it: the core's EmulatedSession (host
 * and client adapter over an in-memory pipe) asking a supervised policy runtime for decisions, paced by a
 * TurnGate, with actions checked against the domain before they are sent (and held for the learner's
 * decision when they are wrong), and everything recorded sent to the page in per-frame batches.
 */
import type { RddlModel } from '../../../envs/rddl/api';
import { encodeActions, instanceSummary } from '../action-encoding';
import type { InstanceSummary } from '../policy-api';
import { serialiseClientMessage } from '../codec';
import { EmulatedSession } from '../session';
import type { CallOutcome, CallSite } from '../../../policy/types';
import type { Transcript } from '../../../transcript/model';
import type { TranscriptRecorder } from '../../../transcript/recorder';
import { serialiseTranscript } from '../../../transcript/json-format';
import { PolicySupervisor } from '../../../policy/supervisor';
import type { TurnGate } from '../../../policy/turn-gate';
import { GatedRun, pacingGate } from '../../../session/gated-run';
import { liveUpdates } from '../../../session/live-updates';
import type {
  PendingDecision,
  PlaygroundServices,
  PlaygroundSession,
  SessionConfig,
} from '../../session-contract';
import type { UpdateBatcher } from '../../../session/update-batcher';
import type { TranscriptKeeper } from '../../../session/transcript-keeper';
import { createRddlsimReader } from '../reader';
import { loadExampleEnvironment, loadSessionEnvironment, type RddlSessionSource } from './environments';
import { RddlsimWireSession } from './wire-session';

/** What the driver needs of a session: the policy-level EmulatedSession and the wire-level one alike. */
interface SteppableSession {
  readonly status: 'ready' | 'waiting' | 'finished' | 'stopped';
  readonly transcript: Transcript;
  readonly recorder: TranscriptRecorder;
  /** Advances to the next decision; reports where the session now stands. */
  step(): Promise<{ observation?: { round: number; turn: number } }>;
  stop(reason?: string): void;
}

/** The learner's answer to actions that failed the domain check. */
type Choice = 'send' | 'stop';

/** Starts an emulated rddlsim session; resolves once it is under way (or has failed to load the policy). */
export async function startRddlsimSession(
  config: SessionConfig,
  services: PlaygroundServices,
): Promise<PlaygroundSession> {
  const run = new RddlsimSessionRun(config, services);
  await run.start();
  return run;
}

/** One session from start to end: the session, its policy supervisor, its gate and its batcher. */
class RddlsimSessionRun extends GatedRun implements PlaygroundSession {
  protected readonly gate: TurnGate;
  readonly #config: SessionConfig;
  readonly #model: RddlModel;
  readonly #summary: InstanceSummary;
  readonly #supervisor: PolicySupervisor;
  readonly #session: SteppableSession;
  readonly #batcher: UpdateBatcher;
  readonly #keeper: TranscriptKeeper;
  #pendingChoice: ((choice: Choice) => void) | undefined;
  /** Set when the policy failed (syntax error, throw, budget): the session then ends as failed. */
  #faulted = false;
  /**
   * Set when the learner stopped the session. The policy's worker is terminated then, so a call under way
   * never answers and ends as an overrun: that is the stop, not a failure of the policy.
   */
  #stopped = false;

  constructor(config: SessionConfig, services: PlaygroundServices) {
    super();
    this.#config = config;
    const rddl = config.options as RddlSessionSource | undefined;
    const { model, task } = rddl ? loadSessionEnvironment(rddl) : loadExampleEnvironment(config.environment);
    this.#model = model;
    this.#summary = instanceSummary(model.info);
    this.#supervisor = new PolicySupervisor({
      spawn: () => services.spawnPolicy(),
      budgetMs: config.budgetMs,
    });
    this.gate = pacingGate(config, (status) => this.#batcher.note({ status }));
    const rddlsimQuirks = rddl?.rddlsimQuirks ?? false;
    const common = { model, task, rounds: config.rounds, seed: config.seed, rddlsimQuirks };
    const meta = { environment: config.environment, budgetMs: config.budgetMs, rddlsimQuirks };
    this.#session =
      config.policy.level === 'wire'
        ? new RddlsimWireSession({
            ...common,
            meta,
            call: (hook, args, site) => this.#call(hook, args, site),
          })
        : new EmulatedSession({
            ...common,
            meta,
            policy: {
              act: async (observation, site) =>
                this.#review(await this.#call('act', [observation], site), site),
              hook: (name, args, site) => this.#call(name, args, site),
            },
            // Invalid actions are held for the learner's decision in `#review`; what reaches the client
            // is sent as it is.
            sendInvalidActions: true,
            onPolicyFault: 'stop',
          });
    // The worker reads what it records, so the page parses no message of a live session, and stores it.
    const transcript = this.#session.transcript;
    ({ batcher: this.#batcher, keeper: this.#keeper } = liveUpdates(services, {
      content: { kind: 'transcript', transcript, reader: createRddlsimReader() },
      protocol: transcript.protocol,
    }));
  }

  /** Loads the policy, then lets the session run in the background. */
  async start(): Promise<void> {
    this.#batcher.note({ status: this.#config.startPaused ? 'paused' : 'running' });
    const loaded = await this.#supervisor.load({
      ...this.#config.policy,
      context: { instance: this.#summary },
    });
    const { recorder } = this.#session;
    for (const line of loaded.logs) recorder.annotate('policy-log', { ...line, round: 0, turn: 0 });
    if (!loaded.ok) {
      recorder.annotate('error', { source: 'policy', ...loaded.fault });
      this.#supervisor.dispose();
      this.gate.stop();
      this.#batcher.note({ fault: loaded.fault, status: 'failed' });
      this.#batcher.close();
      return;
    }
    void drive(this.#session, this.gate, this.#batcher, () => this.#faulted).finally(() =>
      this.#supervisor.dispose(),
    );
  }

  decide(choice: Choice): void {
    this.#pendingChoice?.(choice);
  }

  ask(): undefined {
    return undefined;
  }

  exportJson(): string[] {
    return [serialiseTranscript(this.#session.transcript)];
  }

  stop(): void {
    this.#end();
    this.#batcher.note({ status: 'stopped' });
  }

  abandon(): void {
    this.#end();
    this.#batcher.abandon();
    this.#keeper.dispose();
  }

  #end(): void {
    this.#stopped = true;
    this.gate.stop();
    this.#pendingChoice?.('stop');
    this.#session.stop();
    this.#supervisor.dispose();
  }

  /** Calls the policy within its budget; a fault is reported to the page at once. */
  async #call(hook: string, args: readonly unknown[], site: CallSite): Promise<CallOutcome> {
    const outcome = await this.#supervisor.call(hook, args, {}, site);
    if (!outcome.ok && !this.#stopped) {
      this.#faulted = true;
      this.#batcher.note({ fault: outcome.fault });
    }
    return outcome;
  }

  /** Holds a decision whose actions fail the domain check until the learner says what to do. */
  async #review(outcome: CallOutcome, site: CallSite): Promise<CallOutcome> {
    if (!outcome.ok) return outcome;
    const info = this.#model.info;
    const { problems } = encodeActions(outcome.value, { info });
    if (problems.length === 0) return outcome;
    const preview = encodeActions(outcome.value, { info, sendInvalid: true });
    const decision: PendingDecision = {
      ...site,
      problems: problems.map((problem) => problem.message),
      message: serialiseClientMessage({ type: 'actions', actions: preview.actions }),
    };
    this.#batcher.note({ decision, status: 'awaiting-decision' });
    const choice = await new Promise<Choice>((resolve) => (this.#pendingChoice = resolve));
    this.#pendingChoice = undefined;
    this.#batcher.note({ decision: null, status: this.gate.state === 'open' ? 'running' : 'paused' });
    if (choice === 'stop') this.#session.stop('stopped by the learner instead of sending invalid actions');
    return outcome;
  }
}

/** Steps the session through the gate until it ends, reporting after every step. */
async function drive(
  session: SteppableSession,
  gate: TurnGate,
  batcher: UpdateBatcher,
  policyFailed: () => boolean,
): Promise<void> {
  let first = true;
  while (session.status === 'ready' || session.status === 'waiting') {
    if (!(await gate.pass(first))) break;
    first = false;
    const report = await session.step();
    if (report.observation)
      batcher.note({ position: { round: report.observation.round, turn: report.observation.turn } });
    batcher.schedule();
  }
  const status = session.status === 'finished' ? 'finished' : policyFailed() ? 'failed' : 'stopped';
  batcher.note({ status });
  batcher.close();
}
