/**
 * One decode per message, shared by the machines of both roles and the reader: a record decoded lately
 * gets the same decode back, but never another record's, nor one computed before the record changed.
 */
import { describe, expect, it } from 'vitest';
import {
  decodeTranscriptMessage,
  RECENT_DECODES,
} from '../../../../src/core/protocols/rddlsim/decoded-message';
import { rddlsimProtocol } from '../../../../src/core/protocols/rddlsim/protocol';
import type { ProtocolMachine } from '../../../../src/core/protocols/machine';
import type { Transcript, TranscriptMessage } from '../../../../src/core/transcript/model';
import { ValidationFold, validateTranscript } from '../../../../src/core/transcript/validate';
import { allRecordings, loadRecording } from './recordings';

const ROUND_INIT =
  '<?xml version="1.0" encoding="UTF-8"?><round-init><round-num>1</round-num><round-left>29</round-left><time-left>1000.0</time-left></round-init>';
const ROUND_END_TURN =
  '<?xml version="1.0" encoding="UTF-8"?><turn><turn-num>4</turn-num><time-left>990.0</time-left><immediate-reward>-2.5</immediate-reward><no-observed-fluents/></turn>';

function serverMessage(index: number, text: string): TranscriptMessage {
  return { index, conn: 'c', dir: 's2c', t: 0, kind: 'data', text };
}

function parsed(message: TranscriptMessage) {
  const decoded = decodeTranscriptMessage(message);
  if (decoded.kind !== 'data' || !decoded.result.ok) throw new Error('expected a parsed message');
  return decoded.result.message;
}

describe('decodeTranscriptMessage', () => {
  it('gives the same record its decode back', () => {
    const message = serverMessage(7, ROUND_INIT);
    const first = decodeTranscriptMessage(message);
    expect(decodeTranscriptMessage(message)).toBe(first);
  });

  it('never gives one record the decode of another with the same index or slot', () => {
    const a = serverMessage(3, ROUND_INIT);
    const b = serverMessage(3, ROUND_END_TURN);
    const c = serverMessage(3 + RECENT_DECODES, ROUND_END_TURN);
    expect(parsed(a).type).toBe('round-init');
    expect(parsed(b).type).toBe('turn');
    expect(parsed(a).type).toBe('round-init');
    expect(parsed(c).type).toBe('turn');
    expect(decodeTranscriptMessage(c).index).toBe(3 + RECENT_DECODES);
    expect(decodeTranscriptMessage(a).index).toBe(3);
  });

  it('decodes a record afresh once it has changed', () => {
    const message = serverMessage(11, ROUND_INIT);
    expect(parsed(message).type).toBe('round-init');
    message.text = ROUND_END_TURN;
    expect(parsed(message)).toMatchObject({ type: 'turn', immediateReward: -2.5 });
    message.dir = 'c2s';
    const asClient = decodeTranscriptMessage(message);
    expect(asClient.kind === 'data' && asClient.result.ok).toBe(false);
    message.index = 12;
    expect(decodeTranscriptMessage(message).index).toBe(12);
  });

  it('keeps a bounded number of decodes: a record decoded long ago is parsed again', () => {
    const early = serverMessage(5, ROUND_INIT);
    const first = decodeTranscriptMessage(early);
    for (let i = 0; i < RECENT_DECODES; i++) decodeTranscriptMessage(serverMessage(i + 6, ROUND_END_TURN));
    const again = decodeTranscriptMessage(early);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});

/** The machines, seeing each message as a new object: nothing is shared between them. */
const unsharedMachines = rddlsimProtocol.machines.map((machine): ProtocolMachine<unknown> => ({
  role: machine.role,
  initial: () => machine.initial(),
  accept: (state, message) => machine.accept(state, { ...message }),
  finish: (state, last) => machine.finish(state, last),
}));
const unshared = { machines: unsharedMachines, validationScope: rddlsimProtocol.validationScope };

/** A transcript with a damaged message, a message out of order and a message lost. */
function damaged(): Transcript {
  const transcript = loadRecording('sysadmin_inst_mdp__1');
  const messages = transcript.messages.map((message) => ({ ...message }));
  const turn = messages.findIndex((m) => m.dir === 's2c' && m.text?.includes('<turn>'));
  messages[turn]!.text = messages[turn]!.text!.replace('<turn-num>', '<turn-num>x');
  const actions = messages.findIndex((m, i) => i > turn + 10 && m.dir === 'c2s');
  messages[actions]!.text = messages[actions]!.text!.replace('<actions', '<round-request/><x');
  messages.splice(actions + 5, 1);
  messages.forEach((message, index) => (message.index = index));
  return { ...transcript, messages };
}

describe('validation with one decode per message', () => {
  it('finds what machines that share nothing find, in every recording and in a damaged one', () => {
    const transcripts = [...allRecordings().map(([, transcript]) => transcript), damaged()];
    let violations = 0;
    for (const transcript of transcripts) {
      const expected = validateTranscript(transcript, unshared).violations;
      expect(validateTranscript(transcript, rddlsimProtocol).violations).toEqual(expected);
      const fold = new ValidationFold(rddlsimProtocol);
      for (const message of transcript.messages) fold.accept(message);
      expect(fold.finish().violations).toEqual(expected);
      violations += expected.length;
    }
    expect(violations).toBeGreaterThan(3);
  });

  it('reads the same rows with the decodes shared as without', () => {
    const transcript = damaged();
    const shared = rddlsimProtocol.createReader();
    const fold = new ValidationFold(rddlsimProtocol);
    for (const message of transcript.messages) fold.accept(message);
    shared.append(transcript.messages, []);
    const alone = rddlsimProtocol.createReader();
    alone.append(
      transcript.messages.map((message) => ({ ...message })),
      [],
    );
    expect(shared.messages).toEqual(alone.messages);
    expect(shared.rounds).toEqual(alone.rounds);
    expect(shared.messages.some((row) => row.unreadable !== undefined)).toBe(true);
  });
});
