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
import { inspectRecording } from '../../../../src/core/protocols/inspection';
import { PROTOCOLS } from '../../../../src/core/protocols/registry';
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

/** A `.http` recording as a Windows editor or git's autocrlf saves it: every line break CRLF. */
const withCrlf = (text: string) => text.replace(/\r?\n/g, '\r\n');

/**
 * A `.http` recording with the body of every message that has one (and whose `Content-Length` holds) sent
 * in chunks as curl sends them with `Transfer-Encoding: chunked`: pieces of `size` bytes, the first size line
 * with an extension, and a trailer.
 */
function withChunkedBodies(bytes: Uint8Array, size: number): Uint8Array {
  // Byte for byte: Content-Length counts bytes.
  const text = Buffer.from(bytes).toString('latin1');
  const head = /\r\nContent-Length: (\d+)\r\n((?:[^\r\n]+\r\n)*)\r\n/g;
  let out = '';
  let copied = 0;
  for (let found = head.exec(text); found; found = head.exec(text)) {
    const from = found.index + found[0].length;
    const body = text.slice(from, from + Number(found[1]));
    if (!body || body.length < Number(found[1])) continue;
    if (!/^(\n\nHTTP|\n*#### |\n*$)/.test(text.slice(from + body.length, from + body.length + 12))) continue;
    const pieces: string[] = [];
    for (let at = 0; at < body.length; at += size) {
      const piece = body.slice(at, at + size);
      pieces.push(`${piece.length.toString(16)}${at === 0 ? ';name=value' : ''}\r\n${piece}\r\n`);
    }
    out += `${text.slice(copied, found.index)}\r\nTransfer-Encoding: chunked\r\n${found[2]}\r\n`;
    out += `${pieces.join('')}0\r\nX-Trailer: 1\r\n\r\n`;
    copied = from + body.length;
  }
  return new Uint8Array(Buffer.from(out + text.slice(copied), 'latin1'));
}

/** The body of the response of exchange `i` (from 0) of a conformance recording. */
function harBody(name: string, i: number): string {
  const lines = new TextDecoder().decode(recordingBytes(`${name}.jsonl`)).split('\n');
  const exchange = JSON.parse(lines.filter((line) => line.trim())[i]!) as { response?: { body?: string } };
  return exchange.response?.body ?? '';
}

/** How many runs a response body says finished (none for a body that is not a version 1 answer). */
function finishedRuns(body: string): number {
  try {
    const value = JSON.parse(body) as { finished_runs?: object } | null;
    return Object.keys(value?.finished_runs ?? {}).length;
  } catch {
    return 0;
  }
}

/** The messages without their `content-length` header (a chunked body has none). */
function withoutLengths(messages: readonly TranscriptMessage[]) {
  return messages.map((message) => {
    const { 'content-length': _, ...headers } = message.http?.headers ?? {};
    return { ...message, http: { ...message.http, headers } };
  });
}

describe('.http recordings', () => {
  it.each(RECORDING_NAMES)('%s reads the same with CRLF line breaks', (name) => {
    const lf = recordingBytes(`${name}.http`);
    const crlf = encoder.encode(withCrlf(new TextDecoder().decode(lf)));
    expect(aisysHttpTextFormat.detect([{ name: 'r.http', bytes: crlf }])).toBeGreaterThan(0.5);
    const fromLf = aisysHttpTextFormat.read([{ name: 'r.http', bytes: lf }]);
    const fromCrlf = aisysHttpTextFormat.read([{ name: 'r.http', bytes: crlf }]);
    expect(fromCrlf.problems).toEqual([]);
    expect(fromCrlf).toEqual(fromLf);
  });

  it('locate a problem on the same line with CRLF line breaks as with LF', () => {
    const text = new TextDecoder()
      .decode(recordingBytes('14-curl-canonical-serial.http'))
      .replace('#### conn 3 exchange 1\nPUT /act/nim-weak HTTP/1.1', '#### conn 3 exchange 1\nPUT');
    const lf = aisysHttpTextFormat.read([input('r.http', text)]);
    expect(lf.problems).toEqual([{ file: 'r.http', line: 42, message: 'not a request line: PUT' }]);
    expect(aisysHttpTextFormat.read([input('r.http', withCrlf(text))])).toEqual(lf);
  });

  it.each(RECORDING_NAMES)('%s reads the same with its bodies sent in chunks', (name) => {
    const plain = aisysHttpTextFormat.read([{ name: 'r.http', bytes: recordingBytes(`${name}.http`) }]);
    for (const size of [1, 7, 100_000]) {
      const bytes = withChunkedBodies(recordingBytes(`${name}.http`), size);
      expect(new TextDecoder().decode(bytes)).toContain('\r\nTransfer-Encoding: chunked\r\n');
      const chunked = aisysHttpTextFormat.read([{ name: 'r.http', bytes }]);
      expect(chunked.problems).toEqual([]);
      expect(withoutLengths(chunked.transcripts[0]!.messages)).toEqual(
        withoutLengths(plain.transcripts[0]!.messages),
      );
    }
  });

  it('with chunked bodies are judged as the server took them', () => {
    const bytes = withChunkedBodies(recordingBytes('14-curl-canonical-serial.http'), 64);
    expect(new TextDecoder().decode(bytes)).toContain('Transfer-Encoding: chunked\r\n');
    const report = inspectRecording([{ name: 'r.http', bytes }], PROTOCOLS);
    expect(report.format).toBe('aisys-http-text');
    expect(report.problems).toEqual([]);
    expect(report.sessions[0]!.violations).toEqual([]);
    expect(report.sessions[0]!.rounds).toEqual([
      { round: 50, reward: 1 },
      { round: 51, reward: 1 },
    ]);
  });

  it('report a malformed chunked body with its line, and keep the other exchanges', () => {
    const text = new TextDecoder().decode(
      withChunkedBodies(recordingBytes('14-curl-canonical-serial.http'), 100),
    );
    // The second exchange's request body (183 bytes) starts on line 43: `64;name=value`, 100 bytes, `53`,
    // 83 bytes, `0`; the first one's response body on line 25.
    const lines = text.split('\n');
    expect([24, 42, 43, 44, 46].map((i) => lines[i]!.slice(0, 14))).toEqual([
      '64;name=value\r',
      '64;name=value\r',
      '{"protocol_ver',
      '53\r',
      '0\r',
    ]);
    const damages: [(lines: string[]) => void, number, string, number][] = [
      [(l) => (l[42] = 'zz\r'), 43, 'the request body: not a chunk size: "zz"', 12],
      [
        (l) => (l[44] = '55\r'),
        45,
        'the request body: a chunk of 85 bytes is not followed by a line break',
        12,
      ],
      [
        (l) => l.splice(45, Infinity, 'x'),
        45,
        'the request body: a chunk of 83 bytes, but the body ends first',
        2,
      ],
      [
        (l) => l.splice(46, Infinity, ''),
        47,
        'the request body: the chunked body ends before its last chunk',
        2,
      ],
      [
        (l) => l.splice(47, Infinity, ''),
        48,
        'the request body: the chunked body ends inside its trailer',
        2,
      ],
      [(l) => (l[24] = 'x\r'), 25, 'the response body: not a chunk size: "x"', 12],
    ];
    for (const [damage, line, message, kept] of damages) {
      const damaged = [...lines];
      damage(damaged);
      const outcome = aisysHttpTextFormat.read([input('r.http', damaged.join('\n'))]);
      expect(outcome.problems).toEqual([{ file: 'r.http', line, message }]);
      expect(outcome.transcripts[0]!.messages).toHaveLength(kept);
    }
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

  /** A conformance recording as a browser's HAR export, each body kept unless `left` leaves it out. */
  function harOf(name: string, left: { responses?: number[]; requests?: number[] } = {}) {
    const lines = new TextDecoder().decode(recordingBytes(`${name}.jsonl`)).split('\n');
    type Line = {
      conn: number;
      opened: number;
      request: { method: string; target: string; headers: [string, string][]; body?: string };
      response?: { status: number; headers: [string, string][]; body?: string };
    };
    const recorded = lines.filter((line) => line.trim()).map((line) => JSON.parse(line) as Line);
    const pairs = (headers: [string, string][]) => headers.map(([name, value]) => ({ name, value }));
    const entries = recorded.map((exchange, i) => {
      const { request, response } = exchange;
      const body = request.body ?? '';
      const text = response?.body ?? '';
      return {
        startedDateTime: new Date(exchange.opened * 1000).toISOString(),
        connection: String(exchange.conn),
        request: {
          method: request.method,
          url: `http://127.0.0.1:5001${request.target}`,
          headers: pairs(request.headers),
          bodySize: encoder.encode(body).length,
          ...(body && !left.requests?.includes(i)
            ? { postData: { mimeType: 'application/json', text: body } }
            : {}),
        },
        response: response
          ? {
              status: response.status,
              headers: pairs(response.headers),
              content: {
                size: encoder.encode(text).length,
                mimeType: 'application/json',
                ...(left.responses?.includes(i) ? {} : { text }),
              },
            }
          : { status: 0, headers: [], content: { size: 0, mimeType: 'x-unknown' } },
      };
    });
    const har = JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries } });
    return { entries, bytes: encoder.encode(har) };
  }

  const inspectHar = (bytes: Uint8Array) => inspectRecording([{ name: 'r.har', bytes }], PROTOCOLS);

  /** The entries of `/act` exchanges with a body on the side `side` has. */
  const actEntries = (entries: ReturnType<typeof harOf>['entries'], side: 'request' | 'response') =>
    entries.flatMap((entry, i) =>
      /\/act\/[^/?]+$/.test(entry.request.url) &&
      (side === 'request'
        ? entry.request.bodySize > 0 && entry.request.method !== 'GET'
        : entry.response.content.size > 0)
        ? [i]
        : [],
    );

  it('without response bodies: reports them as not recorded, each located, and judges nothing it cannot know', () => {
    const { entries, bytes } = harOf('14-curl-canonical-serial', { responses: [0, 1, 2, 3, 4, 5, 6] });
    expect(entries).toHaveLength(7);
    const report = inspectHar(bytes);
    expect(report.format).toBe('aisys-har');
    expect(report.sessions[0]!.violations).toEqual([]);
    expect(report.sessions[0]!.unreadable).toEqual([]);
    expect(report.sessions[0]!.messages).toBe(14);
    expect(report.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(
        /^log\.entries\[0\]: the response body was not recorded \(113 bytes\): it is not judged/,
      ),
      'log.entries[1]: the response body was not recorded (169 bytes)',
      'log.entries[2]: the response body was not recorded (169 bytes)',
      'log.entries[3]: the response body was not recorded (182 bytes)',
      'log.entries[4]: the response body was not recorded (169 bytes)',
      'log.entries[5]: the response body was not recorded (169 bytes)',
      'log.entries[6]: the response body was not recorded (183 bytes)',
    ]);
    const response = report.transcripts[0]!.messages[1]!;
    expect(response).toMatchObject({
      dir: 's2c',
      kind: 'error',
      channel: 'nim-weak/zed',
      text: 'the response body was not recorded (113 bytes)',
      http: { exchange: 0, status: 200 },
    });
    expect(response.text).not.toBe('');
  });

  it('with the bodies kept reads as the recording, and a body of size 0 is an empty body', () => {
    const { bytes } = harOf('14-curl-canonical-serial');
    const report = inspectHar(bytes);
    expect(report.problems).toEqual([]);
    expect(report.sessions[0]!.violations).toEqual([]);
    expect(report.sessions[0]!.rounds).toEqual([
      { round: 50, reward: 1 },
      { round: 51, reward: 1 },
    ]);
  });

  it.each(RECORDING_NAMES)(
    '%s without one response body: no violation the whole recording lacks, and the rounds of the others',
    (name) => {
      const { entries, bytes } = harOf(name);
      const whole = inspectHar(bytes);
      const wholeRounds = whole.sessions[0]!.rounds;
      const judged = (report: ReturnType<typeof inspectHar>) =>
        report.sessions[0]!.violations.map((v) => `${v.index} ${v.role} ${v.rule}`);
      for (const left of actEntries(entries, 'response')) {
        const report = inspectHar(harOf(name, { responses: [left] }).bytes);
        expect(report.problems).toEqual([
          {
            file: 'r.har',
            message: expect.stringMatching(`^log\\.entries\\[${left}\\]: the response body was not recorded`),
          },
        ]);
        const found = judged(report);
        expect(judged(whole)).toEqual(expect.arrayContaining(found));
        // Runs finished in the body left out are the only rounds lost.
        const finished = finishedRuns(harBody(name, left));
        expect(report.sessions[0]!.rounds).toHaveLength(wholeRounds.length - finished);
        expect(wholeRounds).toEqual(expect.arrayContaining(report.sessions[0]!.rounds));
      }
    },
  );

  it.each(RECORDING_NAMES)('%s without one request body: no violation the whole recording lacks', (name) => {
    const { entries, bytes } = harOf(name);
    const whole = inspectHar(bytes);
    const judged = (report: ReturnType<typeof inspectHar>) =>
      report.sessions[0]!.violations.map((v) => `${v.index} ${v.role} ${v.rule}`);
    for (const left of actEntries(entries, 'request')) {
      const report = inspectHar(harOf(name, { requests: [left] }).bytes);
      expect(report.problems).toEqual([
        {
          file: 'r.har',
          message: expect.stringMatching(
            `^log\\.entries\\[${left}\\]: the request body was not recorded \\(\\d+ bytes\\): it is not judged`,
          ),
        },
      ]);
      expect(judged(whole)).toEqual(expect.arrayContaining(judged(report)));
    }
  });

  it('judges again from the next answer that was recorded', () => {
    const { bytes } = harOf('14-curl-canonical-serial', { responses: [1] });
    const text = new TextDecoder().decode(bytes);
    // The fourth request acts on run 50 with action number 7: the recorded answer before it asked for 2.
    const wrong = text.replace(/(\\"actions\\":\[\{\\"run\\":\\"50\\",\\"act_no\\":)2/, '$17');
    expect(wrong).not.toBe(text);
    const report = inspectHar(encoder.encode(wrong));
    expect(report.sessions[0]!.violations.map((v) => `${v.index} ${v.role} ${v.rule}`)).toEqual([
      '6 server aisys.action.act-no',
    ]);
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
