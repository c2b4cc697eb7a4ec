import { describe, expect, it } from 'vitest';
import {
  GAMA_ACT,
  GAMA_SAMPLES,
  GamaPolicyRuntime,
  gamaPolicyTypes,
  type GamaDecide,
} from '../../../../src/core/protocols/gama';
import { policyTypeErrors } from '../../../support/policy-type-check';
import { playRecorded } from './support';

/** A sample (or any code) loaded in the GAMA policy runtime, in-process, as a decide function. */
function loaded(code: string, seed = 1): { decide: GamaDecide; runtime: GamaPolicyRuntime } {
  const runtime = new GamaPolicyRuntime();
  const outcome = runtime.load({ code, language: 'ts', fileName: 'policy.ts', level: 'policy', seed });
  if (!outcome.ok) throw new Error(outcome.fault.message);
  return {
    runtime,
    decide: async (decision) => {
      const result = await runtime.call(GAMA_ACT, [decision], {});
      if (!result.ok) throw new Error(result.fault.message);
      return result.value as string;
    },
  };
}

const sample = (id: string) => GAMA_SAMPLES.find((s) => s.id === id)!.code;

describe('the sample policies', () => {
  it('type-check against the declarations', () => {
    const codes = Object.fromEntries(GAMA_SAMPLES.map((s) => [s.id, s.code]));
    const errors = policyTypeErrors(codes, gamaPolicyTypes('C'));
    expect(errors).toEqual({ random: [], greedy: [], sustainable: [] });
  });

  it('harvest: greedy collects more than random; sustainable leaves patches that regrow', async () => {
    const play = async (id: string) => {
      const { results } = await playRecorded(loaded(sample(id)).decide, {
        scenario: 'A',
        seed: 2,
        maxCycles: 400,
      });
      return results[0]!;
    };
    const random = await play('random');
    const greedy = await play('greedy');
    const sustainable = await play('sustainable');
    expect(greedy.scavengers[0]!.collected).toBeGreaterThan(random.scavengers[0]!.collected + 10);
    expect(sustainable.scavengers[0]!.collected).toBeGreaterThan(random.scavengers[0]!.collected);
    // Greedy kills every patch it finds; the sustainable harvester keeps some resources on the map.
    expect(sustainable.resourcesLeft).toBeGreaterThan(greedy.resourcesLeft);
  });

  it('read RGB observations too', async () => {
    const { results } = await playRecorded(loaded(sample('greedy')).decide, {
      scenario: 'A',
      maxCycles: 200,
      observation: { kind: 'rgb' },
    });
    expect(results[0]!.scavengers[0]!.collected).toBeGreaterThan(5);
  });
});

describe('GamaPolicyRuntime', () => {
  it('keeps one memory per scavenger and passes the reward and the scavenger', async () => {
    const { runtime } = loaded(`
      export function act(observation: number[][], reward: number, scavenger: any, context: any) {
        scavenger.memory.calls = (scavenger.memory.calls ?? 0) + 1;
        context.memory.total = (context.memory.total ?? 0) + 1;
        return scavenger.id + '/' + scavenger.number + '/' + reward + '/' + scavenger.memory.calls + '/' + context.memory.total + '/' + scavenger.terminal;
      }`);
    const ask = async (id: string, reward: number) =>
      (
        await runtime.call(
          GAMA_ACT,
          [{ id, observation: [[4]], reward, terminal: false, scenario: 'A_small', connection: 'c' }],
          {},
        )
      ).ok;
    const values: unknown[] = [];
    for (const [id, reward] of [
      ['Scav. 1', 0],
      ['Scav. 2', 5],
      ['Scav. 1', 5],
    ] as const) {
      const outcome = await runtime.call(
        GAMA_ACT,
        [{ id, observation: [[4]], reward, terminal: false, scenario: 'A_small', connection: 'c' }],
        {},
      );
      values.push(outcome.ok && outcome.value);
    }
    expect(values).toEqual(['Scav. 1/1/0/1/1/false', 'Scav. 2/2/5/1/2/false', 'Scav. 1/1/5/2/3/false']);
    expect(await ask('Scav. 3', 0)).toBe(true);
  });

  it('refuses an action that is not a string, and a module without act', async () => {
    const { runtime } = loaded('export function act() { return 3; }');
    const outcome = await runtime.call(
      GAMA_ACT,
      [{ id: 'Scav. 1', observation: [[4]], reward: 0, terminal: false, scenario: '', connection: 'c' }],
      {},
    );
    expect(outcome.ok).toBe(false);
    if (!outcome.ok)
      expect(outcome.fault.message).toBe(
        "act must return an action name (a string such as 'move_ahead'), got 3",
      );
    const missing = new GamaPolicyRuntime().load({
      code: 'export const x = 1;',
      language: 'ts',
      fileName: 'p.ts',
      level: 'policy',
      seed: 0,
    });
    expect(!missing.ok && missing.fault.message).toBe(
      'the policy must export a function act(observation, reward, scavenger, context)',
    );
  });
});
