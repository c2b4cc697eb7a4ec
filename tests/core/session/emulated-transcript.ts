/** Test helpers: a real emulated rddlsim session played in-process, and its transcript cut into batches. */
import { DEFAULT_EXAMPLE, exampleSources, loadRddl } from '../../../src/core/envs/rddl';
import { createInProcessEndpoint } from '../../../src/core/policy/in-process-endpoint';
import { PolicySupervisor } from '../../../src/core/policy/supervisor';
import { instanceSummary } from '../../../src/core/protocols/rddlsim/action-encoding';
import { rddlsimTaskText } from '../../../src/core/protocols/rddlsim/host';
import { EmulatedSession } from '../../../src/core/protocols/rddlsim/session';
import type { Annotation, Transcript, TranscriptMessage } from '../../../src/core/transcript/model';
import { RDDLSIM_SAMPLES } from '../../../src/core/protocols/rddlsim/samples';

/**
 * A session of the default domain with the heuristic sample policy (it logs, so the transcript has
 * policy logs besides world states and notes).
 */
export async function playEmulatedSession(rounds: number): Promise<Transcript> {
  const model = loadRddl(exampleSources(DEFAULT_EXAMPLE));
  const supervisor = new PolicySupervisor({ spawn: createInProcessEndpoint, budgetMs: 10_000 });
  const code = RDDLSIM_SAMPLES.find((s) => s.id === 'network-heuristic')!.code;
  await supervisor.load({
    code,
    language: 'ts',
    fileName: 'policy.ts',
    level: 'policy',
    seed: 1,
    context: { instance: instanceSummary(model.info) },
  });
  const session = new EmulatedSession({
    model,
    task: rddlsimTaskText(DEFAULT_EXAMPLE.domain, DEFAULT_EXAMPLE.instance),
    rounds,
    seed: 1,
    onPolicyFault: 'stop',
    policy: {
      act: (observation, site) => supervisor.call('act', [observation], {}, site),
      hook: (name, args, site) => supervisor.call(name, args, {}, site),
    },
  });
  await session.run();
  return session.transcript;
}

/**
 * The transcript cut as a recorder grows it: every `size` messages, with the annotations recorded by then
 * (an annotation is recorded after the message it hangs off).
 */
export function splitIntoBatches(
  transcript: Transcript,
  size: number,
): { messages: TranscriptMessage[]; annotations: Annotation[] }[] {
  const batches: { messages: TranscriptMessage[]; annotations: Annotation[] }[] = [];
  let attached = 0;
  for (let from = 0; from < transcript.messages.length; from += size) {
    const to = Math.min(transcript.messages.length, from + size);
    let until = attached;
    while (
      until < transcript.annotations.length &&
      (to === transcript.messages.length || transcript.annotations[until]!.index < to)
    )
      until++;
    batches.push({
      messages: transcript.messages.slice(from, to),
      annotations: transcript.annotations.slice(attached, until),
    });
    attached = until;
  }
  return batches;
}
