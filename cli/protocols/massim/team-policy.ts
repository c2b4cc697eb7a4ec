/**
 * The team policy given with `--policy` (or `--policy-a`, `--policy-b`): a built-in run in this thread, or a
 * user's file run in a supervised worker thread. Either way it becomes a `MassimDecide`, which the agent
 * client (over TCP) or the match runner (in memory) calls once per agent and step. A file's team gets
 * each step's requests in one batch, with a time budget per batch; faults (a throw, an overrun) are
 * reported to the caller, which stops or carries on.
 */
import { extname } from 'node:path';
import { createTeamDecide, type MassimDecide } from '../../../src/core/protocols/massim/client';
import { batchedTeamDecide, type MassimTeamBatch } from '../../../src/core/protocols/massim/team-batch';
import type { PolicyEndpoint } from '../../../src/core/policy/supervisor';
import type { PolicyLogLine } from '../../../src/core/policy/types';
import { usageError } from '../../command-line/exit-codes';
import { describePolicyFault, loadPolicyFile } from '../../policy/policy-file';
import { spawnPolicyThread } from '../../policy/thread-endpoint';
import { BUILTIN_TEAM_POLICIES, builtinTeamPolicy, isBuiltinTeamPolicy } from './builtin/index';
import { TEAM_BATCH_HOOK, type TeamBatchAnswer } from './team-policy-runtime';

const TEAM_THREAD_ENTRY = new URL('./team-policy-thread-entry.js', import.meta.url);
const POLICY_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs']);

/** A fault of a team policy, as one line (located in the file when possible). */
export interface TeamPolicyFault {
  team: string;
  /** The agent whose `act` failed; absent when the whole batch failed (overrun, crash). */
  agent?: string;
  step: number;
  message: string;
}

/** One line a team policy printed. */
export interface TeamPolicyLog {
  team: string;
  agent: string;
  step: number;
  line: PolicyLogLine;
}

/** Options of `prepareTeamPolicy`. */
export interface TeamPolicyOptions {
  /** Directory a policy path is relative to. */
  cwd: string;
  /** Seeds the built-ins and a file's `random()`. */
  seed: number;
  /** Time a file's team may take for one step, in ms. */
  budgetMs: number;
  team: string;
  onFault(fault: TeamPolicyFault): void;
  onLog?(log: TeamPolicyLog): void;
  /** Starts a policy runtime (default: a team policy thread). */
  spawn?: () => PolicyEndpoint;
}

/** A team policy ready to play. */
export interface TeamPolicy {
  /** The built-in's name or the file as the user wrote it. */
  readonly name: string;
  /** Lines the module printed while loading. */
  readonly loadLogs: readonly PolicyLogLine[];
  readonly decide: MassimDecide;
  /** True when it answers a step's requests in one batch (a file in a thread): give them together. */
  readonly batched: boolean;
  /** Stops the policy's thread. */
  dispose(): void;
}

/** Whether a `--policy` value could be a team policy (a built-in name or a script file). */
function checkPolicyArgument(argument: string, option: string): void {
  if (isBuiltinTeamPolicy(argument) || POLICY_EXTENSIONS.has(extname(argument).toLowerCase())) return;
  throw usageError(
    `--${option} must be a .ts or .js file or one of ${BUILTIN_TEAM_POLICIES.join(', ')}, got '${argument}'`,
  );
}

/**
 * Resolves a team's policy. A file is compiled and loaded now, so a syntax error is reported (exit code
 * 3, located) before anything connects.
 */
export async function prepareTeamPolicy(
  argument: string,
  option: string,
  options: TeamPolicyOptions,
): Promise<TeamPolicy> {
  checkPolicyArgument(argument, option);
  if (isBuiltinTeamPolicy(argument)) {
    return {
      name: argument,
      loadLogs: [],
      decide: createTeamDecide(builtinTeamPolicy(argument, options.seed, options.team)),
      batched: false,
      dispose: () => undefined,
    };
  }
  const { cwd, seed, budgetMs, team, onFault, onLog } = options;
  const { supervisor, source, logs } = await loadPolicyFile(argument, {
    cwd,
    seed,
    budgetMs,
    spawn: options.spawn ?? (() => spawnPolicyThread(TEAM_THREAD_ENTRY)),
  });
  let step = 0;
  const transport = async (batch: MassimTeamBatch) => {
    const batchStep = step;
    const outcome = await supervisor.call(TEAM_BATCH_HOOK, [batch], {}, { round: 0, turn: batchStep });
    if (!outcome.ok) {
      // The thread was restarted with an empty phrase book: batches start afresh too.
      batched = batchedTeamDecide(transport);
      const message =
        outcome.fault.kind === 'timeout'
          ? `${source.fileName}: team ${team} took more than ${budgetMs} ms for step ${batchStep}; its policy thread was restarted (the team's memory is lost)`
          : describePolicyFault(outcome.fault, source.fileName);
      onFault({ team, step: batchStep, message });
      return { actions: batch.requests.map(() => null) };
    }
    const answer = outcome.value as TeamBatchAnswer;
    for (const { agent, line } of answer.logs) onLog?.({ team, agent, step: batchStep, line });
    for (const { agent, fault } of answer.faults)
      onFault({ team, agent, step: batchStep, message: describePolicyFault(fault, source.fileName) });
    return answer;
  };
  let batched = batchedTeamDecide(transport);
  return {
    name: source.fileName,
    loadLogs: logs,
    batched: true,
    decide: (request) => {
      step = request.step;
      return batched(request);
    },
    dispose: () => supervisor.dispose(),
  };
}
