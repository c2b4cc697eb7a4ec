/**
 * pyRDDLGym's distributions and argmin/argmax, measured through `loadRddl` and `step` as users run them:
 *
 * - a domain of 100 objects whose state fluent draws from one distribution every step, for each of
 *   pyRDDLGym's distributions, against the same domain drawing `Normal` (rddlsim's, the baseline, same
 *   run): steps/s and the ratio;
 * - `argmax_{?o : obj} v(?o)` over 10 and 1,000 objects against `max_{?o : obj} v(?o)` (the baseline);
 * - `Discrete_{?c : color} P(?c)` and `UnnormDiscrete_{?c : color} W(?c)` over 10 colours against the
 *   case-list `Discrete(color, @c1 : P(@c1), ...)` (the baseline), and the vectorised
 *   `Dirichlet[?c](A(?o, _))` against one `Gamma(A(?o, ?c), 1)` per grounding (the same Gamma draws,
 *   unnormalised: the baseline), and `Multinomial[?c](10, P(_))` against ten case-list Discrete draws
 *   summed per object (the same number of uniform draws);
 * - `MultivariateNormal[?c](A(?o, _), S(_, _))` and `MultivariateStudent[?c](..., 5)` over the 10 colours
 *   against one `Normal` / `Student(5)` per grounding (the same normal draws, without the covariance);
 * - `det`, `inverse`, `pinverse` and `cholesky` of a 10×10 matrix per object (100 objects), against a
 *   cpf computing the same matrix's entries alone (the baseline: what reading the matrix costs).
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

  const colorRows: (string | number)[][] = [
    [`${OBJECTS} objects × ${COLORS.length} colours`, 'steps/s', 'baseline steps/s', 'baseline', 'ratio'],
  ];
  const caseList = `Discrete(color, ${COLORS.map((c) => `${c} : P(${c})`).join(', ')})`;
  const discrete = await stepsPerSecond(
    'discrete',
    colourDomain('x(obj) : { state-fluent, color, default = @c1 };', `x'(?o) = ${caseList};`),
  );
  for (const form of ['Discrete_{?c : color} P(?c)', 'UnnormDiscrete_{?c : color} W(?c)']) {
    const rate = await stepsPerSecond(
      'form',
      colourDomain('x(obj) : { state-fluent, color, default = @c1 };', `x'(?o) = ${form};`),
    );
    colorRows.push([form, rate, discrete, 'Discrete(color, ...)', `${(rate / discrete).toFixed(2)}x`]);
  }
  const shares = 'x(obj, color) : { state-fluent, real, default = 0.0 };';
  const gamma = await stepsPerSecond('gamma', colourDomain(shares, "x'(?o, ?c) = Gamma(A(?o, ?c), 1.0);"));
  const dirichlet = await stepsPerSecond(
    'dirichlet',
    colourDomain(shares, "x'(?o, ?c) = Dirichlet[?c](A(?o, _));"),
  );
  colorRows.push([
    'Dirichlet[?c](A(?o, _))',
    dirichlet,
    gamma,
    'Gamma per grounding',
    `${(dirichlet / gamma).toFixed(2)}x`,
  ]);
  const tenDraws = Array.from({ length: 10 }, () => `(${caseList} == @c1)`).join(' + ');
  const summed = await stepsPerSecond(
    'summed',
    colourDomain('x(obj) : { state-fluent, int, default = 0 };', `x'(?o) = ${tenDraws};`),
  );
  const multinomial = await stepsPerSecond(
    'multinomial',
    colourDomain(
      'x(obj, color) : { state-fluent, int, default = 0 };',
      "x'(?o, ?c) = Multinomial[?c](10, P(_));",
    ),
  );
  colorRows.push([
    'Multinomial[?c](10, P(_))',
    multinomial,
    summed,
    '10 Discrete per object',
    `${(multinomial / summed).toFixed(2)}x`,
  ]);
  printTable("pyRDDLGym's Discrete forms and vectorised draws against their baselines, steps/s", colorRows);

  const multivariateRows: (string | number)[][] = [
    [`${OBJECTS} objects × ${COLORS.length} colours`, 'steps/s', 'baseline steps/s', 'baseline', 'ratio'],
  ];
  for (const [draw, single] of [
    ['MultivariateNormal[?c](A(?o, _), S(_, _))', 'Normal(A(?o, ?c), 1.0)'],
    ['MultivariateStudent[?c](A(?o, _), S(_, _), 5)', 'A(?o, ?c) + Student(5)'],
  ] as const) {
    const base = await stepsPerSecond('single', colourDomain(shares, `x'(?o, ?c) = ${single};`));
    const rate = await stepsPerSecond('multivariate', colourDomain(shares, `x'(?o, ?c) = ${draw};`));
    multivariateRows.push([draw, rate, base, `${single} per grounding`, `${(rate / base).toFixed(2)}x`]);
  }
  printTable("pyRDDLGym's multivariate draws against one draw per grounding, steps/s", multivariateRows);

  const matrixRows: (string | number)[][] = [
    [`${OBJECTS} objects, 10×10 each`, 'steps/s', 'entries alone steps/s (baseline)', 'ratio'],
  ];
  const entries = 'u(?o, ?r) * u(?o, ?c) + 10 * (?r == ?c)';
  const square = 'x(obj, color, color) : { state-fluent, real, default = 0.0 };';
  const alone = await stepsPerSecond('entries', matrixDomain(square, `x'(?o, ?r, ?c) = ${entries};`));
  for (const [label, declaration, cpf] of [
    [
      'det_{?r, ?c}',
      'x(obj) : { state-fluent, real, default = 0.0 };',
      `x'(?o) = det_{?r : color, ?c : color} [${entries}];`,
    ],
    ['inverse', square, `x'(?o, ?r, ?c) = inverse[row=?r, col=?c][${entries}];`],
    ['pinverse', square, `x'(?o, ?r, ?c) = pinverse[row=?r, col=?c][${entries}];`],
    ['cholesky', square, `x'(?o, ?r, ?c) = cholesky[row=?r, col=?c][${entries}];`],
  ] as const) {
    const rate = await stepsPerSecond(label, matrixDomain(declaration, cpf));
    matrixRows.push([label, rate, alone, `${(rate / alone).toFixed(2)}x`]);
  }
  printTable("pyRDDLGym's matrix operations against computing the matrix's entries, steps/s", matrixRows);
}

/** 100 objects with a random vector u(?o, ·) over 10 colours, redrawn every step; `x` is measured. */
function matrixDomain(declaration: string, cpf: string): string {
  const names = Array.from({ length: OBJECTS }, (_, i) => `o${i + 1}`).join(', ');
  return `domain matrices {
  types { obj : object; color : {${COLORS.join(', ')}}; };
  pvariables {
    u(obj, color) : { state-fluent, real, default = 1.0 };
    ${declaration}
  };
  cpfs {
    u'(?o, ?c) = Normal(0, 1);
    ${cpf}
  };
  reward = 0;
}
instance matrices_inst { domain = matrices; objects { obj : {${names}}; }; max-nondef-actions = 1; horizon = 40; discount = 1.0; }
`;
}

const COLORS = Array.from({ length: 10 }, (_, i) => `@c${i + 1}`);

/** 100 objects and a 10-value enum `color` with probabilities P, weights W and Dirichlet parameters A. */
function colourDomain(declaration: string, cpf: string): string {
  const names = Array.from({ length: OBJECTS }, (_, i) => `o${i + 1}`).join(', ');
  return `domain colours {
  types { obj : object; color : {${COLORS.join(', ')}}; };
  pvariables {
    P(color) : { non-fluent, real, default = 0.1 };
    W(color) : { non-fluent, real, default = 3.0 };
    A(obj, color) : { non-fluent, real, default = 2.0 };
    S(color, color) : { non-fluent, real, default = 0.5 }; // 0.5 off the diagonal, 1 on it
    ${declaration}
  };
  cpfs {
    ${cpf}
  };
  reward = 0;
}
instance colours_inst { domain = colours; objects { obj : {${names}}; };
  non-fluents { ${COLORS.map((c) => `S(${c}, ${c}) = 1.0;`).join(' ')} };
  max-nondef-actions = 1; horizon = 40; discount = 1.0; }
`;
}
