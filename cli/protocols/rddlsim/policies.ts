/**
 * The policy given with `--policy` for rddlsim sessions: a built-in (`noop`, `random`) run in-process, or
 * a user's file run in a supervised worker thread with a time budget, exactly as the playground runs it.
 * Faults (a throw, a budget overrun, invalid actions when asked to stop on them) are remembered so the
 * command can end with the policy's exit code and a located message.
 */
import type { InstanceInfo } from '../../../src/core/envs/rddl/api';
import type { PolicyEndpoint } from '../../../src/core/policy/supervisor';
import type { CallOutcome, PolicyLogLine } from '../../../src/core/policy/types';
import { encodeActions, instanceSummary } from '../../../src/core/protocols/rddlsim/action-encoding';
import type { Action, ActFunction, InstanceSummary } from '../../../src/core/protocols/rddlsim/policy-api';
import { rddlsimProtocol } from '../../../src/core/protocols/rddlsim/protocol';
import { createLocalPolicy, type SessionPolicy } from '../../../src/core/protocols/rddlsim/session-policy';
import { describePolicyFault, loadPolicyFile } from '../../policy/policy-file';

/** What to do when a policy returns actions that fail the domain check. */
export type InvalidActionsMode = 'stop' | 'send' | 'drop';

/** The built-in policies, usable without a file. */
export const BUILTIN_POLICY_NAMES = ['noop', 'random'] as const;

/** Options of `preparePolicy`. */
export interface PreparePolicyOptions {
  cwd: string;
  /** Seed of `context.random()` (the session's seed, so runs repeat). */
  seed: number;
  /** Time allowed per call, in ms (files only). */
  budgetMs: number;
  invalidActions: InvalidActionsMode;
  /** Starts a policy runtime (default: a worker thread). */
  spawn?: () => PolicyEndpoint;
}

/** A policy ready to play once the instance is known. */
export interface PreparedPolicy {
  /** `noop`, `random`, or the file as the user wrote it. */
  readonly name: string;
  /** Lines the module printed while loading. */
  readonly loadLogs: PolicyLogLine[];
  /** The first fault that made the session stop, as one located line; undefined while all is well. */
  readonly fault: string | undefined;
  /** The session's policy for an instance (without the instance, only `noop` can play). */
  forInstance(info: InstanceInfo | undefined): SessionPolicy;
  /** Stops the policy's thread. */
  dispose(): void;
}

/**
 * Resolves `--policy`: a built-in name or a file. A file is compiled and loaded now, so a syntax error is
 * reported (exit code 3) before any session starts.
 */
export async function preparePolicy(
  argument: string,
  options: PreparePolicyOptions,
): Promise<PreparedPolicy> {
  if (argument === 'noop' || argument === 'random') return builtinPolicy(argument, options);
  const loaded = await loadPolicyFile(argument, { ...options, protocol: rddlsimProtocol });
  const { supervisor, source } = loaded;
  let fault: string | undefined;
  return {
    name: source.fileName,
    loadLogs: loaded.logs,
    get fault() {
      return fault;
    },
    forInstance(info) {
      const summary = info ? instanceSummary(info) : undefined;
      const context = summary ? { instance: summary } : {};
      const judge = (
        outcome: CallOutcome,
        round: number,
        turn: number,
        checkActions: boolean,
      ): CallOutcome => {
        if (!outcome.ok) {
          fault ??= describePolicyFault(outcome.fault, source.fileName);
          return outcome;
        }
        if (!checkActions || options.invalidActions !== 'stop') return outcome;
        const { problems } = encodeActions(outcome.value, { info });
        if (problems.length === 0) return outcome;
        const message = `invalid actions on round ${round}, turn ${turn}: ${problems.map((p) => p.message).join('; ')}`;
        fault ??= `${source.fileName}: ${message}`;
        return {
          ok: false,
          fault: { kind: 'result', message, hook: 'act' },
          logs: outcome.logs,
          ms: outcome.ms,
        };
      };
      return {
        act: async (observation, site) =>
          judge(await supervisor.call('act', [observation], context, site), site.round, site.turn, true),
        hook: async (name, args, site) =>
          judge(await supervisor.call(name, args, context, site), site.round, site.turn, false),
      };
    },
    dispose: () => supervisor.dispose(),
  };
}

function builtinPolicy(name: 'noop' | 'random', { seed }: PreparePolicyOptions): PreparedPolicy {
  return {
    name,
    loadLogs: [],
    fault: undefined,
    forInstance(info) {
      if (!info) return { act: async () => ({ ok: true, value: null, logs: [], ms: 0 }) };
      return createLocalPolicy(name === 'noop' ? () => null : randomAct(instanceSummary(info)), {
        info,
        seed,
      });
    },
    dispose: () => undefined,
  };
}

/**
 * The `random` built-in: each turn, nothing or one action drawn uniformly from every grounding of every
 * boolean, enum or object action (set to true, or to a random value of its range). int and real actions
 * are never drawn (their useful range is unknown). Preconditions are not checked, so on domains that have
 * them a draw may end the round early, as it would on the real server.
 */
function randomAct(summary: InstanceSummary): ActFunction {
  const choices: { action: Omit<Action, 'value'>; values: Action['value'][] }[] = [];
  for (const fluent of summary.actions) {
    const values = fluent.range === 'bool' ? [true] : (fluent.values ?? []);
    if (values.length === 0) continue;
    for (const args of groundings(fluent.params, summary.objects)) {
      choices.push({ action: { name: fluent.name, ...(args.length ? { args } : {}) }, values });
    }
  }
  return (_observation, context) => {
    const pick = Math.floor(context.random() * (choices.length + 1));
    const choice = choices[pick];
    if (!choice) return null;
    const value = choice.values[Math.floor(context.random() * choice.values.length)];
    return { ...choice.action, value };
  };
}

/** Every argument list for the parameter types, in object order. */
function groundings(params: readonly string[], objects: Record<string, string[]>): string[][] {
  let lists: string[][] = [[]];
  for (const type of params) {
    const values = objects[type] ?? [];
    lists = lists.flatMap((prefix) => values.map((value) => [...prefix, value]));
  }
  return lists;
}
