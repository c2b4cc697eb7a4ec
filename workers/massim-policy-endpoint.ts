/**
 * MASSim team policy workers as `PolicyEndpoint`s for the policy supervisor: the team runtime inside, one
 * worker kept started ahead. A step's batch hands its phrase numbers over instead of copying them.
 */
import type { PolicyEndpoint } from '../src/core/policy/supervisor';
import type { MassimTeamBatch } from '../src/core/protocols/massim';
import { MASSIM_TEAM_STEP } from '../src/core/protocols/massim/team-runtime';
import { keepOneAhead, workerEndpoint } from './policy-endpoint';

const teamWorkers = keepOneAhead(() =>
  workerEndpoint(
    new Worker(new URL('./massim-policy.worker.ts', import.meta.url), {
      type: 'module',
      name: 'massim-policy',
    }),
    {
      transfer: (hook, args) =>
        hook === MASSIM_TEAM_STEP ? [(args[0] as MassimTeamBatch).phrases.buffer] : [],
    },
  ),
);

/** A team policy worker, ready or nearly. */
export function spawnMassimPolicyWorker(): PolicyEndpoint {
  return teamWorkers.spawn();
}
