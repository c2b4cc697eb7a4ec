/**
 * The emulated rddlsim server behind the one sans-IO shape: what a transport sends (one write per burst),
 * closes, logs and records for a session, however it ends.
 */
import { describe, expect, it } from 'vitest';
import { RddlsimHost } from '../../../../src/core/protocols/rddlsim/host';
import {
  RddlsimHostEndpoint,
  type RddlsimSessionEnd,
} from '../../../../src/core/protocols/rddlsim/host-endpoint';
import type { WireSink } from '../../../../src/core/protocols/contract';
import { createProbeModel } from './probe-model';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';
const frame = (body: string) => encoder.encode(`${HEADER}${body}\0`);
const REQUEST =
  '<session-request><problem-name>probe_term_1</problem-name><client-name>probe</client-name></session-request>';
const INC =
  '<actions><action><action-name>inc</action-name><action-value>1</action-value></action></actions>';

/** An endpoint serving the probe instance for one or more sessions, with everything it does kept. */
function probeEndpoint({ record = true } = {}) {
  const clock = { now: 5_000 };
  const host = new RddlsimHost({
    rounds: 2,
    seed: 7,
    now: () => clock.now,
    resolveInstance: (name) =>
      name === 'probe_term_1'
        ? { model: createProbeModel({ instance: 'probe_term_1' }), task: 'domain\n\ninstance\n' }
        : undefined,
  });
  const log: string[] = [];
  const ends: RddlsimSessionEnd[] = [];
  const endpoint = new RddlsimHostEndpoint(host, {
    ...(record
      ? { record: { now: () => clock.now, meta: (session) => ({ source: 'test', ...session }) } }
      : {}),
    log: (line) => log.push(line),
    onSessionEnd: (end) => ends.push(end),
  });
  return { endpoint, log, ends };
}

/** A sink keeping each write as text, and whether the endpoint closed. */
function sink() {
  const writes: string[] = [];
  const state = { closed: false, writes };
  const target: WireSink<Uint8Array> = {
    send: (bytes) => writes.push(decoder.decode(bytes)),
    close: () => (state.closed = true),
  };
  return { target, state };
}

describe('RddlsimHostEndpoint', () => {
  it('plays a session: one send per burst, the transcript with world and rewards, and how it ended', () => {
    const { endpoint, log, ends } = probeEndpoint();
    const { target, state } = sink();
    const peer = endpoint.connect(target, { id: 'tcp1', remote: '127.0.0.1:4000' });
    expect(peer.label).toBe('session 1');
    expect(endpoint.activeSessions).toBe(1);
    peer.receive(frame(REQUEST));
    peer.receive(frame('<round-request/>'));
    // round-init and turn 1 leave in one write, each message with its NUL.
    expect(state.writes).toHaveLength(2);
    expect(state.writes[1]!.split('\0').map((text) => /<([a-z-]+)>/.exec(text)?.[1])).toEqual([
      'round-init',
      'turn',
      undefined,
    ]);
    for (let round = 0; round < 2; round++) {
      if (round > 0) peer.receive(frame('<round-request/>'));
      peer.receive(frame(INC));
      peer.receive(frame(INC));
    }
    expect(state.writes.at(-1)).toMatch(/<round-end>[\s\S]*<session-end>/);
    expect(state.closed).toBe(true);
    peer.end();
    expect(ends).toHaveLength(1);
    const end = ends[0]!;
    expect(end).toMatchObject({
      sessionId: 1,
      instance: 'probe_term_1',
      completed: true,
      rounds: 2,
      totalReward: 4,
    });
    expect(log).toEqual([
      'session 1: connection from 127.0.0.1:4000',
      "session 1: 'probe' asks for probe_term_1",
    ]);
    const transcript = end.transcript!;
    expect(transcript.meta).toEqual({
      source: 'test',
      sessionId: 1,
      seed: 7,
      rounds: 2,
      client: '127.0.0.1:4000',
      instance: 'probe_term_1',
    });
    expect(transcript.connections).toEqual([{ id: 'session-1', label: 'session 1 (127.0.0.1:4000)' }]);
    const kinds = transcript.messages.map((message) => `${message.dir} ${message.kind}`);
    expect(kinds.slice(-2)).toEqual(['s2c close', 'c2s close']);
    const types = transcript.annotations.map((annotation) => annotation.type);
    expect(types).toContain('world');
    expect(
      transcript.annotations.filter((a) => a.type === 'reward').map((a) => (a.data as { kind: string }).kind),
    ).toEqual(['step', 'step', 'round', 'step', 'step', 'round', 'total']);
    expect(endpoint.activeSessions).toBe(0);
    expect(endpoint.endedSessions).toBe(1);
  });

  it('closes on an unknown instance as rddlsim does, and says why in the log and the transcript', () => {
    const { endpoint, log, ends } = probeEndpoint();
    const { target, state } = sink();
    const peer = endpoint.connect(target, { id: 'tcp1', remote: 'here' });
    peer.receive(
      frame(
        '<session-request><problem-name>nope</problem-name><client-name>c</client-name></session-request>',
      ),
    );
    expect(state.writes).toEqual([]);
    expect(state.closed).toBe(true);
    peer.end();
    expect(log.at(-1)).toMatch(/^session 1: instance 'nope' not found/);
    expect(ends[0]).toMatchObject({ completed: false, explained: true, instance: 'nope' });
    const notes = ends[0]!.transcript!.annotations.filter((a) => a.type === 'note');
    expect(notes.map((n) => (n.data as { code: string }).code)).toEqual(['rddlsim.host.unknown-instance']);
  });

  it('names the transcript message of a rule the client broke', () => {
    const { endpoint, log, ends } = probeEndpoint();
    const { target } = sink();
    const peer = endpoint.connect(target, { id: 'tcp1' });
    peer.receive(frame(REQUEST));
    // An action where a round-request is due.
    peer.receive(frame(INC));
    peer.end();
    const violation = ends[0]!.transcript!.annotations.find((a) => a.type === 'violation')!;
    expect(violation.index).toBe(2);
    expect(log.some((line) => line.startsWith('session 1: the client broke a rule: message 2'))).toBe(true);
  });

  it('counts a client that leaves early, and records nothing when not asked to', () => {
    const { endpoint, log, ends } = probeEndpoint({ record: false });
    const { target, state } = sink();
    const peer = endpoint.connect(target, { id: 'tcp1', remote: 'there' });
    peer.receive(frame(REQUEST));
    peer.end();
    expect(state.closed).toBe(true);
    expect(ends[0]).toMatchObject({ completed: false, explained: true, transcript: undefined });
    expect(log.at(-1)).toMatch(/^session 1: the client closed the connection/);
    // A second end (the transport's close after the FIN) changes nothing.
    peer.end();
    expect(ends).toHaveLength(1);
  });

  it('notes a shutdown in every open session', () => {
    const { endpoint, log, ends } = probeEndpoint();
    const first = endpoint.connect(sink().target, { id: 'tcp1' });
    const second = endpoint.connect(sink().target, { id: 'tcp2' });
    first.receive(frame(REQUEST));
    endpoint.shutdown('interrupted');
    first.end('interrupted');
    second.end('interrupted');
    expect(log).toContain('session 1: closing: interrupted');
    expect(log).toContain('session 2: closing: interrupted');
    for (const end of ends) {
      const codes = end
        .transcript!.annotations.filter((a) => a.type === 'note')
        .map((a) => (a.data as { code: string }).code);
      expect(codes[0]).toBe('protoplay.serve.shutdown');
    }
  });

  it('costs one session when the host fails, logging and recording the error', () => {
    const { endpoint, log, ends } = probeEndpoint();
    const { target, state } = sink();
    const peer = endpoint.connect(target, { id: 'tcp1' });
    const failing = new Uint8Array(1);
    Object.defineProperty(failing, 'length', {
      get() {
        throw new Error('broken chunk');
      },
    });
    peer.receive(failing);
    expect(state.closed).toBe(true);
    expect(log.at(-1)).toBe('session 1: internal error, closing the connection: broken chunk');
    peer.end();
    expect(ends[0]!.transcript!.annotations.some((a) => a.type === 'error')).toBe(true);
  });
});
