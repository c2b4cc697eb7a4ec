/**
 * `protoplay run massim` keeps nothing per step: a long match of the emulated host and batched team
 * policies (what `run massim` plays, minus the policy threads) completes in a child process given a 16 MB
 * heap, and the same match keeping its whole transcript in memory, as `run massim` did before, aborts out
 * of memory there. No figure here depends on the machine's speed.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChild, type CliResult } from './run-cli';

// In a 16 MB heap the match that keeps its transcript aborts between 1,500 and 2,000 steps here, and the
// one that keeps nothing plays 3,000 steps even in 12 MB: 3,000 steps leave room on both sides.
const HEAP_MB = 16;
const STEPS = 3000;
const MATCH = resolve(import.meta.dirname, 'fixtures/massim-long-match.mts');

/** The long match in a child with a small heap. */
function playWithSmallHeap(args: string[]): Promise<CliResult> {
  return runChild(args, { bin: MATCH, nodeArgs: [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx'] });
}

/** `protoplay ...args` in a child with a heap of `heapMb`. */
function runWithHeap(heapMb: number, args: string[]): Promise<CliResult> {
  return runChild(args, { nodeArgs: [`--max-old-space-size=${heapMb}`] });
}

describe('run massim memory', () => {
  it('plays 3,000 steps of 2 x 20 agents in a 16 MB heap, which the whole transcript kept did not fit', async () => {
    const flat = await playWithSmallHeap([String(STEPS)]);
    expect(flat.stderr).not.toMatch(/heap out of memory/);
    expect(flat.code).toBe(0);
    expect(flat.stdout).toBe(`played ${STEPS} steps\n`);
    const kept = await playWithSmallHeap([String(STEPS), 'keep']);
    expect(kept.stderr).toMatch(/heap out of memory/);
    expect(kept.code).not.toBe(0);
  }, 900_000);

  it('plays 1,500 steps of 2 x 20 agents with policy threads in a 32 MB heap (protoplay run massim)', async () => {
    // The command users run, threads included, in a heap its whole transcript would not fit for long. (The
    // test above shows the growth failing; this one that the command, with its policy threads, holds up.
    // At 6,000 steps it aborted out of memory before; 1,500 keeps the test short on a shared machine.)
    const result = await runWithHeap(32, [
      'run',
      'massim',
      ...[
        '--steps',
        '1500',
        '--agents',
        '20',
        '--grid',
        '20x20',
        '--policy',
        'skip',
        '--seed',
        '1',
        '--json',
      ],
    ]);
    expect(result.stderr).not.toMatch(/heap out of memory/);
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout) as { status: string; simulations: { steps: number }[] };
    expect(document.status).toBe('finished');
    expect(document.simulations).toEqual([expect.objectContaining({ steps: 1500 })]);
  }, 600_000);
});
