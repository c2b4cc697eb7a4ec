/**
 * A hook for the browser benchmark, installed only when the page is opened with `?bench`: plays one MASSim
 * match at full speed through the real workers and reports how long it took until the page had every
 * step. Nothing in the playground calls it.
 */
import type { MassimSession } from '../../state/protocols/massim/session.svelte';
import type { MassimWorkspace } from '../../state/protocols/massim/workspace.svelte';
import type { MassimBenchRequest, MassimBenchResult } from './bench-api';

declare global {
  interface Window {
    protoplayMassimBench?: (request: MassimBenchRequest) => Promise<MassimBenchResult>;
  }
}

/** Installs `window.protoplayMassimBench` when the URL asks for it. */
export function installMassimBenchHook(session: MassimSession, workspace: MassimWorkspace): void {
  if (!new URLSearchParams(location.search).has('bench')) return;
  window.protoplayMassimBench = async (request) => {
    const team = { code: request.code, language: 'ts' as const, level: 'policy' as const };
    const started = performance.now();
    await session.run({
      protocol: 'massim',
      environment: 'agents-assemble',
      rounds: 1,
      seed: request.seed,
      delayMs: 0,
      budgetMs: 10_000,
      startPaused: false,
      policy: workspace.policySource(team, 'team-a'),
      massim: {
        match: {
          kind: 'quick',
          setup: {
            agentsPerTeam: request.agentsPerTeam,
            steps: request.steps,
            width: request.width,
            height: request.height,
          },
        },
        otherTeams: workspace.policySource(team, 'team-b'),
        faithfulRaces: false,
      },
    });
    while (session.active) await new Promise((resolve) => setTimeout(resolve, 2));
    return {
      steps: session.frames.length,
      messages: session.rowCount,
      ms: performance.now() - started,
      phase: session.phase,
    };
  };
}
