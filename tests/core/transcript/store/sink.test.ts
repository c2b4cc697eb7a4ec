/**
 * A store with a sink tells it each message's JSON as the message is appended, from what it was given:
 * reading the payload back would join the chunk's growing text once per message, quadratic in its size
 * (writing a transcript while a long HTTP session ran took four times as long as playing it).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TranscriptMessage } from '../../../../src/core/transcript/model';
import { MessageChunk } from '../../../../src/core/transcript/store/chunk';
import { TranscriptStore } from '../../../../src/core/transcript/store/store';

afterEach(() => vi.restoreAllMocks());

describe('a store with a sink', () => {
  it('writes appended messages without reading the chunk back, and writes what it holds', () => {
    const written: string[] = [];
    const store = new TranscriptStore({
      protocol: 'test',
      startedAt: 0,
      compression: 'none',
      sink: { messageJson: (json) => written.push(json), annotationJson: () => undefined },
    });
    const readBack = [
      vi.spyOn(MessageChunk.prototype, 'decode'),
      vi.spyOn(MessageChunk.prototype, 'literalText'),
    ];
    const messages: Omit<TranscriptMessage, 'index'>[] = [];
    for (let i = 0; i < 3000; i++) {
      const message: Omit<TranscriptMessage, 'index'> = {
        conn: 'http',
        dir: i % 2 ? 's2c' : 'c2s',
        t: i,
        kind: 'data',
        ...(i % 7 === 6 ? { base64: 'AAEC' } : { text: `{"n": ${i}, "s": "é\\u2028"}` }),
        framing: 'frame',
        channel: 'nim/agent',
        http: { exchange: i - (i % 2), ...(i % 2 ? { status: 200 } : { method: 'PUT', path: '/act/nim' }) },
      };
      messages.push(message);
      store.appendMessage(message);
    }
    for (const spy of readBack) expect(spy).not.toHaveBeenCalled();
    expect(written).toHaveLength(3000);
    written.forEach((json, index) => expect(json).toBe(store.messageJson(index)));
    expect(written.map((json) => JSON.parse(json) as unknown)).toEqual(
      messages.map((message, index) => ({ index, ...message })),
    );
  });
});
