import type { Violation } from '../machine';

/** A Violation whose sentence names the message, the scavenger when one, what was expected and what came. */
export function violation(
  index: number,
  rule: string,
  expected: string,
  got: string,
  channel?: string,
): Violation {
  const who = channel ? ` (${channel})` : '';
  return {
    index,
    rule,
    expected,
    got,
    message: `message ${index}${who}: expected ${expected}, got ${got} [${rule}]`,
  };
}
