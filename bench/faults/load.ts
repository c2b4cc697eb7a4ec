/**
 * Many connections at once against one `serve` child: each opens, has one short exchange (the protocol's
 * first message and its answer) and closes; all start together. Returns the time until all were answered
 * or failed, the failures, and the server's resident memory (sampled while they ran, and its kernel peak).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, type ServeTarget } from './harness';

/** What a load run measured. */
export interface LoadRun {
  protocol: string;
  connections: number;
  /** From the first connection opened to the last one answered or failed, ms. */
  ms: number;
  failures: number;
  /** One connection alone, before the load (median of five), ms: the baseline. */
  singleMs: number;
  baselineKb: number;
  sampledPeakKb: number;
  peakKb: number;
  serveCode: number;
}

/** Opens `connections` conversations at once against a fresh `serve` of `target`. */
export async function runLoad(target: ServeTarget, connections: number): Promise<LoadRun> {
  const dir = await mkdtemp(join(tmpdir(), `protoplay-load-${target.protocol}-`));
  try {
    const serve = await startServe(
      target.protocol,
      [...target.serveArgs(dir), '--max-connections', String(connections + 100)],
      dir,
    );
    const singles: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      await target.touch(serve.port);
      singles.push(performance.now() - start);
    }
    singles.sort((a, b) => a - b);
    let sampledPeakKb = serve.rssKb();
    const sampler = setInterval(() => (sampledPeakKb = Math.max(sampledPeakKb, serve.rssKb())), 50);
    const start = performance.now();
    const answered = await Promise.all(
      Array.from({ length: connections }, () => target.touch(serve.port).catch(() => false)),
    );
    const ms = performance.now() - start;
    clearInterval(sampler);
    const { code, peakKb } = await serve.stop();
    return {
      protocol: target.protocol,
      connections,
      ms,
      failures: answered.filter((ok) => !ok).length,
      singleMs: singles[2]!,
      baselineKb: serve.baselineKb,
      sampledPeakKb,
      peakKb,
      serveCode: code,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
