import { describe, expect, it } from 'vitest';
import { createRddlsimReader } from '../../src/core/protocols/rddlsim/reader';
import { TranscriptState } from '../../src/state/transcript.svelte';
import { ReaderNewsBuilder } from '../../src/core/session/reader-news';
import { batchText } from '../../src/core/session/update-batcher';
import { playEmulatedSession, splitIntoBatches } from '../core/session/emulated-transcript';

describe('the transcript on screen, fed by a session worker', () => {
  it.each([
    ['as plain JSON', false],
    ['with where each message is in it', true],
  ])(
    'shows the worker’s reading of batches sent %s, and reads a turn’s fluents and a message’s text only when asked',
    async (_, withPlaces) => {
      const transcript = await playEmulatedSession(3);
      const { messages, annotations, ...header } = transcript;
      const state = new TranscriptState();
      state.reset({ ...header, messages: [], annotations: [] }, createRddlsimReader, 'live');
      const builder = new ReaderNewsBuilder(createRddlsimReader());
      for (const batch of splitIntoBatches(transcript, 11)) {
        const news = builder.take(batch.messages, batch.annotations);
        if (withPlaces) {
          const { json, places } = batchText(batch.messages, batch.annotations);
          // The text is the batch's JSON, and each place holds exactly its message.
          expect(JSON.parse(json)).toEqual(batch);
          batch.messages.forEach((message, i) =>
            expect(JSON.parse(json.slice(places.messages[i], places.messages[i + 1]! - 1))).toEqual(message),
          );
          state.appendDeferred(json, batch.messages.length, news, places);
        } else state.appendDeferred(JSON.stringify(batch), batch.messages.length, news);
      }

      // The page's own reading of the whole transcript, to compare with.
      const whole = createRddlsimReader();
      whole.append(messages, annotations);
      expect(state.messages).toEqual(whole.messages);
      expect(state.rounds).toEqual(whole.rounds);
      expect(state.notes).toEqual(whole.notes);
      expect(state.types).toEqual([...new Set(whole.messages.map((m) => m.type))]);
      for (const position of [0, 5, whole.turns.length - 1]) {
        const turn = state.turnAt(position)!;
        expect(turn).toEqual(whole.turns[position]);
        // True state included: the emulator records it with every turn.
        expect(turn.world?.length).toBeGreaterThan(0);
      }
      expect(state.message(42)).toEqual(messages[42]);
      // Asking for the whole transcript (an export) parses everything, in order.
      expect(state.transcript?.messages).toEqual(messages);
      expect(state.transcript?.annotations).toEqual(annotations);
      expect(state.message(messages.length - 1)).toEqual(messages[messages.length - 1]);
    },
  );

  it('publishes once for a batch of changes', async () => {
    const transcript = await playEmulatedSession(1);
    const state = new TranscriptState();
    const { messages, annotations, ...header } = transcript;
    state.reset({ ...header, messages: [], annotations: [] }, createRddlsimReader, 'live');
    const before = state.version;
    state.batch(() => {
      for (const batch of splitIntoBatches({ ...transcript, messages, annotations }, 5))
        state.append(batch.messages, batch.annotations);
    });
    expect(state.version).toBe(before + 1);
    expect(state.messages).toHaveLength(messages.length);
  });

  it('keeps held batches from the views until they are published, then publishes them once, in order', async () => {
    const transcript = await playEmulatedSession(1);
    const state = new TranscriptState();
    const { messages, annotations, ...header } = transcript;
    state.reset({ ...header, messages: [], annotations: [] }, createRddlsimReader, 'live');
    const before = state.version;
    const batches = splitIntoBatches({ ...transcript, messages, annotations }, 5);
    const half = Math.ceil(batches.length / 2);
    for (const batch of batches.slice(0, half))
      state.batch(() => state.append(batch.messages, batch.annotations), true);
    // Taken in (the whole transcript has them), not shown.
    expect(state.version).toBe(before);
    expect(state.messages).toHaveLength(0);
    expect(state.transcript?.messages.length).toBeGreaterThan(0);
    state.publishHeld();
    expect(state.version).toBe(before + 1);
    const shownFirst = state.messages.length;
    expect(shownFirst).toBe(state.transcript?.messages.length);
    // A batch that does not hold publishes what held ones left too.
    for (const batch of batches.slice(half, -1))
      state.batch(() => state.append(batch.messages, batch.annotations), true);
    const last = batches[batches.length - 1]!;
    state.batch(() => state.append(last.messages, last.annotations));
    expect(state.version).toBe(before + 2);
    const whole = createRddlsimReader();
    whole.append(messages, annotations);
    expect(state.messages).toEqual(whole.messages);
    expect(state.rounds).toEqual(whole.rounds);
    // Nothing is left to publish.
    state.publishHeld();
    expect(state.version).toBe(before + 2);
  });
});

describe('a loaded transcript', () => {
  it('is read a slice at a time and ends up read exactly as at once', async () => {
    const transcript = await playEmulatedSession(12);
    const state = new TranscriptState();
    state.reset(transcript, createRddlsimReader, 'imported');
    const whole = createRddlsimReader();
    whole.append(transcript.messages, transcript.annotations);
    await expect
      .poll(() => state.messages.length, { timeout: 90_000, interval: 20 })
      .toBe(transcript.messages.length);
    expect(state.messages).toEqual(whole.messages);
    expect(state.rounds).toEqual(whole.rounds);
    expect(state.notes).toEqual(whole.notes);
    expect(state.turnAt(whole.turns.length - 1)).toEqual(whole.turns[whole.turns.length - 1]);
    expect(state.transcript?.messages).toEqual(transcript.messages);
  });
});
