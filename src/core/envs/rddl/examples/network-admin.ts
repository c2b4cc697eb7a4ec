/** The playground's default example: keep a small office network running. */
import type { ExampleDomain } from './example';

export const NETWORK_ADMIN: ExampleDomain = {
  id: 'network_admin',
  title: 'Network admin',
  description:
    'Keep the computers of an office network running. Running computers crash now and then, more often ' +
    'when the computers linked to them are down; you may reboot one computer per step, at a small cost. ' +
    'Each step earns one point per running computer.',
  features: ['objects and non-fluent links', 'Bernoulli noise', 'sum aggregation', 'max-nondef-actions'],
  domain: `// Network admin: keep the computers of a small network running.
//
// Each step a running computer may crash; the more of its linked computers are down, the likelier.
// A crashed computer stays down until it is rebooted. One reboot per step is allowed and costs a
// little. The reward is the number of running computers minus the cost of reboots.

domain network_admin {
  requirements = { reward-deterministic };

  types {
    computer : object;
  };

  pvariables {
    // Facts of the network, fixed for an instance (non-fluents).
    LINK(computer, computer) : { non-fluent, bool, default = false };  // LINK(a, b): a's state affects b
    BASE-FAILURE : { non-fluent, real, default = 0.03 };  // chance to crash with every link up
    SPREAD       : { non-fluent, real, default = 0.3 };   // extra chance when all links are down
    REBOOT-COST  : { non-fluent, real, default = 0.5 };

    // The state: which computers are running.
    running(computer) : { state-fluent, bool, default = true };

    // The action: reboot a computer.
    reboot(computer) : { action-fluent, bool, default = false };
  };

  cpfs {
    // Primed (running') is the value at the next step.
    running'(?c) =
      if (reboot(?c)) then KronDelta(true)          // a rebooted computer is up again
      else if (~running(?c)) then KronDelta(false)  // a crashed one stays down
      else Bernoulli(1.0 - BASE-FAILURE
                     - SPREAD * [sum_{?d : computer} (LINK(?d, ?c) ^ ~running(?d))]
                              / [1 + sum_{?d : computer} LINK(?d, ?c)]);
  };

  // Note the brackets: the body of a sum extends as far right as it can.
  reward = [sum_{?c : computer} running(?c)] - [sum_{?c : computer} REBOOT-COST * reboot(?c)];
}
`,
  instance: `// An office: a server linked both ways with four desktops, two laptops on desk1 and desk3,
// and a printer that depends on the server.

non-fluents office_network {
  domain = network_admin;
  objects {
    computer : {server, desk1, desk2, desk3, desk4, laptop1, laptop2, printer};
  };
  non-fluents {
    LINK(server, desk1); LINK(desk1, server);
    LINK(server, desk2); LINK(desk2, server);
    LINK(server, desk3); LINK(desk3, server);
    LINK(server, desk4); LINK(desk4, server);
    LINK(desk1, laptop1);
    LINK(desk3, laptop2);
    LINK(server, printer);
  };
}

instance office {
  domain = network_admin;
  non-fluents = office_network;
  max-nondef-actions = 1;
  horizon = 40;
  discount = 1.0;
}
`,
};
