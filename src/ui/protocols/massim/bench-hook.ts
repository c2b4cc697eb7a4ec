/**
 * A hook for the browser benchmark, installed only when the page is opened with `?bench`: plays one MASSim
 * match at full speed through the real workers and reports how long it took until the page had every
 * step. Nothing in the playground calls it.
 */
import type { MassimSessionOptions } from '../../../core/protocols/massim/playground/options';
import type { Shell } from '../adapter';
import type { MassimPage } from './page.svelte';
import type { MassimBenchRequest, MassimBenchResult } from './bench-api';

declare global {
  interface Window {
    protoplayMassimBench?: (request: MassimBenchRequest) => Promise<MassimBenchResult>;
  }
}

/** Installs `window.protoplayMassimBench` when the URL asks for it. */
export function installMassimBenchHook(shell: Shell, page: MassimPage): void {
  if (!new URLSearchParams(location.search).has('bench')) return;
  window.protoplayMassimBench = async (request) => {
    const team = { code: request.code, language: 'ts' as const, level: 'policy' as const };
    const { session } = shell;
    const options: MassimSessionOptions = {
      match: {
        kind: 'quick',
        setup: {
          agentsPerTeam: request.agentsPerTeam,
          steps: request.steps,
          width: request.width,
          height: request.height,
        },
      },
      otherTeams: page.workspace.policySource(team, 'team-b'),
      faithfulRaces: false,
    };
    const started = performance.now();
    await shell.run({
      rounds: 1,
      seed: request.seed,
      delayMs: 0,
      budgetMs: 10_000,
      startPaused: false,
      policy: page.workspace.policySource(team, 'team-a'),
      options,
    });
    while (session.active) await new Promise((resolve) => setTimeout(resolve, 2));
    return {
      steps: page.reading.frames.length,
      messages: page.reading.rowCount,
      ms: performance.now() - started,
      phase: session.phase,
    };
  };
}
