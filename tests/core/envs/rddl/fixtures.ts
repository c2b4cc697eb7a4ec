/** Small RDDL texts written for the tests: one domain plus one instance, parts given by each test. */
import type { RddlSource } from '../../../../src/core/envs/rddl/api';
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
