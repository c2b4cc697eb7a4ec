/**
 * The evaluation runner (src/core/evaluation) with its real Node threads (cli/evaluate/threads.ts):
 * rddlsim episodes give the rewards `protoplay run rddlsim` gives for the same seed; a policy that throws,
 * one that loops and one that eats memory are each stopped with their reason while the others go on;
 * cancelling keeps what ended.
 */
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import {
  Evaluation,
  type EvaluatedPolicy,
  type EvaluationPlan,
} from '../../../src/core/evaluation/evaluation';
import { buildReport } from '../../../src/core/evaluation/report';
import type { RddlEvaluationSettings } from '../../../src/core/protocols/rddlsim/evaluation';
import { inProcessThread, spawnEvaluationThread } from '../../../cli/evaluate/threads';
import { COMPILED_BIN, runInProcess } from '../run-cli';
import { sharedPath } from '../shared-folder';

/**
 * The evaluation thread's entry the threads start: the compiled command line's, when the run compiled it
 * (tests/setup/compiled-cli.ts), which starts without loading the sources through tsx in every thread;
 * otherwise the sources' own. tests/cli/compiled-cli.test.ts compares the two.
 */
const THREAD_ENTRY = COMPILED_BIN
  ? new URL('evaluation-thread-entry.js', pathToFileURL(COMPILED_BIN))
  : undefined;
const thread = (memoryMb: number) => spawnEvaluationThread(memoryMb, THREAD_ENTRY);

const DOMAIN = sharedPath('rddl/ippc2011/sysadmin_mdp.rddl');
const INSTANCE = sharedPath('rddl/ippc2011/sysadmin_inst_mdp__1.rddl');

const policy = (fileName: string, code: string): EvaluatedPolicy => ({
  label: fileName,
  source: { code, fileName, language: fileName.endsWith('.ts') ? 'ts' : 'js', level: 'policy' },
});

const NOOP = policy('noop.js', 'export function act() { return null; }');
const REBOOT = policy(
  'reboot.ts',
  [
    'export function act(observation: { values: Record<string, unknown> }, context: { random(): number }) {',
    '  const down = Object.keys(observation.values).filter((key) => observation.values[key] === false);',
    '  if (down.length === 0) return null;',
    '  const key = down[Math.floor(context.random() * down.length)]!;',
    "  return { name: 'reboot', args: [key.slice(key.indexOf('(') + 1, -1)] };",
    '}',
  ].join('\n'),
);
const THROWS = policy(
  'throws.js',
  [
    'export function act(observation) {',
    "  if (observation.turn === 3) throw new Error('boom');",
    '  return null;',
    '}',
  ].join('\n'),
);
const LOOPS = policy(
  'loops.js',
  [
    'export function act(observation) {',
    '  if (observation.turn === 2) while (true) {}',
    '  return null;',
    '}',
  ].join('\n'),
);
const HOG = policy(
  'hog.js',
  [
    'const kept = [];',
    'export function act() {',
    '  for (;;) kept.push(new Array(1e5).fill(Math.random()));',
    '}',
  ].join('\n'),
);

async function settings(): Promise<RddlEvaluationSettings> {
  const files = await Promise.all(
    [DOMAIN, INSTANCE].map(async (name) => ({ name, text: await readFile(name, 'utf8') })),
  );
  return { files, instance: 'sysadmin_inst_mdp__1' };
}

async function plan(
  policies: EvaluatedPolicy[],
  extra: Partial<EvaluationPlan> = {},
): Promise<EvaluationPlan> {
  return {
    protocol: 'rddlsim',
    unit: 'round',
    settings: await settings(),
    policies,
    seeds: [1, 2, 3],
    rounds: 1,
    workers: 2,
    budgetMs: 10_000,
    ...extra,
  };
}

describe('evaluation runner', () => {
  it('plays each seed as `run rddlsim --seed S` does, in this thread or in worker threads alike', async () => {
    const evaluationPlan = await plan([NOOP, REBOOT], { rounds: 2 });
    const inProcess = new Evaluation(evaluationPlan, { spawn: () => inProcessThread() });
    const threaded = new Evaluation(evaluationPlan, { spawn: () => thread(256) });
    const [local, isolated] = await Promise.all([inProcess.run(), threaded.run()]);
    for (const results of [local, isolated]) {
      expect(results.map((r) => [r.episodes, r.summary.n, r.failures.length])).toEqual([
        [3, 6, 0],
        [3, 6, 0],
      ]);
    }
    expect([...isolated[1]!.rewards]).toEqual([...local[1]!.rewards]);
    for (const seed of [1, 3]) {
      const run = await runInProcess([
        'run',
        'rddlsim',
        '--domain',
        DOMAIN,
        '--instance',
        INSTANCE,
        '--policy',
        'noop',
        '--seed',
        String(seed),
        '--rounds',
        '2',
        '--json',
      ]);
      expect(run.code).toBe(0);
      const rewards = (JSON.parse(run.stdout) as { rounds: { reward: number }[] }).rounds.map(
        (r) => r.reward,
      );
      expect(local[0]!.rewards.get(seed)).toEqual(rewards);
    }
    // The reboot policy is better than doing nothing, and the comparison says so.
    const report = buildReport(evaluationPlan, local, { environment: 'sysadmin', cancelled: false });
    expect(report.comparisons[0]).toMatchObject({ policy: 'reboot.ts', baseline: 'noop.js', pairs: 6 });
    expect(report.comparisons[0]!.meanDifference!).toBeGreaterThan(0);
    expect(report.status).toBe('complete');
  });

  it('stops a policy that throws, one that loops past its budget and one that eats its memory; the rest go on', async () => {
    const failures: string[] = [];
    const evaluation = new Evaluation(
      await plan([THROWS, NOOP, LOOPS, HOG], { budgetMs: 1500, seeds: [1, 2], workers: 2 }),
      {
        spawn: (index) => thread(index === 3 ? 48 : 256),
        listener: { failure: (index, failure) => failures.push(`${index}:${failure.kind}`) },
      },
    );
    // The memory hog may take long to fill its heap on a loaded machine; its own budget must not win.
    const results = await evaluation.run();
    const [throws, noop, loops, hog] = results;
    expect(noop).toMatchObject({ episodes: 2, stopped: false, failures: [] });
    expect(throws!.stopped).toBe(true);
    expect(throws!.failures[0]).toMatchObject({ kind: 'fault', round: 1, turn: 3 });
    expect(throws!.failures[0]!.reason).toMatch(/^throws\.js:2:\d+: Error: boom$/);
    expect(loops!.failures[0]).toMatchObject({ kind: 'timeout', round: 1, turn: 2 });
    expect(loops!.failures[0]!.reason).toMatch(/budget of 1500 ms on round 1, turn 2/);
    expect(hog!.stopped).toBe(true);
    expect(['memory', 'timeout']).toContain(hog!.failures[0]!.kind);
    expect(failures.length).toBeGreaterThanOrEqual(3);
    const report = buildReport(evaluation.plan, results, { environment: 'sysadmin', cancelled: false });
    expect(report.status).toBe('failures');
    expect(report.policies.map((p) => p.status)).toEqual(['failed', 'evaluated', 'failed', 'failed']);
  });

  it('reports running out of memory as such when the budget is generous', async () => {
    const evaluation = new Evaluation(await plan([HOG], { budgetMs: 100_000, seeds: [1], workers: 1 }), {
      spawn: () => thread(48),
    });
    const [hog] = await evaluation.run();
    expect(hog!.failures).toHaveLength(1);
    expect(hog!.failures[0]).toMatchObject({ kind: 'memory', seed: 1 });
    expect(hog!.failures[0]!.reason).toMatch(/ran out of memory \(the cap is 48 MB\)/);
  });

  it('keeps the episodes that ended when cancelled', async () => {
    let evaluation: Evaluation | undefined = undefined;
    evaluation = new Evaluation(
      await plan([NOOP], { seeds: Array.from({ length: 200 }, (_, i) => i + 1), workers: 1 }),
      {
        spawn: () => thread(256),
        listener: { episode: () => evaluation!.cancel() },
      },
    );
    const [noop] = await evaluation.run();
    expect(evaluation.cancelled).toBe(true);
    expect(noop!.episodes).toBeGreaterThanOrEqual(1);
    expect(noop!.episodes).toBeLessThan(200);
    expect(noop!.skipped).toBe(200 - noop!.episodes);
    expect(noop!.failures).toEqual([]);
    const report = buildReport(evaluation.plan, [noop!], { environment: 'sysadmin', cancelled: true });
    expect(report.status).toBe('interrupted');
  });
});
