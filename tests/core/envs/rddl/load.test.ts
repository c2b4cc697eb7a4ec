import { describe, expect, it } from 'vitest';
import { ProtoplayError } from '../../../../src/core/errors';
import { checkRddl, listInstances, loadRddl, parseRddl } from '../../../../src/core/envs/rddl';
import { benchmarkSources } from './shared-files';

const DOMAIN = `domain tiny {
  types { node : object; };
  pvariables {
    up(node) : { state-fluent, bool, default = false };
    fix(node) : { action-fluent, bool, default = false };
  };
  cpfs { up'(?n) = up(?n) | fix(?n); };
  reward = sum_{?n : node} up(?n);
}
`;
const instance = (name: string, extra = '') => `instance ${name} {
  domain = tiny;
  objects { node : {a, b}; };
  ${extra}
  max-nondef-actions = 1;
  horizon = 3;
  discount = 1.0;
}
`;

function loadError(run: () => unknown): ProtoplayError {
  try {
    run();
  } catch (error) {
    if (error instanceof ProtoplayError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('listInstances', () => {
  it('lists instances of all texts in order', () => {
    const sources = [
      { name: 'd.rddl', text: DOMAIN },
      { name: 'i.rddl', text: instance('first') + instance('second') },
    ];
    expect(listInstances(sources)).toEqual(['first', 'second']);
  });
});

describe('loadRddl', () => {
  it('loads blocks spread over several texts and picks the instance by name', () => {
    const sources = [
      { name: 'd.rddl', text: DOMAIN },
      { name: 'i.rddl', text: instance('first') + instance('second', 'init-state { up(b); };') },
    ];
    const model = loadRddl(sources, { instance: 'second' });
    expect(model.info).toMatchObject({
      domain: 'tiny',
      instance: 'second',
      horizon: 3,
      maxNondefActions: 1,
      discount: 1,
    });
    expect(model.typeValues('node')).toEqual(['a', 'b']);
    expect(model.findFluent('UP')?.kind).toBe('state-fluent');
    const simulator = model.createSimulator({ seed: 3 });
    expect(simulator.stateFluents().map((f) => f.value)).toEqual([false, true]);
    const outcome = simulator.step([{ name: 'fix', args: ['a'], value: true }]);
    expect(outcome).toMatchObject({ kind: 'ok', reward: 1, terminated: false });
    expect(simulator.stateFluents().map((f) => f.value)).toEqual([true, true]);
  });

  it('asks which instance to load when there are several', () => {
    const error = loadError(() =>
      loadRddl([{ name: 'd.rddl', text: DOMAIN + instance('first') + instance('second') }]),
    );
    expect(error.message).toContain('several instances (first, second)');
  });

  it('names an unknown instance and suggests the closest', () => {
    const error = loadError(() =>
      loadRddl([{ name: 'd.rddl', text: DOMAIN + instance('first') }], { instance: 'frist' }),
    );
    expect(error.message).toContain("no instance named 'frist' (did you mean first?)");
  });

  it('reports a syntax error with its location', () => {
    const error = loadError(() =>
      loadRddl([
        { name: 'd.rddl', text: DOMAIN.replace('default = false };\n    fix', 'default = false }\n    fix') },
      ]),
    );
    expect(error.code).toBe('rddl-syntax');
    expect(error.location).toMatchObject({ source: 'd.rddl', line: 4, column: 55 });
    expect(error.message).toContain("expected ';'");
  });

  it('reports an unknown fluent in a cpf with its location', () => {
    const text = DOMAIN.replace('up(?n) | fix(?n)', 'up(?n) | repair(?n)') + instance('first');
    const error = loadError(() => loadRddl([{ name: 'd.rddl', text }]));
    expect(error.code).toBe('rddl-semantic');
    expect(error.message).toContain("unknown fluent 'repair'");
    expect(error.location).toMatchObject({ line: 7, column: 29 });
  });

  it('loads every IPPC sysadmin, game_of_life and elevators instance', () => {
    for (const name of [
      'sysadmin_inst_mdp__10',
      'game_of_life_inst_mdp__10',
      'elevators_inst_mdp__9',
      'elevators_inst_pomdp__1',
    ]) {
      const model = loadRddl(benchmarkSources(name));
      expect(model.info.instance).toBe(name);
    }
  });
});

describe('parseRddl and checkRddl', () => {
  it('returns syntax diagnostics without throwing', () => {
    const { diagnostics } = parseRddl({ name: 'x.rddl', text: 'domain d { types { t : object } }' });
    expect(diagnostics[0]).toMatchObject({ severity: 'error', location: { line: 1, column: 30 } });
  });

  it('returns no diagnostics for the benchmark files', () => {
    expect(checkRddl(benchmarkSources('elevators_inst_mdp__1'))).toEqual([]);
  });
});
