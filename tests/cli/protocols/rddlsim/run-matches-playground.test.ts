/**
 * Same seed, same policy, same instance: `protoplay run` and the playground's emulated session record the
 * same transcript, message by message and annotation by annotation. The playground runs `EmulatedSession`
 * with a supervised policy runtime (in a Web Worker); here it is built directly from core with the same
 * options and the same runtime in-process, while the command line runs the policy in its worker thread.
 * The clock is fixed on both sides, so even the time-left values agree.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl/index';
import { createInProcessEndpoint } from '../../../../src/core/policy/in-process-endpoint';
import { PolicySupervisor } from '../../../../src/core/policy/supervisor';
import { instanceSummary } from '../../../../src/core/protocols/rddlsim/action-encoding';
import { rddlsimTaskText } from '../../../../src/core/protocols/rddlsim/host';
import { EmulatedSession } from '../../../../src/core/protocols/rddlsim/session';
import type { SessionPolicy } from '../../../../src/core/protocols/rddlsim/session-policy';
import { parseTranscriptJson } from '../../../../src/core/transcript/json-format';
import { runInProcess } from '../../run-cli';
import { sharedPath } from '../../shared-folder';

const DOMAIN = sharedPath('rddl/ippc2011/elevators_mdp.rddl');
const INSTANCE = sharedPath('rddl/ippc2011/elevators_inst_mdp__1.rddl');
const SEED = 11;
const ROUNDS = 3;
const NOW = () => 1_700_000_000_000;

/** Random, remembers things, logs, and has round hooks: every kind of annotation shows up. */
const POLICY = `
export function act(observation, context) {
  context.memory.turns = (context.memory.turns ?? 0) + 1;
  if (observation.turn % 10 === 0) console.log('turn', observation.turn, 'reward', observation.reward);
  const actions = context.instance.actions.filter((action) => action.range === 'bool');
  const pick = actions[Math.floor(context.random() * actions.length)];
  const args = pick.params.map((type) => {
    const values = context.instance.objects[type];
    return values[Math.floor(context.random() * values.length)];
  });
  return context.random() < 0.3 ? null : { name: pick.name, args };
}
export function onRoundEnd(summary, context) {
  console.log('round', summary.round, 'reward', summary.reward, 'after', context.memory.turns, 'turns');
}
`;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'protoplay-same-'));
  await writeFile(join(dir, 'policy.js'), POLICY);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The playground's way: EmulatedSession asking a supervised policy runtime, as its session worker does. */
async function playgroundTranscript() {
  const texts = [DOMAIN, INSTANCE].map((path) => readFileSync(path, 'utf8'));
  const model = loadRddl([
    { name: DOMAIN, text: texts[0]! },
    { name: INSTANCE, text: texts[1]! },
  ]);
  const supervisor = new PolicySupervisor({ spawn: createInProcessEndpoint, budgetMs: 1000 });
  const loaded = await supervisor.load({
    code: POLICY,
    language: 'js',
    fileName: 'policy.js',
    level: 'policy',
    seed: SEED,
  });
  expect(loaded.ok).toBe(true);
  const context = { instance: instanceSummary(model.info) };
  const policy: SessionPolicy = {
    act: (observation, site) => supervisor.call('act', [observation], context, site),
    hook: (name, args, site) => supervisor.call(name, args, context, site),
  };
  const session = new EmulatedSession({
    model,
    task: rddlsimTaskText(texts[0]!, texts[1]!),
    policy,
    rounds: ROUNDS,
    seed: SEED,
    sendInvalidActions: true,
    onPolicyFault: 'stop',
    now: NOW,
  });
  await session.run();
  supervisor.dispose();
  return session.transcript;
}

describe('run and the playground', () => {
  it('record the same transcript for the same seed, policy and instance', async () => {
    const result = await runInProcess(
      [
        'run',
        'rddlsim',
        '--domain',
        DOMAIN,
        '--instance',
        INSTANCE,
        '--policy',
        'policy.js',
        '--rounds',
        String(ROUNDS),
        '--seed',
        String(SEED),
        '--transcript',
        'run.json',
        // The playground records the world at every turn: so does run when asked.
        '--record-world',
        '--json',
      ],
      { cwd: dir, now: NOW },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const fromCli = parseTranscriptJson(await readFile(join(dir, 'run.json'), 'utf8'));
    const fromPlayground = await playgroundTranscript();

    expect(fromCli.messages.length).toBeGreaterThan(ROUNDS * 2 * 40);
    fromPlayground.messages.forEach((message, i) => expect(fromCli.messages[i]).toEqual(message));
    expect(fromCli.messages).toHaveLength(fromPlayground.messages.length);
    expect(fromCli.annotations).toEqual(fromPlayground.annotations);
    expect(fromCli.annotations.filter((a) => a.type === 'world')).toHaveLength(
      fromCli.messages.filter((m) => m.text?.includes('<turn>')).length,
    );
    expect(fromCli.annotations.filter((a) => a.type === 'policy-log').length).toBeGreaterThan(ROUNDS);
    expect(fromCli.connections).toEqual(fromPlayground.connections);
  });
});
