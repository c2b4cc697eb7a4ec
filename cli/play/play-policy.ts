/**
 * The policy of a generic command: a file, or one of the protocol's samples by id, loaded into a
 * supervised policy thread before any connection is made; a syntax or load error is located and ends the
 * command with exit code 3.
 */
import type { PolicySupervisor } from '../../src/core/policy/supervisor';
import type { CallOutcome, PolicySource } from '../../src/core/policy/types';
import type { DecisionRequest, Protocol } from '../../src/core/protocols/contract';
import type { TranscriptRecorder } from '../../src/core/transcript/recorder';
import type { CommandContext } from '../command-line/command-spec';
import type { OptionReader } from '../command-line/option-values';
import { describePolicyFault, loadPolicy, loadPolicyFile } from '../policy/policy-file';

/** A loaded policy and how to ask it. */
export interface PlayPolicy {
  supervisor: PolicySupervisor;
  source: PolicySource;
  /** Asks the policy; its printed lines and a fault are annotated on the transcript. */
  decide(request: DecisionRequest, recorder: TranscriptRecorder): Promise<CallOutcome>;
  /** The first fault, if the policy failed during the session. */
  readonly fault: string | undefined;
}

/** Loads `--policy` (default: the protocol's default sample) with `--budget`. */
export async function loadPlayPolicy(
  protocol: Protocol,
  options: OptionReader,
  context: CommandContext,
  seed: number,
): Promise<PlayPolicy> {
  const name = options.string('policy', protocol.defaultSample);
  const budgetMs = options.integer('budget', 2000, { min: 1 });
  const sample = protocol.samples.find((candidate) => candidate.id === name);
  const { supervisor, source } = sample
    ? await loadPolicy(
        {
          code: sample.code,
          language: sample.language,
          fileName: `${sample.id}.${sample.language}`,
          level: sample.level,
          seed,
        },
        { protocol, budgetMs },
      )
    : await loadPolicyFile(name, { cwd: context.io.cwd, seed, protocol, budgetMs });
  let fault: string | undefined;
  return {
    supervisor,
    source,
    get fault() {
      return fault;
    },
    async decide(request, recorder) {
      const outcome = await supervisor.call(request.hook, request.args, {}, request.site);
      for (const line of outcome.logs) recorder.annotate('policy-log', { ...line, ...request.site });
      if (!outcome.ok) {
        recorder.annotate('error', { source: 'policy', ...outcome.fault });
        fault ??= describePolicyFault(outcome.fault, source.fileName);
      }
      return outcome;
    },
  };
}
