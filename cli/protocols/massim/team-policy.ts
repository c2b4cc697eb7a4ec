/**
 * The team policy given with `--policy` (or `--policy-a`, `--policy-b`): one of the playground's sample
 * team policies, or a user's file. Either way it runs as the playground runs it: in a supervised worker
 * thread holding the playground's team runtime, which answers a whole step of the team in one call,
 * within a time budget. It becomes a `MassimDecide`, which the agent client (over TCP) or the match runner
 * (in memory) calls once per agent and step. Faults (a throw, a bad action, an overrun) are reported to
 * the caller, which stops or carries on; the team then does no_action for that step.
 */
import type { MassimDecide } from '../../../src/core/protocols/massim/client';
import {
  batchedTeamDecide,
  type MassimTeamBatch,
  type MassimTeamBatchReply,
} from '../../../src/core/protocols/massim/team-batch';
import type { PolicyEndpoint } from '../../../src/core/policy/supervisor';
import type { PolicyLogLine, PolicySource } from '../../../src/core/policy/types';
import { MASSIM_SAMPLES } from '../../../src/core/protocols/massim/samples';
import { massimProtocol } from '../../../src/core/protocols/massim/protocol';
import { MASSIM_TEAM_STEP } from '../../../src/core/protocols/massim/team-runtime';
import { usageError } from '../../command-line/exit-codes';
import {
  describePolicyFault,
  isPolicyFileName,
  loadPolicy,
  readPolicySource,
} from '../../policy/policy-file';

/** The playground's samples `--policy` names, by the name used on the command line. */
const BUILTIN_SAMPLES: Readonly<Record<string, string>> = {
  skip: 'skip',
  random: 'random-mover',
  explorer: 'explorer',
  fetcher: 'block-fetcher',
};

/** The names `--policy` accepts besides a file. */
export const BUILTIN_TEAM_POLICIES: readonly string[] = Object.keys(BUILTIN_SAMPLES);

/** A fault of a team policy, as one line (located in the file when possible). */
export interface TeamPolicyFault {
  team: string;
  step: number;
  message: string;
}

/** Lines a team policy printed in one step (each starts with the agent's name). */
export interface TeamPolicyLog {
  team: string;
  step: number;
  line: PolicyLogLine;
}

/** Options of `prepareTeamPolicy`. */
export interface TeamPolicyOptions {
  /** Directory a policy path is relative to. */
  cwd: string;
  /** Seed of the policy's `context.random()`. */
  seed: number;
  /** Time the team may take for one step, in ms. */
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
  /** Decides for every agent of the team; requests given together are answered in one call. */
  readonly decide: MassimDecide;
  /** Stops the policy's thread. */
  dispose(): void;
}

/**
 * Resolves a team's policy and loads it in its thread now, so a syntax error is reported (exit code 3,
 * located) before anything connects.
 */
export async function prepareTeamPolicy(
  argument: string,
  option: string,
  options: TeamPolicyOptions,
): Promise<TeamPolicy> {
  const { cwd, seed, budgetMs, team, onFault, onLog } = options;
  const source = await teamPolicySource(argument, option, { cwd, seed });
  const loaded = await loadPolicy(source, { protocol: massimProtocol, budgetMs, spawn: options.spawn });
  const { supervisor } = loaded;
  let step = 0;
  const transport = async (batch: MassimTeamBatch): Promise<MassimTeamBatchReply> => {
    const batchStep = step;
    const outcome = await supervisor.call(MASSIM_TEAM_STEP, [batch], {}, { round: 0, turn: batchStep });
    for (const line of outcome.logs) onLog?.({ team, step: batchStep, line });
    if (outcome.ok) return outcome.value as MassimTeamBatchReply;
    if (outcome.fault.kind === 'timeout' || outcome.fault.kind === 'crash') {
      // The thread was restarted with an empty phrase book: batches start afresh too.
      batched = batchedTeamDecide(transport);
    }
    const message =
      outcome.fault.kind === 'timeout'
        ? `${source.fileName}: team ${team} took more than ${budgetMs} ms for step ${batchStep}; its policy thread was restarted (the team's memory is lost)`
        : describePolicyFault(outcome.fault, source.fileName);
    onFault({ team, step: batchStep, message });
    return { actions: batch.agents.map(() => null) };
  };
  let batched = batchedTeamDecide(transport);
  return {
    name: source.fileName,
    loadLogs: loaded.logs,
    decide: (request) => {
      step = request.step;
      return batched(request);
    },
    dispose: () => supervisor.dispose(),
  };
}

/** A built-in's sample code, or the file's. */
export async function teamPolicySource(
  argument: string,
  option: string,
  file: { cwd: string; seed: number },
): Promise<PolicySource> {
  const sampleId = BUILTIN_SAMPLES[argument];
  if (sampleId !== undefined) {
    const sample = MASSIM_SAMPLES.find((candidate) => candidate.id === sampleId)!;
    return {
      code: sample.code,
      language: sample.language,
      fileName: argument,
      level: 'policy',
      seed: file.seed,
    };
  }
  if (!isPolicyFileName(argument))
    throw usageError(
      `--${option} must be a .ts or .js file or one of ${BUILTIN_TEAM_POLICIES.join(', ')}, got '${argument}'`,
    );
  return readPolicySource(argument, file);
}
