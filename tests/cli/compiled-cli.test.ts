/**
 * The two ways `protoplay` starts give the same results: the sources through tsx (a clone of the
 * repository) and the command line compiled as the package compiles it (what the other child-process
 * tests start, tests/setup/compiled-cli.ts). A policy thread (`run`) and an evaluation thread
 * (`evaluate`) start from each. When the run did not compile the command line, this file compiles it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleCli, CLI_ENTRY } from '../../scripts/cli-bundle';
import { runChild, SOURCE_BIN, type CliResult } from './run-cli';
import { sharedPath } from './shared-folder';

const DOMAIN = sharedPath('rddl/ippc2011/sysadmin_mdp.rddl');
const INSTANCE = sharedPath('rddl/ippc2011/sysadmin_inst_mdp__1.rddl');

/** Reboots a random computer that is down; typed, so the policy compiler strips its types. */
const POLICY = [
  'interface Seen { values: Record<string, boolean | number | string> }',
  'export function act(observation: Seen, context: { random(): number }) {',
  '  const down = Object.keys(observation.values).filter((key) => observation.values[key] === false);',
  '  if (down.length === 0) return null;',
  '  const key = down[Math.floor(context.random() * down.length)]!;',
  "  return { name: 'reboot', args: [key.slice(key.indexOf('(') + 1, -1)] };",
  '}',
].join('\n');

let dir: string;
let compiled: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-compiled-'));
  await writeFile(join(dir, 'reboot.ts'), POLICY);
  const provided = inject('compiledCli');
  if (provided) compiled = provided;
  else {
    await bundleCli(join(dir, 'cli'), { logLevel: 'error' });
    await writeFile(join(dir, 'cli/package.json'), '{ "type": "module" }\n');
    compiled = join(dir, 'cli', CLI_ENTRY);
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the same command line with both commands, side by side. */
function runBoth(args: string[]): Promise<[CliResult, CliResult]> {
  return Promise.all([runWith(SOURCE_BIN, args), runWith(compiled, args)]);
}

function runWith(bin: string, args: string[]): Promise<CliResult> {
  return runChild(args, { cwd: dir, bin });
}

/** What an evaluation report says, without the times it measured. */
function withoutTimes(report: string): unknown {
  return JSON.parse(report, (key, value: unknown) =>
    ['msPerRound', 'seconds', 'threadStartMs'].includes(key) ? 'measured' : value,
  );
}

describe('protoplay from the sources and compiled', () => {
  it('plays the same rounds with a policy thread (run rddlsim --json)', async () => {
    const [sources, compiledRun] = await runBoth([
      ...['run', 'rddlsim', '--domain', DOMAIN, '--instance', INSTANCE, '--policy', 'reboot.ts'],
      ...['--rounds', '2', '--seed', '3', '--json'],
    ]);
    expect(sources.stderr).toBe('');
    expect(sources.code).toBe(0);
    const report = JSON.parse(sources.stdout) as { status: string; rounds: unknown[] };
    expect(report.status).toBe('finished');
    expect(report.rounds).toHaveLength(2);
    expect(compiledRun).toEqual(sources);
  });

  it('evaluates the same rewards in an evaluation thread (evaluate rddlsim --json)', async () => {
    const [sources, compiledRun] = await runBoth([
      ...['evaluate', 'rddlsim', '--domain', DOMAIN, '--instance', INSTANCE, '--policies', 'reboot.ts'],
      ...['--seeds', '1..2', '--workers', '1', '--budget', '60000', '--json'],
    ]);
    expect(sources.code).toBe(0);
    const report = withoutTimes(sources.stdout) as { status: string; policies: { rewards: object }[] };
    expect(report.status).toBe('complete');
    expect(Object.keys(report.policies[0]!.rewards)).toEqual(['1', '2']);
    expect(compiledRun.code).toBe(0);
    expect(withoutTimes(compiledRun.stdout)).toEqual(report);
    expect(compiledRun.stderr).toBe(sources.stderr);
  });

  it('prints the same help', async () => {
    const [sources, compiledRun] = await runBoth(['--help']);
    expect(sources.code).toBe(0);
    expect(sources.stdout).toMatch(/protoplay/);
    expect(compiledRun).toEqual(sources);
  });

  it("prints a document larger than a pipe's buffer whole before it exits", async () => {
    // One --json document of about 300 KB written at once: the pipe takes 64 KiB, the rest waits in the
    // process, which must not exit before it has left (it got cut at 65,536 bytes).
    await writeFile(
      join(dir, 'tick.rddl'),
      [
        'domain tick_mdp {',
        '  pvariables { go : { action-fluent, bool, default = false }; };',
        '  reward = 1.0;',
        '}',
        'instance tick1 { domain = tick_mdp; horizon = 1; discount = 1.0; }',
      ].join('\n'),
    );
    const rounds = 4000;
    const args = [
      'run',
      'rddlsim',
      '--domain',
      'tick.rddl',
      '--instance',
      'tick.rddl',
      '--rounds',
      String(rounds),
    ];
    for (const result of await runBoth([...args, '--json'])) {
      expect(result.code).toBe(0);
      expect(result.stdout.length).toBeGreaterThan(4 * 65_536);
      const report = JSON.parse(result.stdout) as { rounds: unknown[]; totalReward: number };
      expect(report.rounds).toHaveLength(rounds);
      expect(report.totalReward).toBe(rounds);
    }
  });
});
