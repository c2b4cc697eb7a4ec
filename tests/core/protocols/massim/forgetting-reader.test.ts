/**
 * A forgetting MASSim reader (summaries of big imports, streamed inspection) reads the messages handed in
 * without keeping them: its rows, notes and rounds are those of a reader that keeps everything.
 */
import { describe, expect, it } from 'vitest';
import { forgetRows } from '../../../../src/core/protocols/inspection';
import { createMassimReader } from '../../../../src/core/protocols/massim/protocol';
import type { MessageSummary, SessionNote } from '../../../../src/core/protocols/reading';
import type { TranscriptMessage } from '../../../../src/core/transcript/model';
import { loadRecording, recordedRuns } from './recordings';

function readInBatches(messages: readonly TranscriptMessage[], forgetMessages: boolean, size: number) {
  const reader = createMassimReader({ forgetMessages });
  const rows: MessageSummary[] = [];
  const notes: SessionNote[] = [];
  for (let from = 0; from < messages.length; from += size) {
    reader.append(messages.slice(from, from + size), []);
    // A keeping reader keeps its rows and notes: only the new ones are taken.
    rows.push(...reader.messages.slice(forgetMessages ? 0 : rows.length));
    notes.push(...reader.notes.slice(forgetMessages ? 0 : notes.length));
    if (forgetMessages) forgetRows(reader);
  }
  return { rows, notes, rounds: reader.rounds };
}

describe('forgetting MASSim reader', () => {
  it.each(recordedRuns)('reads the %s run as a keeping reader does', (run) => {
    const { messages } = loadRecording(run);
    const kept = readInBatches(messages, false, 7);
    expect(kept.rows.length).toBe(messages.length);
    expect(readInBatches(messages, true, 7)).toEqual(kept);
    if (run === 'probes') expect(kept.notes.length).toBeGreaterThan(10);
  });

  it('numbers messages on from the last batch, whatever indices they carry', () => {
    const { messages } = loadRecording('basic');
    const renumbered = messages.map((message) => ({ ...message, index: message.index + 1000 }));
    expect(readInBatches(renumbered, true, 50)).toEqual(readInBatches(messages, false, 50));
  });
});
