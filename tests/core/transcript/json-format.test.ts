import { describe, expect, it } from 'vitest';
import { ProtoplayError } from '../../../src/core/errors';
import {
  parseTranscriptJson,
  readTranscriptJson,
  serialiseTranscript,
} from '../../../src/core/transcript/json-format';
import type { Transcript } from '../../../src/core/transcript/model';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';
import { loadRecording } from '../protocols/rddlsim/recordings';

const small: Transcript = {
  format: 'protoplay-transcript',
  version: 2,
  protocol: 'rddlsim',
  startedAt: 1_700_000_000_000,
  meta: { seed: 3, source: 'emulated', quirks: false },
  connections: [{ id: 'session-1', label: 'session 1' }],
  messages: [
    { index: 0, conn: 'session-1', dir: 'c2s', t: 0, kind: 'data', text: '<round-request/>' },
    { index: 1, conn: 'session-1', dir: 's2c', t: 2, kind: 'data', base64: '/w==', framing: 'none' },
    { index: 2, conn: 'session-1', dir: 's2c', t: 3, kind: 'close' },
  ],
  annotations: [{ index: 1, type: 'note', data: { message: 'n' } }],
};

function shapeError(transform: (t: Record<string, unknown>) => void): string {
  const value = JSON.parse(serialiseTranscript(small)) as Record<string, unknown>;
  transform(value);
  try {
    parseTranscriptJson(JSON.stringify(value));
  } catch (error) {
    expect(error).toBeInstanceOf(ProtoplayError);
    return (error as ProtoplayError).message;
  }
  throw new Error('no error');
}

/** An aisys transcript of one `/act` exchange recorded on connection `http1`, answered with this status and body. */
function recordedExchange(status: number, body: string): Transcript {
  const recorder = new TranscriptRecorder({ protocol: 'aisys', now: () => 5 });
  const request = recorder.httpRequest(
    'http1',
    {
      meta: { method: 'PUT', path: '/act/nim', headers: { 'content-type': 'application/json' } },
      body: '{}',
    },
    'nim/ann',
  );
  recorder.httpResponse('http1', request.index, { meta: { status, headers: {} }, body }, 'nim/ann');
  return recorder.transcript;
}

describe('Protoplay JSON', () => {
  it('reads back what it writes, for a small transcript and a whole recorded session', () => {
    expect(parseTranscriptJson(serialiseTranscript(small))).toEqual(small);
    const recorded = loadRecording('sysadmin_inst_pomdp__1');
    expect(parseTranscriptJson(serialiseTranscript(recorded))).toEqual(recorded);
  });

  it('writes one message per line', () => {
    const lines = serialiseTranscript(small).split('\n');
    expect(lines.filter((line) => line.includes('"conn":"session-1"'))).toHaveLength(3);
    expect(lines[1]).toBe('  "format": "protoplay-transcript",');
  });

  it('locates JSON syntax errors by line and column', () => {
    try {
      parseTranscriptJson('{\n  "format": "protoplay-transcript",\n  oops\n}', 'mine.json');
      expect.unreachable();
    } catch (error) {
      const located = error as ProtoplayError;
      expect(located.code).toBe('transcript.json.syntax');
      expect(located.location).toMatchObject({ source: 'mine.json', line: 3, column: 3 });
    }
  });

  it('names the first wrong field', () => {
    expect(shapeError((t) => (t.version = 3 as 2))).toBe('version: expected 1 or 2, got 3');
    expect(shapeError((t) => ((t.messages as Record<string, unknown>[])[1]!.dir = 'up'))).toBe(
      'messages[1].dir: expected "c2s" or "s2c", got "up"',
    );
    expect(shapeError((t) => ((t.messages as Record<string, unknown>[])[2]!.index = 5))).toMatch(
      /^messages\[2\]\.index: expected 2 \(indices count from 0 without gaps\)/,
    );
    expect(shapeError((t) => ((t.messages as Record<string, unknown>[])[0]!.base64 = 'AA=='))).toMatch(
      /^messages\[0\]: expected exactly one of "text" and "base64"/,
    );
    expect(shapeError((t) => ((t.annotations as Record<string, unknown>[])[0]!.index = 9))).toBe(
      'annotations[0].index: expected a message index from 0 to 2, got 9',
    );
    expect(shapeError((t) => (t.meta = { deep: {} }))).toBe(
      'meta.deep: expected a string, number or boolean, got {}',
    );
  });

  it('reads back the HTTP meta and the channel of HTTP protocols, and checks them', () => {
    const http = recordedExchange(400, 'x');
    expect(http.messages[1]).toMatchObject({
      dir: 's2c',
      framing: 'frame',
      channel: 'nim/ann',
      http: { exchange: 0, status: 400 },
    });
    expect(parseTranscriptJson(serialiseTranscript(http))).toEqual(http);
    const broken = JSON.parse(serialiseTranscript(http)) as Transcript;
    (broken.messages[0]!.http as unknown as Record<string, unknown>).status = '200';
    expect(() => parseTranscriptJson(JSON.stringify(broken))).toThrow(
      'messages[0].http.status: expected a number',
    );
    // Every field's check names the field's whole path.
    const header = JSON.parse(serialiseTranscript(http)) as Transcript;
    (header.messages[1]!.http!.headers as unknown as Record<string, unknown>)['x-count'] = 3;
    expect(() => parseTranscriptJson(JSON.stringify(header))).toThrow(
      'messages[1].http.headers.x-count: expected a string, got 3',
    );
    const exchange = JSON.parse(serialiseTranscript(http)) as Transcript;
    (exchange.messages[1]!.http as unknown as Record<string, unknown>).exchange = -1;
    expect(() => parseTranscriptJson(JSON.stringify(exchange))).toThrow(
      'messages[1].http.exchange: expected a message index, got -1',
    );
    const conn = JSON.parse(serialiseTranscript(http)) as Transcript;
    (conn.messages[1] as unknown as Record<string, unknown>).conn = null;
    expect(() => parseTranscriptJson(JSON.stringify(conn))).toThrow(
      'messages[1].conn: expected a string, got null',
    );
  });

  it('leaves out fields a message or its HTTP meta may not carry, and keeps those it may', () => {
    const http = recordedExchange(200, '{}');
    const value = JSON.parse(serialiseTranscript(http)) as { messages: Record<string, unknown>[] };
    value.messages[0]!.note = 'hand-written';
    (value.messages[1]!.http as Record<string, unknown>).reason = 'OK';
    const read = parseTranscriptJson(JSON.stringify(value));
    expect(read).toEqual(http);
    expect(Object.keys(read.messages[0]!)).not.toContain('note');
    expect(Object.keys(read.messages[1]!.http!)).not.toContain('reason');
  });

  it('adds connections that messages use but the list forgets', () => {
    const value = JSON.parse(serialiseTranscript(small)) as Transcript;
    value.connections = [];
    expect(parseTranscriptJson(JSON.stringify(value)).connections).toEqual([{ id: 'session-1' }]);
  });

  it('reads lists that come in turn (a file written while its session ran) as one, closed by hand too', () => {
    const message = (index: number) =>
      JSON.stringify({ index, t: index, conn: 'c', dir: 's2c', kind: 'data', text: `m${index}` });
    const note = (index: number, data: string) => JSON.stringify({ index, type: 'note', data });
    const head = ['{', '  "format": "protoplay-transcript",', '  "version": 2, "protocol": "rddlsim",'];
    const header = [...head, '  "startedAt": 1,', '  "meta": {},', '  "connections": [],'];
    const list = (name: string, items: string[]) => [
      `  "${name}": [`,
      ...items.map((item, i) => `    ${item}${i < items.length - 1 ? ',' : ''}`),
      '  ],',
    ];
    const inTurn = (lists: string[][]) => `${[...header, ...lists.flat()].join('\n').replace(/,$/, '')}\n}\n`;
    // The first records were annotations (the first messages list is empty), then messages and annotations.
    const annotationsFirst = inTurn([
      list('messages', []),
      list('annotations', [note(0, 'before')]),
      list('messages', [message(0), message(1)]),
      list('annotations', [note(1, 'after')]),
    ]);
    const messagesFirst = inTurn([
      list('messages', [message(0)]),
      list('annotations', [note(0, 'one')]),
      list('messages', [message(1), message(2)]),
      list('annotations', [note(2, 'two')]),
      list('messages', [message(3)]),
    ]);
    for (const [text, messages, notes] of [
      [annotationsFirst, 2, ['before', 'after']],
      [messagesFirst, 4, ['one', 'two']],
    ] as const) {
      expect(() => JSON.parse(text) as unknown).not.toThrow();
      const { transcript, damage } = readTranscriptJson(text);
      expect(damage).toBeUndefined();
      expect(transcript!.messages.map((m) => m.text)).toEqual(
        Array.from({ length: messages }, (_, i) => `m${i}`),
      );
      expect(transcript!.annotations.map((a) => a.data)).toEqual(notes);
      // Cut short, the same records before the cut.
      const cut = readTranscriptJson(text.slice(0, text.lastIndexOf('"text"')));
      expect(cut.transcript!.messages).toHaveLength(messages - 1);
      expect(cut.damage!.message).toMatch(/^the file ends inside message/);
    }
  });
});
