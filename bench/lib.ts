/**
 * Tiny benchmark helpers: time a function over repeated runs and print figures with ratios against a
 * baseline measured in the same run. Benchmarks print; they never pass or fail.
 */
import type { PlaygroundServices } from '../src/core/protocols/session-contract';

/** One measurement: how many operations per second, from the median of several timed batches. */
export interface Rate {
  label: string;
  opsPerSecond: number;
  /** Median seconds per batch. */
  seconds: number;
  ops: number;
  /**
   * Median CPU seconds (user + system) this process spent per batch, when measured in-process: unlike the
   * wall time, barely moved by other work on a loaded machine.
   */
  cpuSeconds?: number;
}

/**
 * Runs `batch` (which performs `opsPerBatch` operations) repeatedly: warm-up first, then `repeats` timed
 * batches; reports the median rate.
 */
export async function measureRate(
  label: string,
  opsPerBatch: number,
  batch: () => unknown | Promise<unknown>,
  { warmup = 2, repeats = 5 }: { warmup?: number; repeats?: number } = {},
): Promise<Rate> {
  for (let i = 0; i < warmup; i++) await batch();
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    await batch();
    const used = process.cpuUsage(startCpu);
    times.push((performance.now() - start) / 1000);
    cpu.push((used.user + used.system) / 1e6);
  }
  times.sort((a, b) => a - b);
  const seconds = times[Math.floor(times.length / 2)]!;
  return { label, opsPerSecond: opsPerBatch / seconds, seconds, ops: opsPerBatch, cpuSeconds: median(cpu) };
}

/** Formats a number with thousands separators and a sensible number of digits. */
export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Math.abs(x) >= 100) return Math.round(x).toLocaleString('en-US');
  return x.toLocaleString('en-US', { maximumSignificantDigits: 3 });
}

/** Prints a table of rows (first row = header) with aligned columns. */
export function printTable(title: string, rows: (string | number)[][]): void {
  const cells = rows.map((row) => row.map((c) => (typeof c === 'number' ? formatNumber(c) : c)));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  console.log(`\n## ${title}`);
  cells.forEach((row, r) => {
    console.log(row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
    if (r === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  });
}

/** The median of some figures (the upper middle one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * What a protocol's runner needs to show a transcript outside the page: no policy, no frames (the bench
 * asks its questions itself), nothing stored. `overrides` replaces some (a listener that times updates).
 */
export function showingServices(overrides: Partial<PlaygroundServices> = {}): PlaygroundServices {
  return {
    spawnPolicy: () => {
      throw new Error('a shown transcript runs no policy');
    },
    listener: { update: () => undefined },
    nextFrame: () => undefined,
    keepTranscript: async () => undefined,
    ...overrides,
  };
}
