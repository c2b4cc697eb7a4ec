import type { Violation } from '../machine';

/** Builds a Violation whose sentence names the message, what was expected, what came, and the rule. */
export function violation(index: number, rule: string, expected: string, got: string): Violation {
  return {
    index,
    rule,
    expected,
    got,
    message: `message ${index}: expected ${expected}, got ${got} [${rule}]`,
  };
}
