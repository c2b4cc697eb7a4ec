/**
 * The recording formats: the conformance recordings' `.jsonl` and `.http` files read into the same
 * exchanges (the raw text format found by Content-Length where it holds, by the next status line where a
 * recording shortened a body), HAR files, detection, and problems reported with their lines.
 */
import { describe, expect, it } from 'vitest';
import {
  aisysHarFormat,
  aisysHttpTextFormat,
  aisysJsonlFormat,
} from '../../../../src/core/protocols/aisys/recording';
import type { Transcript, TranscriptMessage } from '../../../../src/core/transcript/model';
import type { ImportProblem } from '../../../../src/core/protocols/contract';
import { RECORDING_NAMES, recordingBytes } from './recordings';

const encoder = new TextEncoder();
const input = (name: string, text: string) => ({ name, bytes: encoder.encode(text) });

/** What both formats must agree on: each message's direction, body, request line, status and headers. */
function wire(transcript: Transcript) {
  return transcript.messages.map((message) => ({
    dir: message.dir,
    conn: message.conn,
    text: message.text,
    channel: message.channel,
    http: message.http,
  }));
}

describe('the conformance recordings', () => {
  it.each(RECORDING_NAMES)('%s reads the same from .jsonl and .http', (name) => {
    const jsonl = aisysJsonlFormat.read([{ name: `${name}.jsonl`, bytes: recordingBytes(`${name}.jsonl`) }]);
    const http = aisysHttpTextFormat.read([{ name: `${name}.http`, bytes: recordingBytes(`${name}.http`) }]);
    expect(jsonl.problems).toEqual([]);
    expect(http.problems).toEqual([]);
    expect(wire(http.transcripts[0]!)).toEqual(wire(jsonl.transcripts[0]!));
  });

  it('pairs requests and responses and names each agent as a channel', () => {
    const transcript = aisysJsonlFormat.read([
      { name: '02.jsonl', bytes: recordingBytes('02-simple-v1-parallel.jsonl') },
    ]).transcripts[0]!;
    expect(transcript.protocol).toBe('aisys');
    const [request, response] = transcript.messages;
    expect(request).toMatchObject({
      dir: 'c2s',
      conn: 'conn 1',
      channel: 'nim-weak/alice',
      http: {
        exchange: 0,
        method: 'PUT',
        path: '//act/nim-weak',
        headers: { 'content-type': 'application/json' },
      },
    });
    expect(response).toMatchObject({ dir: 's2c', http: { exchange: 0, status: 200 } });
    expect(transcript.startedAt).toBe(1795294105577.7288);
  });

  it('are detected by their own format only', () => {
    const jsonl = { name: 'a.jsonl', bytes: recordingBytes('07-errors-auth.jsonl') };
    const http = { name: 'a.http', bytes: recordingBytes('07-errors-auth.http') };
    expect(aisysJsonlFormat.detect([jsonl])).toBeGreaterThan(0.5);
    expect(aisysJsonlFormat.detect([http])).toBe(0);
    expect(aisysHttpTextFormat.detect([http])).toBeGreaterThan(0.5);
    expect(aisysHttpTextFormat.detect([jsonl])).toBe(0);
    expect(aisysHarFormat.detect([jsonl])).toBe(0);
  });
});

describe('problems', () => {
  it('are reported with their line, and the readable exchanges are kept', () => {
    const lines = [
      JSON.stringify({ conn: 1, request: { method: 'PUT', target: '/act/x', headers: [], body: '{}' } }),
      'not json',
      JSON.stringify({ conn: 2, request: { method: 'PUT' } }),
    ].join('\n');
    const outcome = aisysJsonlFormat.read([input('bad.jsonl', lines)]);
    expect(outcome.transcripts[0]!.messages).toHaveLength(1);
    expect(outcome.problems).toEqual([
      { file: 'bad.jsonl', line: 2, message: 'not JSON' },
      { file: 'bad.jsonl', line: 3, message: 'the request needs method, target and headers' },
    ]);
  });

  it('are reported for a file with nothing to read', () => {
    expect(aisysHttpTextFormat.read([input('empty.http', '')]).problems).toEqual([
      { file: 'empty.http', message: 'no HTTP exchange found' },
    ]);
    expect(aisysHarFormat.read([input('x.har', '{"log": {}}')]).problems).toEqual([
      { file: 'x.har', message: 'a HAR file needs log.entries' },
    ]);
  });
});

describe('HAR files', () => {
  it('read their entries as exchanges', () => {
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'test', version: '1' },
        entries: [
          {
            startedDateTime: '2026-01-02T03:04:05.000Z',
            request: {
              method: 'PUT',
              url: 'http://127.0.0.1:5000/act/nim',
              headers: [{ name: 'Content-Type', value: 'application/json' }],
              postData: {
                mimeType: 'application/json',
                text: '{"protocol_version": 1, "agent": "a", "pwd": "p"}',
              },
            },
            response: {
              status: 401,
              headers: [{ name: 'Content-Type', value: 'application/json' }],
              content: {
                mimeType: 'application/json',
                text: btoa(
                  '{"errorcode": 401, "errorname": "Unauthorized", "description": "wrong password"}',
                ),
                encoding: 'base64',
              },
            },
          },
        ],
      },
    };
    const text = JSON.stringify(har);
    expect(aisysHarFormat.detect([input('s.har', text)])).toBeGreaterThan(0.5);
    const { transcripts, problems } = aisysHarFormat.read([input('s.har', text)]);
    expect(problems).toEqual([]);
    const [request, response] = transcripts[0]!.messages;
    expect(request).toMatchObject({ channel: 'nim/a', http: { method: 'PUT', path: '/act/nim' } });
    expect(response).toMatchObject({
      http: { status: 401 },
      text: expect.stringContaining('wrong password'),
    });
    expect(transcripts[0]!.startedAt).toBe(Date.parse('2026-01-02T03:04:05.000Z'));
  });

  it.each(RECORDING_NAMES)('%s.jsonl fed in chunks gives the messages and problems read whole', (name) => {
    const bytes = recordingBytes(`${name}.jsonl`);
    const damaged = new Uint8Array([...bytes, ...encoder.encode('{"request": \n{"conn": 1}\n')]);
    const whole = aisysJsonlFormat.read([{ name: 'r.jsonl', bytes: damaged }]);
    expect(whole.problems.map((p) => p.line)).toHaveLength(2);
    for (const size of [13, 65536]) {
      const messages: TranscriptMessage[] = [];
      const problems: ImportProblem[] = [];
      const reader = aisysJsonlFormat.stream!('r.jsonl', {
        message: (m) => messages.push(m),
        problem: (p) => problems.push(p),
      });
      for (let i = 0; i < damaged.length; i += size) reader.push(damaged.slice(i, i + size));
      reader.end();
      expect(messages).toEqual(whole.transcripts[0]!.messages);
      expect(problems).toEqual(whole.problems);
    }
  });
});
