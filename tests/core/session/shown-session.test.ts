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
    annotations: [0, SLICE_MESSAGES + 3, count - 1].map((index) => ({
      index,
      type: 'note',
      data: { index },
    })),
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

  it('follows a transcript still being read: what is read goes out, the rest as it comes, then it ends', () => {
    const updates: SessionUpdate[] = [];
    const frames: (() => void)[] = [];
    const services = {
      listener: { update: (json: string) => updates.push(JSON.parse(json) as SessionUpdate) },
      nextFrame: (callback: () => void) => frames.push(callback),
    } as unknown as PlaygroundServices;
    const whole = transcriptOf(SLICE_MESSAGES * 3);
    const transcript: Transcript = { ...whole, messages: whole.messages.slice(0, 10), annotations: [] };
    const listeners: (() => void)[] = [];
    const growing = { done: false, onGrow: (listener: () => void) => void listeners.push(listener) };
    const grow = (to: number, done = false) => {
      transcript.messages.push(...whole.messages.slice(transcript.messages.length, to));
      growing.done = done;
      listeners.forEach((listener) => listener());
    };
    const runFrames = () => {
      let guard = 0;
      while (frames.length && guard++ < 100) frames.shift()!();
    };
    showTranscript(
      { transcript, origin: 'imported', growing },
      services,
      { kind: 'transcript', transcript },
      { ask: () => undefined, exportJson: () => [] },
    );
    // The first messages are on their way at once; nothing more until the transcript grows.
    expect(updates).toHaveLength(1);
    expect(updates[0]!.messages).toHaveLength(10);
    runFrames();
    expect(updates).toHaveLength(1);
    grow(SLICE_MESSAGES * 2 + 5);
    grow(SLICE_MESSAGES * 2 + 6);
    runFrames();
    expect(updates.every((update) => update.messages.length <= SLICE_MESSAGES)).toBe(true);
    const sent = () => updates.flatMap((update) => update.messages.map((m) => m.index));
    expect(sent()).toEqual(whole.messages.slice(0, SLICE_MESSAGES * 2 + 6).map((m) => m.index));
    const beforeTheEnd = updates.length;
    grow(SLICE_MESSAGES * 3, true);
    runFrames();
    expect(sent()).toEqual(whole.messages.map((m) => m.index));
    expect(updates.length).toBeGreaterThan(beforeTheEnd);
    // Closed: growing on (it cannot, but a late call) sends nothing more.
    const count = updates.length;
    listeners.forEach((listener) => listener());
    runFrames();
    expect(updates).toHaveLength(count);
  });

  it('catches up a transcript kept in the worker before each batch of news, and ends once it is read', () => {
    const updates: SessionUpdate[] = [];
    const frames: (() => void)[] = [];
    const services = {
      listener: { update: (json: string) => updates.push(JSON.parse(json) as SessionUpdate) },
      nextFrame: (callback: () => void) => frames.push(callback),
    } as unknown as PlaygroundServices;
    const transcript = transcriptOf(0);
    const listeners: (() => void)[] = [];
    const growing = { done: false, onGrow: (listener: () => void) => void listeners.push(listener) };
    let taken = 0;
    showTranscript(
      { transcript, origin: 'imported', growing },
      services,
      { kind: 'views', news: () => ({ taken }) },
      { ask: () => undefined, exportJson: () => [] },
      () => (taken = transcript.messages.length),
    );
    const grow = (count: number, done = false) => {
      for (let i = 0; i < count; i++)
        transcript.messages.push({
          index: transcript.messages.length,
          conn: 'c',
          dir: 'c2s',
          t: 0,
          kind: 'data',
          text: 'x',
        });
      growing.done = done;
      listeners.forEach((listener) => listener());
    };
    grow(5);
    grow(5);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    grow(7, true);
    frames.shift()!();
    expect(updates.map((update) => update.views)).toEqual([{ taken: 0 }, { taken: 10 }, { taken: 17 }]);
    grow(1, true);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(updates).toHaveLength(3);
  });
});
