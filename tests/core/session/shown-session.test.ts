import { describe, expect, it } from 'vitest';
import type { PlaygroundServices, SessionUpdate } from '../../../src/core/protocols/session-contract';
import { SLICE_MESSAGES, showTranscript } from '../../../src/core/session/shown-session';
import type { Transcript, TranscriptMessage } from '../../../src/core/transcript/model';

function transcriptOf(count: number): Transcript {
  const messages: TranscriptMessage[] = Array.from({ length: count }, (_, index) => ({
    index,
    conn: 'c',
    dir: index % 2 ? 's2c' : 'c2s',
    t: index,
    kind: 'data',
    text: `message ${index}`,
  }));
  return {
    format: 'protoplay-transcript',
    version: 2,
    protocol: 'rddlsim',
    startedAt: 0,
    meta: {},
    connections: [{ id: 'c' }],
    messages,
    annotations: [0, 5000, count - 1].map((index) => ({ index, type: 'note', data: { index } })),
  };
}

describe('a shown transcript', () => {
  it('reaches the page in slices, one per frame, every message once and in order', () => {
    const updates: SessionUpdate[] = [];
    const frames: (() => void)[] = [];
    const services = {
      listener: { update: (json: string) => updates.push(JSON.parse(json) as SessionUpdate) },
      nextFrame: (callback: () => void) => frames.push(callback),
    } as unknown as PlaygroundServices;
    const transcript = transcriptOf(SLICE_MESSAGES * 2 + 10);
    showTranscript(
      { transcript, origin: 'imported' },
      services,
      { kind: 'transcript', transcript },
      {
        ask: () => undefined,
        exportJson: () => [],
      },
    );
    expect(updates).toHaveLength(1);
    let guard = 0;
    while (frames.length && guard++ < 100) frames.shift()!();
    expect(updates.length).toBe(3);
    expect(updates.every((update) => update.messages.length <= SLICE_MESSAGES)).toBe(true);
    expect(updates.flatMap((update) => update.messages.map((m) => m.index))).toEqual(
      transcript.messages.map((m) => m.index),
    );
    let sent = 0;
    for (const update of updates) {
      sent += update.messages.length;
      for (const annotation of update.annotations) expect(annotation.index).toBeLessThan(sent);
    }
    expect(updates.flatMap((update) => update.annotations)).toEqual(transcript.annotations);
    expect(updates[0]!.reset).toBeDefined();
  });
});
