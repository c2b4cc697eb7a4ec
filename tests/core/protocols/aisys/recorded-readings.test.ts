/**
 * The latest readings of recorded bodies are shared by the machines and the reader: the same record,
 * unchanged, is parsed once; another record, a changed one, or one read long ago is parsed afresh.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  RECENT_READINGS,
  readRecordedRequest,
  readRecordedResponse,
} from '../../../../src/core/protocols/aisys/recorded-readings';
import { aisysProtocol } from '../../../../src/core/protocols/aisys/protocol';
import { summariseTranscript } from '../../../../src/core/session/open-recording';
import type { TranscriptMessage } from '../../../../src/core/transcript/model';
import { playedNim } from './played-nim';

afterEach(() => vi.restoreAllMocks());

const json = { 'content-type': 'application/json' };

function request(index: number, actNo = 0): TranscriptMessage {
  return {
    index,
    t: index,
    dir: 'c2s',
    conn: 'c',
    kind: 'data',
    text: JSON.stringify({
      protocol_version: 1,
      agent: 'a',
      pwd: 'p',
      actions: [{ run: '1', act_no: actNo, action: 1 }],
      to_abandon: [],
      parallel_runs: true,
    }),
    http: { exchange: index, method: 'PUT', path: '/act/nim', headers: { ...json } },
  };
}

function response(index: number): TranscriptMessage {
  return {
    index,
    t: index,
    dir: 's2c',
    conn: 'c',
    kind: 'data',
    text: JSON.stringify({
      action_requests: [{ run: '1', act_no: 1, percept: 3 }],
      active_runs: ['1'],
      messages: [],
      finished_runs: {},
    }),
    http: { exchange: index - 1, status: 200, headers: { ...json } },
  };
}

describe('recorded readings', () => {
  it('parses an unchanged record once, for every caller', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const message = response(1);
    const first = readRecordedResponse(message);
    expect(first.kind).toBe('v1');
    expect(readRecordedResponse(message)).toBe(first);
    expect(parse).toHaveBeenCalledTimes(1);
    const asked = request(0);
    const reading = readRecordedRequest(asked);
    expect(reading).toMatchObject({ ok: true, version: 1 });
    expect(readRecordedRequest(asked)).toBe(reading);
    expect(parse).toHaveBeenCalledTimes(2);
  });

  it('never hands one record the reading of another, nor of what it was before a change', () => {
    const first = request(5, 0);
    const reading = readRecordedRequest(first);
    // Another record at the same index, with the same text: read afresh.
    const twin = request(5, 0);
    const again = readRecordedRequest(twin);
    expect(again).not.toBe(reading);
    expect(again).toEqual(reading);
    // The same record changed since: its new body, its new headers.
    twin.text = twin.text!.replace('"act_no":0', '"act_no":4');
    expect(readRecordedRequest(twin)).toMatchObject({ ok: true, request: { actions: [{ act_no: 4 }] } });
    twin.http!.headers = { 'content-type': 'text/plain' };
    expect(readRecordedRequest(twin)).toMatchObject({ ok: false, status: 415 });
    // A record two messages share a slot with (its index a multiple of the slots further on).
    const far = request(5 + RECENT_READINGS, 0);
    expect(readRecordedRequest(far)).not.toBe(readRecordedRequest(first));
    // A request's reading is not a response's.
    const sent = response(7);
    readRecordedRequest({ ...sent, dir: 'c2s' });
    expect(readRecordedResponse(sent).kind).toBe('v1');
  });

  it('keeps a bounded number: a record read long ago is parsed again', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const messages = Array.from({ length: RECENT_READINGS + 1 }, (_, i) => response(i));
    for (const message of messages) readRecordedResponse(message);
    expect(parse).toHaveBeenCalledTimes(RECENT_READINGS + 1);
    // The latest are still kept; the first's slot went to the last.
    readRecordedResponse(messages[RECENT_READINGS]!);
    readRecordedResponse(messages[1]!);
    expect(parse).toHaveBeenCalledTimes(RECENT_READINGS + 1);
    readRecordedResponse(messages[0]!);
    expect(parse).toHaveBeenCalledTimes(RECENT_READINGS + 2);
  });

  it('lets both machines and the summary reader share one parse of each body', async () => {
    const transcript = await playedNim(2000);
    const bodies = transcript.messages.filter(
      (message) => message.kind === 'data' && message.text && message.http?.status !== 404,
    ).length;
    expect(transcript.messages.length).toBeGreaterThan(RECENT_READINGS);
    const parse = vi.spyOn(JSON, 'parse');
    const { rounds, violations } = summariseTranscript(transcript, aisysProtocol);
    expect(rounds).toHaveLength(2000);
    expect(violations).toEqual([]);
    expect(parse.mock.calls.length).toBeLessThanOrEqual(bodies);
    expect(parse.mock.calls.length).toBeGreaterThan(bodies / 2);
  });
});
