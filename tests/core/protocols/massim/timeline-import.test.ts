import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  importMassimRecording,
  looksLikeMassimTimeline,
} from '../../../../src/core/protocols/massim/timeline-import';
import { ProtoplayError } from '../../../../src/core/errors';
import { recordingFiles, recordingsRoot } from './recordings';

describe('importMassimRecording', () => {
  it('imports per-connection timelines with the exact bytes of their streams', () => {
    const files = recordingFiles('basic');
    const transcript = importMassimRecording(files);
    expect(transcript.protocol).toBe('massim');
    expect(transcript.connections.map((c) => c.id).sort()).toEqual([
      'agentA1.conn1',
      'agentA2.conn1',
      'agentB1.conn1',
      'agentB2.conn1',
    ]);
    // Every frame of a stream, in order, is the bytes between two 0 bytes of the recorded .bin file.
    const bin = readFileSync(join(recordingsRoot, 'basic/connections/agentA1.conn1.s2c.bin')).toString(
      'utf8',
    );
    const fromStream = bin.split('\0').slice(0, -1);
    const imported = transcript.messages.filter(
      (m) => m.conn === 'agentA1.conn1' && m.dir === 's2c' && m.kind === 'data',
    );
    expect(imported.map((m) => m.text)).toEqual(fromStream);
    expect(imported[0]!.text).toBe('{"type":"auth-response","content":{"result":"ok"}}');
    // Indices are dense, times relative and ordered.
    transcript.messages.forEach((m, i) => expect(m.index).toBe(i));
    for (let i = 1; i < transcript.messages.length; i++)
      expect(transcript.messages[i]!.t).toBeGreaterThanOrEqual(transcript.messages[i - 1]!.t);
    expect(transcript.messages[0]!.t).toBe(0);
  });

  it('reads the merged timeline alone like the per-connection files', () => {
    const merged = readFileSync(join(recordingsRoot, 'basic/all.timeline.jsonl'), 'utf8');
    const fromMerged = importMassimRecording([{ name: 'basic/all.timeline.jsonl', content: merged }]);
    const fromFiles = importMassimRecording(recordingFiles('basic').filter((f) => f.name.endsWith('.jsonl')));
    const key = (t: typeof fromMerged) =>
      t.messages.map((m) => `${m.conn} ${m.dir} ${m.kind} ${m.text}`).sort();
    expect(key(fromMerged)).toEqual(key(fromFiles));
  });

  it('turns connection events into open/close/error and keeps client remarks as notes', () => {
    const transcript = importMassimRecording(recordingFiles('probes'));
    const b1 = transcript.messages.filter((m) => m.conn === 'agentB1.conn1' && m.kind !== 'data');
    expect(b1.map((m) => `${m.kind}/${m.dir}`)).toEqual(['open/c2s', 'close/c2s']);
    const badJson = transcript.messages.filter((m) => m.conn === 'pre-start.bad-json' && m.kind !== 'data');
    expect(badJson.map((m) => `${m.kind}/${m.dir}`)).toEqual(['open/c2s', 'error/s2c', 'close/c2s']);
    const a2 = transcript.messages.filter((m) => m.conn === 'agentA2.conn3' && m.kind === 'close');
    expect(a2.map((m) => m.dir)).toEqual(['s2c']);
    expect(
      transcript.annotations.some((a) =>
        (a.data as { text: string }).text.startsWith('client destroys socket'),
      ),
    ).toBe(true);
  });

  it('reports a byte stream that disagrees with its timeline, and malformed lines with their position', () => {
    const files = recordingFiles('events').map((f) =>
      f.name === 'agentA1.conn1.c2s.bin' ? { ...f, content: (f.content as Uint8Array).subarray(0, 60) } : f,
    );
    expect(() => importMassimRecording(files)).toThrow(
      /agentA1\.conn1\.c2s\.bin holds \d+ frames but the timeline lists \d+/,
    );
    try {
      importMassimRecording([
        { name: 'x.timeline.jsonl', content: '{"t":1,"dir":"c2s","text":"{}"}\n{"t":2}\n' },
      ]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ProtoplayError);
      expect((error as ProtoplayError).location).toMatchObject({ source: 'x.timeline.jsonl', line: 2 });
    }
  });

  it('recognises timelines and nothing else', () => {
    const timeline = readFileSync(
      join(recordingsRoot, 'events/connections/agentB1.conn1.timeline.jsonl'),
      'utf8',
    );
    expect(looksLikeMassimTimeline(timeline)).toBe(true);
    expect(looksLikeMassimTimeline('{"format":"protoplay-transcript","version":1}')).toBe(false);
    expect(looksLikeMassimTimeline('<session-request/>')).toBe(false);
  });
});
