import { describe, expect, it } from 'vitest';
import { AisysSession, localDecide } from '../../../../../src/core/protocols/aisys';
import {
  AisysResponseIndex,
  answerAisysQuestion,
  exchangeDetailByScan,
} from '../../../../../src/core/protocols/aisys/playground/questions';
import { AisysRunBook } from '../../../../../src/core/protocols/aisys/playground/run-book';
import { Rng } from '../../../../../src/core/random';
import type { Transcript, TranscriptMessage } from '../../../../../src/core/transcript/model';
import { loadRecording, RECORDING_NAMES } from '../recordings';

/** The views' questions on a transcript, as a shown transcript asks them: one book and one index. */
function asker(transcript: Transcript) {
  const book = new AisysRunBook();
  const responses = new AisysResponseIndex();
  let read = 0;
  return {
    responses,
    detail(index: number) {
      book.add(transcript.messages.slice(read));
      read = transcript.messages.length;
      return answerAisysQuestion(book, transcript, 'exchange', [index], responses);
    },
  };
}

/** Every position of the transcript and a few beyond: each detail is the whole scan's. */
function expectSameDetails(transcript: Transcript, ask: ReturnType<typeof asker>): number {
  let compared = 0;
  for (let i = -1; i <= transcript.messages.length + 1; i++) {
    const expected = exchangeDetailByScan(transcript, i);
    expect(ask.detail(i), `detail of ${i}`).toEqual(expected);
    if (expected?.response) compared++;
  }
  return compared;
}

function withMessages(transcript: Transcript, messages: TranscriptMessage[]): Transcript {
  return { ...transcript, messages };
}

async function playedSession(runs: number, seed: number): Promise<Transcript> {
  let clock = 0;
  const session = new AisysSession({
    env: 'nim',
    runs,
    seed,
    decide: localDecide((percept) => (percept as number) % 4 || 1),
    now: () => clock++,
  });
  await session.run();
  return session.transcript;
}

/**
 * A damaged copy: responses lost, answered twice, moved before their request, exchange numbers
 * mixed up, HTTP meta stripped from requests and responses.
 */
function damaged(transcript: Transcript, seed: number): Transcript {
  const rng = new Rng(seed);
  const messages: TranscriptMessage[] = [];
  for (const message of transcript.messages) {
    const roll = rng.nextInt(20);
    if (message.dir === 's2c' && roll === 0) continue;
    if (message.dir === 's2c' && roll === 1) {
      messages.push(message, { ...message, text: `${message.text ?? ''} (again)` });
      continue;
    }
    if (message.dir === 's2c' && roll === 2 && messages.length > 3) {
      messages.splice(messages.length - 2, 0, message);
      continue;
    }
    if (roll === 3) {
      const { http: _http, ...bare } = message;
      messages.push(bare);
      continue;
    }
    if (roll === 4 && message.http)
      messages.push({ ...message, http: { ...message.http, exchange: rng.nextInt(8) } });
    else messages.push(message);
  }
  // Indices as a damaged file gives them: from the file, not the position.
  return withMessages(transcript, messages);
}

describe("the aisys exchange detail, through the views' response index", () => {
  it.each(RECORDING_NAMES)('answers as the whole scan does on the real server’s recording %s', (name) => {
    const transcript = loadRecording(name);
    const answered = expectSameDetails(transcript, asker(transcript));
    expect(answered).toBeGreaterThan(0);
  });

  it('answers as the whole scan does on damaged copies of every recording', () => {
    let answered = 0;
    for (const [i, name] of RECORDING_NAMES.entries()) {
      const copy = damaged(loadRecording(name), i + 1);
      answered += expectSameDetails(copy, asker(copy));
    }
    expect(answered).toBeGreaterThan(100);
  });

  it('finds every response of an exchange answered several times, and none before its request', () => {
    const base = loadRecording('02-simple-v1-parallel');
    const request = base.messages.find((m) => m.dir === 'c2s')!;
    const response = base.messages.find(
      (m) => m.dir === 's2c' && m.http?.exchange === request.http!.exchange,
    )!;
    // A response before the request, the request twice, each answered by the next response of the exchange.
    const messages = [
      { ...response, index: 0, text: 'early' },
      { ...request, index: 1 },
      { ...response, index: 2, text: 'first' },
      { ...request, index: 3 },
      { ...response, index: 4, text: 'second' },
      { ...request, index: 5 },
    ];
    const transcript = withMessages(base, messages);
    const ask = asker(transcript);
    expect((ask.detail(1) as { response: { index: number } }).response.index).toBe(2);
    expect((ask.detail(3) as { response: { index: number } }).response.index).toBe(4);
    expect(ask.detail(5)).not.toHaveProperty('response');
    expectSameDetails(transcript, ask);
  });

  it('answers as the whole scan does on a long session read in pieces, and on its damaged copy', async () => {
    const whole = await playedSession(3000, 7);
    expect(whole.messages.length).toBeGreaterThan(3000);
    for (const source of [whole, damaged(whole, 99)]) {
      const growing = withMessages(source, []);
      const ask = asker(growing);
      const rng = new Rng(3);
      while (growing.messages.length < source.messages.length) {
        const more = 1 + rng.nextInt(700);
        growing.messages.push(
          ...source.messages.slice(growing.messages.length, growing.messages.length + more),
        );
        // Questions about what was just read, and about requests read long before.
        for (let q = 0; q < 30; q++) {
          const i = rng.nextInt(growing.messages.length + 2) - 1;
          expect(ask.detail(i), `detail of ${i} at ${growing.messages.length}`).toEqual(
            exchangeDetailByScan(growing, i),
          );
        }
      }
    }
  });

  it('starts again for a transcript replaced by another or cut shorter', async () => {
    const first = await playedSession(200, 1);
    const second = await playedSession(200, 2);
    const responses = new AisysResponseIndex();
    const book = new AisysRunBook();
    const detail = (transcript: Transcript, i: number) =>
      answerAisysQuestion(book, transcript, 'exchange', [i], responses);
    for (let i = 0; i < first.messages.length; i++)
      expect(detail(first, i)).toEqual(exchangeDetailByScan(first, i));
    // A shorter list of messages: the responses past its end are gone.
    const cut = withMessages(first, first.messages.slice(0, 101));
    for (let i = 0; i < cut.messages.length; i++)
      expect(detail(cut, i)).toEqual(exchangeDetailByScan(cut, i));
    // The same list, shortened where it is (a transcript keeper cutting its own list).
    const shrinking = withMessages(first, [...first.messages]);
    detail(shrinking, 0);
    shrinking.messages.length = 51;
    for (let i = 0; i < 51; i++) expect(detail(shrinking, i)).toEqual(exchangeDetailByScan(shrinking, i));
    for (let i = 0; i < second.messages.length; i++)
      expect(detail(second, i)).toEqual(exchangeDetailByScan(second, i));
  });
});

describe('the cost of an exchange detail', () => {
  /** A transcript whose list of messages counts the messages looked at. */
  function counted(messages: TranscriptMessage[]): { messages: TranscriptMessage[]; looked: () => number } {
    let looked = 0;
    const proxy = new Proxy(messages, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) looked++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    return { messages: proxy, looked: () => looked };
  }

  it('looks at a few messages a question on 100,000 requests whose responses were lost', async () => {
    const played = await playedSession(1500, 4);
    const requests = played.messages.filter((m) => m.dir === 'c2s');
    // 100,000 requests, none answered (a recording that lost every response), numbered in order.
    const messages: TranscriptMessage[] = Array.from({ length: 100_000 }, (_, i) => {
      const request = requests[i % requests.length]!;
      return { ...request, index: i, http: { ...request.http!, exchange: i } };
    });
    const list = counted(messages);
    const transcript = withMessages(played, list.messages);
    const responses = new AisysResponseIndex();
    const book = new AisysRunBook();
    const ask = (i: number) => answerAisysQuestion(book, transcript, 'exchange', [i], responses);
    // The first question reads the transcript once into the index.
    expect(ask(0)).not.toHaveProperty('response');
    const afterFirst = list.looked();
    expect(afterFirst).toBeLessThanOrEqual(messages.length + 10);
    // Every later one looks at the request and the response's place only, wherever the request is.
    const questions = 500;
    for (let q = 0; q < questions; q++) expect(ask(q * 3)).not.toHaveProperty('response');
    const perQuestion = (list.looked() - afterFirst) / questions;
    expect(perQuestion).toBeLessThanOrEqual(4);
    // The whole scan, on the same list, looks at every message after the request.
    const before = list.looked();
    expect(exchangeDetailByScan(transcript, 0)).toEqual(ask(0));
    expect(list.looked() - before).toBeGreaterThanOrEqual(messages.length - 1);
  });

  it('looks at what was added since the last question only, while the transcript grows', async () => {
    const played = await playedSession(2000, 6);
    const list = counted([]);
    const growing = withMessages(played, list.messages);
    const responses = new AisysResponseIndex();
    const book = new AisysRunBook();
    let questions = 0;
    while (growing.messages.length < played.messages.length) {
      growing.messages.push(...played.messages.slice(growing.messages.length, growing.messages.length + 100));
      for (let q = 0; q < 10; q++) {
        answerAisysQuestion(book, growing, 'exchange', [q * 7], responses);
        questions++;
      }
    }
    // Read once (every message), plus the request and its response a question.
    expect(list.looked()).toBeLessThanOrEqual(played.messages.length + 2 * questions);
    expect(responses.looked).toBeLessThanOrEqual(played.messages.length + 4 * questions);
  });
});
