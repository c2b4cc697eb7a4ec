/**
 * The questions the aisys views ask about what is on show (`PlaygroundSession.ask`), answered from the
 * run book: `overview(channel?)` (`AisysOverview`: the runs table, rating and rating series),
 * `run(id, channel?)` (`AisysRunHistory`), `exchanges(from, count)` (the HTTP log's rows) and
 * `exchange(requestIndex)` (one exchange's bodies, pretty-printed; its response found through an
 * `AisysResponseIndex`, so a question costs the same at the start of a 100,000-message transcript as at
 * its end, answered or not).
 */
import type { Transcript, TranscriptMessage } from '../../../transcript/model';
import { prettyPrintAisys } from '../protocol';
import type { AisysRunBook } from './run-book';

export const AISYS_QUESTIONS = ['overview', 'run', 'exchanges', 'exchange'] as const;

/** One exchange with its bodies, for the HTTP log's detail. */
export interface AisysExchangeDetail {
  request: { index: number; method: string; path: string; headers: Record<string, string>; body: string };
  response?: { index: number; status: number; headers: Record<string, string>; body: string };
}

/** Answers one question; undefined for an unknown one. */
export function answerAisysQuestion(
  book: AisysRunBook,
  transcript: Transcript,
  question: string,
  args: readonly unknown[],
  responses: AisysResponseIndex,
): unknown {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  switch (question) {
    case 'overview':
      return book.overview(text(args[0]));
    case 'run':
      return book.run(String(args[0]), text(args[1]));
    case 'exchanges':
      return book.exchanges(Number(args[0] ?? 0) || 0, Number(args[1] ?? 100) || 100);
    case 'exchange':
      return exchangeDetail(transcript, Number(args[0]), responses);
    default:
      return undefined;
  }
}

/**
 * Where each exchange's responses are in a transcript: the positions of the server's messages carrying
 * it, in order. It reads the messages added since it last looked (a transcript grows while it is read
 * from its file or while a session plays), and starts again when it is shown another list of messages or
 * a shorter one. Its size is bounded by the transcript's.
 */
export class AisysResponseIndex {
  #messages: readonly TranscriptMessage[] | undefined;
  #read = 0;
  /** Positions of the responses of each exchange: one number, or several in order. */
  readonly #responses = new Map<number, number | number[]>();
  /** Messages looked at so far (read into the index, and visited by the searches): what a question costs. */
  looked = 0;

  /** The first response to `exchange` after position `after`, as the transcript holds it now. */
  responseAfter(
    messages: readonly TranscriptMessage[],
    exchange: number,
    after: number,
  ): TranscriptMessage | undefined {
    this.#catchUp(messages);
    const at = this.#responses.get(exchange);
    if (at === undefined) return undefined;
    if (typeof at === 'number') {
      this.looked++;
      return at > after ? messages[at] : undefined;
    }
    // The first position past `after` (positions are in increasing order).
    let low = 0;
    let high = at.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      this.looked++;
      if (at[middle]! > after) high = middle;
      else low = middle + 1;
    }
    return low < at.length ? messages[at[low]!] : undefined;
  }

  #catchUp(messages: readonly TranscriptMessage[]): void {
    if (messages !== this.#messages || messages.length < this.#read) {
      this.#messages = messages;
      this.#read = 0;
      this.#responses.clear();
    }
    for (let i = this.#read; i < messages.length; i++) {
      const message = messages[i]!;
      this.looked++;
      if (message.dir !== 's2c' || !message.http) continue;
      const exchange = message.http.exchange;
      const known = this.#responses.get(exchange);
      if (known === undefined) this.#responses.set(exchange, i);
      else if (typeof known === 'number') this.#responses.set(exchange, [known, i]);
      else known.push(i);
    }
    this.#read = messages.length;
  }
}

function exchangeDetail(
  transcript: Transcript,
  index: number,
  responses: AisysResponseIndex,
): AisysExchangeDetail | undefined {
  const request = transcript.messages[index];
  if (!request?.http || request.dir !== 'c2s') return undefined;
  const response = responses.responseAfter(transcript.messages, request.http.exchange, index);
  return detailOf(index, request, request.http, response);
}

/**
 * The detail as it was read before the index: the response found by looking at every message after the
 * request. The tests and the benchmark compare the index's answers and costs with it.
 */
export function exchangeDetailByScan(transcript: Transcript, index: number): AisysExchangeDetail | undefined {
  const request = transcript.messages[index];
  if (!request?.http || request.dir !== 'c2s') return undefined;
  let response: TranscriptMessage | undefined;
  for (let i = index + 1; i < transcript.messages.length && !response; i++) {
    const message = transcript.messages[i]!;
    if (message.dir === 's2c' && message.http?.exchange === request.http.exchange) response = message;
  }
  return detailOf(index, request, request.http, response);
}

function detailOf(
  index: number,
  request: TranscriptMessage,
  http: NonNullable<TranscriptMessage['http']>,
  response: TranscriptMessage | undefined,
): AisysExchangeDetail {
  return {
    request: {
      index,
      method: http.method ?? '?',
      path: http.path ?? '?',
      headers: http.headers ?? {},
      body: prettyPrintAisys(request.text ?? ''),
    },
    ...(response?.http
      ? {
          response: {
            index: response.index,
            status: response.http.status ?? 0,
            headers: response.http.headers ?? {},
            body: prettyPrintAisys(response.text ?? ''),
          },
        }
      : {}),
  };
}
