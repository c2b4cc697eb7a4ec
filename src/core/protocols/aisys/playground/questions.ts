/**
 * The questions the aisys views ask about what is on show (`PlaygroundSession.ask`), answered from the
 * run book: `overview(channel?)` (`AisysOverview`: the runs table, rating and rating series),
 * `run(id, channel?)` (`AisysRunHistory`), `exchanges(from, count)` (the HTTP log's rows) and
 * `exchange(requestIndex)` (one exchange's bodies, pretty-printed).
 */
import type { Transcript } from '../../../transcript/model';
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
      return exchangeDetail(transcript, Number(args[0]));
    default:
      return undefined;
  }
}

function exchangeDetail(transcript: Transcript, index: number): AisysExchangeDetail | undefined {
  const request = transcript.messages[index];
  if (!request?.http || request.dir !== 'c2s') return undefined;
  let response: (typeof transcript.messages)[number] | undefined;
  for (let i = index + 1; i < transcript.messages.length && !response; i++) {
    const message = transcript.messages[i]!;
    if (message.dir === 's2c' && message.http?.exchange === request.http.exchange) response = message;
  }
  return {
    request: {
      index,
      method: request.http.method ?? '?',
      path: request.http.path ?? '?',
      headers: request.http.headers ?? {},
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
