/**
 * The one recorder: every protocol's records go into a transcript store; the plain transcript that small
 * sessions' readers take is the store's transcript whenever it is first asked for, and grows with it.
 */
import { describe, expect, it } from 'vitest';
import { serialiseTranscript } from '../../../src/core/transcript/json-format';
import { transcriptJson } from '../../../src/core/transcript/json-export';
import { TranscriptRecorder } from '../../../src/core/transcript/recorder';

/** A little of everything a session records, on a clock that moves 2 ms a reading. */
function record(recorder: TranscriptRecorder): void {
  recorder.event('a', 'c2s', 'open');
  recorder.text('a', 'c2s', '<session-request/>', 'nul');
  recorder.annotate('note', 'asked');
  recorder.bytes('a', 's2c', new Uint8Array([0, 255]), 'nul');
  recorder.addConnection('a', 'agent a');
  recorder.addConnection('h', 'http peer');
  const request = recorder.httpRequest('h', { meta: { method: 'PUT', path: '/act' }, body: '{}' }, 'ada');
  recorder.httpResponse('h', request.index, { meta: { status: 200 }, body: '[]' }, 'ada');
  recorder.phrased('b', 's2c', (out) => {
    out.push(out.book.intern('{"step":'));
    out.push(out.book.intern('1}'));
  });
  recorder.text('b', 'c2s', 'on a channel', 'frame', 'bob');
  recorder.annotate('reward', { turn: 1, reward: 2 }, 1);
  recorder.event('a', 's2c', 'close', 'done');
}

function clock(): () => number {
  let t = 1000;
  return () => (t += 2);
}

describe('TranscriptRecorder', () => {
  it('gives the same plain transcript whether asked for before, during or after the session', () => {
    const early = new TranscriptRecorder({ protocol: 'rddlsim', now: clock(), meta: { seed: 1 } });
    const held = early.transcript;
    record(early);
    const late = new TranscriptRecorder({ protocol: 'rddlsim', now: clock(), meta: { seed: 1 } });
    record(late);
    // The object asked for first is the one that grew.
    expect(early.transcript).toBe(held);
    expect(held.messages).toHaveLength(8);
    expect(held).toEqual(late.transcript);
    expect(held).toEqual(late.store.toTranscript());
    expect(held.connections).toEqual([
      { id: 'a', label: 'agent a' },
      { id: 'h', label: 'http peer' },
      { id: 'b' },
    ]);
    expect(held.messages.map((m) => m.t)).toEqual([2, 4, 6, 8, 10, 12, 14, 16]);
    expect(held.messages[2]).toMatchObject({ base64: 'AP8=' });
    expect(held.messages[4]).toMatchObject({ channel: 'ada', http: { exchange: 3, status: 200 } });
    expect(held.messages[5]).toMatchObject({ text: '{"step":1}' });
    expect(serialiseTranscript(held)).toBe(transcriptJson(early.store));
  });

  it('writes what a session adds to the meta into its file', () => {
    const recorder = new TranscriptRecorder({ protocol: 'aisys', now: clock() });
    recorder.transcript.meta.instance = 'nim';
    expect(JSON.parse(transcriptJson(recorder.store))).toMatchObject({ meta: { instance: 'nim' } });
  });

  it('streams every record as JSON to its sink, keeping none when told so', () => {
    const lines: string[] = [];
    const annotations: string[] = [];
    const streamed = new TranscriptRecorder({
      protocol: 'rddlsim',
      now: clock(),
      keep: false,
      sink: { messageJson: (json) => lines.push(json), annotationJson: (json) => annotations.push(json) },
    });
    record(streamed);
    const kept = new TranscriptRecorder({ protocol: 'rddlsim', now: clock() });
    record(kept);
    expect(lines).toEqual(kept.transcript.messages.map((m) => JSON.stringify(m)));
    expect(annotations).toEqual(kept.transcript.annotations.map((a) => JSON.stringify(a)));
    expect(streamed.messageCount).toBe(8);
    expect(streamed.transcript.messages).toEqual([]);
    expect(streamed.transcript.annotations).toEqual([]);
  });

  it('adopts records of another thread numbered after its own, and refuses any others', () => {
    const worker = new TranscriptRecorder({ protocol: 'gama', now: clock() });
    record(worker);
    const main = new TranscriptRecorder({ protocol: 'gama', now: clock() });
    main.adopt(worker.transcript, 100);
    expect(main.transcript.messages).toEqual(worker.transcript.messages.map((m) => ({ ...m, t: m.t + 100 })));
    expect(main.transcript.annotations).toEqual(worker.transcript.annotations);
    expect(() => main.adopt(worker.transcript)).toThrow(/message 0 arrives where message 8 is next/);
  });
});
