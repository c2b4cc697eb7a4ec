/**
 * The course server's application, without HTTP: environments, agent accounts, runs and ratings, and the
 * `/act` algorithm exactly as aisysprojserver 0.1.3 runs it (research notes 1.2-1.6):
 *
 * - checks in order: environment, agent, password, agent active, abandoning allowed;
 * - abandons first, then actions, each on its own as if in its own database transaction: a failure is an
 *   error message for that run (unknown run, another agent's run, wrong action number, a rejected
 *   action), and a crash in the environment ends the request with everything before it kept;
 * - the scheduler: while runs of the agent wait for an answer (outstanding), the response asks for those
 *   (at most N, lowest id first) and starts nothing; otherwise it starts runs until the agent has N
 *   unfinished ones and asks for the first N. N is the environment's number (default 5), 1 without
 *   parallel runs. Run ids are global integers shared by every environment and agent; runs never expire;
 * - ratings: after each finished run the average of the last `minRunsForFullyEvaluated` outcomes; the
 *   best rating moves only once the agent is fully evaluated.
 *
 * With `faithfulBugs` (the default) the real server's bugs are kept: a finished run is not guarded, so an
 * action for it reaches the environment again, and abandoning it counts it again.
 */
import {
  EnvironmentCrash,
  type AisysEnvironment,
  type AisysEnvironmentClass,
  type EnvRandom,
  type HistoryEntry,
  type JsonValue,
  type ReceivedAction,
  type RunView,
} from '../../envs/aisys/api';
import { pythonRepr } from '../../envs/aisys/python';
import type { AisysActionRequest, AisysMessage, AisysRequest, AisysResponse } from './messages';
import { actionNumberText } from './request-schema';

/** An HTTP error the server raises (Werkzeug's `BadRequest`, `Unauthorized`...), with its description. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly description?: string,
  ) {
    super(description ?? `HTTP ${status}`);
    this.name = 'HttpProblem';
  }
}

/** A configured environment on the server (`makeenv`). */
export interface EnvironmentRecord {
  id: string;
  /** The class it was made from (`nim`, or the name `makeenv` used). */
  envClass: string;
  displayName: string;
  config: JsonValue;
  environment: AisysEnvironment;
}

/** An agent account: scoped to one environment. */
export interface AgentRecord {
  env: string;
  name: string;
  password: string;
  active: boolean;
}

/** A run as the server keeps it. */
export interface RunRecord {
  id: number;
  env: string;
  agent: string;
  state: JsonValue;
  history: HistoryEntry[];
  /** Sent in an action request and not answered (cleared by an applied action or an abandon). */
  outstanding: boolean;
  finished: boolean;
  outcome: JsonValue;
}

/** An agent's rating record, made at its first finished run. */
export interface AgentResults {
  totalRuns: number;
  fullyEvaluated: boolean;
  /** The last `minRunsForFullyEvaluated` outcomes. */
  recentResults: number[];
  bestRating: number;
  currentRating: number;
  /** The last 20 finished runs (kept when old runs are cleaned up). */
  recentRuns: number[];
}

/** Options of a server. */
export interface AisysServerOptions {
  /** Keep the real server's bugs (see the module comment). Default true. */
  faithfulBugs?: boolean;
  /** Randomness of a run, given its id; by default the host seeds one stream per run. */
  randomForRun: (runId: number, env: string) => EnvRandom;
  /** Id of the first run (default 1). */
  firstRunId?: number;
}

/** Every `n`th finished run of an agent, its older finished runs are deleted (the real server's 2351). */
const CLEANUP_EVERY = 2351;
/** Finished runs an agent keeps for its page. */
const RECENT_RUNS = 20;

/** The application state and the `/act` algorithm. */
export class AisysServer {
  readonly environments = new Map<string, EnvironmentRecord>();
  /** Agents by `env/name`. */
  readonly agents = new Map<string, AgentRecord>();
  readonly runs = new Map<number, RunRecord>();
  /** Ratings by `env/name`. */
  readonly results = new Map<string, AgentResults>();
  readonly faithfulBugs: boolean;
  readonly #randomForRun: AisysServerOptions['randomForRun'];
  readonly #randoms = new Map<number, EnvRandom>();
  /** Unfinished runs by `env/name`. */
  readonly #unfinished = new Map<string, Set<number>>();
  #nextRunId: number;

  constructor(options: AisysServerOptions) {
    this.faithfulBugs = options.faithfulBugs ?? true;
    this.#randomForRun = options.randomForRun;
    this.#nextRunId = options.firstRunId ?? 1;
  }

  /** Adds (or with `overwrite` replaces) an environment, as `makeenv` does. */
  makeEnvironment(
    id: string,
    envClass: AisysEnvironmentClass,
    config: JsonValue,
    { displayName = id, overwrite = false, className = envClass.id } = {},
  ): EnvironmentRecord {
    if (this.environments.has(id) && !overwrite)
      throw new HttpProblem(400, `Environment ${id} already exists`);
    const record: EnvironmentRecord = {
      id,
      envClass: className,
      displayName,
      config,
      environment: envClass.create(config),
    };
    this.environments.set(id, record);
    return record;
  }

  /** Adds (or with `overwrite` replaces) an agent account, as `makeagent` does; its runs stay. */
  makeAgent(env: string, name: string, password: string, { overwrite = false } = {}): AgentRecord {
    const key = `${env}/${name}`;
    if (this.agents.has(key) && !overwrite) throw new HttpProblem(400, `Agent ${key} already exists`);
    const record: AgentRecord = { env, name, password, active: true };
    this.agents.set(key, record);
    return record;
  }

  /**
   * Serves one `/act` request (already read and upgraded to version 1). Raises `HttpProblem` for the
   * errors the real server answers with an HTTP status; anything else thrown (an `EnvironmentCrash`) is a
   * crash of the request, after which what was applied before it stays applied. `actionRepr` shows the
   * action at an index as the body wrote it (`receivedActionReprs`), for the environment's messages;
   * without it they show the actions as read.
   */
  act(envId: string, request: AisysRequest, actionRepr?: (index: number) => string): AisysResponse {
    const record = this.environments.get(envId);
    if (!record) throw new HttpProblem(400, `No such environment ${envId}`);
    const agentKey = `${envId}/${request.agent}`;
    const agent = this.agents.get(agentKey);
    if (!agent) throw new HttpProblem(401, 'unknown agent');
    if (agent.password !== request.pwd) throw new HttpProblem(401, 'wrong password');
    if (!agent.active) throw new HttpProblem(401, 'the agent is not active');
    const { environment } = record;
    if (request.to_abandon.length > 0 && !environment.settings.canAbandonRuns)
      throw new HttpProblem(400, 'This environment does not support abandoning runs');

    const answer = new ActAnswer();
    for (const run of request.to_abandon) this.#abandon(run, agentKey, environment, answer);
    request.actions.forEach((action, index) => {
      const received = { repr: () => actionRepr?.(index) ?? pythonRepr(action.action) };
      this.#apply(action, received, agentKey, environment, answer);
    });
    const perResponse = request.parallel_runs ? environment.settings.actionRequestsPerResponse : 1;
    const { requests, active } = this.#schedule(agentKey, envId, agent.name, environment, perResponse);
    return {
      action_requests: requests,
      active_runs: active,
      messages: answer.messages,
      finished_runs: answer.finished,
    };
  }

  /** The run a client's id names, read as SQLite compares it with an integer key (`"026"` is run 26). */
  #lookupRun(text: string): RunRecord | undefined {
    const trimmed = text.trim();
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) return undefined;
    const id = Number(trimmed);
    return Number.isSafeInteger(id) ? this.runs.get(id) : undefined;
  }

  /** The run a message is about, when it is this agent's; otherwise the error message goes out. */
  #ownRun(runText: string, agentKey: string, answer: ActAnswer): RunRecord | undefined {
    const run = this.#lookupRun(runText);
    if (!run) {
      answer.message(runText, 'error', 'Invalid run id');
      return undefined;
    }
    if (`${run.env}/${run.agent}` !== agentKey) {
      answer.message(runText, 'error', 'This run does not belong to your agent');
      return undefined;
    }
    if (run.finished && !this.faithfulBugs) {
      answer.message(runText, 'error', 'This run has already finished');
      return undefined;
    }
    return run;
  }

  #abandon(runText: string, agentKey: string, environment: AisysEnvironment, answer: ActAnswer): void {
    const run = this.#ownRun(runText, agentKey, answer);
    if (!run) return;
    if (!environment.abandonOutcome)
      throw new EnvironmentCrash('NotImplementedError', 'the environment cannot abandon runs');
    const outcome = environment.abandonOutcome(view(run));
    answer.message(runText, 'warning', 'Run abandoned (as requested by client)');
    answer.finished[runText] = outcome;
    this.#finish(run, outcome, environment);
    run.outstanding = false;
  }

  #apply(
    action: AisysRequest['actions'][number],
    received: ReceivedAction,
    agentKey: string,
    environment: AisysEnvironment,
    answer: ActAnswer,
  ): void {
    const run = this.#ownRun(action.run, agentKey, answer);
    if (!run) return;
    if (action.act_no !== run.history.length) {
      answer.message(
        action.run,
        'error',
        `Wrong action number ${actionNumberText(action)} (the action might have been for an earlier action request)`,
      );
      return;
    }
    const result = environment.act(action.action, view(run), this.#random(run), received);
    if (!result.ok) {
      const text = result.message || 'Internal server error when trying to update the state';
      answer.message(action.run, 'error', text);
      return;
    }
    if (result.message) answer.message(action.run, 'info', result.message);
    const ends = result.outcome !== undefined && result.outcome !== null;
    // The rating is worked out before anything changes: an outcome it cannot average crashes the request
    // with the run untouched, as the real server's transaction is rolled back.
    const rating = ends ? this.#ratingAfter(run, result.outcome!, environment) : undefined;
    run.state = result.state;
    run.history.push({ action: action.action, extra: result.extra ?? null });
    if (ends) {
      answer.finished[action.run] = result.outcome!;
      this.#commitFinish(run, result.outcome!, rating!);
    }
    run.outstanding = false;
  }

  #finish(run: RunRecord, outcome: JsonValue, environment: AisysEnvironment): void {
    this.#commitFinish(run, outcome, this.#ratingAfter(run, outcome, environment));
  }

  /** The agent's rating record once `outcome` is counted (not stored yet). */
  #ratingAfter(run: RunRecord, outcome: JsonValue, environment: AisysEnvironment): AgentResults {
    const { minRunsForFullyEvaluated: window, ratingObjective, initialRating } = environment.settings;
    const previous = this.results.get(`${run.env}/${run.agent}`) ?? {
      totalRuns: 0,
      fullyEvaluated: false,
      recentResults: [],
      bestRating: initialRating,
      currentRating: initialRating,
      recentRuns: [],
    };
    const totalRuns = previous.totalRuns + 1;
    const fullyEvaluated = previous.fullyEvaluated || totalRuns >= window;
    const recentResults = [...previous.recentResults, averageable(outcome)].slice(-window);
    const currentRating = recentResults.reduce((sum, x) => sum + x, 0) / recentResults.length;
    const best = ratingObjective === 'max' ? Math.max : Math.min;
    return {
      totalRuns,
      fullyEvaluated,
      recentResults,
      currentRating,
      bestRating: fullyEvaluated ? best(previous.bestRating, currentRating) : previous.bestRating,
      recentRuns: [...previous.recentRuns, run.id].slice(-RECENT_RUNS),
    };
  }

  #commitFinish(run: RunRecord, outcome: JsonValue, rating: AgentResults): void {
    const agentKey = `${run.env}/${run.agent}`;
    run.finished = true;
    run.outcome = outcome;
    this.#unfinished.get(agentKey)?.delete(run.id);
    this.results.set(agentKey, rating);
    if (rating.totalRuns % CLEANUP_EVERY === 0) this.#forgetOldRuns(agentKey, rating.recentRuns);
  }

  /** The real server's cleanup: an agent's finished runs are deleted, except its recent ones. */
  #forgetOldRuns(agentKey: string, keep: readonly number[]): void {
    for (const [id, run] of this.runs) {
      if (run.finished && `${run.env}/${run.agent}` === agentKey && !keep.includes(id)) {
        this.runs.delete(id);
        this.#randoms.delete(id);
      }
    }
  }

  /** The outstanding-first scheduler (see the module comment). */
  #schedule(
    agentKey: string,
    env: string,
    agent: string,
    environment: AisysEnvironment,
    perResponse: number,
  ): { requests: AisysActionRequest[]; active: string[] } {
    let unfinished = this.#unfinished.get(agentKey);
    if (!unfinished) this.#unfinished.set(agentKey, (unfinished = new Set()));
    const runs = [...unfinished].sort((a, b) => a - b).map((id) => this.runs.get(id)!);
    const outstanding = runs.filter((run) => run.outstanding);
    let asked: RunRecord[];
    if (outstanding.length > 0) {
      asked = outstanding.slice(0, perResponse);
    } else {
      while (runs.length < perResponse) {
        // Each new run is kept at once, as the real server commits each: a crash later keeps it.
        const id = this.#nextRunId;
        const state = environment.newRun(this.#randomOf(id, env));
        this.#nextRunId++;
        const run: RunRecord = {
          id,
          env,
          agent,
          state,
          history: [],
          outstanding: false,
          finished: false,
          outcome: null,
        };
        this.runs.set(id, run);
        unfinished.add(id);
        runs.push(run);
      }
      asked = runs.slice(0, perResponse);
    }
    // Percepts first: if one crashes, no run is marked outstanding (the real transaction rolls back).
    const requests = asked.map((run) => ({
      act_no: run.history.length,
      percept: environment.percept(view(run)),
      run: String(run.id),
    }));
    for (const run of asked) run.outstanding = true;
    return { requests, active: runs.map((run) => String(run.id)) };
  }

  #random(run: RunRecord): EnvRandom {
    return this.#randomOf(run.id, run.env);
  }

  #randomOf(id: number, env: string): EnvRandom {
    let random = this.#randoms.get(id);
    if (!random) this.#randoms.set(id, (random = this.#randomForRun(id, env)));
    return random;
  }
}

/** What one request has to say besides the action requests. */
class ActAnswer {
  readonly messages: AisysMessage[] = [];
  readonly finished: Record<string, JsonValue> = {};

  message(run: string, type: AisysMessage['type'], content: string): void {
    this.messages.push({ content, run, type });
  }
}

function view(run: RunRecord): RunView<JsonValue> {
  return { runId: run.id, agent: run.agent, state: run.state, history: run.history };
}

/** An outcome as the `average` rating strategy sums it; anything but a number crashes, as in Python. */
function averageable(outcome: JsonValue): number {
  if (typeof outcome === 'number') return outcome;
  if (typeof outcome === 'boolean') return outcome ? 1 : 0;
  throw new EnvironmentCrash(
    'TypeError',
    'unsupported operand type(s) for +: an outcome that is not a number',
  );
}
