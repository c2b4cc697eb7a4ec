import { Rng } from '../random';
import { compilePolicy } from './compile';
import { describeThrown, evaluatePolicy, type EvaluatedPolicy, type PolicyConsole } from './evaluate';
import { formatConsoleArguments } from './format-value';
import { POLICY_LEVELS } from './levels';
import type { CallOutcome, LoadOutcome, PolicyLogLine, PolicySource } from './types';

/** Lines kept per call; a policy printing in a loop must not flood the page. */
const MAX_LOG_LINES_PER_CALL = 200;

/**
 * What the runtime adds to every context it passes to a hook. They live in the policy's thread, since a
 * context crosses a worker boundary as plain data and functions or shared objects cannot.
 */
export interface PolicyHelpers {
  /** Anything the policy keeps between calls; one object for the whole session (until a restart). */
  memory: Record<string, unknown>;
  /** A uniformly distributed number in [0, 1), seeded with the session's seed so runs repeat exactly. */
  random(): number;
  /** Prints to the policy log, like `console.log`. */
  log(...values: unknown[]): void;
}

/**
 * Runs one user policy: compiles and loads its source, then calls its hooks on demand, capturing
 * `console` output and locating errors. This is the whole policy worker, minus the Comlink shell; the
 * command line uses it in-process. It never enforces a time budget itself (a running loop cannot be
 * interrupted from inside): see `PolicySupervisor`.
 */
export class PolicyRuntime {
  #policy: EvaluatedPolicy | undefined;
  #rng = new Rng(0);
  #memory: Record<string, unknown> = {};
  #sessionContext: Record<string, unknown> = {};
  #logs: PolicyLogLine[] = [];
  #droppedLogs = 0;
  readonly #console: PolicyConsole;

  constructor() {
    const record =
      (level: PolicyLogLine['level']) =>
      (...args: unknown[]) => {
        if (this.#logs.length < MAX_LOG_LINES_PER_CALL)
          this.#logs.push({ level, text: formatConsoleArguments(args) });
        else this.#droppedLogs++;
      };
    this.#console = {
      log: record('log'),
      info: record('info'),
      warn: record('warn'),
      error: record('error'),
      debug: record('debug'),
    };
  }

  /** Compiles and evaluates a policy, replacing any loaded before. Checks the level's entry is exported. */
  load(source: PolicySource): LoadOutcome {
    this.#policy = undefined;
    this.#rng = new Rng(source.seed);
    this.#memory = {};
    this.#sessionContext = source.context ?? {};
    this.#startCapture();
    const compiled = compilePolicy(source.code, source.language, source.fileName);
    if (!compiled.ok) return { ok: false, fault: compiled.fault, logs: this.#endCapture() };
    const evaluated = evaluatePolicy(compiled.compiled, this.#console);
    if (!evaluated.ok) return { ok: false, fault: evaluated.fault, logs: this.#endCapture() };
    const contract = POLICY_LEVELS[source.level];
    const hooks = Object.keys(evaluated.module.exports).filter(
      (name) => typeof evaluated.module.exports[name] === 'function',
    );
    if (!hooks.includes(contract.entry)) {
      return {
        ok: false,
        fault: {
          kind: 'load',
          message: `the policy must export a function ${source.entrySignature ?? contract.signature}`,
          location: { source: source.fileName, line: 1, column: 1 },
        },
        logs: this.#endCapture(),
      };
    }
    this.#policy = evaluated.module;
    return { ok: true, hooks, logs: this.#endCapture() };
  }

  /**
   * Calls a hook with `args` followed by the context: the session's context given at load, this call's
   * `context`, and the runtime's helpers. A hook that is
   * not exported returns `undefined`; a hook may be async. The value must be plain data (it crosses a
   * worker boundary): functions and cycles are reported as a `result` fault.
   */
  async call(hook: string, args: readonly unknown[], context: Record<string, unknown>): Promise<CallOutcome> {
    const started = performance.now();
    const policy = this.#policy;
    if (!policy) {
      return { ok: false, fault: { kind: 'crash', message: 'no policy is loaded', hook }, logs: [], ms: 0 };
    }
    const fn = policy.exports[hook];
    if (typeof fn !== 'function') return { ok: true, value: undefined, logs: [], ms: 0 };
    this.#startCapture();
    const helpers: PolicyHelpers = {
      memory: this.#memory,
      random: () => this.#rng.nextFloat(),
      log: this.#console.log,
    };
    try {
      const value: unknown = await fn.apply(policy.exports, [
        ...args,
        { ...this.#sessionContext, ...context, ...helpers },
      ]);
      const problem = findNonData(value);
      if (problem) {
        return {
          ok: false,
          fault: { kind: 'result', message: `${hook} returned ${problem}; return plain data`, hook },
          logs: this.#endCapture(),
          ms: performance.now() - started,
        };
      }
      return { ok: true, value, logs: this.#endCapture(), ms: performance.now() - started };
    } catch (error) {
      return {
        ok: false,
        fault: { kind: 'call', message: describeThrown(error), location: policy.locate(error), hook },
        logs: this.#endCapture(),
        ms: performance.now() - started,
      };
    }
  }

  #startCapture(): void {
    this.#logs = [];
    this.#droppedLogs = 0;
  }

  #endCapture(): PolicyLogLine[] {
    const logs = this.#logs;
    if (this.#droppedLogs)
      logs.push({ level: 'warn', text: `… ${this.#droppedLogs} more log lines dropped` });
    this.#logs = [];
    return logs;
  }
}

/**
 * Describes the first part of a value that is not plain data (what structured clone and JSON both keep),
 * e.g. "a function at [2].value", or undefined when it is all data.
 */
export function findNonData(value: unknown, path = '', seen: Set<object> = new Set()): string | undefined {
  if (typeof value === 'function') return `a function${path ? ` at ${path}` : ''}`;
  if (typeof value === 'symbol') return `a symbol${path ? ` at ${path}` : ''}`;
  if (typeof value !== 'object' || value === null) return undefined;
  if (seen.has(value)) return `a circular reference${path ? ` at ${path}` : ''}`;
  seen.add(value);
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [`${path}[${index}]`, item])
    : Object.entries(value).map(([key, item]) => [path ? `${path}.${key}` : key, item]);
  for (const [childPath, item] of entries) {
    const problem = findNonData(item, childPath, seen);
    if (problem) return problem;
  }
  seen.delete(value);
  return undefined;
}
