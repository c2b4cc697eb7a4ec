/**
 * A domain and instance in one file whose no-op breaks the action precondition on the third turn (t = 2):
 * rddlsim's server ends each round there, after 2 of its 5 turns, with a reward of 2. The precondition is
 * on line 9 of the file.
 */
export const GATE_RDDL = [
  'domain gate_mdp {',
  '  pvariables {',
  '    t : { state-fluent, int, default = 0 };',
  '    press : { action-fluent, bool, default = false };',
  '  };',
  "  cpfs { t' = t + 1; };",
  '  reward = 1.0;',
  '  action-preconditions {',
  '    t < 2 | press;',
  '  };',
  '}',
  'instance gate1 { domain = gate_mdp; horizon = 5; discount = 1.0; }',
].join('\n');

/**
 * The same gate, partially observed: the client sees only `open` (whether pressing is still optional), not
 * the turn counter `t` the precondition reads, so it cannot tell which constraint the server found false.
 */
export const GATE_POMDP_RDDL = [
  'domain gate_pomdp {',
  '  requirements = { partially-observed };',
  '  pvariables {',
  '    t : { state-fluent, int, default = 0 };',
  '    open : { observ-fluent, bool };',
  '    press : { action-fluent, bool, default = false };',
  '  };',
  "  cpfs { t' = t + 1; open = t' < 2; };",
  '  reward = 1.0;',
  '  action-preconditions {',
  '    t < 2 | press;',
  '  };',
  '}',
  'instance gate2 { domain = gate_pomdp; horizon = 5; discount = 1.0; }',
].join('\n');
