/**
 * The policy given with `--policy` for aisys sessions: one of the playground's samples by a short name,
 * run in-process, or a user's file run in a supervised worker thread holding the playground's aisys policy
 * runtime (a whole response's action requests per call, each run's memory kept there), with a time budget.
 * The first fault (a throw, a budget overrun, a value that cannot be sent) is remembered, so the command
 * can end with the policy's exit code and a located message.
 */
import { AisysPolicyRuntime } from '../../../src/core/protocols/aisys/policy-runtime';
import { supervisedDecide, type PolicyCaller } from '../../../src/core/protocols/aisys/decide';
import type { AisysDecide } from '../../../src/core/protocols/aisys/policy-api';
import { AISYS_SAMPLES } from '../../../src/core/protocols/aisys/samples';
import type { PolicyEndpoint } from '../../../src/core/policy/supervisor';
import type { PolicyLogLine } from '../../../src/core/policy/types';
import { aisysProtocol } from '../../../src/core/protocols/aisys/protocol';
import { CliError, ExitCode, usageError } from '../../command-line/exit-codes';
import { describePolicyFault, loadPolicyFile } from '../../policy/policy-file';
import { BUILTIN_SAMPLES } from './builtin-policies';

/** The built-in an environment plays when `--policy` is not given: the first sample made for it, if any. */
export function defaultAisysPolicy(env: string): string | undefined {
  return Object.keys(BUILTIN_SAMPLES).find((name) =>
    AISYS_SAMPLES.find((sample) => sample.id === BUILTIN_SAMPLES[name])?.environments?.includes(env),
  );
}

/**
 * `--policy` as given, or the built-in made for the environment. An environment no built-in is made for (a
 * course's own, a variant under another name) needs `--policy`: guessing one would send it actions it was
 * never written for.
 */
export function aisysPolicyArgument(given: string | undefined, env: string): string {
  const policy = given ?? defaultAisysPolicy(env);
  if (policy !== undefined) return policy;
  const made = [...new Set(AISYS_SAMPLES.flatMap((sample) => sample.environments ?? []))];
  throw usageError(
    `there is no built-in policy for the environment '${env}' (the built-ins are made for ${made.join(', ')}): give --policy FILE with your policy, or a built-in's name if the environment is a variant of one of these`,
  );
}

/** Options of `prepareAisysPolicy`. */
export interface AisysPolicyOptions {
  /** Directory a policy path is relative to. */
  cwd: string;
  /** Seed of the policy's `context.random()`. */
  seed: number;
  /** Time the policy may take for one response's action requests, in ms (files only). */
  budgetMs: number;
  /** The environment played (`context.env`). */
  env: string;
  /** Starts a policy runtime (default: a worker thread). */
  spawn?: () => PolicyEndpoint;
}

/** A policy ready to play. */
export interface PreparedAisysPolicy {
  /** The built-in's name or the file as the user wrote it. */
  readonly name: string;
  /** Lines the module printed while loading. */
  readonly loadLogs: PolicyLogLine[];
  /** The decisions of the policy. */
  readonly decide: AisysDecide;
  /** The first fault, as one located line; undefined while all is well. */
  readonly fault: string | undefined;
  /** Stops the policy's thread. */
  dispose(): void;
}

/** Resolves `--policy`: a built-in name or a file (loaded now, so a syntax error stops before any request). */
export async function prepareAisysPolicy(
  argument: string,
  options: AisysPolicyOptions,
): Promise<PreparedAisysPolicy> {
  const sampleId = BUILTIN_SAMPLES[argument];
  if (sampleId) return builtinPolicy(argument, sampleId, options);
  const loaded = await loadPolicyFile(argument, {
    cwd: options.cwd,
    seed: options.seed,
    protocol: aisysProtocol,
    budgetMs: options.budgetMs,
    spawn: options.spawn,
  });
  return withFaults(argument, loaded.source.fileName, loaded.logs, loaded.supervisor, options.env, () =>
    loaded.supervisor.dispose(),
  );
}

async function builtinPolicy(
  name: string,
  sampleId: string,
  options: AisysPolicyOptions,
): Promise<PreparedAisysPolicy> {
  const sample = AISYS_SAMPLES.find((candidate) => candidate.id === sampleId)!;
  const runtime = new AisysPolicyRuntime();
  const fileName = `${sampleId}.ts`;
  const loaded = runtime.load({
    code: sample.code,
    language: sample.language,
    fileName,
    level: 'policy',
    seed: options.seed,
  });
  if (!loaded.ok) throw new CliError(ExitCode.failure, describePolicyFault(loaded.fault, fileName));
  const caller: PolicyCaller = { call: (hook, args, context) => runtime.call(hook, args, context) };
  return withFaults(name, fileName, loaded.logs, caller, options.env, () => undefined);
}

/** A prepared policy whose decisions remember the first fault. */
function withFaults(
  name: string,
  fileName: string,
  loadLogs: PolicyLogLine[],
  caller: PolicyCaller,
  env: string,
  dispose: () => void,
): PreparedAisysPolicy {
  let fault: string | undefined;
  const decide = supervisedDecide(caller, { env });
  return {
    name,
    loadLogs,
    get fault() {
      return fault;
    },
    decide: async (batch) => {
      const reply = await decide(batch);
      if (!reply.ok) fault ??= describePolicyFault(reply.fault, fileName);
      return reply;
    },
    dispose,
  };
}
