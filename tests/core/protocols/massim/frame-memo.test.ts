/**
 * Frames read once: the memo the machines and readers share gives the same verdicts as reading every frame
 * afresh, never lends one message's reading to another, and stays bounded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FrameMemo } from '../../../../src/core/protocols/massim/frame-memo';
import {
  clientFrameReadings,
  decodeServerFrameOnce,
  serverFrameFacts,
} from '../../../../src/core/protocols/massim/codec';
import { validate } from '../../../../src/core/protocols/machine';
import { massimProtocol } from '../../../../src/core/protocols/massim/protocol';
import { createMassimServerMachine, serverSteps } from '../../../../src/core/protocols/massim/server-machine';
import { summariseTranscript } from '../../../../src/core/session/open-recording';
import type { MassimViolation } from '../../../../src/core/protocols/massim/violation';
import { validateTranscript } from '../../../../src/core/transcript/validate';
import type { Transcript, TranscriptMessage } from '../../../../src/core/transcript/model';
import { loadRecording, recordedRuns } from './recordings';

const defaultCapacities = [serverFrameFacts.capacity, clientFrameReadings.capacity] as const;
const defaultStepCapacity = serverSteps.capacity;

afterEach(() => {
  serverFrameFacts.resize(defaultCapacities[0]);
  clientFrameReadings.resize(defaultCapacities[1]);
  serverSteps.resize(defaultStepCapacity);
});

/** A memo whose reads are counted. */
function countingMemo(capacity: number) {
  const reads: string[] = [];
  const memo = new FrameMemo(capacity, (text: string) => {
    reads.push(text);
    return { length: text.length, text };
  });
  return { memo, reads };
}

describe('FrameMemo', () => {
  it('reads a message once while it is remembered', () => {
    const { memo, reads } = countingMemo(8);
    const first = memo.get(3, '{"a":1}');
    expect(memo.get(3, '{"a":1}')).toBe(first);
    // An equal text built anew (as a store hands it back) is the same frame.
    expect(memo.get(3, ['{"a"', ':1}'].join(''))).toBe(first);
    expect(reads).toEqual(['{"a":1}']);
  });

  it('never lends a reading to another text at the same index or slot', () => {
    const { memo, reads } = countingMemo(8);
    expect(memo.get(3, 'one').text).toBe('one');
    // Another transcript's message 3, and message 11, which shares the slot.
    expect(memo.get(3, 'two').text).toBe('two');
    expect(memo.get(11, 'three').text).toBe('three');
    expect(memo.get(3, 'one').text).toBe('one');
    expect(reads).toEqual(['one', 'two', 'three', 'one']);
  });

  it('holds at most its capacity, and nothing at capacity 0', () => {
    const { memo, reads } = countingMemo(4);
    for (let i = 0; i < 8; i++) memo.get(i, `frame ${i}`);
    memo.get(7, 'frame 7');
    memo.get(2, 'frame 2');
    // Message 7 is still remembered; message 2's slot went to message 6.
    expect(reads.slice(8)).toEqual(['frame 2']);
    memo.resize(0);
    memo.get(7, 'frame 7');
    memo.get(7, 'frame 7');
    expect(reads.slice(9)).toEqual(['frame 7', 'frame 7']);
  });
});

describe('server frames read once', () => {
  it('locates a syntax error in the message it is in, whatever was read before', () => {
    const broken = '{"type":"sim-end","content":{"score":1,}}';
    const first = decodeServerFrameOnce(4, broken, 'message 4');
    const second = decodeServerFrameOnce(9, broken, 'message 9');
    expect(first.ok || second.ok).toBe(false);
    if (first.ok || second.ok) return;
    expect(first.problem.location?.source).toBe('message 4');
    expect(second.problem.location?.source).toBe('message 9');
  });

  it('remembers no percept', () => {
    const frame =
      '{"type":"request-action","content":{"step":1,"id":5,"time":10,"deadline":20,"percept":{"score":0}}}';
    const decoded = decodeServerFrameOnce(0, frame);
    expect(decoded).toEqual({
      ok: true,
      message: { type: 'request-action', content: { step: 1, id: 5, time: 10, deadline: 20 } },
    });
  });
});

/**
 * A recording with something wrong on every side: the probes run (whose agents broke many rules) plus the
 * basic run with frames damaged and repeated, so verdicts depend on earlier frames of the connection.
 */
function damagedRecordings(): Transcript[] {
  const basic = loadRecording('basic');
  const damaged = basic.messages.map((message, i): TranscriptMessage => {
    if (message.kind !== 'data' || message.text === undefined || i % 7 !== 3) return message;
    const text = message.text;
    switch (i % 4) {
      case 0:
        return { ...message, text: text.slice(0, Math.floor(text.length / 2)) };
      case 1:
        return { ...message, text: text.replace(/"id":(\d+)/, (_, id: string) => `"id":${Number(id) + 3}`) };
      case 2:
        return { ...message, text: text.replace('"type":"', '"type":"x') };
      default:
        return { ...message, text: `${text} ` };
    }
  });
  // Every frame twice in a row: a duplicate action, a repeated request-action, the same text at two indices.
  const doubled = damaged
    .flatMap((message) => [message, { ...message }])
    .map((message, index) => ({
      ...message,
      index,
    }));
  return [
    ...recordedRuns.map((run) => loadRecording(run)),
    { ...basic, messages: damaged },
    { ...basic, messages: doubled },
  ];
}

function verdicts(transcripts: readonly Transcript[]) {
  return transcripts.map((transcript) => {
    const { violations } = validateTranscript(transcript, massimProtocol);
    const reader = massimProtocol.createReader();
    reader.append(transcript.messages, transcript.annotations);
    return { violations, notes: reader.notes, messages: reader.messages, rounds: reader.rounds };
  });
}

describe('verdicts with and without the memo', () => {
  it('are the same on every recording, damaged or not', () => {
    const transcripts = damagedRecordings();
    const remembered = verdicts(transcripts);
    serverFrameFacts.resize(0);
    clientFrameReadings.resize(0);
    const readAfresh = verdicts(transcripts);
    expect(remembered).toEqual(readAfresh);
    const violations = remembered.flatMap((verdict) => verdict.violations);
    const rules = new Set(violations.map((violation) => violation.rule));
    // The damage is judged: bad server frames, dead receivers, wrong ids, duplicates.
    for (const rule of [
      'massim.server.bad-frame',
      'massim.receiver.invalid-json',
      'massim.action.duplicate',
      'massim.request-action.id-order',
    ])
      expect(rules).toContain(rule);
  });

  it('are the same with a memo too small to remember anything across readers', () => {
    const transcripts = damagedRecordings();
    serverFrameFacts.resize(1);
    clientFrameReadings.resize(1);
    const tiny = verdicts(transcripts);
    serverFrameFacts.resize(0);
    clientFrameReadings.resize(0);
    expect(tiny).toEqual(verdicts(transcripts));
  });
});

describe('payload length', () => {
  it('counts a text frame in UTF-8 bytes, as the server does', () => {
    const machine = createMassimServerMachine({ maxPacketLength: 8 });
    const text = 'é€😀\ud800x';
    const messages: TranscriptMessage[] = [
      { index: 0, conn: 'a', t: 0, dir: 'c2s', kind: 'data', text: '{"type":"auth-request","content":{}}' },
      {
        index: 1,
        conn: 'a',
        t: 0,
        dir: 's2c',
        kind: 'data',
        text: '{"type":"auth-response","content":{"result":"ok"}}',
      },
      { index: 2, conn: 'a', t: 0, dir: 'c2s', kind: 'data', text },
    ];
    const [oversized] = validate(machine, messages).violations as MassimViolation[];
    expect(oversized?.rule).toBe('massim.frame.oversized');
    expect(oversized?.got).toBe(`${new TextEncoder().encode(text).length} bytes`);
  });
});

describe('server steps worked out once', () => {
  it('give the same verdicts as every machine stepping on its own, on every recording, damaged or not', () => {
    const transcripts = damagedRecordings();
    const shared = verdicts(transcripts);
    serverSteps.resize(0);
    const alone = verdicts(transcripts);
    expect(shared).toEqual(alone);
    expect(shared.flatMap((verdict) => verdict.notes).length).toBeGreaterThan(10);
    // A memo of one step remembers nothing a second machine could use: still the same.
    serverSteps.resize(1);
    expect(verdicts(transcripts)).toEqual(alone);
  });

  it('step each message once when a recording is validated and read for its summary', () => {
    for (const run of recordedRuns) {
      const transcript = loadRecording(run);
      serverSteps.resize(defaultStepCapacity);
      const summary = summariseTranscript(transcript, massimProtocol);
      const once = serverSteps.worked;
      serverSteps.resize(0);
      const alone = summariseTranscript(transcript, massimProtocol);
      const twice = serverSteps.worked;
      expect(summary, run).toEqual(alone);
      // The validation's machine and the reader's each take every message of its connection.
      expect(once, run).toBe(transcript.messages.length);
      expect(twice, run).toBe(2 * transcript.messages.length);
    }
  });

  it('never lends a step to another state or another text at the same index', () => {
    const machine = createMassimServerMachine();
    const message = (index: number, dir: 'c2s' | 's2c', text: string): TranscriptMessage => ({
      index,
      conn: 'a',
      t: 0,
      dir,
      kind: 'data',
      text,
    });
    const action = message(2, 'c2s', '{"type":"action","content":{"id":0,"type":"skip","p":[]}}');
    // At the front desk, an action is not a login.
    const atDesk = machine.accept(machine.initial(), action);
    expect(atDesk.ok ? undefined : atDesk.violation.rule).toBe('massim.front-desk.not-auth');
    // Another text at the same index, from the same state: stepped afresh.
    const other = machine.accept(machine.initial(), {
      ...action,
      text: '{"type":"status-request","content":{}}',
    });
    expect(other.ok).toBe(true);
    expect(other.state.phase).toBe('front-desk-done');
    // The very same message after a login and a request for id 0, from another state: accepted.
    let state = machine.initial();
    for (const frame of [
      message(10, 'c2s', '{"type":"auth-request","content":{"user":"a","pw":"1"}}'),
      message(11, 's2c', '{"type":"auth-response","content":{"result":"ok"}}'),
      message(
        12,
        's2c',
        '{"type":"request-action","content":{"step":0,"id":0,"time":1,"deadline":2,"percept":{}}}',
      ),
    ])
      state = machine.accept(state, frame).state;
    expect(machine.accept(state, action)).toMatchObject({ ok: true, state: { answered: { length: 1 } } });
    // And at the front desk again: still not a login.
    expect(machine.accept(machine.initial(), action)).toEqual(atDesk);
  });
});
