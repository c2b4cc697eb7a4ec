/**
 * `protoplay run massim` keeps nothing per step: a match longer than its heap could once hold (6,000 steps
 * of 2 x 20 agents: the whole transcript stayed in memory and such a match aborted with an out-of-memory
 * error in a 32 MB heap) completes in a child process given that heap. No figure here depends on the
 * machine's speed.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, type CliResult } from './run-cli';

const HEAP_MB = 32;

/** `protoplay run massim` in a child with a small heap. */
function runWithSmallHeap(args: string[]): Promise<CliResult> {
  return new Promise((done, failed) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${HEAP_MB}`, BIN, 'run', 'massim', ...args],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', failed);
    child.once('close', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

describe('protoplay run massim memory', () => {
  it('plays 6,000 steps of 2 x 20 agents in a 32 MB heap', async () => {
    const result = await runWithSmallHeap([
      '--steps',
      '6000',
      '--agents',
      '20',
      '--grid',
      '20x20',
      '--policy',
      'skip',
      '--seed',
      '1',
      '--json',
    ]);
    expect(result.stderr).not.toMatch(/heap out of memory/);
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout) as { status: string; simulations: { steps: number }[] };
    expect(document.status).toBe('finished');
    expect(document.simulations).toEqual([expect.objectContaining({ steps: 6000 })]);
  }, 600_000);
});
