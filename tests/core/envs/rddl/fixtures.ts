/** Small RDDL texts written for the tests: one domain plus one instance, parts given by each test. */
import type { RddlSimulator, RddlSource } from '../../../../src/core/envs/rddl/api';
import { ProtoplayError } from '../../../../src/core/errors';

/** Parts of a test domain; missing parts get a harmless default. */
export interface TestDomain {
  types?: string;
  pvariables: string;
  cpfs?: string;
  reward?: string;
  /** More sections (constraints, ...), written as they are. */
  sections?: string;
  /** Instance parts between `domain = t;` and `horizon`. */
  instance?: string;
  horizon?: string;
  maxNondef?: string;
}

/** The texts of a test domain `t` and its instance `ti`. */
export function testSources(parts: TestDomain): RddlSource[] {
  const domain = `domain t {
  types { ${parts.types ?? 'obj : object;'} };
  pvariables {
${parts.pvariables}
  };
  cpfs {
${parts.cpfs ?? ''}
  };
  reward = ${parts.reward ?? '0'};
${parts.sections ?? ''}
}
`;
  const instance = `instance ti {
  domain = t;
  ${parts.instance ?? 'objects { obj : {o1, o2, o3}; };'}
  ${parts.maxNondef ?? 'max-nondef-actions = pos-inf;'}
  ${parts.horizon ?? 'horizon = 10;'}
  discount = 1.0;
}
`;
  return [
    { name: 'domain.rddl', text: domain },
    { name: 'instance.rddl', text: instance },
  ];
}

/** Runs `load` and returns the ProtoplayError it throws (failing when it does not). */
export function expectLoadError(load: () => unknown): ProtoplayError {
  try {
    load();
  } catch (error) {
    if (error instanceof ProtoplayError) return error;
    throw error;
  }
  throw new Error('loading succeeded, but an error was expected');
}

/**
 * A domain with the four constructs rddlsim runs although their types do not fit (an int fluent holding
 * objects, an int interm fluent given a real, a cpf head with fewer parameters than its fluent, a
 * non-fluent set under a misspelt enum value). rddlsim's own simulator scores every round 23.5.
 */
export const RELAY_ACC_RDDL = `domain relay_acc {
  requirements = { reward-deterministic };
  types {
    cell : object;
    phase : {@red, @green};
  };
  pvariables {
    NEXT(cell) : { non-fluent, int, default = c1 };
    FLOW(cell, phase) : { non-fluent, bool, default = false };
    W(cell) : { non-fluent, real, default = 1.0 };
    load(cell) : { state-fluent, real, default = 0.0 };
    noise(cell) : { state-fluent, real, default = 0.0 };
    half(cell) : { interm-fluent, int, level = 1 };
    go : { action-fluent, bool, default = false };
  };
  cpfs {
    half(?c) = W(NEXT(?c)) / 2;
    load'(?c) = load(NEXT(?c)) + half(?c) + 1;
    noise' = Normal(0, 1);
  };
  reward = sum_{?c : cell} [load(?c) + (if (exists_{?p : phase} [FLOW(?c, ?p)]) then 1 else 0)];
}

non-fluents relay_acc_nf {
  domain = relay_acc;
  objects { cell : {c1, c2, c3}; };
  non-fluents {
    NEXT(c2) = $c1;
    NEXT(c3) = $c2;
    W(c1) = 3.0;
    FLOW(c1, @gren);
    FLOW(c2, @green);
  };
}

instance relay_acc_1 {
  domain = relay_acc;
  non-fluents = relay_acc_nf;
  max-nondef-actions = 1;
  horizon = 3;
  discount = 1.0;
}
`;

/**
 * A test domain over `types` whose horizon never ends a round, for tests that step many times: its
 * pvariables and cpfs, and an instance (by default two objects of `obj`).
 */
export function longRunningDomain(types: string) {
  return (pvariables: string, cpfs: string, instance?: string): RddlSource[] =>
    testSources({
      types,
      pvariables,
      cpfs,
      horizon: 'horizon = 100000;',
      instance: instance ?? 'objects { obj : {o1, o2}; };',
    });
}

/** Every state fluent's value, by `name(args)`, after each of `steps` no-op steps. */
export function stateValuesPerStep(simulator: RddlSimulator, steps: number): Map<string, number>[] {
  const states: Map<string, number>[] = [];
  for (let step = 0; step < steps; step++) {
    const outcome = simulator.step([]);
    if (outcome.kind !== 'ok') throw new Error(JSON.stringify(outcome));
    states.push(
      new Map(simulator.stateFluents().map((f) => [`${f.name}(${f.args.join(',')})`, f.value as number])),
    );
  }
  return states;
}
