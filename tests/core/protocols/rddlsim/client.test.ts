import { describe, expect, it } from 'vitest';
import { parseClientMessage } from '../../../../src/core/protocols/rddlsim/codec';
import { RddlsimClient, decodeTask, type ClientEvent } from '../../../../src/core/protocols/rddlsim/client';
import { encodeFrame } from '../../../../src/core/protocols/rddlsim/framing';
import { decodeFluentValue } from '../../../../src/core/protocols/rddlsim/observation';
import type { Observation } from '../../../../src/core/protocols/rddlsim/policy-api';
import { bytesToBase64 } from '../../../../src/core/transcript/bytes';
import type { TranscriptMessage } from '../../../../src/core/transcript/model';
import { ONE_ROUND, exchange, roundEnd, roundInit, sessionInit, turn } from './machine-cases';
import { MAIN_SESSIONS, loadRecording } from './recordings';

/** The server's side of a transcript as one byte stream, with each message's framing. */
function serverStream(messages: TranscriptMessage[]): Uint8Array {
  const frames = messages
    .filter((m) => m.kind === 'data' && m.dir === 's2c')
    .map((m) => encodeFrame(m.text!, m.framing === 'none' ? 'none' : 'nul'));
  const stream = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let offset = 0;
  for (const frame of frames) {
    stream.set(frame, offset);
    offset += frame.length;
  }
  return stream;
}

const sentTexts = (events: ClientEvent[]) => events.flatMap((e) => (e.kind === 'send' ? [e.text] : []));

describe('client adapter replaying the recorded sessions', () => {
  it.each(MAIN_SESSIONS)('sends exactly what rddlsim’s Java client sent in %s, given its actions', (name) => {
    const transcript = loadRecording(name);
    const recordedClient = transcript.messages
      .filter((m) => m.kind === 'data' && m.dir === 'c2s')
      .map((m) => m.text!);
    const recordedActions = recordedClient.filter((text) => text.includes('<actions'));
    const problemName = /<problem-name>(.*)<\/problem-name>/.exec(recordedClient[0]!)![1]!;
    const clientName = /<client-name>(.*)<\/client-name>/.exec(recordedClient[0]!)![1]!;
    const client = new RddlsimClient({ problemName, clientName });
    const sent = sentTexts(client.start());
    const turns: Observation[] = [];
    // Each server message arrives when the real one did (after the client's previous message), split
    // across two reads.
    for (const message of transcript.messages.filter((m) => m.kind === 'data' && m.dir === 's2c')) {
      const frame = encodeFrame(message.text!, message.framing === 'none' ? 'none' : 'nul');
      const cut = Math.floor(frame.length / 3);
      for (const chunk of [frame.subarray(0, cut), frame.subarray(cut)]) {
        for (const event of client.receive(chunk)) {
          if (event.kind === 'send') sent.push(event.text);
          if (event.kind === 'violation') throw new Error(event.violation.message);
          if (event.kind !== 'turn') continue;
          turns.push(event.observation);
          const recorded = parseClientMessage(recordedActions[turns.length - 1]!);
          if (recorded.type !== 'actions') throw new Error('not an actions message');
          const answer = recorded.actions.map((a) => ({
            name: a.name,
            args: a.args,
            value: decodeFluentValue(a.value),
          }));
          sent.push(...sentTexts(client.act(answer).events));
        }
      }
    }
    expect(sent).toEqual(recordedClient);
    expect(turns.length).toBe(recordedActions.length);
    expect(turns[0]).toMatchObject({ round: 1, turn: 1, reward: 0 });
  });
});

describe('client adapter', () => {
  // session-init, round-init and turn 1 of a one-round session.
  const serverBytes = serverStream(exchange(ONE_ROUND).slice(0, 5));

  it('asks for rounds by itself and reports the session as it goes', () => {
    const client = new RddlsimClient({ problemName: 'p', clientName: 'c' });
    client.start();
    const events = client.receive(serverBytes);
    expect(events.filter((e) => e.kind !== 'received').map((e) => e.kind)).toEqual([
      'session-init',
      'send',
      'round-init',
      'turn',
    ]);
    expect(client.decisionDue).toBe(true);
    expect(() => client.requestResources()).not.toThrow();
  });

  it('decodes the task and refuses to act when no turn waits', () => {
    const task = bytesToBase64(new TextEncoder().encode('domain d {}\n\ninstance i {}\n'));
    expect(decodeTask(task)).toBe('domain d {}\n\ninstance i {}\n');
    const client = new RddlsimClient({ problemName: 'p' });
    client.start();
    expect(() => client.act(null)).toThrow('no turn is waiting for actions');
  });

  it('reads a no-header mode stream and asks for it as PROST does', () => {
    const client = new RddlsimClient({
      problemName: 'p',
      noHeader: true,
      inputLanguage: 'rddl',
      executePolicy: 'yes',
    });
    expect(sentTexts(client.start())[0]).toContain(
      '<input-language>rddl</input-language><no-header/></session-request>',
    );
    const events = client.receive(new TextEncoder().encode(sessionInit(1) + roundInit(1, 0) + turn(1)));
    expect(sentTexts(events)).toEqual([
      '<?xml version="1.0" encoding="UTF-8"?>\n<round-request><execute-policy>yes</execute-policy></round-request>',
    ]);
    expect(events.some((e) => e.kind === 'turn')).toBe(true);
    expect(events.some((e) => e.kind === 'violation')).toBe(false);
  });

  it('asks for another round after a time-out round-end, and takes the session-end that comes instead', () => {
    const client = new RddlsimClient({ problemName: 'p' });
    client.start();
    const head = new TextEncoder().encode(
      ['<?xml version="1.0" encoding="UTF-8"?>\n' + sessionInit(2), roundInit(1, 1), turn(1)].join('\0') +
        '\0',
    );
    client.receive(head);
    client.act(null);
    const late = client.receive(new TextEncoder().encode(`${roundEnd(0, 1, -5)}\0`));
    expect(sentTexts(late)).toEqual(['<?xml version="1.0" encoding="UTF-8"?>\n<round-request/>']);
    const end = client.receive(encodeFrame(exchange(ONE_ROUND)[9]!.text!, 'nul'));
    expect(end.map((e) => e.kind)).toEqual(['received', 'session-end']);
  });

  it('reports what the server got wrong and messages it cannot read', () => {
    const client = new RddlsimClient({ problemName: 'p' });
    client.start();
    const header = '<?xml version="1.0" encoding="UTF-8"?>\n';
    const events = client.receive(new TextEncoder().encode(`${header}${roundInit(1, 0)}\0${header}<turn>\0`));
    const violations = events.flatMap((e) => (e.kind === 'violation' ? [e.violation.rule] : []));
    expect(violations).toEqual(['rddlsim.session-init.expected', 'rddlsim.message.malformed']);
    const received = events.filter((e) => e.kind === 'received');
    expect(received[1]).toMatchObject({ error: expect.objectContaining({ code: 'rddlsim.xml.malformed' }) });
  });

  it('refuses a server message over the size limit with a clear error', () => {
    const client = new RddlsimClient({ problemName: 'p', maxMessageBytes: 100 });
    client.start();
    const events = client.receive(new Uint8Array(200).fill(0x41));
    const received = events.find((e) => e.kind === 'received');
    expect(received).toMatchObject({ error: expect.objectContaining({ code: 'rddlsim.frame.too-large' }) });
  });

  it('reports the server closing early', () => {
    const client = new RddlsimClient({ problemName: 'p' });
    client.start();
    const events = client.serverClosed();
    expect(events.map((e) => (e.kind === 'violation' ? e.violation.rule : e.kind))).toEqual([
      'rddlsim.connection.closed-early',
      'closed',
    ]);
    expect(client.closed).toBe(true);
  });
});
