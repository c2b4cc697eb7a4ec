/**
 * The probe environment of the conformance recordings (`probe_env`, described in their README), in
 * TypeScript: it exercises what Nim cannot (no abandoning, two action requests per response, a crash).
 * Percept `{count}`; `"inc"` counts up (a run ends at 3), `"stop"` ends it with the count, `"crash"`
 * raises, anything else is rejected.
 */
import {
  DEFAULT_ENV_SETTINGS,
  EnvironmentCrash,
  type AisysEnvironment,
  type AisysEnvironmentClass,
} from '../../../../src/core/envs/aisys/api';
import { pythonRepr } from '../../../../src/core/envs/aisys/python';

type ProbeState = { count: number };

function createProbe(): AisysEnvironment<ProbeState> {
  return {
    settings: {
      ...DEFAULT_ENV_SETTINGS,
      canAbandonRuns: false,
      actionRequestsPerResponse: 2,
      minRunsForFullyEvaluated: 3,
    },
    newRun: () => ({ count: 0 }),
    percept: (run) => ({ count: run.state.count }),
    act(action, run) {
      const { count } = run.state;
      if (action === 'inc') {
        const next = count + 1;
        if (next >= 3) return { ok: true, state: { count: next }, message: 'reached 3', outcome: next };
        return { ok: true, state: { count: next }, message: `count is now ${next}`, extra: next };
      }
      if (action === 'stop') return { ok: true, state: { count }, outcome: count };
      if (action === 'crash') throw new EnvironmentCrash('RuntimeError', 'probe plugin crashed on purpose');
      return { ok: false, message: `unknown action ${pythonRepr(action)}` };
    },
  };
}

/** The probe class, under the name the recordings' `makeenv` used. */
export const PROBE_CLASS: AisysEnvironmentClass = {
  id: 'probe',
  aliases: ['probe_env.environment:Environment'],
  label: 'Probe',
  create: (): AisysEnvironment => createProbe(),
};
