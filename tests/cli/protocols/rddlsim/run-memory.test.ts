/**
 * `protoplay run rddlsim` keeps nothing per round: a session longer than its heap could hold completes in
 * a child process given a 64 MB heap, through the XML messages, played directly, and with its
 * transcript streamed to a file larger than that heap, which `protoplay inspect` then reads in chunks in a
 * child with the same small heap. Before, every message stayed in memory (about 1.6 MB per round on
 * crossing_traffic_inst_mdp__10) and such a session aborted with an out-of-memory error. No figure here depends on the machine's speed.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChild, type CliResult } from '../../run-cli';
import { sharedPath } from '../../shared-folder';

const DOMAIN = sharedPath('rddl/ippc2011/crossing_traffic_mdp.rddl');
const INSTANCE = sharedPath('rddl/ippc2011/crossing_traffic_inst_mdp__10.rddl');
const HEAP_MB = 64;

let dir: string;

/** The messages of a transcript file as its writer lays them out: one line each inside `"messages"`. */
async function messageLines(file: string): Promise<number> {
  let count = 0;
  let inside = false;
  for await (const line of createInterface({ input: createReadStream(file) })) {
    if (line === '  "messages": [') inside = true;
    else if (inside && line.startsWith('  ]')) break;
    else if (inside && line.startsWith('    {"index":')) count++;
  }
  return count;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-memory-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `protoplay run rddlsim` on crossing_traffic_inst_mdp__10 in a child with a small heap. */
function runWithSmallHeap(args: string[]): Promise<CliResult> {
  return smallHeap([
    'run',
    'rddlsim',
    '--domain',
    DOMAIN,
    '--instance',
    INSTANCE,
    '--time-limit',
    '0',
    ...args,
  ]);
}

/** `protoplay ...args` in a child with a small heap. */
function smallHeap(args: string[]): Promise<CliResult> {
  return runChild(args, { nodeArgs: [`--max-old-space-size=${HEAP_MB}`] });
}

describe('protoplay run rddlsim memory', () => {
  it('plays 200 rounds through the XML messages in a 64 MB heap', async () => {
    const result = await runWithSmallHeap(['--rounds', '200', '--wire']);
    expect(result.stderr).not.toMatch(/heap out of memory/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^round 200\/200 /m);
  });

  it('plays 2,000 rounds directly on the simulator in a 64 MB heap, with the rewards of the message path', async () => {
    const result = await runWithSmallHeap(['--rounds', '2000', '--seed', '3']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^round 2000\/2000 /m);
    const wire = await runWithSmallHeap(['--rounds', '20', '--seed', '3', '--wire']);
    const rounds = (text: string) => text.split('\n').filter((line) => line.startsWith('round '));
    expect(
      rounds(result.stdout)
        .slice(0, 20)
        .map((line) => line.replace('/2000', '/20')),
    ).toEqual(rounds(wire.stdout));
  });

  it('streams a transcript larger than its heap to the file, which inspect accepts', async () => {
    const file = join(dir, 'long.json');
    const result = await runWithSmallHeap(['--rounds', '120', '--transcript', file]);
    expect(result.code).toBe(0);
    // Larger than the whole heap: it was never held in memory.
    expect((await stat(file)).size).toBeGreaterThan(HEAP_MB * 1024 * 1024);
    const inspected = await runChild(['inspect', file]);
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toMatch(/120 rounds, 0 violations/);
    // Read in chunks, it is inspected in a heap smaller than the file, with every message counted.
    const streamed = await smallHeap(['inspect', file, '--json']);
    expect(streamed.stderr).not.toMatch(/heap out of memory/);
    expect(streamed.code).toBe(0);
    const report = JSON.parse(streamed.stdout) as { format: string; messages: number; rounds: unknown[] };
    expect(report.format).toBe('protoplay-json');
    expect(report.rounds).toHaveLength(120);
    expect(report.messages).toBe(await messageLines(file));
  });
});
