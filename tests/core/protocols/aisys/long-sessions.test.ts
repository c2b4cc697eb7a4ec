/**
 * Long aisys sessions cost the same per message at any length: validation reads each message's body once
 * for both roles (they follow the same conversation), the conversation's state stays as small as the runs
 * in play, and the recording formats read a file without going back over what they already read. Checked
 * by counting work, not by timing it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aisysClientMachine, aisysServerMachine } from '../../../../src/core/protocols/aisys/machines';
import { aisysProtocol } from '../../../../src/core/protocols/aisys/protocol';
import {
  aisysHarFormat,
  aisysHttpTextFormat,
  aisysJsonlFormat,
} from '../../../../src/core/protocols/aisys/recording';
import { pendingRequests, type ConversationState } from '../../../../src/core/protocols/aisys/conversation';
import type { TranscriptMessage } from '../../../../src/core/transcript/model';
import { ValidationFold, validateTranscript } from '../../../../src/core/transcript/validate';
import { playedNim } from './played-nim';

afterEach(() => vi.restoreAllMocks());

const http = { 'content-type': 'application/json' };

function request(index: number, body: object): TranscriptMessage {
  return {
    index,
    t: index,
    conn: 'c',
    dir: 'c2s',
    kind: 'data',
    text: JSON.stringify({ protocol_version: 1, agent: 'a', pwd: 'p', ...body }),
    channel: 'nim/a',
    http: { exchange: index, method: 'PUT', path: '/act/nim', headers: http },
  };
}

function response(index: number, exchange: number, body: object): TranscriptMessage {
  return {
    index,
    t: index,
    conn: 'c',
    dir: 's2c',
    kind: 'data',
    text: JSON.stringify({ active_runs: [], finished_runs: {}, messages: [], ...body }),
    channel: 'nim/a',
    http: { exchange, status: 200, headers: http },
  };
}

describe('validating a long session', () => {
  it('reads each body once for both roles, whichever way the machines are fed', async () => {
    const transcript = await playedNim(400, 3);
    const bodies = transcript.messages.filter((message) => message.kind === 'data').length;
    expect(bodies).toBeGreaterThan(400);

    const parse = vi.spyOn(JSON, 'parse');
    const whole = validateTranscript(transcript, aisysProtocol);
    expect(whole).toEqual({ checked: true, violations: [] });
    expect(parse.mock.calls.length).toBe(bodies);

    // Copies of the records, so their bodies are read afresh (the same records' readings are kept).
    parse.mockClear();
    const fold = new ValidationFold(aisysProtocol);
    for (const message of transcript.messages) fold.accept({ ...message });
    expect(fold.finish()).toEqual({ checked: true, violations: [] });
    expect(parse.mock.calls.length).toBe(bodies);
  });

  it('finds the same violations for each role as each machine alone', async () => {
    const transcript = structuredClone(await playedNim(50, 3));
    // An action for a run nobody asked for, and an answer that skips the runs still outstanding.
    const requests = transcript.messages.filter((message) => message.dir === 'c2s');
    requests[7]!.text = requests[7]!.text!.replace(/"run": "(\d+)"/, '"run": "999"');
    const { violations } = validateTranscript(transcript, aisysProtocol);
    const alone = (machine: typeof aisysServerMachine) => {
      let state = machine.initial();
      const found: string[] = [];
      for (const message of transcript.messages) {
        const step = machine.accept(state, message);
        state = step.state;
        if (!step.ok) found.push(`${step.violation.index} ${step.violation.message}`);
      }
      return found;
    };
    expect(violations.filter((v) => v.role === 'server').map((v) => `${v.index} ${v.message}`)).toEqual(
      alone(aisysServerMachine),
    );
    expect(violations.filter((v) => v.role === 'client').map((v) => `${v.index} ${v.message}`)).toEqual(
      alone(aisysClientMachine),
    );
    expect(violations.map((v) => v.rule)).toContain('aisys.action.unrequested');
  });

  it('keeps no more state than the runs in play', async () => {
    const transcript = await playedNim(1000, 3);
    let state = aisysServerMachine.initial() as ConversationState;
    let largest = 0;
    for (const message of transcript.messages) {
      state = aisysServerMachine.accept(state, message).state as ConversationState;
      largest = Math.max(largest, (state.pending?.size ?? 0) + state.asked.size + state.active.length);
    }
    // Five runs in parallel: at most one request waiting, five runs asked for, five active.
    expect(largest).toBeLessThanOrEqual(11);
    expect(pendingRequests(state)).toEqual([]);
  });

  it('keeps requests whose responses were lost without copying them at each new request', () => {
    // A recording that lost its responses: every request stays waiting.
    let state = aisysClientMachine.initial();
    const states: ConversationState[] = [];
    for (let i = 0; i < 3000; i++) {
      state = aisysClientMachine.accept(state, request(i, { actions: [] })).state;
      states.push(state);
    }
    // Each state holds the one before it as it was: nothing waiting was copied.
    for (let i = 1; i < states.length; i++) expect(states[i]!.pending?.older).toBe(states[i - 1]!.pending);
    expect(states.at(-1)!.pending?.size).toBe(3000);
    expect(pendingRequests(states.at(-1)!).map((waiting) => waiting.exchange)).toEqual(
      Array.from({ length: 3000 }, (_, i) => i),
    );
    // The end names the oldest request still waiting.
    expect(aisysClientMachine.finish(state, 2999)).toMatchObject({
      rule: 'aisys.response.missing',
      expected: 'a response to the request at message 0',
    });
  });

  it('drops an answered request from anywhere among those waiting, leaving the others in order', () => {
    let state = aisysClientMachine.initial();
    for (const exchange of [0, 1, 2, 3])
      state = aisysClientMachine.accept(state, request(exchange, {})).state;
    const before = state;
    const answered = [2, 0, 3];
    for (const [i, exchange] of answered.entries()) {
      const step = aisysClientMachine.accept(state, response(4 + i, exchange, { action_requests: [] }));
      expect(step.ok ? 'ok' : step.violation.message).toBe('ok');
      state = step.state;
    }
    expect(pendingRequests(state).map((waiting) => waiting.exchange)).toEqual([1]);
    expect(state.pending?.size).toBe(1);
    // The states before are as they were.
    expect(pendingRequests(before).map((waiting) => waiting.exchange)).toEqual([0, 1, 2, 3]);
    // A second response to an answered request is unsolicited.
    const again = aisysClientMachine.accept(state, response(7, 2, { action_requests: [] }));
    expect(again.ok ? undefined : again.violation.rule).toBe('aisys.response.unsolicited');
  });

  it('lists the runs asked for by id, numbers first, as the server keeps them', () => {
    const messages = [
      request(0, { actions: [] }),
      response(1, 0, {
        action_requests: [
          { run: '10', act_no: 0, percept: 1 },
          { run: '2', act_no: 3, percept: 1 },
          { run: 'x', act_no: 1, percept: 1 },
        ],
        active_runs: ['10', '2', 'x'],
      }),
      request(2, { actions: [{ run: '7', act_no: 0, action: 1 }] }),
    ];
    let state = aisysServerMachine.initial();
    const found: string[] = [];
    for (const message of messages) {
      const step = aisysServerMachine.accept(state, message);
      state = step.state;
      if (!step.ok) found.push(step.violation.expected);
    }
    expect(found).toEqual(['actions for the runs asked for (2#3, 10#0, NaN#1)']);
  });
});

describe('reading long recordings', () => {
  /** A recording of `exchanges` exchanges in the raw `.http` layout, the last one's request line broken. */
  function httpText(exchanges: number): string {
    const parts: string[] = [];
    for (let i = 1; i <= exchanges; i++) {
      const line = i === exchanges ? 'BROKEN' : 'PUT /act/nim HTTP/1.1';
      parts.push(
        `#### conn 1 exchange ${i}\n${line}\r\nContent-Type: application/json\r\n\r\n{}\n\n` +
          `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{}\n\n\n`,
      );
    }
    return parts.join('');
  }

  it('locates a problem at the end of a long raw HTTP recording by its line', () => {
    const text = httpText(3000);
    const { problems, transcripts } = aisysHttpTextFormat.read([
      { name: 'long.http', bytes: new TextEncoder().encode(text) },
    ]);
    const line = text.slice(0, text.lastIndexOf('BROKEN')).split('\n').length;
    expect(problems).toEqual([{ file: 'long.http', line, message: 'not a request line: BROKEN' }]);
    expect(transcripts[0]!.messages).toHaveLength(2 * 2999);
  });

  it('reads an exchange split into many small chunks once its line is complete', () => {
    const line = JSON.stringify({
      conn: 1,
      request: { method: 'PUT', target: '/act/nim', headers: [['Content-Type', 'application/json']] },
      response: { status: 200, headers: [], body: 'x'.repeat(5000) },
    });
    const messages: TranscriptMessage[] = [];
    const stream = aisysJsonlFormat.stream!('one.jsonl', {
      message: (message) => messages.push(message),
      problem: (problem) => expect.unreachable(problem.message),
    });
    const bytes = new TextEncoder().encode(`${line}\n${line}\n`);
    for (let at = 0; at < bytes.length; at += 7) stream.push(bytes.subarray(at, at + 7));
    stream.end();
    expect(messages.map((message) => message.text?.length)).toEqual([0, 5000, 0, 5000]);
  });

  it('detects a format from the start of a big file without decoding all of it', () => {
    const line = JSON.stringify({ conn: 1, request: { method: 'GET', target: '/', headers: [] } });
    const bytes = new TextEncoder().encode(`${line}\n`.repeat(20_000));
    expect(bytes.length).toBeGreaterThan(1 << 20);
    const decode = vi.spyOn(TextDecoder.prototype, 'decode');
    const guesses = [aisysJsonlFormat, aisysHttpTextFormat, aisysHarFormat].map((format) =>
      format.detect([{ name: 'big.jsonl', bytes }]),
    );
    expect(guesses).toEqual([0.9, 0, 0]);
    for (const [input] of decode.mock.calls)
      expect((input as Uint8Array | undefined)?.byteLength ?? 0).toBeLessThanOrEqual(64 << 10);
  });

  it('tells a HAR file written on one line from an exchange list', () => {
    const har = JSON.stringify({
      log: {
        version: '1.2',
        entries: [{ request: { method: 'PUT', url: 'http://h/act/nim', headers: [] } }],
      },
    });
    const bytes = new TextEncoder().encode(har);
    expect(aisysJsonlFormat.detect([{ name: 'x.har', bytes }])).toBe(0);
    expect(aisysHarFormat.detect([{ name: 'x.har', bytes }])).toBeGreaterThan(0.5);
  });
});
