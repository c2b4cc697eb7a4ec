import { describe, expect, it } from 'vitest';
import { parseTranscriptJson, serialiseTranscript } from '../../../src/core/transcript/json-format';
import {
  plainTranscriptSource,
  transcriptJson,
  writeTranscriptJson,
} from '../../../src/core/transcript/json-export';
import type { Transcript } from '../../../src/core/transcript/model';
import { TranscriptStore } from '../../../src/core/transcript/store/store';

function sampleStore(messages: number): TranscriptStore {
  const store = new TranscriptStore({ protocol: 'massim', startedAt: 5, meta: { origin: 'test', seed: 2 } });
  store.addConnection('agentA1.conn1', 'agent A1');
  store.appendEvent('agentA1.conn1', 'c2s', 0, 'open');
  for (let i = 0; i < messages; i++) {
    store.appendPhrased(
      'agentA1.conn1',
      's2c',
      i,
      (out) => {
        out.push(out.book.intern('{"type":"request-action","content":{"id":'));
        out.push(out.book.intern(String(i)));
        out.push(out.book.intern(`,"note":"é\\n\u2028"}}`));
      },
      'nul',
    );
    store.appendText('agentA1.conn1', 'c2s', i + 0.5, `{"type":"action","content":{"id":${i}}}`, 'nul');
    store.annotate('reward', { step: i, scores: { A: i } });
  }
  store.appendMessage({ conn: 'agentA1.conn1', dir: 'c2s', t: 99, kind: 'data', base64: 'AP8=' });
  store.appendEvent('agentA1.conn1', 's2c', 100, 'close');
  return store;
}

describe('Protoplay JSON', () => {
  it('is written one message or annotation per line, in the format files written before read', () => {
    const transcript: Transcript = {
      format: 'protoplay-transcript',
      version: 2,
      protocol: 'rddlsim',
      startedAt: 7,
      meta: { seed: 1 },
      connections: [{ id: 'c', label: 'session 1' }],
      messages: [
        { index: 0, t: 0, conn: 'c', dir: 'c2s', kind: 'open' },
        { index: 1, t: 1.5, conn: 'c', dir: 'c2s', kind: 'data', text: '<session-request/>', framing: 'nul' },
      ],
      annotations: [{ index: 1, type: 'note', data: 'é' }],
    };
    const expected = [
      '{',
      '  "format": "protoplay-transcript",',
      '  "version": 2,',
      '  "protocol": "rddlsim",',
      '  "startedAt": 7,',
      '  "meta": {"seed":1},',
      '  "connections": [',
      '    {"id":"c","label":"session 1"}',
      '  ],',
      '  "messages": [',
      '    {"index":0,"t":0,"conn":"c","dir":"c2s","kind":"open"},',
      '    {"index":1,"t":1.5,"conn":"c","dir":"c2s","kind":"data","text":"<session-request/>","framing":"nul"}',
      '  ],',
      '  "annotations": [',
      '    {"index":1,"type":"note","data":"é"}',
      '  ]',
      '}',
      '',
    ].join('\n');
    expect(serialiseTranscript(transcript)).toBe(expected);
    expect(transcriptJson(plainTranscriptSource(transcript))).toBe(expected);
    expect(transcriptJson(TranscriptStore.fromTranscript(transcript))).toBe(expected);
    expect(parseTranscriptJson(expected)).toEqual(transcript);
  });
});

describe('Protoplay JSON written from a store', () => {
  it('is the same text as serialising the converted transcript, in pieces or whole', () => {
    for (const count of [0, 3, 2000]) {
      const store = sampleStore(count);
      const expected = serialiseTranscript(store.toTranscript());
      const pieces: string[] = [];
      writeTranscriptJson(store, (piece) => pieces.push(piece));
      expect(pieces.join('')).toBe(expected);
      expect(transcriptJson(store)).toBe(expected);
      if (count === 2000) expect(pieces.length).toBeGreaterThan(3);
    }
  });

  it('reads back as the transcript it was written from', () => {
    const store = sampleStore(5);
    expect(parseTranscriptJson(transcriptJson(store))).toEqual(store.toTranscript());
  });

  it('writes an empty store', () => {
    const store = new TranscriptStore({ protocol: 'rddlsim' });
    expect(transcriptJson(store)).toBe(serialiseTranscript(store.toTranscript()));
  });
});
