import { describe, expect, it } from 'vitest';
import { compilePolicy } from '../../../src/core/policy/compile';

describe('compilePolicy', () => {
  it('strips TypeScript types and turns exports into assignments on the same lines', () => {
    const source = [
      'interface Obs { x: number }',
      'export function act(observation: Obs): number {',
      '  return observation.x as number;',
      '}',
    ].join('\n');
    const outcome = compilePolicy(source, 'ts', 'policy.ts');
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const lines = outcome.compiled.code.split('\n');
    expect(lines[1]).toContain('function act(observation)');
    expect(lines[2]).toContain('return observation.x');
    expect(outcome.compiled.code).toContain('exports.act = act');
    expect(outcome.compiled.code).not.toContain('interface');
  });

  it('reports a syntax error at the line and column of the offending token', () => {
    const source = 'export function act() {\n  const x = ;\n}';
    const outcome = compilePolicy(source, 'js', 'policy.js');
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.fault.kind).toBe('compile');
    expect(outcome.fault.message).toMatch(/^Syntax error: Unexpected token/);
    // The `;` after `= ` is the unexpected token: line 2, column 13.
    expect(outcome.fault.location).toMatchObject({ source: 'policy.js', line: 2, column: 13 });
  });

  it('rejects TypeScript syntax in a JavaScript policy', () => {
    const outcome = compilePolicy('let x: number = 1;', 'js', 'policy.js');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.fault.location?.line).toBe(1);
  });

  it('maps generated positions back to the source through the source map', () => {
    // Removing the type annotation shifts `b` left in the output; the mapping must undo that.
    const source = 'export const a: Record<string, number> = {};\nexport const b = 2;';
    const outcome = compilePolicy(source, 'ts', 'policy.ts');
    if (!outcome.ok) throw new Error(outcome.fault.message);
    const generatedLine = outcome.compiled.code.split('\n')[0]!;
    const generatedColumn = generatedLine.indexOf('{}') + 1;
    expect(outcome.compiled.mapping.originalPosition({ line: 1, column: generatedColumn })).toEqual({
      line: 1,
      column: source.indexOf('{}') + 1,
    });
  });
});
