/**
 * The files a transcript on show is exported as besides its Protoplay JSON: the rewards as CSV (as the
 * protocol's reader reads them: a round per rddlsim round, MASSim simulation, aisys run or GAMA episode)
 * and the raw wire streams of one direction, one file per connection. Made in the session worker, which
 * holds every protocol's transcript (the page holds only some).
 */
import type { Protocol } from '../protocols/contract';
import type { RoundSummary } from '../protocols/reading';
import type { Direction, Transcript } from '../transcript/model';
import { exportWireStreams } from '../transcript/wire-export';

/** What can be exported besides the JSON. */
export type TranscriptExport = 'csv' | Direction;

/** One exported file: a name (without the transcript's stem) and its content. */
export interface ExportedFile {
  fileName: string;
  type: string;
  content: string | Uint8Array;
}

/**
 * One line per executed step: `round,step,reward,cumulative,round_total` (the total the server reported at
 * the round's end, empty while it had not), steps from 1.
 */
export function rewardsCsv(rounds: readonly RoundSummary[]): string {
  const lines = ['round,step,reward,cumulative,round_total'];
  for (const round of rounds) {
    let cumulative = 0;
    round.stepRewards.forEach((reward, i) => {
      cumulative += reward;
      lines.push(`${round.round},${i + 1},${reward},${cumulative},${round.total ?? ''}`);
    });
    if (round.stepRewards.length === 0 && round.total !== undefined)
      lines.push(`${round.round},,,,${round.total}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The files of one export format for a transcript of `protocol` (none when it has nothing to export). */
export function exportTranscriptFiles(
  transcript: Transcript,
  protocol: Protocol,
  format: TranscriptExport,
): ExportedFile[] {
  if (format === 'csv') {
    const reader = protocol.createReader();
    reader.append(transcript.messages, transcript.annotations);
    if (reader.rounds.length === 0) return [];
    return [{ fileName: 'rewards.csv', type: 'text/csv', content: rewardsCsv(reader.rounds) }];
  }
  const framing = protocol.transport.kind === 'tcp' ? protocol.transport.framing.framing : 'frame';
  return exportWireStreams(transcript, framing)
    .filter((stream) => stream.dir === format)
    .map((stream) => ({
      fileName: stream.fileName,
      type: 'application/octet-stream',
      content: stream.bytes,
    }));
}
