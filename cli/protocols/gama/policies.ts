/**
 * The policy given with `--policy` for GAMA sessions: a sample (`random`, `greedy`, `sustainable`) run
 * in-process, or a user's file run in a supervised worker thread with a time budget, called as
 * `act(observation, reward, scavenger, context)`. The first fault (a throw, an overrun, a non-string
 * action) is remembered so the command ends with the policy's exit code and a located message.
 */
import type { CallOutcome, PolicyLogLine, PolicySource } from '../../../src/core/policy/types';
import type { PolicyEndpoint } from '../../../src/core/policy/supervisor';
import { GAMA_ACT, GAMA_SAMPLES, GamaPolicyRuntime, type GamaDecide } from '../../../src/core/protocols/gama';
import { gamaProtocol } from '../../../src/core/protocols/gama/protocol';
import { CliError, ExitCode } from '../../command-line/exit-codes';
import { describePolicyFault, loadPolicyFile } from '../../policy/policy-file';

/** The samples usable by name. */
export const GAMA_POLICY_NAMES = GAMA_SAMPLES.map((sample) => sample.id);

/** What to do after a policy fault: stop (default) or answer `idle` and go on. */
export type OnPolicyError = 'stop' | 'idle';

/** Options of `prepareGamaPolicy`. */
export interface GamaPolicyOptions {
  cwd: string;
  seed: number;
  budgetMs: number;
  onPolicyError: OnPolicyError;
  /** Starts a policy runtime for a file (default: a worker thread). */
  spawn?: () => PolicyEndpoint;
  /** Every line the policy prints. */
  onLog?(line: PolicyLogLine, scavenger: string): void;
}

/** A policy ready to answer requests. */
export interface PreparedGamaPolicy {
  readonly name: string;
  readonly loadLogs: PolicyLogLine[];
  /** The first fault, as one located line; undefined while all is well. */
  readonly fault: string | undefined;
  readonly decide: GamaDecide;
  dispose(): void;
}

/** Resolves `--policy`: a sample name or a .ts/.js file (compiled and loaded now: errors exit with 3). */
export async function prepareGamaPolicy(
  argument: string,
  options: GamaPolicyOptions,
): Promise<PreparedGamaPolicy> {
  const sample = GAMA_SAMPLES.find((s) => s.id === argument);
  let call: (args: unknown[]) => Promise<CallOutcome>;
  let name: string;
  let fileName: string;
  let loadLogs: PolicyLogLine[];
  let dispose: () => void;
  if (sample) {
    const runtime = new GamaPolicyRuntime();
    const source: PolicySource = {
      code: sample.code,
      language: sample.language,
      fileName: `${sample.id}.ts`,
      level: 'policy',
      seed: options.seed,
    };
    const loaded = runtime.load(source);
    if (!loaded.ok) throw new CliError(ExitCode.failure, `sample ${sample.id}: ${loaded.fault.message}`);
    call = (args) => runtime.call(GAMA_ACT, args, {});
    name = fileName = sample.id;
    loadLogs = loaded.logs;
    dispose = () => undefined;
  } else {
    const loaded = await loadPolicyFile(argument, {
      cwd: options.cwd,
      seed: options.seed,
      protocol: gamaProtocol,
      budgetMs: options.budgetMs,
      spawn: options.spawn,
    });
    const { supervisor } = loaded;
    let calls = 0;
    call = (args) => supervisor.call(GAMA_ACT, args, {}, { round: 1, turn: ++calls });
    name = fileName = loaded.source.fileName;
    loadLogs = loaded.logs;
    dispose = () => supervisor.dispose();
  }
  let fault: string | undefined;
  return {
    name,
    loadLogs,
    get fault() {
      return fault;
    },
    decide: async (decision) => {
      const outcome = await call([decision]);
      for (const line of outcome.logs) options.onLog?.(line, decision.id);
      if (outcome.ok) return outcome.value as string;
      const message = `${describePolicyFault(outcome.fault, fileName)} (answering ${decision.id})`;
      fault ??= message;
      if (options.onPolicyError === 'idle') return 'idle';
      throw new Error(message);
    },
    dispose,
  };
}
