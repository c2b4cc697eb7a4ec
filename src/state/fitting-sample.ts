/**
 * Which sample policy a domain opens with: one written for it, else the protocol's default when it fits
 * every domain, else the first sample that fits every domain. A policy still equal to a sample of another
 * domain is the learner's starting point, not their work: opening another domain replaces it.
 */
import type { SamplePolicy } from '../core/policy/types';

/** The sample a domain opens with, or undefined when the protocol has none. */
export function fittingSample(
  samples: readonly SamplePolicy[],
  defaultSample: string | undefined,
  environment: string,
): SamplePolicy | undefined {
  const own = samples.find((sample) => sample.environments?.includes(environment));
  if (own) return own;
  const fallback = samples.find((sample) => sample.id === defaultSample);
  if (fallback && !fallback.environments) return fallback;
  return samples.find((sample) => !sample.environments && sample.level === 'policy') ?? samples[0];
}

/** True when the code is, unedited, one of the samples. */
export function isUneditedSample(samples: readonly SamplePolicy[], code: string): boolean {
  return samples.some((sample) => sample.code === code);
}

/** True when the code is, unedited, a sample written for other domains only. */
export function isSampleOfAnotherDomain(
  samples: readonly SamplePolicy[],
  code: string,
  environment: string,
): boolean {
  return samples.some(
    (sample) =>
      sample.code === code && sample.environments !== undefined && !sample.environments.includes(environment),
  );
}
