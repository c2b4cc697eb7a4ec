/** The policy options shared by `run gama` and `serve gama`. */
import type { OptionSpec } from '../../command-line/command-spec';

/** The options' specs, for help. */
export const POLICY_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'policy',
    type: 'string',
    valueName: 'FILE|random|greedy|sustainable',
    description: 'policy file or sample (default greedy)',
  },
  {
    name: 'budget',
    type: 'string',
    valueName: 'MS',
    description: 'time the policy may take per call (default 1000)',
  },
  {
    name: 'on-policy-error',
    type: 'string',
    valueName: 'stop|idle',
    description: 'after a throw or budget overrun: stop (default) or answer idle and go on',
  },
];
