/**
 * A recorded request or response read as the server or a client reads it, once for everyone who asks
 * soon after: both roles' machines and the reader each need the JSON of every `/act` body, and parsing it
 * is most of what validating and summing up a big recording costs.
 */
import type { TranscriptMessage } from '../../transcript/model';
import type { HttpMessage } from '../contract';
import { readActRequest, type ActRequestReading } from './act-request';
import { readResponse, type ResponseReading } from './codec';

/**
 * How many of the latest readings are kept. Validation feeds a message to both machines one after the
 * other, and the summary's reader reads the same messages a batch later (a thousand at most, see
 * `readRecording`'s `summarise` and `readRecordingInChunks`): within this many messages they all meet the
 * same reading. A power of two (a record's slot is its index's last bits).
 */
export const RECENT_READINGS = 2048;

/** A reading, and the record with the fields it was computed from. */
interface RecentReading {
  message: TranscriptMessage;
  index: number;
  dir: TranscriptMessage['dir'];
  text: string | undefined;
  http: TranscriptMessage['http'];
  contentType: string | undefined;
  contentLength: string | undefined;
  reading: { kind: 'request'; request: ActRequestReading } | { kind: 'response'; response: ResponseReading };
}

/**
 * The latest readings, in the slot of their record's index. A fixed number of slots, so it never grows
 * with the session; only the same record object, its fields unchanged since, gets a reading back (another
 * record with the same index, or a record changed since, is read afresh).
 */
const recentReadings: (RecentReading | undefined)[] = new Array<RecentReading | undefined>(RECENT_READINGS);

function recent(message: TranscriptMessage): RecentReading | undefined {
  const found = recentReadings[message.index & (RECENT_READINGS - 1)];
  const headers = message.http?.headers;
  if (
    found &&
    found.message === message &&
    found.index === message.index &&
    found.dir === message.dir &&
    found.text === message.text &&
    found.http === message.http &&
    found.contentType === headers?.['content-type'] &&
    found.contentLength === headers?.['content-length']
  )
    return found;
  return undefined;
}

function remember(message: TranscriptMessage, reading: RecentReading['reading']): void {
  const headers = message.http?.headers;
  recentReadings[message.index & (RECENT_READINGS - 1)] = {
    message,
    index: message.index,
    dir: message.dir,
    text: message.text,
    http: message.http,
    contentType: headers?.['content-type'],
    contentLength: headers?.['content-length'],
    reading,
  };
}

/** The HTTP message a transcript record carries (its exchange number is not part of it). */
export function httpOf(message: TranscriptMessage): HttpMessage {
  const { exchange: _exchange, ...meta } = message.http!;
  return { meta, body: message.text ?? '' };
}

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
