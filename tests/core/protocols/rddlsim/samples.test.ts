import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { policyTypeErrors as typeErrors } from '../../../support/policy-type-check';
import { EXAMPLE_DOMAINS, exampleSources, loadRddl } from '../../../../src/core/envs/rddl';
import type { RddlModel } from '../../../../src/core/envs/rddl/api';
import { createInProcessEndpoint } from '../../../../src/core/policy/in-process-endpoint';
import { PolicySupervisor } from '../../../../src/core/policy/supervisor';
import { instanceSummary } from '../../../../src/core/protocols/rddlsim/action-encoding';
import { generatePolicyTypes } from '../../../../src/core/protocols/rddlsim/policy-types';
import { EmulatedSession } from '../../../../src/core/protocols/rddlsim/session';
import { RDDLSIM_SAMPLES } from '../../../../src/core/protocols/rddlsim/samples';
import {
  STARTER_POLICY_MARK,
  starterPolicy,
  starterPolicyDomain,
} from '../../../../src/core/protocols/rddlsim/starter-policy';

const models = new Map<string, RddlModel>(
  EXAMPLE_DOMAINS.map((example) => [example.id, loadRddl(exampleSources(example))]),
);

/** Plays a sample in-process (same runtime as the policy worker, no worker boundary). */
async function play(code: string, level: 'policy' | 'wire', environment: string, seed: number, rounds = 3) {
  const model = models.get(environment)!;
  const example = EXAMPLE_DOMAINS.find((e) => e.id === environment)!;
  const supervisor = new PolicySupervisor({ spawn: createInProcessEndpoint, budgetMs: 5_000 });
  const summary = instanceSummary(model.info);
  const loaded = await supervisor.load({
    code,
    language: 'ts',
    fileName: 'policy.ts',
    level,
    seed,
    context: { instance: summary },
  });
  expect(loaded).toMatchObject({ ok: true });
  const session = new EmulatedSession({
    model,
    task: `${example.domain}\n\n${example.instance}\n`,
    rounds,
    seed,
    onPolicyFault: 'stop',
    policy: {
      act: (observation, site) => supervisor.call('act', [observation], {}, site),
      hook: (name, args, site) => supervisor.call(name, args, {}, site),
    },
  });
  await session.run();
  return session;
}

describe('rddlsim sample policies', () => {
  for (const example of EXAMPLE_DOMAINS) {
    it(`type-check against the editor's types for ${example.id}`, () => {
      const samples = RDDLSIM_SAMPLES.filter((s) => !s.environments || s.environments.includes(example.id));
      const errors = typeErrors(
        Object.fromEntries(samples.map((sample) => [sample.id, sample.code])),
        generatePolicyTypes(models.get(example.id)!.info),
      );
      expect(errors).toEqual(Object.fromEntries(samples.map((sample) => [sample.id, []])));
    });
  }

  for (const sample of RDDLSIM_SAMPLES.filter((s) => s.level === 'policy')) {
    for (const environment of sample.environments ?? EXAMPLE_DOMAINS.map((e) => e.id)) {
      it(`${sample.label} plays a whole session of ${environment} without a fault or refused action`, async () => {
        const session = await play(sample.code, 'policy', environment, 7);
        expect(session.status).toBe('finished');
        const errors = session.transcript.annotations.filter((a) => a.type === 'error');
        expect(errors).toEqual([]);
        expect(session.rounds).toHaveLength(3);
      });
    }
  }

  it('the heuristic earns more than noop on the network admin domain, seed for seed', async () => {
    const heuristic = RDDLSIM_SAMPLES.find((s) => s.id === 'network-heuristic')!;
    const noop = RDDLSIM_SAMPLES.find((s) => s.id === 'noop')!;
    for (const seed of [1, 2, 3]) {
      const smart = await play(heuristic.code, 'policy', 'network_admin', seed, 5);
      const idle = await play(noop.code, 'policy', 'network_admin', seed, 5);
      expect(smart.totalReward!).toBeGreaterThan(idle.totalReward!);
    }
  });

  it("the README's example policy type-checks on network admin and beats noop", async () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
    const code = /```ts\n(\/\/ RDDLSim[\s\S]*?)```/.exec(readme)?.[1];
    expect(code, 'a ```ts block starting with // RDDLSim in README.md').toBeDefined();
    const errors = typeErrors({ readme: code! }, generatePolicyTypes(models.get('network_admin')!.info));
    expect(errors).toEqual({ readme: [] });
    const noop = RDDLSIM_SAMPLES.find((s) => s.id === 'noop')!;
    const smart = await play(code!, 'policy', 'network_admin', 4, 5);
    const idle = await play(noop.code, 'policy', 'network_admin', 4, 5);
    expect(smart.transcript.annotations.filter((a) => a.type === 'error')).toEqual([]);
    expect(smart.totalReward!).toBeGreaterThan(idle.totalReward!);
  });
});

describe('starting policies generated from a domain', () => {
  for (const example of EXAMPLE_DOMAINS) {
    it(`for ${example.id}: names the domain, type-checks and plays a whole session without a fault`, async () => {
      const info = models.get(example.id)!.info;
      const code = starterPolicy(info);
      expect(starterPolicyDomain(code)).toBe(info.domain);
      expect(typeErrors({ starter: code }, generatePolicyTypes(info))).toEqual({ starter: [] });
      const actions = info.fluents.filter((f) => f.kind === 'action-fluent');
      for (const action of actions) expect(code).toContain(`{ name: ${JSON.stringify(action.name)}`);
      const session = await play(code, 'policy', example.id, 5);
      expect(session.status).toBe('finished');
      expect(session.transcript.annotations.filter((a) => a.type === 'error')).toEqual([]);
      expect(session.rounds).toHaveLength(3);
    });
  }

  it('is told apart from other code', () => {
    expect(starterPolicyDomain(RDDLSIM_SAMPLES[0]!.code)).toBeUndefined();
    expect(starterPolicyDomain(`${STARTER_POLICY_MARK}cell_life (instance x), generated`)).toBe('cell_life');
  });
});
