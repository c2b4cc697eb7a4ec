/**
 * rddlsim's evaluation quirks: where the reference server's results differ from what an RDDL text means.
 * The simulator follows the language by default and reproduces these with `rddlsimQuirks: true`. The list
 * is what the playground shows in its protocol notes.
 */

/** One behaviour of rddlsim that differs from the language's intended semantics. */
export interface RddlsimQuirk {
  /** Stable identifier. */
  id: string;
  /** A short heading. */
  title: string;
  /** One paragraph: what rddlsim does, when it matters, and what the correct semantics are. */
  explanation: string;
}

/** Every quirk reproduced by `rddlsimQuirks: true`. */
export const RDDLSIM_QUIRKS: readonly RddlsimQuirk[] = [
  {
    id: 'double-sampling',
    title: 'Random operands of ^, |, => and * are drawn twice',
    explanation:
      'Before computing a conjunction, disjunction, implication or product, rddlsim evaluates the operands once ' +
      'to look for a value that decides the result early (false for ^, true for |, 0 for *), and then, if none ' +
      'does, evaluates them all again. An operand that draws a random number draws it twice, and the second ' +
      'draw is the one used: Bernoulli(0.5) ^ true is true only 25% of the time instead of 50%, and ' +
      'Bernoulli(0.5) | false 75% of the time. Wrapping the draw in an interm-fluent avoids it. Sums, if, ' +
      'quantifiers and aggregations draw once.',
  },
  {
    id: 'times-returns-zero-operand',
    title: '* returns a zero operand unconverted',
    explanation:
      'When either operand of * is zero, rddlsim returns that operand as it is, without converting it: ' +
      'false * 3.5 is the boolean false, not the real 0.0. A real fluent can then hold a boolean and is sent ' +
      'on the wire as false. Together with double sampling, Bernoulli(0.5) * 5.0 gives false half of the ' +
      'time, 0.0 a quarter and 5.0 a quarter of the time. The correct result is a number: 0.0 or 5.0, each ' +
      'half of the time.',
  },
  {
    id: 'single-term-aggregation',
    title: 'An aggregation over one object returns its term unconverted',
    explanation:
      'rddlsim starts a sum, prod, min or max from its first term as it is and converts only when it ' +
      'combines two terms. Over a type with a single object there is nothing to combine, so the sum of a ' +
      'boolean is that boolean: sum_{?e : elevator} flag(?e) is true or false, not 1 or 0, with one elevator. ' +
      'Arithmetic around it converts it back, so it only shows when the aggregation is a fluent’s whole ' +
      'value (sent as true instead of 1). The intended result is a number.',
  },
  {
    id: 'switch-default-anywhere',
    title: 'A switch takes its default case as soon as it reaches it',
    explanation:
      'rddlsim tries the cases of a switch in order and takes default wherever it appears, so a default ' +
      'written before other cases hides them. The intended meaning is that default applies only when no ' +
      'case matches, whatever its position. Writing default last gives the same result in both.',
  },
  {
    id: 'shadowed-variables',
    title: 'A nested quantifier that re-binds a variable erases the outer binding',
    explanation:
      'rddlsim keeps the variables of an expression in one table. When a nested forall, exists, sum, prod, ' +
      'min or max re-binds a variable that an enclosing one already bound (exists_{?l : t} inside a scope of ' +
      '?l), it removes the variable when it finishes, so the enclosing expression loses its value: reading ' +
      'it afterwards fails. rddlsim already meets this when it orders the fluents before the first round, and ' +
      'its server exits (its own pizza example does this); Protoplay then fails to load, naming the cpf, the ' +
      'variable and the read. A quantifier ' +
      'that stops early on a random body leaves its own last value instead. The intended meaning is ordinary ' +
      'scoping: the inner variable hides the outer one only inside the nested expression.',
  },
  {
    id: 'state-invariants-ignored',
    title: 'The server never checks state invariants',
    explanation:
      'rddlsim’s competition server does not evaluate state-invariants at all (only its offline simulator ' +
      'does), so a domain whose transitions break an invariant keeps running. Without quirks the simulator ' +
      'checks every invariant in the initial state and after each step and reports a located error when one ' +
      'is false.',
  },
];
