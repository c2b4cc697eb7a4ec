/**
 * pyRDDLGym's distributions and argmin/argmax, measured through `loadRddl` and `step` as users run them:
 *
 * - a domain of 100 objects whose state fluent draws from one distribution every step, for each of
 *   pyRDDLGym's distributions, against the same domain drawing `Normal` (rddlsim's, the baseline, same
 *   run): steps/s and the ratio;
 * - `argmax_{?o : obj} v(?o)` over 10 and 1,000 objects against `max_{?o : obj} v(?o)` (the baseline).
 */
import { loadRddl } from '../../src/core/envs/rddl';
import { measureRate, printTable } from '../lib';

const OBJECTS = 100;
const STEPS = 2_000;

function drawing(expression: string, range: 'int' | 'real'): string {
  const names = Array.from({ length: OBJECTS }, (_, i) => `o${i + 1}`).join(', ');
  return `domain draws {
  types { obj : object; };
  pvariables {
    x(obj) : { state-fluent, ${range}, default = ${range === 'int' ? '0' : '0.0'} };
  };
  cpfs {
    x'(?o) = ${expression};
  };
  reward = sum_{?o : obj} x(?o);
}
instance draws_inst { domain = draws; objects { obj : {${names}}; }; max-nondef-actions = 1; horizon = 40; discount = 1.0; }
`;
}

function choosing(objects: number, aggregation: 'max' | 'argmax'): string {
  const names = Array.from({ length: objects }, (_, i) => `o${i + 1}`).join(', ');
  return `domain choose {
  types { obj : object; };
  pvariables {
    v(obj) : { state-fluent, real, default = 0.0 };
    best : { state-fluent, ${aggregation === 'max' ? 'real, default = 0.0' : `obj, default = o1`} };
  };
  cpfs {
    v'(?o) = v(?o) + Uniform(0, 1);
    best' = ${aggregation}_{?o : obj} v(?o);
  };
  reward = sum_{?o : obj} v(?o);
}
instance choose_inst { domain = choose; objects { obj : {${names}}; }; max-nondef-actions = 1; horizon = 40; discount = 1.0; }
`;
}

async function stepsPerSecond(label: string, text: string): Promise<number> {
  const simulator = loadRddl([{ name: `${label}.rddl`, text }]).createSimulator({ seed: 1 });
  const rate = await measureRate(label, STEPS, () => {
    simulator.reset();
    for (let i = 0; i < STEPS; i++) {
      if (i % 40 === 0) simulator.reset();
      simulator.step([]);
    }
  });
  return rate.opsPerSecond;
}

export default async function run(): Promise<void> {
  const baseline = await stepsPerSecond('normal', drawing('Normal(0, 1)', 'real'));
  const rows: (string | number)[][] = [
    [`${OBJECTS} draws per step`, 'steps/s', 'Normal steps/s (baseline)', 'ratio'],
  ];
  const cases: [string, 'int' | 'real'][] = [
    ['Binomial(20, 0.3)', 'int'],
    ['Binomial(100000, 0.3)', 'int'],
    ['NegativeBinomial(3, 0.4)', 'int'],
    ['Geometric(0.25)', 'int'],
    ['Beta(2, 5)', 'real'],
    ['Pareto(3, 2)', 'real'],
    ['Student(5)', 'real'],
    ['Gumbel(1, 2)', 'real'],
    ['Laplace(-1, 0.5)', 'real'],
    ['Cauchy(3, 1)', 'real'],
    ['Gompertz(0.5, 2)', 'real'],
    ['ChiSquare(4)', 'real'],
    ['Kumaraswamy(2, 3)', 'real'],
  ];
  for (const [expression, range] of cases) {
    const rate = await stepsPerSecond(expression, drawing(expression, range));
    rows.push([expression, rate, baseline, `${(rate / baseline).toFixed(2)}x`]);
  }
  printTable("pyRDDLGym's distributions against Normal, steps/s", rows);

  const choiceRows: (string | number)[][] = [
    ['objects', 'argmax steps/s', 'max steps/s (baseline)', 'ratio'],
  ];
  for (const objects of [10, 1_000]) {
    const max = await stepsPerSecond('max', choosing(objects, 'max'));
    const argmax = await stepsPerSecond('argmax', choosing(objects, 'argmax'));
    choiceRows.push([objects, argmax, max, `${(argmax / max).toFixed(2)}x`]);
  }
  printTable('argmax against max over the same values, steps/s', choiceRows);
}
