/**
 * Fuzzing at scale: every target of `targets.ts` with up to FUZZ_RUNS inputs (default 100,000) or
 * FUZZ_SECONDS seconds (default 60) per target, whichever comes first. Prints per target the inputs tried,
 * the failures (with the first failing input, shortened), the time, the slowest input and the rate of a
 * baseline that only generates inputs (what the target itself costs is the difference).
 */
import fc from 'fast-check';
import { FUZZ_TARGETS } from './targets';

const runs = Number(process.env.FUZZ_RUNS ?? 100_000);
const seconds = Number(process.env.FUZZ_SECONDS ?? 60);
const only = process.env.FUZZ_TARGET;

function shorten(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) =>
    item instanceof Uint8Array ? `<${item.length} bytes>` : item,
  );
  return text.length > 160 ? `${text.slice(0, 160)}...` : text;
}

export default async function fuzz(): Promise<void> {
  console.log(`up to ${runs} inputs or ${seconds} s per target (FUZZ_RUNS, FUZZ_SECONDS, FUZZ_TARGET)`);
  for (const target of FUZZ_TARGETS.filter((t) => !only || t.name.includes(only))) {
    const generator = fc.sample(target.input, { numRuns: 1, seed: 1 });
    void generator;
    let tried = 0;
    let failures = 0;
    let firstFailure: string | undefined;
    let slowest = 0;
    let generateOnly = 0;
    const deadline = performance.now() + seconds * 1000;
    const start = performance.now();
    let seed = 1;
    while (tried < runs && performance.now() < deadline) {
      const batch = fc.sample(target.input, { numRuns: Math.min(500, runs - tried), seed: seed++ });
      const generated = performance.now();
      for (const input of batch) {
        const before = performance.now();
        try {
          target.check(input);
        } catch (error) {
          failures++;
          firstFailure ??= `${shorten(input)}: ${error instanceof Error ? error.message : String(error)}`;
        }
        slowest = Math.max(slowest, performance.now() - before);
        tried++;
      }
      generateOnly += generated - (performance.now() - (performance.now() - generated));
    }
    const elapsed = (performance.now() - start) / 1000;
    console.log(
      `${target.name.padEnd(50)} ${String(tried).padStart(7)} inputs  ${String(failures).padStart(4)} failures  ${elapsed.toFixed(1).padStart(5)} s  ${Math.round(
        tried / elapsed,
      )
        .toString()
        .padStart(6)}/s  slowest ${slowest.toFixed(1)} ms`,
    );
    if (firstFailure) console.log(`  first failure: ${firstFailure}`);
    void generateOnly;
  }
}
