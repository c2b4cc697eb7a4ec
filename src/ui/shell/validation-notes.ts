/**
 * The broken rules an import found, as console entries tied to their messages, each with its rule id so a
 * learner can look it up in the protocol notes.
 */
import type { SessionNote } from '../../core/protocols/reading';
import type { ImportSummary } from '../../core/protocols/session-contract';

/** One console entry per violation, in message order. */
export function violationNotes(summary: ImportSummary | undefined): SessionNote[] {
  if (!summary) return [];
  return summary.violations.map((violation) => ({
    index: violation.index,
    kind: 'violation' as const,
    text: `${violation.channel ? `${violation.channel}: ` : ''}${violation.message}${
      violation.message.includes(violation.rule) ? '' : ` [${violation.rule}]`
    }`,
  }));
}

/** The console's entries: the reading's notes with the import's violations merged in message order. */
export function withViolations(
  notes: readonly SessionNote[],
  summary: ImportSummary | undefined,
): readonly SessionNote[] {
  const extra = violationNotes(summary);
  if (extra.length === 0) return notes;
  return [...notes, ...extra].sort((a, b) => a.index - b.index);
}
