/**
 * What an import found, as console entries tied to their messages: the broken rules, each with its rule id
 * so a learner can look it up in the protocol notes, and the rounds that ended early, with why.
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

/** One console note per round that ended before its planned length, at the message that ended it. */
export function earlyRoundEndNotes(summary: ImportSummary | undefined): SessionNote[] {
  if (!summary) return [];
  return summary.earlyRoundEnds.map((end) => ({
    index: end.index,
    kind: 'note' as const,
    text: `round ${end.round} ended early: ${end.why}`,
  }));
}

/** The console's entries: the reading's notes with what the import found merged in message order. */
export function withImportNotes(
  notes: readonly SessionNote[],
  summary: ImportSummary | undefined,
): readonly SessionNote[] {
  const extra = [...violationNotes(summary), ...earlyRoundEndNotes(summary)];
  if (extra.length === 0) return notes;
  return [...notes, ...extra].sort((a, b) => a.index - b.index);
}
