import type { Violation } from '../machine';
import type { TranscriptMessage } from '../../transcript/model';
import { payloadBytes } from '../../transcript/bytes';
import { massimRules, type MassimRuleId } from './rules';

/** A MASSim violation: the shared contract plus the rule's severity, so views can rank fatal ones first. */
export interface MassimViolation extends Violation {
  rule: MassimRuleId;
  severity: (typeof massimRules)[MassimRuleId]['severity'];
}

/**
 * Builds a violation whose sentence says what happened (`what`) and what the real server does about it.
 */
export function massimViolation(
  index: number,
  rule: MassimRuleId,
  expected: string,
  got: string,
  what: string,
): MassimViolation {
  const { severity, consequence } = massimRules[rule];
  return { index, rule, severity, expected, got, message: `${what} ${consequence}` };
}

/** The text of a data message, decoding base64 payloads leniently (bad bytes become U+FFFD). */
export function messageText(message: TranscriptMessage): string {
  if (message.text !== undefined) return message.text;
  return lenientUtf8.decode(payloadBytes(message));
}

const lenientUtf8 = new TextDecoder('utf-8');
