import { describe, expect, it } from 'vitest';
import { policyTypeErrors as typeErrors } from '../../../support/policy-type-check';
import { MASSIM_SAMPLES } from '../../../../src/core/protocols/massim/samples';
import { massimPolicyTypes } from '../../../../src/core/protocols/massim/policy-declarations';
import { playMatch, policySource, sampleCode } from '../../../state/massim/play-match';

describe('MASSim sample team policies', () => {
  it("type-check against the editor's declarations, which catch a wrong action", () => {
    const wrong =
      "export function act(percept: Percept): Action {\n  return { type: 'move', p: ['up'] };\n}\n";
    const errors = typeErrors(
      { ...Object.fromEntries(MASSIM_SAMPLES.map((sample) => [sample.id, sample.code])), wrong },
      massimPolicyTypes(),
    );
    const { wrong: wrongErrors, ...sampleErrors } = errors;
    expect(sampleErrors).toEqual(Object.fromEntries(MASSIM_SAMPLES.map((sample) => [sample.id, []])));
    expect(wrongErrors!.join('\n')).toMatch(/"up"/);
  });

  it('the block fetcher scores on the default map with the default seed', async () => {
    const { result, logs } = await playMatch({
      teams: {
        A: policySource(sampleCode('block-fetcher')),
        B: policySource(sampleCode('random-mover')),
      },
      seed: 1,
    });
    const scores = result.simulations[0]!.scores;
    expect(scores.A).toBeGreaterThan(0);
    expect(scores.B).toBe(0);
    // Every point comes from a one-block task (reward 10) the policy says it submitted.
    expect(logs.filter((line) => line.includes('submitted'))).toHaveLength(scores.A! / 10);
  });

  for (const id of ['random-mover', 'explorer', 'skip']) {
    it(`${id} plays a short match without a fault`, async () => {
      const { result, runner } = await playMatch({
        teams: { A: policySource(sampleCode(id)), B: policySource(sampleCode(id)) },
        setup: { steps: 30 },
      });
      expect(result.simulations).toHaveLength(1);
      const actions = runner.transcript.messages.filter(
        (m) => m.dir === 'c2s' && m.text?.includes('"action"'),
      );
      // Every agent answered every step.
      expect(actions).toHaveLength(2 * 5 * 30);
    });
  }

  it('the wire-level client logs in and moves every agent at every step', async () => {
    const { runner } = await playMatch({
      teams: {
        A: policySource(sampleCode('wire-client'), 'wire'),
        B: policySource(sampleCode('skip')),
      },
      setup: { steps: 20 },
    });
    const actions = runner.transcript.messages.filter(
      (m) => m.dir === 'c2s' && m.conn.startsWith('agentA') && m.text?.includes('"action"'),
    );
    expect(actions).toHaveLength(5 * 20);
    expect(actions.every((m) => /"type":"move","p":\["[nsew]"\]/.test(m.text!))).toBe(true);
    expect(runner.transcript.annotations.filter((a) => a.type === 'violation')).toEqual([]);
  });
});
