/** Finding a policy's syntax error where it is loaded from, before any runtime starts. */
import { describe, expect, it } from 'vitest';
import { findSyntaxError } from '../../../src/core/policy/syntax-check';
import type { PolicySource } from '../../../src/core/policy/types';

const source = (code: string, language: PolicySource['language'] = 'ts'): PolicySource => ({
  code,
  language,
  fileName: 'policy.ts',
  level: 'policy',
  seed: 0,
});

describe('findSyntaxError', () => {
  it('passes code that parses, even code that fails when it runs', () => {
    expect(findSyntaxError(source('export function act(o: { n: number }) { return o.n; }'))).toBeUndefined();
    expect(
      findSyntaxError(source('throw new Error("at load");\nexport const act = () => 1;')),
    ).toBeUndefined();
    expect(findSyntaxError(source('while (true) {}', 'js'))).toBeUndefined();
  });

  it("locates the compiler's syntax errors in the user's file", () => {
    expect(findSyntaxError(source('export function act() {\n  const x = ;\n}'))).toMatchObject({
      kind: 'compile',
      message: expect.stringMatching(/^Syntax error: /),
      location: { source: 'policy.ts', line: 2, column: 13 },
    });
  });

  it('reports what only the engine rejects (a name declared twice)', () => {
    expect(
      findSyntaxError(source('let x = 1;\nlet x = 2;\nexport const act = () => x;', 'js')),
    ).toMatchObject({
      kind: 'compile',
      message: expect.stringMatching(/x/),
    });
  });
});
