/** The browser benchmark's request and result (see `bench-hook.ts`), shared with the benchmark script. */
import type { PolicySource } from '../core/policy/types';

/** What the benchmark asks for. */
export interface BenchRequest {
  /** The protocol to play (default: the first registered). */
  protocol?: string;
  environment: string;
  rounds: number;
  seed: number;
  policy: PolicySource;
  /** The protocol's own settings (`SessionConfig.options`). */
  options?: unknown;
  /**
   * Start paused and resume at once: the session plays as if the learner had pressed Step, then Run (a
   * protocol may take another path then, e.g. GAMA's step-by-step one).
   */
  startPaused?: boolean;
}

/** What one benchmarked session did. */
export interface BenchResult {
  /** Policy decisions (turn messages received). */
  turns: number;
  messages: number;
  /** From the Run request to the page holding the finished transcript. */
  ms: number;
  phase: string;
}
