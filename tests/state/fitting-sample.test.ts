import { describe, expect, it } from 'vitest';
import { RDDLSIM_SAMPLES } from '../../src/core/protocols/rddlsim/samples';
import { fittingSample, isSampleOfAnotherDomain } from '../../src/state/fitting-sample';

describe('the sample a domain opens with', () => {
  const heuristic = RDDLSIM_SAMPLES.find((s) => s.id === 'network-heuristic')!;

  it('is the domain’s own sample, else one that fits every domain', () => {
    expect(fittingSample(RDDLSIM_SAMPLES, heuristic.id, 'network_admin')).toBe(heuristic);
    const other = fittingSample(RDDLSIM_SAMPLES, heuristic.id, 'cell_life')!;
    expect(other.environments).toBeUndefined();
    expect(other.level).toBe('policy');
  });

  it('tells another domain’s unedited sample apart from the learner’s code', () => {
    expect(isSampleOfAnotherDomain(RDDLSIM_SAMPLES, heuristic.code, 'cell_life')).toBe(true);
    expect(isSampleOfAnotherDomain(RDDLSIM_SAMPLES, heuristic.code, 'network_admin')).toBe(false);
    expect(isSampleOfAnotherDomain(RDDLSIM_SAMPLES, heuristic.code + '// mine\n', 'cell_life')).toBe(false);
  });
});
