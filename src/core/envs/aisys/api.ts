/**
 * The contract between the course server's environments and the server that runs them (the aisys
 * protocol host). It follows what the real server asks of its plugins: a new run's state, the percept of a
 * run, an action's result (new state, message, outcome) or its rejection, and the outcome of an abandoned
 * run, plus the settings the server reads from the plugin class. An environment keeps no state of its own
 * between calls (the real server builds a plugin instance per request): everything lives in the run's state.
 */

/** A JSON value as `JSON.parse` returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * The randomness an environment draws from. The host gives every run a stream of its own (seeded from the
 * session's seed and the run id), so a run plays out the same whatever else the server is doing.
 */
export interface EnvRandom {
  /** An integer uniformly distributed in [0, n). */
  nextInt(n: number): number;
}

/** What the server reads from an environment class (the real plugin's `EnvSettings`). */
export interface AisysEnvSettings {
  /** Finished runs after which an agent is fully evaluated, and the window of its average (default 50). */
  minRunsForFullyEvaluated: number;
  /** Action requests per response when the client asks for parallel runs (default 5). */
  actionRequestsPerResponse: number;
  /** Whether clients may abandon runs (default false: a request with `to_abandon` is refused). */
  canAbandonRuns: boolean;
  /** Whether a higher (`max`) or lower (`min`) rating is better (default `max`). */
  ratingObjective: 'max' | 'min';
  /** The best rating before an agent is fully evaluated (default 0). */
  initialRating: number;
}

/** The real server's defaults (`EnvSettings`). */
export const DEFAULT_ENV_SETTINGS: Readonly<AisysEnvSettings> = {
  minRunsForFullyEvaluated: 50,
  actionRequestsPerResponse: 5,
  canAbandonRuns: false,
  ratingObjective: 'max',
  initialRating: 0,
};

/** One applied action of a run, with what the environment noted beside it (Nim: the opponent's move). */
export interface HistoryEntry {
  action: JsonValue;
  extra: JsonValue;
}

/** A run as an environment sees it. */
export interface RunView<S> {
  runId: number;
  /** The agent's name (without the environment). */
  agent: string;
  state: S;
  history: readonly HistoryEntry[];
}

/**
 * What an action did: accepted (a new state; an `outcome` ends the run; a `message` is sent to the agent
 * as `info`), or rejected (the `message` is sent as an `error`, and the run waits for another action).
 */
export type ActResult<S> =
  | { ok: true; state: S; message?: string; extra?: JsonValue; outcome?: JsonValue }
  | { ok: false; message?: string };

/** An action as the server received it, for the messages that show it. */
export interface ReceivedAction {
  /**
   * Python's `repr()` of the action as the real server holds it: `[100000.0]`, `{'b': 1, '1': 2.0}`,
   * where the `action` handed over is what `JSON.parse` made of it (`[100000]`, `{'1': 2, 'b': 1}`).
   */
  repr(): string;
}

/** One configured environment (a plugin class with its JSON config). */
export interface AisysEnvironment<S = JsonValue> {
  readonly settings: AisysEnvSettings;
  /** The state of a new run. */
  newRun(random: EnvRandom): S;
  /** What the agent is shown of a run (the action request's `percept`). */
  percept(run: RunView<S>): JsonValue;
  /**
   * Applies an action. May throw an `EnvironmentCrash`: the server then answers 500 for the request. A
   * message that shows the action shows `received.repr()` (the server always passes it).
   */
  act(action: JsonValue, run: RunView<S>, random: EnvRandom, received?: ReceivedAction): ActResult<S>;
  /** The outcome of a run the agent abandons; needed only when `settings.canAbandonRuns`. */
  abandonOutcome?(run: RunView<S>): JsonValue;
}

/** A kind of environment (a plugin class): configured into environments by the admin's `makeenv`. */
export interface AisysEnvironmentClass {
  /** Id used in `makeenv`'s `env_class` (`nim`). */
  id: string;
  /** Other `env_class` names that mean this class (the real plugin's `simple_nim.environment:Environment`). */
  aliases?: readonly string[];
  label: string;
  /** Builds an environment from its config. */
  create(config: JsonValue): AisysEnvironment;
}

/**
 * An exception inside an environment, as a Python plugin would raise it. The server answers the request
 * with HTTP 500 naming the exception class (`RuntimeError`), as the real server does for a plugin crash.
 */
export class EnvironmentCrash extends Error {
  constructor(
    /** The Python exception class the real plugin would raise (`KeyError`, `RuntimeError`...). */
    readonly exceptionName: string,
    message: string,
  ) {
    super(message);
    this.name = exceptionName;
  }
}
