/** Int and real fluents with Normal noise: release water from two reservoirs to keep them near a target. */
import type { ExampleDomain } from './example';

export const RESERVOIRS: ExampleDomain = {
  id: 'reservoirs',
  title: 'Reservoirs',
  description:
    'Two reservoirs fill with random rain; the upper one spills what it releases into the lower one. ' +
    'Choose how much water each releases per day to keep both near their target volume: the further ' +
    'from it, and the more that overflows, the lower the reward.',
  features: [
    'real and int fluents',
    'Normal noise (mean, variance)',
    'real-valued actions',
    'action preconditions',
  ],
  domain: `// Reservoirs: keep water volumes near a target despite random rain.
//
// Rain is Normal(mean, variance) (rddlsim's second parameter is the variance), clipped at 0.
// Water released by a reservoir flows into the one downstream of it.

domain reservoirs {
  requirements = { continuous, integer-valued, intermediate-nodes, preconditions };

  types {
    reservoir : object;
  };

  pvariables {
    CAPACITY(reservoir)      : { non-fluent, real, default = 100.0 };
    TARGET(reservoir)        : { non-fluent, real, default = 50.0 };
    RAIN-MEAN(reservoir)     : { non-fluent, real, default = 6.0 };
    RAIN-VARIANCE(reservoir) : { non-fluent, real, default = 16.0 };
    MAX-RELEASE              : { non-fluent, real, default = 20.0 };
    DOWNSTREAM(reservoir, reservoir) : { non-fluent, bool, default = false };
    OVERFLOW-PENALTY         : { non-fluent, real, default = 5.0 };

    volume(reservoir) : { state-fluent, real, default = 50.0 };
    day              : { state-fluent, int, default = 0 };

    release(reservoir) : { action-fluent, real, default = 0.0 };

    rain(reservoir)     : { interm-fluent, real };
    inflow(reservoir)   : { interm-fluent, real };
    overflow(reservoir) : { interm-fluent, real };
  };

  cpfs {
    rain(?r) = max[0.0, Normal(RAIN-MEAN(?r), RAIN-VARIANCE(?r))];

    inflow(?r) = rain(?r) + sum_{?u : reservoir} [DOWNSTREAM(?u, ?r) * min[release(?u), volume(?u)]];

    overflow(?r) = max[0.0, volume(?r) + inflow(?r) - release(?r) - CAPACITY(?r)];

    volume'(?r) = max[0.0, volume(?r) + inflow(?r) - release(?r) - overflow(?r)];

    day' = day + 1;
  };

  reward = sum_{?r : reservoir}
             [-abs[volume'(?r) - TARGET(?r)] / 10.0 - OVERFLOW-PENALTY * [overflow(?r) > 0]];

  action-preconditions {
    forall_{?r : reservoir} [release(?r) >= 0.0 ^ release(?r) <= MAX-RELEASE];
  };
}
`,
  instance: `non-fluents valley {
  domain = reservoirs;
  objects {
    reservoir : {upper, lower};
  };
  non-fluents {
    DOWNSTREAM(upper, lower);
    RAIN-MEAN(upper) = 8.0;
    CAPACITY(lower) = 150.0;
    TARGET(lower) = 80.0;
  };
}

instance valley_spring {
  domain = reservoirs;
  non-fluents = valley;
  init-state {
    volume(upper) = 60.0;
    volume(lower) = 70.0;
  };
  max-nondef-actions = pos-inf;
  horizon = 30;
  discount = 1.0;
}
`,
};
