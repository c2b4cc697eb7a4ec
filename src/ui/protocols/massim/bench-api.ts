/** The MASSim browser benchmark's request and result (see `bench-hook.ts`), shared with the benchmark script. */

/** One match to play as fast as possible, both teams with the same policy. */
export interface MassimBenchRequest {
  agentsPerTeam: number;
  steps: number;
  width: number;
  height: number;
  seed: number;
  /** Team policy source (TypeScript), for both teams. */
  code: string;
}

/** What one benchmarked match did. */
export interface MassimBenchResult {
  /** Steps the page shows at the end. */
  steps: number;
  messages: number;
  /** From the Run request to the page holding the last step. */
  ms: number;
  phase: string;
}
