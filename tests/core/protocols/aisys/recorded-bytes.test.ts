/**
 * A request body that is not UTF-8 is recorded as its bytes (base64), and read back from a transcript as
 * the server read it when it came: from its bytes, as Python's `json.loads` reads bytes.
 */
import { describe, expect, it } from 'vitest';
import { readActRequest } from '../../../../src/core/protocols/aisys/act-request';
import { httpOf } from '../../../../src/core/protocols/aisys/recorded-readings';
import type { HttpMessage } from '../../../../src/core/protocols/contract';
import { TranscriptRecorder } from '../../../../src/core/transcript/recorder';

const meta = { method: 'PUT', path: '/act/nim', headers: { 'content-type': 'application/json' } };
const body = '{"protocol_version":1,"agent":"ann","pwd":"p","actions":[]}';

/** UTF-16LE with its byte order mark. */
function utf16(text: string): Uint8Array {
  const bytes = new Uint8Array(2 + text.length * 2);
  bytes.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) {
    bytes[2 + i * 2] = text.charCodeAt(i) & 0xff;
    bytes[3 + i * 2] = text.charCodeAt(i) >> 8;
  }
  return bytes;
}

/** A request as the HTTP server hands it over: its lenient text, and its bytes when they are not UTF-8. */
const received = (bytes: Uint8Array): HttpMessage => ({
  meta,
  body: new TextDecoder().decode(bytes),
  bytes,
});

describe('a request body that is not UTF-8', () => {
  it('is recorded as its bytes and read back from the record as it was read when it came', () => {
    const recorder = new TranscriptRecorder({ protocol: 'aisys', now: () => 0 });
    const cases = [received(utf16(body)), received(new Uint8Array([0x7b, 0xff, 0x7d]))];
    const records = cases.map((request) => recorder.httpRequest('c1', request));
    records.forEach((record, i) => {
      expect(record.text).toBeUndefined();
      expect(record.base64).toBeDefined();
      const back = httpOf(record);
      expect(back.bytes).toEqual(cases[i]!.bytes);
      expect(readActRequest(back)).toEqual(readActRequest(cases[i]!));
    });
    // UTF-16 with its mark is a request the server reads; the byte 0xFF alone is a 400.
    expect(readActRequest(cases[0]!)).toMatchObject({ ok: true, version: 1 });
    expect(readActRequest(cases[1]!)).toEqual({ ok: false, status: 400 });
  });

  it('records a UTF-8 body as text, as before', () => {
    const recorder = new TranscriptRecorder({ protocol: 'aisys', now: () => 0 });
    const record = recorder.httpRequest('c1', { meta, body });
    expect(record.text).toBe(body);
    expect(record.base64).toBeUndefined();
    expect(httpOf(record)).toEqual({ meta: record.http, body });
  });
});
