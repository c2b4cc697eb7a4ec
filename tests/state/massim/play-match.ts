/**
 * Plays MASSim matches in-process the way the playground's session worker does, minus the workers: each
 * team's policy in a team runtime, asked once per step with the team's batch.
 */
import { quickMassimConfig, type MassimQuickSetup } from '../../../src/core/envs/massim';
import type { PolicySource } from '../../../src/core/policy/types';
import {
  MassimMatchRunner,
  batchedTeamDecide,
  type MassimMatchResult,
  type MassimTeamBatchReply,
  type MassimWireReply,
  type MassimWireTeam,
} from '../../../src/core/protocols/massim';
import {
  MASSIM_TEAM_STEP,
  MASSIM_WIRE_EVENT,
  MassimTeamRuntime,
} from '../../../src/core/protocols/massim/team-runtime';
import { MASSIM_SAMPLES } from '../../../src/core/protocols/massim/samples';

/** A policy source of the given code (TypeScript). */
export function policySource(code: string, level: 'policy' | 'wire' = 'policy', seed = 1): PolicySource {
  return { code, language: 'ts', fileName: 'policy.ts', level, seed };
}

/** The code of a sample. */
export function sampleCode(id: string): string {
  const sample = MASSIM_SAMPLES.find((s) => s.id === id);
  if (!sample) throw new Error(`no sample ${id}`);
  return sample.code;
}

/** A loaded team runtime; throws with the fault when the policy does not load. */
export function loadTeam(source: PolicySource): MassimTeamRuntime {
  const runtime = new MassimTeamRuntime();
  const loaded = runtime.load(source);
  if (!loaded.ok) throw new Error(`the policy did not load: ${loaded.fault.message}`);
  return runtime;
}

/** Plays one match; team policies by team name, each at its own level. */
export async function playMatch(options: {
  teams: Record<string, PolicySource>;
  setup?: MassimQuickSetup;
  seed?: number;
}): Promise<{ result: MassimMatchResult; runner: MassimMatchRunner; logs: string[] }> {
  const logs: string[] = [];
  const teams: Record<string, ReturnType<typeof batchedTeamDecide>> = {};
  const wireTeams: Record<string, MassimWireTeam> = {};
  for (const [name, source] of Object.entries(options.teams)) {
    const runtime = loadTeam(source);
    if (source.level === 'wire') {
      wireTeams[name] = async (event) => {
        const outcome = await runtime.call(MASSIM_WIRE_EVENT, [event], {});
        logs.push(...outcome.logs.map((line) => line.text));
        if (!outcome.ok) throw new Error(outcome.fault.message);
        return outcome.value as MassimWireReply;
      };
      continue;
    }
    teams[name] = batchedTeamDecide(async (batch) => {
      const outcome = await runtime.call(MASSIM_TEAM_STEP, [batch], {});
      logs.push(...outcome.logs.map((line) => line.text));
      if (!outcome.ok) throw new Error(outcome.fault.message);
      return outcome.value as MassimTeamBatchReply;
    });
  }
  const runner = new MassimMatchRunner({
    config: quickMassimConfig(options.setup),
    teams,
    wireTeams,
    seed: options.seed ?? 1,
  });
  const result = await runner.run();
  return { result, runner, logs };
}
