/**
 * "Never a stack trace, never a hang": random edits of valid RDDL texts (deleted spans, inserted tokens,
 * swapped words) must give diagnostics or a located ProtoplayError, never an exception of another kind.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRddl, EXAMPLE_DOMAINS, loadRddl } from '../../../../src/core/envs/rddl';
import { ProtoplayError } from '../../../../src/core/errors';

const TOKENS = [
  '(',
  ')',
  '{',
  '}',
  ';',
  ',',
  '=',
  '^',
  '|',
  '~',
  '?x',
  '@a',
  '$o',
  "p'",
  'if',
  'then',
  'else',
  'sum_{',
  'Bernoulli(',
  '1.5',
  '2',
  'forall_{?y : computer}',
  'int',
  'default',
  'level',
  '/*',
  '-',
  '1e3',
  'switch',
  'case',
  ':',
];

const edit = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), token: fc.constantFrom(...TOKENS) }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), to: fc.nat() }),
);

function apply(
  text: string,
  edits: { kind: string; at: number; length?: number; token?: string; to?: number }[],
): string {
  let result = text;
  for (const e of edits) {
    const at = e.at % (result.length + 1);
    if (e.kind === 'delete') result = result.slice(0, at) + result.slice(at + e.length!);
    else if (e.kind === 'insert') result = `${result.slice(0, at)} ${e.token} ${result.slice(at)}`;
    else {
      const words = result.split(/(\s+)/);
      const i = at % words.length;
      const j = e.to! % words.length;
      [words[i], words[j]] = [words[j]!, words[i]!];
      result = words.join('');
    }
  }
  return result;
}

describe('robustness against broken texts', () => {
  it('reports problems instead of crashing', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EXAMPLE_DOMAINS),
        fc.array(edit, { minLength: 1, maxLength: 4 }),
        (example, edits) => {
          const sources = [
            { name: 'domain.rddl', text: apply(example.domain, edits) },
            { name: 'instance.rddl', text: example.instance },
          ];
          const diagnostics = checkRddl(sources);
          for (const d of diagnostics) expect(d.location.line).toBeGreaterThanOrEqual(1);
          try {
            const model = loadRddl(sources);
            const simulator = model.createSimulator({ seed: 1 });
            for (let t = 0; t < 3; t++) simulator.step([]);
          } catch (error) {
            expect(error).toBeInstanceOf(ProtoplayError);
          }
        },
      ),
      { numRuns: 150, seed: 20261121 },
    );
  });
});
