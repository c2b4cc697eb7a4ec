/**
 * What the generic commands print about a session: each round's reward as the protocol's reader reads
 * the transcript, and every rule the protocol's machines find broken in it.
 */
import type { Protocol } from '../../src/core/protocols/contract';
import type { Transcript } from '../../src/core/transcript/model';
import { validateTranscript, type TranscriptViolation } from '../../src/core/transcript/validate';
import type { CliOutput } from '../command-line/io';
import { formatReward } from '../report/round-report';

/** The rounds of a transcript and its violations. */
export interface PlayReport {
  rewards: number[];
  violations: TranscriptViolation[];
}

/** Reads and checks a transcript; writes one line per round (and per violation) to `out`. */
export function reportSession(
  protocol: Protocol,
  transcript: Transcript,
  out: CliOutput,
  prefix = '',
): PlayReport {
  const reader = protocol.createReader();
  reader.append(transcript.messages, transcript.annotations);
  const rewards: number[] = [];
  for (const round of reader.rounds) {
    const reward = round.total ?? round.stepRewards.reduce((sum, value) => sum + value, 0);
    rewards.push(reward);
    const ended = round.endIndex === undefined ? ' (not finished)' : '';
    out.write(
      `${prefix}round ${round.round}: reward ${formatReward(reward)} in ${round.stepRewards.length} steps${ended}\n`,
    );
  }
  const { violations } = validateTranscript(transcript, protocol);
  for (const violation of violations)
    out.write(
      `${prefix}violation at message ${violation.index} (${violation.conn}): ${violation.rule}: ${violation.message}\n`,
    );
  return { rewards, violations };
}

/** `mean reward 9.5 over 2 rounds`. */
export function meanLine(rewards: readonly number[]): string {
  if (rewards.length === 0) return 'no round was played';
  const mean = rewards.reduce((sum, value) => sum + value, 0) / rewards.length;
  return `mean reward ${formatReward(mean)} over ${rewards.length} round${rewards.length === 1 ? '' : 's'}`;
}
