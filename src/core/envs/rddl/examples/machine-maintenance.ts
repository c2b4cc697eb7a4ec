/** A POMDP: a machine wears out unseen; only a noisy alarm tells how it is. */
import type { ExampleDomain } from './example';

export const MACHINE_MAINTENANCE: ExampleDomain = {
  id: 'machine_maintenance',
  title: 'Machine maintenance (POMDP)',
  description:
    'A machine slowly wears out and then breaks, but its condition is hidden: all you see is an alarm ' +
    'that rings more often the worse the machine is. A working machine earns money each step; repairing ' +
    'it costs, so repair neither too early nor too late.',
  features: ['partially observed (observ-fluent)', 'enum state', 'Discrete with otherwise', 'switch'],
  domain: `// Machine maintenance: decide when to repair a machine you cannot see.
//
// Because the domain has an observ-fluent it is partially observed: the agent gets the alarm's
// value after each step, never the machine's condition.

domain machine_maintenance {
  requirements = { partially-observed, multivalued, reward-deterministic };

  types {
    condition : {@good, @worn, @broken};
  };

  pvariables {
    WEAR-PROB  : { non-fluent, real, default = 0.15 };  // good -> worn
    BREAK-PROB : { non-fluent, real, default = 0.25 };  // worn -> broken
    ALARM-GOOD   : { non-fluent, real, default = 0.05 };
    ALARM-WORN   : { non-fluent, real, default = 0.4 };
    ALARM-BROKEN : { non-fluent, real, default = 0.9 };
    REPAIR-COST  : { non-fluent, real, default = 4.0 };

    machine : { state-fluent, condition, default = @good };
    repair  : { action-fluent, bool, default = false };
    alarm   : { observ-fluent, bool };
  };

  cpfs {
    machine' =
      if (repair) then KronDelta(@good)
      else switch (machine) {
        case @good : Discrete(condition, @worn : WEAR-PROB, @good : otherwise),
        case @worn : Discrete(condition, @broken : BREAK-PROB, @worn : otherwise),
        default    : KronDelta(@broken)
      };

    // Observations may depend on the new state (machine').
    alarm =
      switch (machine') {
        case @good : Bernoulli(ALARM-GOOD),
        case @worn : Bernoulli(ALARM-WORN),
        default    : Bernoulli(ALARM-BROKEN)
      };
  };

  reward = [if (machine == @good) then 10 else if (machine == @worn) then 6 else 0]
           - REPAIR-COST * repair;
}
`,
  instance: `instance workshop {
  domain = machine_maintenance;
  max-nondef-actions = 1;
  horizon = 40;
  discount = 1.0;
}
`,
};
