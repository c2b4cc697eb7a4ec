/**
 * The views' reader of an opened recording takes each new message as the file reader made it
 * (`readMessages`), while the store keeps them for the views' questions: what it reports and answers is
 * what a reader reading everything out of the store reports and answers.
 */
import { describe, expect, it } from 'vitest';
import { MassimTranscriptReader } from '../../../../src/core/protocols/massim/reader';
import type { MassimNews } from '../../../../src/core/protocols/massim/reading';
import { TranscriptStore } from '../../../../src/core/transcript/store';
import type { Transcript } from '../../../../src/core/transcript/model';
import { loadRecording, recordedRuns } from './recordings';

/** The news of reading `transcript` as it grows by `step` messages, the way the session worker follows a file. */
function follow(transcript: Transcript, step: number, handed: boolean) {
  const store = new TranscriptStore({ protocol: 'massim' });
  const reader = new MassimTranscriptReader(store, { judgeAgents: true });
  const news: MassimNews[] = [];
  for (let from = 0; from < transcript.messages.length; from += step) {
    const added = transcript.messages.slice(from, from + step);
    for (const message of added) store.appendMessage(message);
    if (handed) reader.readMessages(added);
    news.push(reader.read());
  }
  return { news, reader };
}

describe('a reader handed the messages its store keeps', () => {
  it.each(recordedRuns)('reports and answers for the %s run as a reader of the store does', (run) => {
    const transcript = loadRecording(run);
    const fromStore = follow(transcript, 25, false);
    const handed = follow(transcript, 25, true);
    expect(handed.news).toEqual(fromStore.news);
    expect(handed.reader.messagesRead).toBe(transcript.messages.length);
    const frames = fromStore.reader.frames.length;
    expect(frames).toBeGreaterThan(2);
    for (const frame of [0, Math.floor(frames / 2), frames - 1])
      for (const agent of ['agentA1', 'agentB2'])
        expect(handed.reader.agentView(frame, agent)).toEqual(fromStore.reader.agentView(frame, agent));
  });

  it('goes on with handed messages where reading the store left off', () => {
    const transcript = loadRecording('probes');
    const store = new TranscriptStore({ protocol: 'massim' });
    const reader = new MassimTranscriptReader(store, { judgeAgents: true });
    const half = Math.floor(transcript.messages.length / 2);
    for (const message of transcript.messages.slice(0, half)) store.appendMessage(message);
    const first = reader.read();
    const rest = transcript.messages.slice(half);
    for (const message of rest) store.appendMessage(message);
    reader.readMessages(rest);
    const second = reader.read();
    const plainStore = new TranscriptStore({ protocol: 'massim' });
    const plain = new MassimTranscriptReader(plainStore, { judgeAgents: true });
    for (const message of transcript.messages.slice(0, half)) plainStore.appendMessage(message);
    const plainFirst = plain.read();
    for (const message of rest) plainStore.appendMessage(message);
    expect([first, second]).toEqual([plainFirst, plain.read()]);
    expect(second.notes.length).toBeGreaterThan(0);
  });
});
