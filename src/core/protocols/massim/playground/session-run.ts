/**
 * A MASSim match as the playground's session worker runs it: the whole match in memory (the core's match
 * runner: the emulated host and one connection per agent), each team's policy in a supervised policy
 * runtime of its own answering one batch per step, paced by a TurnGate. The transcript stays in the
 * worker, in the host's store; a reader turns it into news for the page, once per animation frame.
 */
import { PolicySupervisor } from '../../../policy/supervisor';
import type { TurnGate } from '../../../policy/turn-gate';
import { GatedRun, pacingGate } from '../../../session/gated-run';
import { liveUpdates } from '../../../session/live-updates';
import type { CallOutcome, PolicyFault, PolicySource } from '../../../policy/types';
import type { TranscriptKeeper } from '../../../session/transcript-keeper';
import { storeSource } from '../../../session/transcript-journal';
import type { UpdateBatcher } from '../../../session/update-batcher';
import type {
  PlaygroundServices,
  PlaygroundSession,
  SessionConfig,
  SessionStatus,
} from '../../session-contract';
import { MassimTranscriptReader } from '../reader';
import type { MassimDecide } from '../client';
import { MassimMatchRunner, type MassimWireReply, type MassimWireTeam } from '../runner';
import { batchedTeamDecide, type MassimTeamBatchReply } from '../team-batch';
import { MASSIM_TEAM_STEP, MASSIM_WIRE_EVENT } from '../team-calls';
import type { MassimSessionOptions } from './options';
import { serverConfig } from './server-config';
import { answerMassimQuestion, massimTranscriptJson, type MassimShown } from './shown-store';

/**
 * Matches with more messages than this are not written out for keeping across reloads: the JSON of a
 * contest match takes the worker seconds to write, during which the views would wait for their answers.
 * The default match has about 4,300 messages.
 */
export const MAX_KEPT_MASSIM_MESSAGES = 40_000;

/** Starts a MASSim match; resolves once it is under way (or has failed to load a policy). */
export async function startMassimSession(
  config: SessionConfig,
  services: PlaygroundServices,
): Promise<PlaygroundSession> {
  const run = new MassimSessionRun(config, services);
  await run.start();
  return run;
}

/** One team's policy: its supervisor and how it is asked. */
interface TeamPolicy {
  team: string;
  source: PolicySource;
  supervisor: PolicySupervisor;
}

/** One MASSim session from start to end. */
class MassimSessionRun extends GatedRun implements PlaygroundSession {
  protected readonly gate: TurnGate;
  readonly #shown: MassimShown;
  readonly #config: SessionConfig;
  readonly #runner: MassimMatchRunner;
  readonly #teams: TeamPolicy[];
  readonly #batcher: UpdateBatcher;
  readonly #keeper: TranscriptKeeper;
  #failed = false;
  /**
   * Set when the learner stopped the match. The policies' workers are terminated then, so a call under way
   * never answers and ends as an overrun: that is the stop, not a failure of a team's policy.
   */
  #stopped = false;

  constructor(config: SessionConfig, services: PlaygroundServices) {
    super();
    this.#config = config;
    const options = config.options as MassimSessionOptions | undefined;
    if (!options?.match) throw new Error('a MASSim session needs its match settings');
    const server = serverConfig(options.match);
    this.#teams = server.teams.map((team, i) => ({
      team: team.name,
      source: i === 0 ? config.policy : options.otherTeams,
      supervisor: new PolicySupervisor({ spawn: () => services.spawnPolicy(), budgetMs: config.budgetMs }),
    }));
    const teams: Record<string, MassimDecide> = {};
    const wireTeams: Record<string, MassimWireTeam> = {};
    for (const policy of this.#teams) {
      if (policy.source.level === 'wire') wireTeams[policy.team] = this.#wireTeam(policy);
      else teams[policy.team] = this.#teamDecide(policy);
    }
    this.#runner = new MassimMatchRunner({
      config: server,
      teams,
      wireTeams,
      seed: config.seed,
      ...(options.semantics === 'massim' ? { semantics: options.semantics } : {}),
      faithfulRaces: options.faithfulRaces,
      // Message times say when a message was sent, not the virtual clock that stands still between deadlines.
      recordWallTime: true,
    });
    const store = this.#runner.host.store;
    this.#shown = { store, reader: new MassimTranscriptReader(store, { judgeAgents: false }) };
    const reader = this.#shown.reader;
    ({ batcher: this.#batcher, keeper: this.#keeper } = liveUpdates(services, {
      content: { kind: 'views', news: () => reader.read() },
      protocol: config.protocol,
      write: () => (store.length > MAX_KEPT_MASSIM_MESSAGES ? undefined : massimTranscriptJson(this.#shown)),
      source: storeSource(store, MAX_KEPT_MASSIM_MESSAGES),
    }));
    this.gate = pacingGate(config, (status) => this.#batcher.note({ status }));
  }

  /** Loads every team's policy, then lets the match run in the background. */
  async start(): Promise<void> {
    this.#batcher.note({ status: this.#config.startPaused ? 'paused' : 'running' });
    const loads = await Promise.all(this.#teams.map((policy) => policy.supervisor.load(policy.source)));
    const store = this.#runner.host.store;
    loads.forEach((loaded, i) => {
      const team = this.#teams[i]!.team;
      for (const line of loaded.logs)
        store.annotate('policy-log', { ...line, text: `team ${team}: ${line.text}` });
    });
    const failed = loads.findIndex((loaded) => !loaded.ok);
    if (failed >= 0) {
      const loaded = loads[failed]!;
      if (!loaded.ok) this.#fail(this.#teams[failed]!.team, loaded.fault);
      this.#end();
      this.#batcher.note({ status: 'failed' });
      this.#batcher.close();
      return;
    }
    void this.#drive();
  }

  decide(): void {
    // MASSim actions are never held for the learner: the real server's reading of them is the lesson.
  }

  stop(): void {
    this.#stopped = true;
    this.#end();
    this.#batcher.note({ status: 'stopped' });
  }

  abandon(): void {
    this.#stopped = true;
    this.#end();
    this.#batcher.abandon();
    this.#keeper.dispose();
  }

  ask(question: string, args: readonly unknown[]): unknown {
    return answerMassimQuestion(this.#shown, question, args);
  }

  exportJson(): string[] {
    return massimTranscriptJson(this.#shown);
  }

  #end(): void {
    this.gate.stop();
    if (!this.#runner.finished) this.#runner.stop();
    for (const policy of this.#teams) policy.supervisor.dispose();
  }

  async #drive(): Promise<void> {
    let first = true;
    while (!this.#runner.finished && !this.#failed) {
      if (!(await this.gate.pass(first))) break;
      first = false;
      await this.#runner.step();
      this.#batcher.schedule();
    }
    const status: SessionStatus = this.#failed ? 'failed' : this.#runner.finished ? 'finished' : 'stopped';
    this.#end();
    this.#batcher.note({ status });
    this.#batcher.close();
  }

  /** Where the match is, for budget messages. */
  #site(): { round: number; turn: number } {
    const status = this.#runner.host.status;
    return { round: status.simulation + 1, turn: status.step ?? 0 };
  }

  /** Asks a team's policy within its budget, keeping its console output; a fault ends the session. */
  async #ask(policy: TeamPolicy, hook: string, args: readonly unknown[]): Promise<CallOutcome> {
    const site = this.#site();
    const outcome = await policy.supervisor.call(hook, args, {}, site);
    const store = this.#runner.host.store;
    for (const line of outcome.logs)
      store.annotate('policy-log', { ...line, text: `team ${policy.team}: ${line.text}` });
    if (!outcome.ok && !this.#failed && !this.#stopped) {
      const fault =
        outcome.fault.kind === 'timeout'
          ? { ...outcome.fault, message: `policy exceeded ${this.#config.budgetMs} ms on step ${site.turn}` }
          : outcome.fault;
      this.#fail(policy.team, fault);
      this.#runner.stop();
    }
    return outcome;
  }

  #teamDecide(policy: TeamPolicy): MassimDecide {
    return batchedTeamDecide(async (batch) => {
      const outcome = await this.#ask(policy, MASSIM_TEAM_STEP, [batch]);
      if (!outcome.ok) throw new Error(outcome.fault.message);
      return outcome.value as MassimTeamBatchReply;
    });
  }

  #wireTeam(policy: TeamPolicy): MassimWireTeam {
    return async (event) => {
      if (this.#failed) return undefined;
      const outcome = await this.#ask(policy, MASSIM_WIRE_EVENT, [event]);
      return outcome.ok ? (outcome.value as MassimWireReply) : undefined;
    };
  }

  #fail(team: string, fault: PolicyFault): void {
    this.#failed = true;
    this.#runner.host.store.annotate('error', {
      source: 'policy',
      team,
      ...fault,
      message: `team ${team}: ${fault.message}`,
    });
    this.#batcher.note({ fault, faultOwner: `team ${team}` });
  }
}
