/**
 * A hook for the browser benchmark, installed only when the page is opened with `?bench`: runs one
 * session at full speed through the real workers and reports how long it took until the page had every
 * message. Nothing in the playground calls it.
 */
import type { BenchRequest, BenchResult } from './bench-api';
import { PROTOCOLS } from '../core/protocols/registry';
import type { Shell } from '../ui/protocols/adapter';

declare global {
  interface Window {
    protoplayBench?: (request: BenchRequest) => Promise<BenchResult>;
    /**
     * How often sessions started from now on store their transcript while running (0: never), and
     * whether each store writes the whole transcript instead of what is new (the benchmark's baseline).
     */
    protoplayKeepWhileRunning?: (ms: number, whole?: boolean) => Promise<void>;
  }
}

/** Installs `window.protoplayBench` when the URL asks for it. */
export function installBenchHook(shell: Shell): void {
  if (!new URLSearchParams(location.search).has('bench')) return;
  window.protoplayKeepWhileRunning = (ms, whole) => shell.session.setKeepWhileRunning(ms, whole);
  window.protoplayBench = async (request) => {
    const started = performance.now();
    const { session } = shell;
    // The benchmark plays the protocol asked for, by default the first one's built-in environments.
    await session.run({
      protocol: request.protocol ?? PROTOCOLS[0]!.id,
      environment: request.environment,
      rounds: request.rounds,
      seed: request.seed,
      delayMs: 0,
      budgetMs: 10_000,
      startPaused: request.startPaused ?? false,
      policy: request.policy,
      ...(request.options !== undefined ? { options: request.options } : {}),
    });
    if (request.startPaused) session.resume();
    while (session.active) await new Promise((resolve) => setTimeout(resolve, 2));
    const ms = performance.now() - started;
    return {
      turns: session.transcript.turns.length,
      messages: session.transcript.messages.length,
      ms,
      phase: session.phase,
    };
  };
}
