/**
 * A recorded request or response read as the server or a client reads it, once for everyone who asks
 * soon after: both roles' machines and the reader each need the JSON of every `/act` body, and parsing it
 * is most of what validating and summing up a big recording costs.
 */
import { base64ToBytes } from '../../transcript/bytes';
import type { TranscriptMessage } from '../../transcript/model';
import { RecentReadings } from '../../transcript/recent-readings';
import type { HttpMessage } from '../contract';
import { readActRequest, type ActRequestReading } from './act-request';
import { readResponse, type ResponseReading } from './codec';

/**
 * How many of the latest readings are kept. Validation feeds a message to both machines one after the
 * other, and the summary's reader reads the same messages a batch later (a thousand at most, see
 * `readRecording`'s `summarise` and `readRecordingInChunks`): within this many messages they all meet the
 * same reading. A power of two (a record's slot is its index's last bits), and no more than that: readings
 * kept longer outlive the garbage collector's young generation, which then copies them.
 */
export const RECENT_READINGS = 1024;

/** A reading, with the headers that decide how the body reads (they may change inside the same headers). */
interface RecentReading {
  contentType: string | undefined;
  contentLength: string | undefined;
  reading: { kind: 'request'; request: ActRequestReading } | { kind: 'response'; response: ResponseReading };
}

/** The latest readings (see `RecentReadings`): never more than the slots, whatever the session's length. */
const recentReadings = new RecentReadings<RecentReading>(RECENT_READINGS);

function recent(message: TranscriptMessage): RecentReading | undefined {
  const found = recentReadings.find(message);
  const headers = message.http?.headers;
  return found &&
    found.contentType === headers?.['content-type'] &&
    found.contentLength === headers?.['content-length']
    ? found
    : undefined;
}

function remember(message: TranscriptMessage, reading: RecentReading['reading']): void {
  const headers = message.http?.headers;
  recentReadings.keep(message, {
    contentType: headers?.['content-type'],
    contentLength: headers?.['content-length'],
    reading,
  });
}

/**
 * The HTTP message a transcript record carries, for reading it: its meta is the record's own, not a copy
 * (the exchange number comes along, and the readers, which keep nothing of it, pass it by).
 */
export function httpOf(message: TranscriptMessage): HttpMessage {
  return { meta: message.http!, ...bodyOf(message) };
}

/**
 * The body of a transcript record as an HTTP message carries it: its text, or, for bytes that are not
 * UTF-8 (kept as base64), the bytes and the text a UTF-8 reading makes of them.
 */
export function bodyOf(message: TranscriptMessage): Pick<HttpMessage, 'body' | 'bytes'> {
  if (message.base64 === undefined) return { body: message.text ?? '' };
  const bytes = base64ToBytes(message.base64);
  return { body: lenientUtf8.decode(bytes), bytes };
}

const lenientUtf8 = new TextDecoder('utf-8');

/**
 * A recorded `/act` request (a record with HTTP metadata) read as the real server reads it (faithful to
 * its bugs). A record read lately gets the same reading back: callers must not change what they are given.
 */
export function readRecordedRequest(message: TranscriptMessage): ActRequestReading {
  const found = recent(message)?.reading;
  if (found?.kind === 'request') return found.request;
  const request = readActRequest(httpOf(message));
  remember(message, { kind: 'request', request });
  return request;
}

/**
 * A recorded response (a record with HTTP metadata) read as a client reads it. A record read lately gets
 * the same reading back: callers must not change what they are given.
 */
export function readRecordedResponse(message: TranscriptMessage): ResponseReading {
  const found = recent(message)?.reading;
  if (found?.kind === 'response') return found.response;
  const response = readResponse(httpOf(message));
  remember(message, { kind: 'response', response });
  return response;
}
